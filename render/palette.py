"""A fixed palette per picture kind, and sprites turned into its indices once.

A board is composed from sprites already in palette indices (``"L"`` images whose values are
indices), so no picture is ever quantized as a whole. Each kind's palette holds its exact
colours first (felt, ink, the square and piece colours), then the anti-aliasing ramps of the
texts it draws (:data:`RAMP` blends of each text colour over its background), then what is left
of 256 goes to a median cut of sample sprites (cards, pieces, coins): their anti-aliased edges.

>>> palette = Palette.build([(0, 0, 0), (255, 255, 255)], ramps=[((255, 255, 255), (0, 0, 0))])
>>> palette.index((255, 255, 255)), len(palette.colours)
(1, 16)
>>> lut = palette.ramp((255, 255, 255), (0, 0, 0))
>>> lut[0], lut[255]
(0, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cached_property

from PIL import Image

Colour = tuple[int, int, int]

RAMP = 16
"""Levels of a text's anti-aliasing ramp, its background and ink included."""
MAX_COLOURS = 256


def blend(bg: Colour, fg: Colour, amount: float) -> Colour:
    """``fg`` over ``bg`` at ``amount`` (0 to 1) of coverage, as Pillow blends text."""
    return (
        round(bg[0] + (fg[0] - bg[0]) * amount),
        round(bg[1] + (fg[1] - bg[1]) * amount),
        round(bg[2] + (fg[2] - bg[2]) * amount),
    )


class Palette:
    """Up to 256 colours; :meth:`index` finds a colour, :meth:`indices` turns an image into
    indices, :meth:`ramp` maps a text's coverage to indices."""

    def __init__(self, colours: Sequence[Colour]) -> None:
        if not 0 < len(colours) <= MAX_COLOURS:
            raise ValueError(f"a palette holds 1 to {MAX_COLOURS} colours, not {len(colours)}")
        self.colours = tuple(colours)
        self._ramps: dict[tuple[Colour, Colour], list[int]] = {}

    @classmethod
    def build(
        cls,
        colours: Iterable[Colour],
        ramps: Iterable[tuple[Colour, Colour]] = (),
        samples: Callable[[], Sequence[Image.Image]] | None = None,
    ) -> Palette:
        """The exact ``colours``, then each ``(ink, background)`` ramp, then the colours of a
        median cut of the ``samples`` (RGB pictures of the kind's sprites) in what is left."""
        found: dict[Colour, None] = dict.fromkeys(colours)
        for fg, bg in ramps:
            for level in range(RAMP):
                found.setdefault(blend(bg, fg, level / (RAMP - 1)))
        room = MAX_COLOURS - len(found)
        if room < 0:
            raise ValueError(f"{len(found)} exact colours do not fit a palette of 256")
        if samples is not None and room:
            sheet = _sheet(samples(), next(iter(found), (0, 0, 0)))
            cut = sheet.quantize(room, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
            flat = cut.getpalette() or []
            used = sorted({int(value) for _, value in cut.getcolors(MAX_COLOURS) or []})  # type: ignore[arg-type]
            for index in used:
                found.setdefault((flat[3 * index], flat[3 * index + 1], flat[3 * index + 2]))
        return cls(list(found)[:MAX_COLOURS])

    def index(self, colour: Colour) -> int:
        """The index of ``colour`` (exact when it is in the palette, else the nearest)."""
        try:
            return self._exact[colour]
        except KeyError:
            return self._nearest(colour)

    @cached_property
    def _exact(self) -> dict[Colour, int]:
        exact: dict[Colour, int] = {}
        for index, colour in enumerate(self.colours):
            exact.setdefault(colour, index)
        return exact

    def _nearest(self, colour: Colour) -> int:
        r, g, b = colour
        return min(
            range(len(self.colours)),
            key=lambda i: (
                (self.colours[i][0] - r) ** 2
                + (self.colours[i][1] - g) ** 2
                + (self.colours[i][2] - b) ** 2
            ),
        )

    def ramp(self, fg: Colour, bg: Colour) -> list[int]:
        """For each coverage 0-255 of text in ``fg`` over ``bg``, the index to draw."""
        found = self._ramps.get((fg, bg))
        if found is None:
            steps = [self.index(blend(bg, fg, level / (RAMP - 1))) for level in range(RAMP)]
            found = [steps[round(value * (RAMP - 1) / 255)] for value in range(256)]
            self._ramps[(fg, bg)] = found
        return found

    @cached_property
    def _flat(self) -> list[int]:
        """All 256 entries' red, green, blue (the last colour repeated to fill them)."""
        flat = [value for colour in self.colours for value in colour]
        return flat + flat[-3:] * (MAX_COLOURS - len(self.colours))

    @cached_property
    def image(self) -> Image.Image:
        """A "P" image holding the palette, for Pillow's ``quantize(palette=...)``."""
        image = Image.new("P", (1, 1))
        image.putpalette(self._flat)
        return image

    @cached_property
    def plte(self) -> bytes:
        """The palette as a PNG ``PLTE`` chunk's data (all 256 entries, so that any index
        Pillow's nearest-colour search picks is in it)."""
        return bytes(self._flat)

    def indices(self, image: Image.Image) -> Image.Image:
        """``image`` (RGB) as an "L" image of this palette's indices, nearest colour, no
        dithering."""
        quantized = image.convert("RGB").quantize(palette=self.image, dither=Image.Dither.NONE)
        return Image.frombytes("L", quantized.size, quantized.tobytes())


def _sheet(images: Sequence[Image.Image], fill: Colour) -> Image.Image:
    """The ``images`` one under another on one RGB sheet (``fill`` where they are narrower)."""
    width = max(image.width for image in images)
    sheet = Image.new("RGB", (width, sum(image.height for image in images)), fill)
    y = 0
    for image in images:
        sheet.paste(image.convert("RGB"), (0, y))
        y += image.height
    return sheet.crop((0, 0, width, y))
