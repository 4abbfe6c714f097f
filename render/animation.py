"""Animated pictures: the :class:`Animation` a replay returns, GIF encoding, the caption strip.

GIF, not WebP: for a 150-ply checkers replay a GIF with one shared palette and transparent
unchanged pixels is about 1 MB and encodes in well under a second, while an animated WebP of the
same frames is larger or several times slower (``python -m bench.perf.pictures``), and every
Discord client animates a GIF attachment (animated WebP attachments are newer and not everywhere).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.base import (
    BACKGROUND,
    GOLD,
    HIGHLIGHT,
    INK,
    MUTED,
    draw_text,
    legible_size,
    needs_wide,
    placed,
    wrap_text,
)

PALETTE_COLOURS = 255  # one index stays free, for the transparent "unchanged" pixels
DESCRIPTION_LIMIT = 1024  # Discord's limit on an attachment's description (alt text)
PAD = 16  # the caption strip's margin left and right
TOP, BAR, BOTTOM = 9, 5, 9  # above the title; the progress bar; under it
LINES = 2  # the most lines a title, or a detail, may take


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
    """An animation before encoding: frame ``i`` is drawn on demand by ``draw(i)``, so a long
    replay never holds all its frames in full colour at once.

    ``samples`` are extra pictures whose colours the shared palette must hold (a piece or a
    highlight that the first and last frames may not show).
    """

    draw: Callable[[int], Image.Image]
    durations: tuple[int, ...]
    description: str
    filename: str
    samples: tuple[Image.Image, ...] = ()

    def frames(self) -> Iterator[Image.Image]:
        return (self.draw(i) for i in range(len(self.durations)))

    def encode(self) -> Animation:
        """The looping GIF of these frames."""
        last = len(self.durations) - 1
        picks = [self.draw(0), *([self.draw(last)] if last else []), *self.samples]
        data = encode_gif(self.frames(), self.durations, shared_palette(picks))
        return Animation(data, self.filename, self.description, self.durations)


def shared_palette(pictures: Sequence[Image.Image]) -> Image.Image:
    """One palette image for a whole animation, from the colours of ``pictures``."""
    width = max(p.width for p in pictures)
    sheet = Image.new("RGB", (width, sum(p.height for p in pictures)), BACKGROUND)
    y = 0
    for picture in pictures:
        sheet.paste(picture.convert("RGB"), (0, y))
        y += picture.height
    return sheet.quantize(
        colors=PALETTE_COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )


def encode_gif(
    frames: Iterable[Image.Image], durations: Sequence[int], palette: Image.Image | None = None
) -> bytes:
    """Encode frames as a looping GIF: one palette for all, only changed pixels per frame.

    Frames are turned into palette images one at a time as the encoder takes them. Without a
    ``palette``, one is made from the first, middle and last frames (which are then all held).
    Consecutive identical frames would be merged by the encoder, so callers make every frame
    differ (a replay's caption always does).
    """
    if palette is None:
        frames = list(frames)
        if frames:
            palette = shared_palette([frames[0], frames[len(frames) // 2], frames[-1]])
    stream = iter(frames)
    first = next(stream, None)
    if first is None or palette is None:
        raise ValueError("an animation needs at least one frame")

    def indexed(frame: Image.Image) -> Image.Image:
        return frame.convert("RGB").quantize(palette=palette, dither=Image.Dither.NONE)

    buffer = io.BytesIO()
    indexed(first).save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=(indexed(frame) for frame in stream),
        duration=list(durations),
        loop=0,
        optimize=True,  # unchanged pixels become transparent: small frames
        disposal=1,
    )
    return buffer.getvalue()


@dataclass(frozen=True, slots=True)
class Caption:
    """What the strip under a replayed picture says: a ``title`` (gold when ``final``), a
    ``detail`` under it, and how far the replay is (``progress`` from 0 to 1)."""

    title: str
    detail: str = ""
    progress: float | None = None
    final: bool = False


def caption_sizes(width: int) -> tuple[int, int]:
    """The font sizes of a strip ``width`` wide: the title's and the detail's, both legible
    on a phone."""
    detail = max(16, legible_size(width))
    return detail + 4, detail


def _lines(width: int, caption: Caption) -> tuple[list[str], list[str]]:
    title_size, detail_size = caption_sizes(width)
    room = width - 2 * PAD
    title = wrap_text(caption.title, title_size, room, LINES)
    detail = wrap_text(caption.detail, detail_size, room, LINES) if caption.detail else []
    return title, detail


def _leading(size: int, line: str = "") -> int:
    """From one line to the next: more for a line in the wide font, whose accents and
    descenders reach further (``Ég`` is 1.3 times its size tall in it, 1.05 in the bundled)."""
    return round(size * (WIDE_LEADING if needs_wide(line) else 1.25))


WIDE_LEADING = 1.4


def _block(size: int, lines: Sequence[str]) -> int:
    return sum(_leading(size, line) for line in lines)


def strip_height(width: int, captions: Iterable[Caption]) -> int:
    """The height of a strip ``width`` wide with room for the longest of ``captions`` (all the
    frames of a replay have one height)."""
    title_size, detail_size = caption_sizes(width)
    title_room, detail_room = _leading(title_size), 0
    for caption in captions:
        title, detail = _lines(width, caption)
        title_room = max(title_room, _block(title_size, title))
        detail_room = max(detail_room, _block(detail_size, detail))
    return TOP + title_room + detail_room + 6 + BAR + BOTTOM


def caption_strip(
    width: int,
    title: str,
    detail: str = "",
    progress: float | None = None,
    final: bool = False,
    height: int | None = None,
) -> Image.Image:
    """The band under a replayed picture: the title, the detail under it (each wrapped on up to
    two lines), the progress bar at the bottom. ``height`` defaults to what this caption needs
    (see :func:`strip_height`)."""
    caption = Caption(title, detail, progress, final)
    height = height or strip_height(width, [caption])
    strip = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(strip)
    draw.line((0, 0, width, 0), fill=(30, 31, 34), width=2)
    title_size, detail_size = caption_sizes(width)
    # lines are laid out in PAD's margins; a glyph's ink may reach a pixel past its advance
    # (a "j" starting a line), so the area is the strip less half the margins
    area = (PAD / 2, 0, width - PAD / 2, height)
    y = TOP
    title_lines, detail_lines = _lines(width, caption)
    for line in title_lines:
        draw_text(draw, (PAD, y), line, title_size, GOLD if final else INK, within=area)
        y += _leading(title_size, line)
    for line in detail_lines:
        draw_text(draw, (PAD, y), line, detail_size, MUTED, within=area)
        y += _leading(detail_size, line)
    if progress is not None:
        top, left, right = height - BOTTOM - BAR, PAD, width - PAD
        draw.rounded_rectangle((left, top, right, top + BAR), radius=2, fill=(64, 68, 75))
        filled = left + round((right - left) * min(max(progress, 0.0), 1.0))
        if filled > left:
            draw.rounded_rectangle((left, top, filled, top + BAR), radius=2, fill=HIGHLIGHT)
    return strip


def with_strip(board: Image.Image, strip: Image.Image) -> Image.Image:
    """``board`` with ``strip`` under it (the strip is centred when widths differ)."""
    width = max(board.width, strip.width)
    frame = Image.new("RGB", (width, board.height + strip.height), BACKGROUND)
    frame.paste(board.convert("RGB"), ((width - board.width) // 2, 0))
    frame.paste(strip, ((width - strip.width) // 2, board.height))
    return frame


def with_caption(board: Image.Image, caption: Caption, height: int) -> Image.Image:
    """``board`` with the strip of ``caption`` (``height`` tall) under it, its texts noted
    where they land in the frame."""
    with placed(0, board.height):
        strip = caption_strip(board.width, *_fields(caption), height=height)
    return with_strip(board, strip)


def _fields(caption: Caption) -> tuple[str, str, float | None, bool]:
    return caption.title, caption.detail, caption.progress, caption.final


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
