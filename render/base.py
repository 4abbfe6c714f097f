"""What every renderer returns, and the drawing helpers they share.

Every text a picture shows is drawn through :func:`draw_text` (or noted with :func:`note_box`
where it is drawn into a sprite), so a test can record each text's box as drawn, with its font
size, and check that no text overlaps another, leaves its area, or is too small on a phone.
"""

from __future__ import annotations

import io
import logging
import math
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache, partial
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

log = logging.getLogger("parlour.render")

Box = tuple[float, float, float, float]
"""left, top, right, bottom, in a picture's pixels."""
Colour = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Picture:
    """A rendered PNG with its file name and alt text (the attachment's description)."""

    png: bytes
    filename: str
    description: str


def to_picture(image: Image.Image, filename: str, description: str) -> Picture:
    """Encode ``image`` as a palette PNG. Alt text is cut to Discord's 1024 characters.

    Quantized to at most 256 colours (fast octree, which keeps an alpha channel), the pictures
    are about a third of the bytes of an RGB PNG and take 0.5-0.85 of its CPU time, quantizing
    included (``python -m bench.perf.png``).
    """
    buffer = io.BytesIO()
    source = image if image.mode in ("RGB", "RGBA") else image.convert("RGBA")
    source.quantize(256, method=Image.Quantize.FASTOCTREE).save(
        buffer, format="PNG", compress_level=3
    )
    return Picture(buffer.getvalue(), filename, description[:1024])


# -- legibility ---------------------------------------------------------------------------------

PHONE_WIDTH = 328
"""The widest a phone shows a picture in a channel, in CSS pixels: a 390 px wide phone leaves
a message's content column about 330 px (the playground's phone layout: 390 less the 52 px
avatar gutter and 10 px of padding). A narrower picture is shown at its own width."""
MIN_PHONE_TEXT = 11
"""The smallest font size (CSS pixels) any text may have as a phone shows its picture."""


def shown_size(size: float, image_width: int) -> float:
    """The size of ``size``-pixel text once an ``image_width``-wide picture is on a phone.

    >>> shown_size(18, 656), shown_size(12, 300)
    (9.0, 12.0)
    """
    return size * min(image_width, PHONE_WIDTH) / image_width


def legible_size(image_width: int) -> int:
    """The smallest whole font size that is legible in an ``image_width``-wide picture.

    >>> legible_size(328), legible_size(512), legible_size(200)
    (11, 18, 11)
    """
    return math.ceil(MIN_PHONE_TEXT * max(image_width, PHONE_WIDTH) / PHONE_WIDTH - 1e-9)


@dataclass(frozen=True, slots=True)
class TextBox:
    """One text as drawn: its box and font size in the picture's pixels, and the area it must
    stay inside (``None``: the whole picture)."""

    text: str
    box: Box
    size: float
    within: Box | None = None


_boxes: ContextVar[list[TextBox] | None] = ContextVar("text_boxes", default=None)
_origin: ContextVar[tuple[float, float]] = ContextVar("text_origin", default=(0.0, 0.0))


@contextmanager
def text_boxes() -> Iterator[list[TextBox]]:
    """Record every text drawn inside the block (for the legibility tests).

    >>> with text_boxes() as boxes:
    ...     draw_text(ImageDraw.Draw(Image.new("RGB", (90, 30))), (4, 4), "Hi", 18)
    >>> [(b.text, b.size) for b in boxes]
    [('Hi', 18)]
    """
    boxes: list[TextBox] = []
    token = _boxes.set(boxes)
    try:
        yield boxes
    finally:
        _boxes.reset(token)


def recording() -> bool:
    """Whether a :func:`text_boxes` block is recording (drawing costs nothing extra if not)."""
    return _boxes.get() is not None


@contextmanager
def placed(x: float, y: float) -> Iterator[None]:
    """Texts noted inside the block are drawn on an image that will sit at (x, y) of the
    picture: their boxes are moved there."""
    ox, oy = _origin.get()
    token = _origin.set((ox + x, oy + y))
    try:
        yield
    finally:
        _origin.reset(token)


def note_box(text: str, box: Box, size: float, within: Box | None = None) -> None:
    """Record ``text`` drawn in ``box`` at font ``size`` (both in the current image's pixels)."""
    boxes = _boxes.get()
    if boxes is None:
        return
    ox, oy = _origin.get()
    left, top, right, bottom = box
    moved = (left + ox, top + oy, right + ox, bottom + oy)
    area = None
    if within is not None:
        area = (within[0] + ox, within[1] + oy, within[2] + ox, within[3] + oy)
    boxes.append(TextBox(text, moved, size, area))


def note_drawn(
    xy: tuple[float, float], text: str, size: int, anchor: str = "la", within: Box | None = None
) -> None:
    """Record ``text`` drawn at ``xy`` with ``anchor`` at ``size`` pixels into a layer drawn
    once (what :func:`draw_text` records when it draws)."""
    if recording():
        left, top, right, bottom = face(size, text).getbbox(text, anchor=anchor)
        x, y = xy
        note_box(text, (x + left, y + top, x + right, y + bottom), size, within)


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: Colour | tuple[int, int, int, int] = (245, 245, 240),
    *,
    anchor: str = "la",
    within: Box | None = None,
    stroke_width: int = 0,
    stroke_fill: Colour | None = None,
) -> None:
    """Draw ``text`` at ``size`` pixels in its font (:func:`face`), and note its box."""
    typeface = face(size, text)
    draw.text(
        xy,
        text,
        fill=fill,
        font=typeface,
        anchor=anchor,
        stroke_width=stroke_width,
        stroke_fill=stroke_fill,
    )
    if recording():
        box = draw.textbbox(xy, text, font=typeface, anchor=anchor, stroke_width=stroke_width)
        note_box(text, box, size, within)


def text_width(text: str, size: int) -> float:
    """How wide ``text`` is drawn at ``size`` pixels (its advance, as Pillow's ``getlength``).

    The bundled font's advances are whole pixels and nothing is kerned across a space, so a
    line is as wide as its words and spaces, each measured once (FreeType lays out a glyph in
    about 2.5 microseconds, a long line in a millisecond). A text the bundled font cannot draw
    is measured, like it is drawn, in the wide font (:func:`face`).

    >>> text_width("Moves: 1. 11-15 23-19", 18) == face(18).getlength("Moves: 1. 11-15 23-19")
    True
    """
    wide = needs_wide(text)
    if " " not in text:
        return word_width(text, size, wide)
    return _line_width(text, size, wide)


@lru_cache(maxsize=8192)
def _line_width(text: str, size: int, wide: bool) -> float:
    words = text.split(" ")
    gaps = (len(words) - 1) * word_width(" ", size, wide)
    return sum(word_width(word, size, wide) for word in words) + gaps


@lru_cache(maxsize=8192)
def word_width(word: str, size: int, wide: bool | None = None) -> float:
    """How wide ``word`` is drawn at ``size`` pixels (in the wide font if ``wide``; by
    default, in the font ``word`` itself needs)."""
    return font(size, needs_wide(word) if wide is None else wide).getlength(word)


def fit_text(text: str, size: int, width: float) -> str:
    """``text`` cut with an ellipsis so that it is at most ``width`` pixels wide at ``size``.

    >>> fit_text("Seat 1", 18, 500)
    'Seat 1'
    >>> short = fit_text("a name far too long to fit in a narrow column", 18, 120)
    >>> short.endswith("…") and face(18).getlength(short) <= 120
    True
    """
    measure = partial(text_width, size=size)
    if measure(text) <= width:
        return text
    while text and measure(text.rstrip() + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap_text(text: str, size: int, width: float, lines: int) -> list[str]:
    """``text`` broken between words into at most ``lines`` lines of at most ``width`` pixels
    at ``size``; what does not fit ends the last line with an ellipsis.

    >>> wrap_text("Ann (Black) wins: Red resigned", 18, 160, 2)
    ['Ann (Black) wins:', 'Red resigned']
    >>> wrap_text("Ann (Black) wins: Red resigned", 18, 160, 1)
    ['Ann (Black) wins:…']
    """
    measure = partial(text_width, size=size)
    out: list[str] = []
    words, gap = _units(text)
    while words and len(out) < lines:
        line = words.pop(0)
        while words and measure(f"{line}{gap}{words[0]}") <= width:
            line = f"{line}{gap}{words.pop(0)}"
        out.append(line)
    if words:
        out[-1] = fit_text(f"{out[-1]}{gap}{gap.join(words)}", size, width)
    return [fit_text(line, size, width) for line in out]


def wrap_whole(text: str, size: int, width: float) -> list[str]:
    """``text`` broken into as many lines of at most ``width`` pixels at ``size`` as it needs,
    never cut: between words (between characters in Japanese), and a word wider than a whole
    line between its characters.

    >>> wrap_whole("Gespielte und gewonnene Partien", 18, 160)
    ['Gespielte und', 'gewonnene Partien']
    >>> wrap_whole("WWWWWWWW · rating", 18, 80)
    ['WWWW', 'WWWW ·', 'rating']
    """
    measure = partial(text_width, size=size)
    words, gap = _units(text)
    pieces: list[str] = []
    for word in words:
        while len(word) > 1 and measure(word) > width:
            cut = next((i for i in range(len(word) - 1, 0, -1) if measure(word[:i]) <= width), 1)
            pieces.append(word[:cut])
            word = word[cut:]
        pieces.append(word)
    lines: list[str] = []
    for piece in pieces:
        if lines and measure(f"{lines[-1]}{gap}{piece}") <= width:
            lines[-1] = f"{lines[-1]}{gap}{piece}"
        else:
            lines.append(piece)
    return lines


# Where a line may break in a text without spaces (Japanese): after any character, but not
# before closing punctuation and small kana, nor inside a run of Latin letters or digits.
_CLOSING = "」』）。、！？：ぁぃぅぇぉっゃゅょァィゥェォッャュョー"
_UNIT = re.compile(rf"[A-Za-z0-9`{{}}().,:;!?'\-]+[{_CLOSING}]*|\S[{_CLOSING}]*")


def _units(text: str) -> tuple[list[str], str]:
    """The pieces ``text`` may be broken between, and what joins two of them on a line."""
    if " " in text.strip() or not needs_wide(text):
        return text.split(), " "
    return _UNIT.findall(text), ""


# -- fonts --------------------------------------------------------------------------------------

WIDE_FONT = Path(
    os.environ.get("PARLOUR_WIDE_FONT", "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
)
"""Noto Sans CJK (Debian's package fonts-noto-cjk): Latin with every accent, kana and kanji,
for any text the bundled font cannot draw. Its first face is the Japanese one."""
_PROBE = 24  # the size a character is tried at


@lru_cache(maxsize=4096)
def _bundled_has(char: str) -> bool:
    if " " <= char <= "~":
        return True
    bundled = font(_PROBE, False)
    missing = bundled.getmask("\U0010fff0")
    mask = bundled.getmask(char)
    return (mask.size, bytes(mask)) != (missing.size, bytes(missing))


@lru_cache(maxsize=8192)
def needs_wide(text: str) -> bool:
    """True when Pillow's bundled font lacks a character of ``text`` (kana, ß, ã, a narrow
    no-break space...): it is drawn in :data:`WIDE_FONT` instead, as a whole.

    >>> [needs_wide(text) for text in ("Pile 2", "Haufen 2 ist leer.", "Straße", "山")]
    [False, False, True, True]
    """
    return not all(_bundled_has(char) for char in text)


def face(size: int, text: str = "") -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The font ``text`` is drawn in at ``size`` pixels: Pillow's bundled one, or the wide
    one when ``text`` needs it (:func:`needs_wide`)."""
    return font(size, needs_wide(text))


@lru_cache(maxsize=128)
def font(size: int, wide: bool) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    if wide:
        try:
            return ImageFont.truetype(str(WIDE_FONT), size, index=0)
        except OSError:
            log.warning("no font %s (fonts-noto-cjk): some letters show as boxes", WIDE_FONT)
    return ImageFont.load_default(size=size)


# A palette shared by the boards, so the five games look like one bot.
FELT = (24, 92, 62)
FELT_DARK = (17, 70, 47)
INK = (245, 245, 240)
MUTED = (190, 205, 195)
GOLD = (236, 190, 70)
HIGHLIGHT = (255, 214, 90)
BACKGROUND = (43, 45, 49)  # Discord's dark theme, so images sit well in the channel
