"""The catalogues stay in step with the source, and their translations fit the source and
Discord: what ``python -m i18n.catalogues check`` enforces in CI."""

from __future__ import annotations

import ast
import functools
import io
import re
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from i18n import ENGLISH, LANGUAGES, limits
from i18n.catalogues import catalogue_problems, entries, extract, template_problems
from i18n.translations import catalogue_path, read_catalogue
from tests.i18n_support import catalogue

ROOT = Path(__file__).resolve().parent.parent
OTHERS = [language.code for language in LANGUAGES if language is not ENGLISH]


@functools.cache
def source() -> Catalog:
    return extract()


def template_of(items: dict) -> Catalog:
    made = Catalog(domain="parlour", fuzzy=False)
    for (context, msgid), _string in items.items():
        made.add(msgid, context=context)
    return made


@pytest.mark.parametrize("code", OTHERS)
def test_every_catalogue_is_in_step_with_the_source(code):
    assert catalogue_path(code).exists()
    assert list(catalogue_problems(code, read_catalogue(code), source())) == []


def test_the_source_holds_the_refusals_of_the_games_and_the_commands():
    keys = entries(source()).keys()
    assert (None, "It is not your turn.") in keys
    assert (
        None,
        "Write {what:lower} with the digits 0-9 only: `{odd}` is not one of them.",
    ) in keys
    assert (None, "You must follow suit: play one of your spades.") in keys
    assert (limits.NAME, "quarters") in keys and (limits.NAME, "opponent") in keys
    assert (limits.DESCRIPTION, "How to play one of the games.") in keys
    assert (limits.CHOICE, "Checkers") in keys
    assert list(template_problems(source())) == []


def test_each_catalogue_has_its_languages_plural_forms():
    for code in OTHERS:
        assert read_catalogue(code).plural_forms == get_plural(code).plural_forms


def test_the_check_names_what_is_out_of_step():
    template = template_of({(None, "It is not your turn."): "", (None, "New text."): ""})
    stale = catalogue("de", {(None, "It is not your turn."): "", (None, "Old text."): ""})
    problems = list(catalogue_problems("de", stale, template))
    assert any("missing 'New text.'" in p for p in problems)
    assert any("'Old text.' is no longer in the source" in p for p in problems)


def test_the_check_refuses_a_translation_whose_placeholders_differ():
    items = {
        (None, "Pile {pile} is empty."): "Stapel {stapel} ist leer.",
        (None, "{name} wins!"): "{name} gewinnt!",
        (None, ("{n} coin", "{n} coins")): ("eine Münze", "{n} Münzen"),  # {n} may go
        (None, ("{name} took {n}", "{name} took {n} coins")): ("nahm eine", "{name} nahm {n}"),
    }
    problems = list(catalogue_problems("de", catalogue("de", items), template_of(items)))
    assert len(problems) == 2, problems
    assert "placeholders ['stapel'], the source ['pile']" in problems[0]
    assert "'nahm eine' has placeholders [], the source ['n', 'name']" in problems[1]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("Stapel {pile!r}", "may carry only :lower"),
        ("Stapel {pile:>5}", "may carry only :lower"),
        ("Stapel {pile[0]}", "is not a plain name"),
        ("Stapel {pile", "cannot be formatted"),
    ],
)
def test_the_check_refuses_a_placeholder_the_renderer_cannot_fill(text, problem):
    items = {(None, "Pile {pile}"): text}
    (found,) = catalogue_problems("de", catalogue("de", items), template_of(items))
    assert problem in found


def test_the_check_holds_command_strings_to_discords_rules():
    items = {
        (limits.NAME, "start"): "Neues Spiel",
        (limits.NAME, "opponent"): "gegner",
        (limits.NAME, "level"): "ein-sehr-langer-name-fuer-die-spielstaerke",
        (limits.DESCRIPTION, "Which game"): "x" * 101,
        (limits.CHOICE, "Random"): "Zufällig",
        (limits.BUTTON, "Resign"): "Aufgeben",
        (limits.BUTTON, "Offer draw"): "Remis " * 14,
    }
    problems = list(catalogue_problems("de", catalogue("de", items), template_of(items)))
    assert len(problems) == 4, problems
    assert "'Neues Spiel' has a space" in problems[0]
    assert "is 42 characters long (1-32)" in problems[1]
    assert "is 101 characters long (1-100)" in problems[2]
    assert "is 84 characters long (1-80)" in problems[3]


def test_complete_also_refuses_untranslated_and_fuzzy_entries():
    items = {(None, "Pass"): "", (None, "Hint"): "Tipp"}
    made = catalogue("de", items)
    made.add("Resign", "Aufgeben", flags=("fuzzy",))
    template = template_of({**items, (None, "Resign"): ""})
    assert list(catalogue_problems("de", made, template)) == []
    assert sorted(catalogue_problems("de", made, template, complete=True)) == [
        "de: 'Pass' is untranslated",
        "de: 'Resign' is fuzzy",
    ]


def test_the_check_refuses_wrong_plural_forms():
    header = (  # French with English's two forms: "0 pièces", and no form for millions
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n'
    )
    made = read_po(io.BytesIO(header.encode()), locale="fr")
    (problem,) = catalogue_problems("fr", made, template_of({}))
    assert "Plural-Forms is 'nplurals=2; plural=(n != 1);'" in problem


def marked_first_arguments(path: Path):
    """The first argument of every ``IllegalAction(...)`` call in ``path``."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalAction":
            yield node.args[0]


@pytest.mark.parametrize(
    "path", sorted((ROOT / "games").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT))
)
def test_every_refusal_in_the_games_is_a_marked_phrase(path):
    for argument in marked_first_arguments(path):
        # a literal or an f-string would reach the catalogues unmarked or not at all
        assert not isinstance(argument, ast.Constant | ast.JoinedStr | ast.BinOp), (
            f"{path.name}:{argument.lineno}: raise IllegalAction(N_(...)), not a bare string"
        )


@pytest.mark.parametrize("language", LANGUAGES, ids=lambda language: language.code)
def test_every_language_has_a_glossary(language):
    glossary = ROOT / "i18n" / "glossary" / f"{language.code}.md"
    text = glossary.read_text(encoding="utf-8")
    # the same sections as the English one, whose words every glossary translates
    assert text.count("\n## ") >= 8, glossary


# -- the translations themselves ------------------------------------------------------------

# Entries whose translation is rightly the English text: names kept in that language (Kabu,
# Quarters...) and words spelt the same in it.
KEPT_NAMES = {"Kabu", "kabu", "Quarters", "quarters", "Quatorze", "quatorze", "arashi"} | {
    # Kabu's hands keep their Japanese names, written in Japanese script only in Japanese
    *("Buta", "Pin", "Nizo", "Santa", "Yotsuya", "Goke", "Roppo", "Shichiken", "Oicho"),
    *("Shippin", "Kuppin", "Arashi"),
    *(language.name for language in LANGUAGES),  # /settings language: each named in itself
}
SAME_WORD = {
    "ja": set(),
    "fr": {"position", "expert", "standard", "scores", "Scores", "secret", "total", "Total", "six"}
    | {"{n} pt", "{n} pts"},  # a replay's Hearts points, abbreviated as in English
    "de": {"Hearts", "hearts", "hand", "threads"}  # German Discord says "Threads"
    | {"Computer", "Computer ({level})", "Computer {number}", "Computer: {level}"},
    "es": {"color", "total", "Total"},
    "pt_BR": {"replay", "Replay", "total", "Total", "{n} pt", "{n} pts"},
}
# Words of English sentences that no translation holds (outside `code` and {placeholders}).
ENGLISH_WORDS = {"the", "is", "your", "you", "with", "this", "game", "move", "player", "must"}


def prose(text: str) -> str:
    """``text`` without its `code` spans and {placeholders}: the words a member reads."""
    kept = "".join(part for i, part in enumerate(text.split("`")) if i % 2 == 0)
    return "".join(literal for literal, *_rest in string.Formatter().parse(kept))


@pytest.mark.parametrize("code", OTHERS)
def test_every_catalogue_is_complete_in_its_language(code):
    made = read_catalogue(code)
    assert list(catalogue_problems(code, made, source(), complete=True)) == []
    for (_context, msgid), message in entries(made).items():
        english = msgid if isinstance(msgid, tuple) else (msgid,)
        for ours in message.string if isinstance(message.string, tuple) else (message.string,):
            words = set(re.findall(r"[a-z]+", prose(ours).lower()))
            # a plural has as many forms as its language, not English's; a layout of
            # placeholders and signs ("{name} ({side})") has no English word in it
            if ours in english and words:
                assert ours in KEPT_NAMES | SAME_WORD[code], f"{code}: {ours!r} is English"
            assert not words & ENGLISH_WORDS, f"{code}: English left in {ours!r}"


def test_game_terms_follow_each_glossary():
    """Kabu's terms in Japanese script; checkers named as each language's players say it."""
    said = {code: entries(read_catalogue(code)) for code in OTHERS}
    assert said["ja"][(limits.CHOICE, "Kabu")].string == "カブ"
    assert said["ja"][(limits.NAME, "arashi")].string == "アラシ"
    assert said["ja"][("kabu hand", "Shippin")].string == "シッピン"
    assert said["ja"][("kabu hand", "Kuppin")].string == "クッピン"
    for code, word in (("fr", "Dames"), ("de", "Dame"), ("es", "Damas"), ("pt_BR", "Damas")):
        assert said[code][(limits.CHOICE, "Checkers")].string == word
    for code, rules in (("fr", "dames anglaises"), ("de", "englischen"), ("es", "inglesas")):
        description = said[code][(limits.DESCRIPTION, "Checkers (English draughts) for two.")]
        assert rules in description.string.lower()
