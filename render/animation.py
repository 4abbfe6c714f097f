"""Animated pictures: the :class:`Animation` a replay returns, GIF encoding, the caption strip.

GIF, not WebP: for a 150-ply checkers replay a GIF with one shared palette and transparent
unchanged pixels is about 1 MB and encodes in well under a second, while an animated WebP of the
same frames is larger or several times slower (``python -m bench.bench_pictures``), and every
Discord client animates a GIF attachment (animated WebP attachments are newer and not everywhere).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.base import BACKGROUND, GOLD, HIGHLIGHT, INK, MUTED, font

PALETTE_COLOURS = 255  # one index stays free, for the transparent "unchanged" pixels
STRIP = 64  # height of the caption strip under a replayed board
DESCRIPTION_LIMIT = 1024  # Discord's limit on an attachment's description (alt text)


@dataclass(frozen=True, slots=True)
class Animation:
    """An animated GIF with its file name, alt text and timing (milliseconds a frame)."""

    data: bytes
    filename: str
    description: str
    durations: tuple[int, ...]

    @property
    def frames(self) -> int:
        return len(self.durations)


@dataclass(frozen=True, slots=True)
class Reel:
    """The frames of an animation before encoding (what the benchmarks encode both ways)."""

    frames: list[Image.Image]
    durations: list[int]
    description: str
    filename: str

    def encode(self) -> Animation:
        """The looping GIF of these frames."""
        data = encode_gif(self.frames, self.durations)
        return Animation(data, self.filename, self.description, tuple(self.durations))


def shared_palette(frames: Sequence[Image.Image], samples: int = 3) -> Image.Image:
    """A palette image for every frame, built from the first, middle and last frames."""
    picks = sorted({0, len(frames) // 2, len(frames) - 1})[:samples]
    width = max(frames[i].width for i in picks)
    height = sum(frames[i].height for i in picks)
    sheet = Image.new("RGB", (width, height), BACKGROUND)
    y = 0
    for i in picks:
        sheet.paste(frames[i].convert("RGB"), (0, y))
        y += frames[i].height
    return sheet.quantize(
        colors=PALETTE_COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )


def encode_gif(frames: Sequence[Image.Image], durations: Sequence[int]) -> bytes:
    """Encode RGB frames as a looping GIF: one palette for all, only changed pixels per frame.

    Consecutive identical frames would be merged by the encoder, so callers make every frame
    differ (a replay's caption always does).
    """
    if not frames or len(frames) != len(durations):
        raise ValueError("need one duration per frame, and at least one frame")
    palette = shared_palette(frames)
    indexed = [
        frame.convert("RGB").quantize(palette=palette, dither=Image.Dither.NONE) for frame in frames
    ]
    buffer = io.BytesIO()
    indexed[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=indexed[1:],
        duration=list(durations),
        loop=0,
        optimize=True,  # unchanged pixels become transparent: small frames
        disposal=1,
    )
    return buffer.getvalue()


def caption_strip(
    width: int,
    title: str,
    detail: str = "",
    progress: float | None = None,
    final: bool = False,
) -> Image.Image:
    """The band under a replayed picture: big ``title``, ``detail`` on the right, progress bar."""
    strip = Image.new("RGB", (width, STRIP), BACKGROUND)
    draw = ImageDraw.Draw(strip)
    draw.line((0, 0, width, 0), fill=(30, 31, 34), width=2)
    draw.text((16, 12), title, font=font(24), fill=GOLD if final else INK)
    if detail:
        draw.text((width - 16, 18), detail, font=font(16), fill=MUTED, anchor="ra")
    if progress is not None:
        top, left, right = STRIP - 12, 16, width - 16
        draw.rounded_rectangle((left, top, right, top + 5), radius=2, fill=(64, 68, 75))
        filled = left + round((right - left) * min(max(progress, 0.0), 1.0))
        if filled > left:
            draw.rounded_rectangle((left, top, filled, top + 5), radius=2, fill=HIGHLIGHT)
    return strip


def with_strip(board: Image.Image, strip: Image.Image) -> Image.Image:
    """``board`` with ``strip`` under it (the strip is centred when widths differ)."""
    width = max(board.width, strip.width)
    frame = Image.new("RGB", (width, board.height + strip.height), BACKGROUND)
    frame.paste(board.convert("RGB"), ((width - board.width) // 2, 0))
    frame.paste(strip, ((width - strip.width) // 2, board.height))
    return frame


def fit_description(head: str, tail: str, middle: Sequence[str], sep: str = " ") -> str:
    """``head``, as many of ``middle``'s items as fit, then ``tail``, within Discord's limit.

    When items are left out an ellipsis says so; ``head`` and ``tail`` are always kept.
    """
    room = DESCRIPTION_LIMIT - len(head) - len(tail) - 2
    kept: list[str] = []
    used = 0
    for item in middle:
        if used + len(item) + 1 > room - 2:
            kept.append("…")
            break
        kept.append(item)
        used += len(item) + 1
    body = sep.join(kept)
    return " ".join(part for part in (head, body, tail) if part)[:DESCRIPTION_LIMIT]
