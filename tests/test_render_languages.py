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
