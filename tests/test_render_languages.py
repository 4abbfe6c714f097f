"""Text in pictures in every language: each letter drawn in a font that has it."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.base import WIDE_FONT, draw_text, face, needs_wide, text_width, wrap_text


def drawn(text: str, size: int = 24) -> Image.Image:
    image = Image.new("L", (600, 60))
    draw_text(ImageDraw.Draw(image), (4, 8), text, size, fill=255)  # type: ignore[arg-type]
    return image


def test_the_wide_font_is_installed():
    assert WIDE_FONT.exists(), "install Debian's fonts-noto-cjk"


def test_letters_the_bundled_font_lacks_are_drawn_in_the_wide_font():
    for text in ("カブ", "アラシ", "Straße", "Não há", "à jouer", "1\u202f200"):
        assert needs_wide(text), text
        assert face(24, text).getname()[0].startswith("Noto Sans CJK"), text
    for text in ("Pile 2 is empty.", "Le tas 2 est vide.", "Haufen 2 ist leer."):
        assert not needs_wide(text), text


def test_each_character_is_a_glyph_not_a_missing_box():
    """Two different kana draw two different shapes: a font without them draws the same box."""
    one, two = drawn("カ"), drawn("ブ")
    assert one.getbbox() is not None and one.tobytes() != two.tobytes()


def test_japanese_wraps_between_characters_and_keeps_punctuation_on_its_line():
    text = "ほかのカードがあるうちは、最初のトリックにハートもスペードのクイーンも出せません。"
    lines = wrap_text(text, 18, 160, 8)
    assert len(lines) > 1 and "".join(lines) == text
    assert all(text_width(line, 18) <= 160 for line in lines)
    assert not any(line.startswith(("、", "。")) for line in lines)


def test_the_quarters_and_checkers_alt_texts_are_in_the_pictures_language():
    from games.checkers import State as Checkers
    from games.quarters import State as Quarters
    from render.checkers import render_checkers
    from render.quarters import render_quarters

    quarters = Quarters.new((3, 5, 7))
    quarters.apply(0, "3-2")
    german = render_quarters(quarters.view(1), lang="de").description
    assert german.startswith("Quarters mit 3 Münzen auf Haufen 1, 5 Münzen auf Haufen 2 und ")
    assert "Der letzte Zug nahm 2 vom Haufen 3." in german
    checkers = Checkers.new("B:W14,23,K30,20:B9,K1,5,6")
    checkers.apply(0, "9x18x27")
    japanese = render_checkers(checkers.view(1), lang="ja").description
    assert japanese.startswith("赤の番です。") and "前の手は9x18x27（14,23を取った）。" in japanese
    assert "b: 5,6,27." in japanese  # the pieces' letters are notation, the same everywhere


def test_the_quatorze_grid_and_its_alt_text_name_cards_in_the_pictures_language():
    from games.quatorze import State as Quatorze
    from render.quatorze import render_quatorze

    state = Quatorze.new(seed=5)
    french = render_quatorze(state.view(0), lang="fr").description
    assert french.startswith("Quatorze, score 0 sur 52, ") and "Ligne 1 : case 1 : " in french
    assert " de " in french and " of " not in french  # "dame de pique", never "queen of"
    spanish = render_quatorze(state.view(0), lang="es").description
    assert "Parejas: " in spanish and " y " in spanish


def _drawn_texts(draw) -> list[str]:
    from render.base import text_boxes

    with text_boxes() as boxes:
        draw()
    return [box.text for box in boxes]


def test_a_replay_speaks_the_tables_language_in_its_captions_and_alt_text():
    from render.hearts_replay import hearts_hand_reel
    from render.replay import checkers_reel, quarters_reel
    from render.samples import sample_hearts

    resigned = {"winners": [1], "termination": "resign"}
    checkers = checkers_reel(["11-15", "22-18"], names=("Ann", "Bob"), outcome=resigned, lang="de")
    assert checkers.description.startswith(
        "Wiederholung einer Partie Dame, Ann (Schwarz) gegen Bob (Rot), 2 Züge. "
        "Bob (Rot) gewinnt: Schwarz hat aufgegeben."
    )
    assert "Zug 1 · Schwarz 11-15" in _drawn_texts(lambda: checkers.draw(1))
    last = _drawn_texts(lambda: checkers.draw(3))
    assert "Bob (Rot) gewinnt: Schwarz hat aufgegeben" in last and "Endstellung · 2 Züge" in last
    quarters = quarters_reel([3, 4], ["1-3", "2-3"], names=("Ann", "Bob"), lang="ja")
    assert quarters.description.startswith("クォーターズの対局のリプレイ、Ann 対 Bob、")
    assert "1手目・Annが山1から3枚取る" in _drawn_texts(lambda: quarters.draw(0))
    hearts = hearts_hand_reel(sample_hearts(), 2, ["Ann", "Bob", "Cy", "Di"], lang="es")
    assert hearts.description.startswith("Repetición de la ronda 2 de Corazones, boca arriba, ")
    assert " de " in hearts.description and " of " not in hearts.description  # cards in words
    scores = _drawn_texts(lambda: hearts.draw(len(hearts.durations) - 1))
    assert "Puntos de la ronda 2" in scores and "ronda" in scores and "total" in scores


def test_the_charts_dates_and_numbers_are_the_languages_own():
    from render.charts import rating_chart, stats_chart, time_ticks

    day = 86400.0
    start = 1_767_225_600.0  # 1 Jan 2026, 00:00 UTC
    assert [label for _, label in time_ticks(start, start + 9 * day, 3, "fr")][:2] == [
        "1 janv.",
        "8 janv.",
    ]
    assert time_ticks(start, start + 9 * day, 3, "ja")[0][1] == "1月1日"
    assert time_ticks(start, start + 9 * day, 3, "en")[0][1] == "Jan 1"
    assert time_ticks(start, start + 300 * day, 4, "de")[0][1] == "Apr. 2026"
    assert time_ticks(start, start + 7200.0, 3, "en")[0][1] == "12:00\u202fAM"
    series = {"HQ": [(start, 1216.0), (start + 5 * day, 1190.5)]}
    german = rating_chart(series, lang="de")
    assert german.description.startswith("Elo-Wertung Dame. HQ: 2 gewertete Partien vom ")
    assert "1190,5" in german.description  # Babel's decimal sign
    texts = _drawn_texts(lambda: rating_chart(series, lang="pt_BR"))
    assert "Rating Elo nas damas" in texts and "agora 1190,5 · 2 partidas" in texts
    rows = [("Checkers", 3, 1)]
    spanish = stats_chart("Ann", {}, rows, lang="es")
    assert "Partidas jugadas y ganadas: Checkers: jugadas 3, ganadas 1." in spanish.description
    drawn = _drawn_texts(lambda: stats_chart("Ann", {}, [], lang="es"))
    assert "Aún no hay partidas terminadas" in drawn and "jugadas" in drawn
