"""What every renderer returns, and the drawing helpers they share."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageFont


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


PHONE_WIDTH = 400
"""How wide a phone shows an image in a channel, in CSS pixels."""
MIN_PHONE_TEXT = 11
"""The smallest font size (pixels) any text may have once its image is shown PHONE_WIDTH wide."""

_text_sizes: ContextVar[list[float] | None] = ContextVar("text_sizes", default=None)


def note_text(size: float) -> None:
    """Record that text ``size`` pixels tall (font size, in the final image) is being drawn.

    :func:`font` does it for every face it hands out; sprites drawn supersampled from
    :func:`face` call it with their size in the final image.
    """
    sizes = _text_sizes.get()
    if sizes is not None:
        sizes.append(size)


@contextmanager
def text_sizes() -> Iterator[list[float]]:
    """Collect the font sizes of all text drawn inside the block (for the legibility test).

    >>> with text_sizes() as sizes:
    ...     _ = font(18)
    >>> sizes
    [18]
    """
    sizes: list[float] = []
    token = _text_sizes.set(sizes)
    try:
        yield sizes
    finally:
        _text_sizes.reset(token)


def phone_text_size(size: float, image_width: int) -> float:
    """The size of ``size``-pixel text once an ``image_width``-wide image is shown on a phone."""
    return size * PHONE_WIDTH / max(image_width, PHONE_WIDTH)


def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled scalable font at ``size`` pixels, for text drawn at final size."""
    note_text(size)
    return face(size)


def fit_text(text: str, size: int, width: float) -> str:
    """``text`` cut with an ellipsis so that it is at most ``width`` pixels wide at ``size``.

    >>> fit_text("Seat 1", 18, 500)
    'Seat 1'
    >>> short = fit_text("a name far too long to fit in a narrow column", 18, 120)
    >>> short.endswith("…") and face(18).getlength(short) <= 120
    True
    """
    measure = face(size).getlength
    if measure(text) <= width:
        return text
    while text and measure(text + "…") > width:
        text = text[:-1]
    return text + "…"


@lru_cache(maxsize=64)
def face(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The same font, unrecorded: for supersampled sprites, which note their final size."""
    return ImageFont.load_default(size=size)


# A palette shared by the boards, so the five games look like one bot.
FELT = (24, 92, 62)
FELT_DARK = (17, 70, 47)
INK = (245, 245, 240)
MUTED = (190, 205, 195)
GOLD = (236, 190, 70)
HIGHLIGHT = (255, 214, 90)
BACKGROUND = (43, 45, 49)  # Discord's dark theme, so images sit well in the channel
