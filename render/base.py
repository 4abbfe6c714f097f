"""What every renderer returns, and the drawing helpers they share."""

from __future__ import annotations

import io
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
    """Encode ``image`` as a PNG. Alt text is cut to Discord's 1024 characters."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=3)  # ~40% faster than 6, ~10% larger
    return Picture(buffer.getvalue(), filename, description[:1024])


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled scalable font at ``size`` pixels (no system font needed)."""
    return ImageFont.load_default(size=size)


# A palette shared by the boards, so the five games look like one bot.
FELT = (24, 92, 62)
FELT_DARK = (17, 70, 47)
INK = (245, 245, 240)
MUTED = (190, 205, 195)
GOLD = (236, 190, 70)
HIGHLIGHT = (255, 214, 90)
BACKGROUND = (43, 45, 49)  # Discord's dark theme, so images sit well in the channel
