"""Boards composed from cached sprites in palette indices, encoded from cached PNG bands.

A renderer describes its picture as a :class:`Scene`: fills, sprites (pre-drawn pictures: a
card, a piece on its square, the empty felt) and texts, in drawing order. Every sprite is drawn
once per kind, size and language, turned into the kind's fixed palette (:mod:`render.palette`)
and cached, so composing a board is pasting index images, never quantizing a picture.

The picture is cut into horizontal bands (a row of the checkers board, the header, a row of
the score table). A band's content is a pure function of the operations that touch it, so the
PNG data of a band is cached by those operations: each band is compressed on its own into a
byte-aligned piece of the deflate stream, and the PNG joins the pieces of the bands, fresh or
cached, with one Adler-32 combined from theirs. A new position recompresses only the bands it
changed. A picture identical to one drawn before is not drawn again at all (:func:`reused`).
"""

from __future__ import annotations

import math
import struct
from bisect import bisect_right
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache, partial, wraps
from typing import Any, ParamSpec, TypeVar

from PIL import Image, ImageDraw
from zlib_ng import zlib_ng as zlib  # zlib's API and streams, 2-3x its speed

from render.base import (
    Box,
    Colour,
    Picture,
    font,
    needs_wide,
    note_box,
    recording,
    text_width,
    word_width,
)
from render.palette import Palette

COMPRESS_LEVEL = 1
"""The bands' deflate level: the fastest (``python -m bench.perf.render`` measures 1, 3, 6)."""
BANDS_KEPT = 4096  # compressed bands a kind keeps: a few KiB each
SPRITES_KEPT = 4096  # sprites (texts included) a kind keeps
PICTURES_KEPT = 64  # finished pictures a renderer keeps for reuse

P = ParamSpec("P")
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Sprite:
    """A pre-drawn picture in palette indices (an "L" image) and where it is drawn: its "1"
    ``mask``, or everywhere when ``mask`` is None."""

    image: Image.Image
    mask: Image.Image | None

    @property
    def size(self) -> tuple[int, int]:
        return self.image.size


@dataclass(frozen=True, slots=True)
class _Band:
    data: bytes  # this band's piece of the deflate stream
    adler: int  # Adler-32 of its raw rows
    length: int  # bytes of raw rows


class _Kept(dict[Hashable, Any]):
    """A dictionary that forgets its oldest entries beyond ``limit`` (first in, first out:
    cheaper than least recently used, and the limits are far above what a kind uses)."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def keep(self, key: Hashable, value: Any) -> None:
        self[key] = value
        if len(self) > self.limit:
            for old in list(self)[: self.limit // 4]:
                del self[old]


class Kind:
    """One kind of picture (the checkers board, the Hearts table...): its palette and its
    caches of sprites and bands."""

    def __init__(self, name: str, palette: Callable[[], Palette]) -> None:
        self.name = name
        self._make_palette = palette
        self.sprites = _Kept(SPRITES_KEPT)
        self.bands = _Kept(BANDS_KEPT)

    @cached_property
    def palette(self) -> Palette:
        return self._make_palette()

    def sprite(self, key: Hashable, draw: Callable[[], Image.Image], under: Colour) -> Sprite:
        """The sprite ``key``, drawn by ``draw`` the first time: ``draw`` returns an RGBA (or
        RGB, opaque) picture; its anti-aliased edge is blended over ``under``, the colour it
        will mostly lie on."""
        found: Sprite | None = self.sprites.get(key)
        if found is None:
            found = self.to_sprite(draw(), under)
            self.sprites.keep(key, found)
        return found

    def to_sprite(self, image: Image.Image, under: Colour) -> Sprite:
        """``image`` in this kind's palette: blended over ``under`` where it is partly
        transparent, drawn where it is not fully transparent."""
        if image.mode != "RGBA":
            return Sprite(self.palette.indices(image), None)
        flat = Image.new("RGBA", image.size, (*under, 255))
        flat.alpha_composite(image)
        alpha = image.getchannel("A")
        opaque = alpha.getextrema()[0] == 255
        mask = None if opaque else alpha.point(_TOUCHED, "1")
        return Sprite(self.palette.indices(flat), mask)

    def line(
        self, text: str, size: int, fg: Colour, bg: Colour, anchor: str, xy: tuple[float, float]
    ) -> tuple[Hashable, Sprite, int, int]:
        """``text`` in ``fg`` over ``bg`` as Pillow draws it at ``xy`` with ``anchor``: its
        sprite, the sprite's key, and where its top-left pixel goes.

        The line is laid out as Pillow lays it out (whole-pixel advances from its start; a
        centred line starts half its width, rounded up, to the left) from its words, each drawn
        by FreeType once (about 2.5 microseconds a letter): a new line costs pasting its words.
        """
        x, y = xy
        if anchor[0] == "m":
            x -= math.ceil(text_width(text, size) / 2)
        elif anchor[0] == "r":
            x -= text_width(text, size)
        whole_x, whole_y = math.floor(x), math.floor(y)
        start = (x - whole_x, y - whole_y)
        key = ("line", text, size, fg, bg, anchor[1], start)
        found = self.sprites.get(key)
        if found is None:
            found = self._line(text, size, fg, bg, "l" + anchor[1], start)
            self.sprites.keep(key, found)
        sprite, dx, dy = found
        return key, sprite, whole_x + dx, whole_y + dy

    def _line(
        self, text: str, size: int, fg: Colour, bg: Colour, anchor: str, start: tuple[float, float]
    ) -> tuple[Sprite, int, int]:
        wide = needs_wide(text)  # the whole line in one font, as text_width measures it
        space = round(word_width(" ", size, wide))
        placed = []
        offset = 0
        for word in text.split(" "):
            if word:
                sprite, dx, dy = self._word(("word", word, size, fg, bg, anchor, start, wide))
                placed.append((sprite, offset + dx, dy))
            offset += round(word_width(word, size, wide)) + space
        if len(placed) == 1:
            return placed[0]
        left = min(x for _, x, _ in placed)
        top = min(y for _, _, y in placed)
        right = max(x + sprite.size[0] for sprite, x, _ in placed)
        bottom = max(y + sprite.size[1] for sprite, _, y in placed)
        image = Image.new("L", (right - left, bottom - top))
        mask = Image.new("1", image.size)
        for sprite, x, y in placed:
            image.paste(sprite.image, (x - left, y - top), sprite.mask)
            mask.paste(1, (x - left, y - top), sprite.mask)
        return Sprite(image, mask), left, top

    def _word(self, key: tuple[Any, ...]) -> tuple[Sprite, int, int]:
        """The sprite of a word (drawn once a colour) and where its top-left pixel lies from
        the drawing point's pixel."""
        found = self.sprites.get(key)
        if found is None:
            _, word, size, fg, bg, anchor, start, wide = key
            coverage, mask, dx, dy = _coverage(word, size, anchor, start, wide)
            found = Sprite(coverage.point(self.palette.ramp(fg, bg)), mask), dx, dy
            self.sprites.keep(key, found)
        return found

    def scene(
        self, size: tuple[int, int], bands: Sequence[int], background: Colour, lang: str = "en"
    ) -> Scene:
        """A new picture ``size`` big cut into bands starting at the rows ``bands`` (the first
        is 0), on ``background``; ``lang`` keys the sprites that hold words."""
        return Scene(self, size, tuple(bands), background, lang)


@lru_cache(maxsize=SPRITES_KEPT)
def _coverage(
    word: str, size: int, anchor: str, start: tuple[float, float], wide: bool = False
) -> tuple[Image.Image, Image.Image, int, int]:
    """How much of each pixel ``word`` covers drawn at a point ``start`` into its pixel with
    ``anchor`` (an "L" image cropped to the ink), the "1" mask of the pixels it touches, and
    where their top-left pixel lies from the point's pixel (``wide``: in the wide font)."""
    typeface = font(size, wide)
    pad = 2 * size
    left, top, right, bottom = typeface.getbbox(word, anchor=anchor)
    width, height = math.ceil(right - left) + 2 * pad, math.ceil(bottom - top) + 2 * pad
    origin = (pad - math.floor(left), pad - math.floor(top))
    coverage = Image.new("L", (width, height), 0)
    xy = (origin[0] + start[0], origin[1] + start[1])
    ImageDraw.Draw(coverage).text(xy, word, fill=255, font=typeface, anchor=anchor)
    box = coverage.getbbox() or (0, 0, 1, 1)
    coverage = coverage.crop(box)
    mask = coverage.point(_TOUCHED, "1")
    return coverage, mask, box[0] - origin[0], box[1] - origin[1]


_TOUCHED = [0] + [255] * 255  # a coverage to a mask: drawn wherever anything covers it


class Scene:
    """A picture being described: fills, sprites and texts in drawing order."""

    def __init__(
        self,
        kind: Kind,
        size: tuple[int, int],
        bands: tuple[int, ...],
        background: Colour,
        lang: str,
    ) -> None:
        if not bands or bands[0] != 0 or list(bands) != sorted(set(bands)):
            raise ValueError(f"bands must rise from 0: {bands}")
        self.kind, self.size, self.tops, self.lang = kind, size, bands, lang
        self.background = kind.palette.index(background)
        self._ops: list[list[tuple[Any, ...]]] = [[] for _ in bands]
        self._sprites: dict[Hashable, Sprite] = {}

    def _add(self, op: tuple[Any, ...], top: int, bottom: int) -> None:
        tops, ops = self.tops, self._ops
        band = max(bisect_right(tops, top) - 1, 0)
        while band < len(tops) and tops[band] < bottom:
            ops[band].append(op)
            band += 1

    def fill(self, box: tuple[int, int, int, int], colour: Colour) -> None:
        """Fill ``box`` (left, top, right, bottom; right and bottom excluded) with ``colour``."""
        self._add(("fill", *box, self.kind.palette.index(colour)), box[1], box[3])

    def sprite(
        self,
        key: Hashable,
        draw: Callable[[], Image.Image],
        xy: tuple[int, int],
        *,
        under: Colour,
        words: bool = False,
    ) -> Sprite:
        """Draw the sprite ``key`` (see :meth:`Kind.sprite`) with its top-left corner at
        ``xy``; ``words``: it holds text, so it is cached per language."""
        if words:
            key = (key, self.lang)
        sprite = self.kind.sprite(key, draw, under)
        self._sprites[key] = sprite
        x, y = xy
        self._add(("sprite", key, x, y), y, y + sprite.size[1])
        return sprite

    def row(
        self,
        items: Sequence[tuple[Hashable, Callable[[], Image.Image], int]],
        xy: tuple[int, int],
        step: int,
        under: Colour,
    ) -> None:
        """Draw pictures of one width in a row from ``xy``, each ``step`` right of the one
        before and over it: ``items`` are (key, draw, drop) with ``draw`` returning the RGBA
        picture (cached by the caller) and ``drop`` how far below ``xy`` it lies.

        Where they overlap, their edges must blend over each other, not over ``under``: the
        row is drawn as slices ``step`` wide, each composed once from the pictures that reach
        into it, so a row costs a sprite a picture however it changes.
        """
        x, y = xy
        if not items:
            return
        width = items[0][1]().width
        reach = math.ceil(width / step)
        last = len(items) - 1
        for i in range(len(items)):
            window = items[max(0, i - reach + 1) : i + 1]
            right = step if i < last else width
            parts = tuple((key, drop) for key, _, drop in window)
            top = min(drop for _, drop in parts)
            key = ("slice", parts, step, right, under)
            draws = [draw for _, draw, _ in window]
            draw = partial(_slice, draws, parts, step, right, top)
            self.sprite(key, draw, (x + i * step, y + top), under=under)

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int,
        fg: Colour,
        bg: Colour,
        *,
        anchor: str = "la",
        within: Box | None = None,
    ) -> None:
        """Draw ``text`` at ``size`` pixels in ``fg`` as Pillow draws it at ``xy`` with
        ``anchor`` (see :meth:`Kind.line`), its edge blended over ``bg`` (what lies under
        it); its box is noted."""
        if not text.strip():
            return
        key, sprite, x, y = self.kind.line(text, size, fg, bg, anchor, xy)
        self._sprites[key] = sprite
        width, height = sprite.image.size
        self._add(("sprite", key, x, y), y, y + height)
        if recording():
            note_box(text, (x, y, x + width, y + height), size, within)

    def bands(self) -> Iterator[_Band]:
        """Each band's piece of the PNG data: from the cache, or composed and compressed."""
        kept = self.kind.bands
        width, height = self.size
        for index, ops in enumerate(self._ops):
            top = self.tops[index]
            bottom = self.tops[index + 1] if index + 1 < len(self.tops) else height
            key = (width, top, bottom, self.background, *ops)
            band: _Band | None = kept.get(key)
            if band is None:
                band = self._compose(ops, top, bottom)
                kept.keep(key, band)
            yield band

    def _compose(self, ops: list[tuple[Any, ...]], top: int, bottom: int) -> _Band:
        """The rows ``top`` to ``bottom``: each row a 0 (PNG's "no filter") then its indices."""
        width = self.size[0]
        canvas = Image.new("L", (width + 1, bottom - top), self.background)
        for op in ops:
            if op[0] == "fill":
                _, left, upper, right, lower, colour = op
                canvas.paste(colour, (left + 1, upper - top, right + 1, lower - top))
            else:
                sprite = self._sprites[op[1]]
                canvas.paste(sprite.image, (op[2] + 1, op[3] - top), sprite.mask)
        canvas.paste(0, (0, 0, 1, bottom - top))
        raw = canvas.tobytes()
        packer = zlib.compressobj(COMPRESS_LEVEL, zlib.DEFLATED, -15)
        data = packer.compress(raw) + packer.flush(zlib.Z_SYNC_FLUSH)
        return _Band(data, zlib.adler32(raw), len(raw))

    def png(self) -> bytes:
        """The picture as a palette PNG."""
        pieces, adler = [b"\x78\x01"], 1
        for band in self.bands():
            pieces.append(band.data)
            adler = adler32_combine(adler, band.adler, band.length)
        pieces.append(b"\x03\x00")  # the final, empty block
        pieces.append(struct.pack(">I", adler))
        width, height = self.size
        header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
        return b"".join(
            (
                b"\x89PNG\r\n\x1a\n",
                _chunk(b"IHDR", header),
                _chunk(b"PLTE", self.kind.palette.plte),
                _chunk(b"IDAT", b"".join(pieces)),
                _chunk(b"IEND", b""),
            )
        )

    def picture(self, filename: str, description: str) -> Picture:
        return Picture(self.png(), filename, description[:1024])


def _slice(
    draws: Sequence[Callable[[], Image.Image]],
    parts: tuple[tuple[Hashable, int], ...],
    step: int,
    width: int,
    top: int,
) -> Image.Image:
    """The last of the pictures ``draws`` draw over those before it (each ``step`` to the
    left of the next), from its left edge ``width`` wide, from the drop ``top``."""
    images = [draw() for draw in draws]
    bottom = max(drop + image.height for image, (_, drop) in zip(images, parts, strict=True))
    canvas = Image.new("RGBA", (width, bottom - top), (0, 0, 0, 0))
    last = len(images) - 1
    for j, (image, (_, drop)) in enumerate(zip(images, parts, strict=True)):
        left = (last - j) * step  # how far left of the slice this picture starts
        if left < image.width:
            canvas.alpha_composite(image, (0, drop - top), (left, 0))
    return canvas


def shape_origin(value: float) -> tuple[int, float]:
    """Where the sprite of a shape drawn from ``value`` starts: an even whole pixel at or below
    it, and how far past that the shape starts in the sprite. Pillow rounds a half pixel to
    even, so a shape moved an even number of pixels is drawn the same.

    >>> shape_origin(163.5), shape_origin(12.0)
    ((162, 1.5), (12, 0.0))
    """
    whole = math.floor(value)
    whole -= whole % 2
    return whole, value - whole


def _chunk(tag: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(data, zlib.crc32(tag))
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", crc)


_ADLER_BASE = 65521


def adler32_combine(first: int, second: int, length: int) -> int:
    """The Adler-32 of two byte strings joined, from each one's and the second's ``length``
    (zlib's ``adler32_combine``, which Python's zlib module does not offer).

    >>> adler32_combine(zlib.adler32(b"Parl"), zlib.adler32(b"our"), 3) == zlib.adler32(b"Parlour")
    True
    """
    rem = length % _ADLER_BASE
    low = first & 0xFFFF
    high = (rem * low) % _ADLER_BASE
    low = (low + (second & 0xFFFF) + _ADLER_BASE - 1) % _ADLER_BASE
    high = (high + (first >> 16) + (second >> 16) + _ADLER_BASE - rem) % _ADLER_BASE
    return low | (high << 16)


# -- reuse ------------------------------------------------------------------------------------


def frozen(value: Any) -> Hashable:
    """``value`` (dicts, lists, sets of plain values) as a hashable equivalent, for a key.

    >>> frozen({"a": [1, {"c": 2}], "b": {3}})
    (('a', (1, (('c', 2),))), ('b', frozenset({3})))
    """
    if isinstance(value, dict):
        return tuple((key, frozen(item)) for key, item in value.items())
    if isinstance(value, list | tuple):
        return tuple(frozen(item) for item in value)
    if isinstance(value, set | frozenset):
        return frozenset(frozen(item) for item in value)
    return value


def reused(render: Callable[P, R]) -> Callable[P, R]:
    """``render`` that hands back the picture it drew before for the same arguments.

    The picture is the same bytes either way; a test recording text boxes always draws.
    ``render.__wrapped__`` draws without looking (the benchmark's fresh draws).
    """
    kept = _Kept(PICTURES_KEPT)

    @wraps(render)
    def draw(*args: P.args, **kwargs: P.kwargs) -> R:
        if recording():
            return render(*args, **kwargs)
        key = frozen((args, kwargs))
        found: R | None = kept.get(key)
        if found is None:
            found = render(*args, **kwargs)
            kept.keep(key, found)
        return found

    return draw
