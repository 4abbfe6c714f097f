"""Lazy messages: marked once, rendered in each reader's language, English by default."""

from __future__ import annotations

import datetime as dt
import logging
import pickle

import discord
import pytest

from games.base import N_, IllegalAction, Nn_, OneOf, Spoken
from i18n import ENGLISH, LANGUAGES, _, _n, _np, _p, lines, message_of, render, resolve, sentences
from i18n.formats import Date, DateTime, Duration, Listing, Number, Percent, Time
from tests.i18n_support import catalogue, catalogues

TOOK = "{name} took {count} from pile {pile}."


def test_a_message_is_a_value_whose_str_is_english():
    message = _(TOOK, name="Alice", count=3, pile=2)
    assert str(message) == "Alice took 3 from pile 2."
    assert message == _(TOOK, pile=2, count=3, name="Alice")
    assert hash(message) == hash(_(TOOK, pile=2, count=3, name="Alice"))
    assert message != _(TOOK, name="Bob", count=3, pile=2)
    with pytest.raises(AttributeError):
        message.msgid = "changed"  # type: ignore[misc]


@pytest.mark.parametrize("bad", [True, None, object(), [1, 2], dt.date(2025, 3, 5)])
def test_a_parameter_is_a_string_a_number_or_a_message(bad):
    with pytest.raises(TypeError, match="parameter pile="):
        _("Pile {pile} is empty.", pile=bad)


def test_a_message_renders_in_its_readers_language(monkeypatch):
    ja = catalogue("ja", {(None, TOOK): "{name}さんが{pile}番の山から{count}枚取りました。"})
    de = catalogue("de", {(None, TOOK): "{name} nahm {count} vom Stapel {pile}."})
    message = _(TOOK, name="Alice", count=1200, pile=2)
    with catalogues(monkeypatch, ja=ja, de=de):
        assert render(message, "ja") == "Aliceさんが2番の山から1,200枚取りました。"
        assert render(message, "de") == "Alice nahm 1.200 vom Stapel 2."
        assert render(message, "fr") == "Alice a pris 1\u202f200 dans le tas 2."  # the real one
        assert render(message, "en-GB") == str(message) == "Alice took 1,200 from pile 2."


def test_plural_forms_follow_each_language(monkeypatch):
    coins = ("{n} coin", "{n} coins")
    fr = catalogue("fr", {(None, coins): ("{n} pièce", "{n} de pièces", "{n} pièces")})
    ja = catalogue("ja", {(None, coins): ("{n}枚",)})
    with catalogues(monkeypatch, fr=fr, ja=ja):
        assert [render(_n(*coins, n), "fr") for n in (0, 1, 2, 1_000_000)] == [
            "0 pièce",
            "1 pièce",
            "2 pièces",
            "1\u202f000\u202f000 de pièces",
        ]
        assert [render(_n(*coins, n), "ja") for n in (1, 5)] == ["1枚", "5枚"]
        assert [render(_n(*coins, n), "en") for n in (1, 5)] == ["1 coin", "5 coins"]


def test_a_context_tells_one_english_word_from_another(monkeypatch):
    de = catalogue(
        "de",
        {("button", "Pass"): "Passen", ("hearts", "Pass"): "Weitergeben", (None, "Pass"): "Pass"},
    )
    with catalogues(monkeypatch, de=de):
        assert render(_p("button", "Pass"), "de") == "Passen"
        assert render(_p("hearts", "Pass"), "de") == "Weitergeben"
        assert render(_np("hearts", "Pass {n} card", "Pass {n} cards", 3), "de") == "Pass 3 cards"


def test_whatever_is_not_translated_reads_english(monkeypatch):
    coins = ("{n} coin", "{n} coins")
    fr = catalogue("fr", {(None, "It is not your turn."): "", (None, coins): ("{n} pièce", "", "")})
    fr.add("The game is over.", "La partie est finie.", flags=("fuzzy",))
    with catalogues(monkeypatch, fr=fr):
        assert render(_("It is not your turn."), "fr") == "It is not your turn."
        assert render(_("The game is over."), "fr") == "The game is over."  # fuzzy: unsure
        assert render(_n(*coins, 2), "fr") == "2 coins"  # a plural form is missing


@pytest.mark.parametrize(
    "translation", ["Pile {stapel} ist leer.", "Pile {pile.__class__} ist leer.", "Stapel {"]
)
def test_a_translation_with_wrong_placeholders_reads_english(monkeypatch, caplog, translation):
    de = catalogue("de", {(None, "Pile {pile} is empty."): translation})
    with catalogues(monkeypatch, de=de), caplog.at_level(logging.WARNING, "parlour.i18n"):
        assert render(_("Pile {pile} is empty.", pile=2), "de") == "Pile 2 is empty."
    assert "bad translation" in caplog.text


def test_nested_messages_render_in_the_same_language(monkeypatch):
    outer = "{what} cannot be negative."
    de = catalogue(
        "de", {(None, outer): "{what} darf nicht negativ sein.", (None, "A pile"): "Ein Stapel"}
    )
    with catalogues(monkeypatch, de=de):
        message = _(outer, what=_("A pile"))
        assert render(message, "de") == "Ein Stapel darf nicht negativ sein."
        assert str(message) == "A pile cannot be negative."
        assert str(_("Write {what:lower} with digits.", what=_("A pile"))) == (
            "Write a pile with digits."
        )


def test_lines_and_sentences_join_whole_texts(monkeypatch):
    over, wins = "The game is over.", "{name} wins!"
    ja = catalogue("ja", {(None, over): "ゲーム終了。", (None, wins): "{name}さんの勝ち！"})
    both = sentences(_(over), _(wins, name="Alice"))
    with catalogues(monkeypatch, ja=ja):
        assert render(both, "ja") == "ゲーム終了。Aliceさんの勝ち！"  # no space between
        assert render(both, "en") == "The game is over. Alice wins!"
        assert render(lines(_(over), None, "`11-15`"), "ja") == "ゲーム終了。\n`11-15`"


def test_numbers_dates_and_lists_follow_the_locale():
    day = dt.date(2025, 3, 5)
    cases = {
        "en-US": ("1,234.5", "25%", "Mar 5, 2025", "3 minutes", "Alice, Bob, and Carol"),
        "en-GB": ("1,234.5", "25%", "5 Mar 2025", "3 minutes", "Alice, Bob and Carol"),
        "de": ("1.234,5", "25\xa0%", "05.03.2025", "3 Minuten", "Alice, Bob und Carol"),
        "ja": ("1,234.5", "25%", "2025/03/05", "3 分", "Alice、Bob、Carol"),
    }
    names = Listing(("Alice", "Bob", "Carol"))
    for code, expected in cases.items():
        got = (
            render(_("{x}", x=Number(1234.5, 1)), code),
            render(_("{x}", x=Percent(0.25)), code),
            render(_("{x}", x=Date(day)), code),
            render(_("{x}", x=Duration(dt.timedelta(minutes=3))), code),
            render(names, code),
        )
        assert got == expected, code


def test_times_of_day_and_moments_follow_the_locale():
    moment = dt.datetime(2025, 3, 5, 15, 5, tzinfo=dt.UTC)
    assert render(_("{t}", t=Time(moment)), "en-US") == "3:05\u202fPM"
    assert render(_("{t}", t=Time(moment)), "fr") == "15:05"
    assert render(_("{t}", t=DateTime(moment, "short")), "de") == "05.03.25, 15:05"
    assert render(_("{t}", t=DateTime(moment, "short")), "pt-BR") == "05/03/2025 15:05"


def test_every_discord_locale_resolves_to_a_language_of_ours_or_english():
    ours = {
        "en-US": "en",
        "en-GB": "en",
        "ja": "ja",
        "fr": "fr",
        "de": "de",
        "es-ES": "es",
        "es-419": "es",
        "pt-BR": "pt_BR",
    }
    for locale in discord.Locale:
        resolved = resolve(str(locale))
        assert resolved.language.code == ours.get(str(locale), "en"), locale
        assert resolved.formats.language == resolved.language.code.split("_")[0]
    assert str(resolve("es-419").formats) == "es_419"
    assert str(resolve("pt_BR").formats) == "pt_BR"
    assert resolve("tlh").language is ENGLISH and str(resolve("tlh").formats) == "en"
    assert {language.code for language in LANGUAGES} == set(ours.values())


def test_a_refusal_keeps_its_english_and_its_parameters():
    exc = IllegalAction(N_("Take 1 to {most} coins from pile {pile}.", most=4, pile=2))
    assert str(exc) == "Take 1 to 4 coins from pile 2."
    again = pickle.loads(pickle.dumps(exc))  # as it crosses the AI's process pool
    assert isinstance(again, IllegalAction) and again.phrase == exc.phrase
    assert message_of(exc.phrase) == _("Take 1 to {most} coins from pile {pile}.", most=4, pile=2)
    assert str(IllegalAction("Levels are {a, b}.")) == "Levels are {a, b}."  # plain: as it is


def test_a_bots_refusal_names_a_game_in_the_readers_words():
    """A bot's refusal may carry an i18n message (a game's name): a ``Spoken`` parameter,
    English in ``str()``, in the reader's words when rendered, and picklable."""
    game = _p("command choice", "Checkers")
    assert isinstance(game, Spoken)
    exc = IllegalAction(N_("No game of {game} is running in this channel.", game=game))
    assert str(exc) == "No game of Checkers is running in this channel."
    assert render(exc.phrase, "de") == "In diesem Kanal läuft keine Partie Dame."
    assert pickle.loads(pickle.dumps(exc)).phrase == exc.phrase


def test_a_refusal_renders_through_the_catalogue(monkeypatch):
    template = "`{move}` is ambiguous: it could be {options}."
    fr = catalogue("fr", {(None, template): "`{move}` est ambigu : ce peut être {options}."})
    phrase = N_(template, move="9x27", options=OneOf(("`9x18x27`", "`9x16x27`")))
    with catalogues(monkeypatch, fr=fr):
        assert render(phrase, "fr") == "`9x27` est ambigu : ce peut être `9x18x27` ou `9x16x27`."
    assert render(phrase, "en") == str(phrase) == str(IllegalAction(phrase))
    assert str(Nn_("{n} coin", "{n} coins", 1)) == render(Nn_("{n} coin", "{n} coins", 1), "ja")


def test_an_unreadable_catalogue_reads_english(monkeypatch, tmp_path, caplog):
    from i18n import translations as module

    monkeypatch.setattr(module, "LOCALES", tmp_path)  # no catalogue there
    module.translations.cache_clear()
    try:
        with caplog.at_level(logging.ERROR, "parlour.i18n"):
            assert render(_("It is not your turn."), "de") == "It is not your turn."
        assert "cannot read the de catalogue" in caplog.text
    finally:
        module.translations.cache_clear()


def test_preload_reads_every_catalogue_once():
    from i18n.translations import preload, translations

    translations.cache_clear()
    preload()
    assert translations.cache_info().currsize == len(LANGUAGES)
    preload()
    assert translations.cache_info().misses == len(LANGUAGES)


def test_a_message_said_again_reads_the_catalogue_it_is_said_with(monkeypatch):
    said = _("Pile {pile} is empty.", pile=2)
    assert render(said, "de") == "Haufen 2 ist leer."  # kept, as said with the real catalogue
    de = catalogue("de", {(None, "Pile {pile} is empty."): "Stapel {pile} ist leer."})
    with catalogues(monkeypatch, de=de):
        assert render(said, "de") == "Stapel 2 ist leer."
    assert render(said, "de") == "Haufen 2 ist leer."


class _Unhashable:
    """A localizable parameter that cannot be a dictionary key."""

    __hash__ = None  # type: ignore[assignment]

    def localize(self, locale):  # type: ignore[no-untyped-def]
        return locale.language.code


def test_a_message_with_a_parameter_that_cannot_be_kept_is_said_each_time():
    said = _("Pile {pile} is empty.", pile=_Unhashable())  # type: ignore[arg-type]
    assert render(said, "de") == "Haufen de ist leer."
    assert render(said, "fr") == render(_("Pile {pile} is empty.", pile="fr"), "fr")


def test_the_messages_kept_are_bounded(monkeypatch):
    from i18n import messages

    monkeypatch.setattr(messages, "SAID_KEPT", 8)
    monkeypatch.setattr(messages, "_said", {})
    for pile in range(20):
        assert render(_("Pile {pile} is empty.", pile=pile), "de") == f"Haufen {pile} ist leer."
    assert len(messages._said) == 8


def test_threads_saying_messages_at_once_keep_the_kept_ones_whole(monkeypatch):
    from concurrent.futures import ThreadPoolExecutor

    from i18n import messages

    monkeypatch.setattr(messages, "SAID_KEPT", 4)
    monkeypatch.setattr(messages, "_said", {})

    def say(start: int) -> list[str]:
        return [render(_("Pile {pile} is empty.", pile=n), "de") for n in range(start, start + 500)]

    with ThreadPoolExecutor(4) as pool:
        said = list(pool.map(say, (0, 1000, 2000, 3000)))
    assert said[2][7] == "Haufen 2.007 ist leer."
    assert len(messages._said) <= 4
