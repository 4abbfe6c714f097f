"""Boards composed from cached sprites and bands: the pictures look as they did when each was
drawn whole, the PNG is valid and the same whatever the caches held, and a picture drawn
before is handed back without drawing."""

from __future__ import annotations

import io
import zlib

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageStat

from bench.perf.render import BOARDS, positions
from render.base import text_boxes
from render.checkers import render_checkers
from render.compose import adler32_combine
from render.palette import Palette

MEAN_BOUND = 1.5  # mean difference a channel, of 255: the fixed palette against an adaptive one
FAR, FAR_SHARE = 48, 0.001  # at most 0.1% of the pixels differ by more than 48 grey levels


def _rgb(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGB")


def _cases(name: str) -> list[tuple[tuple[object, ...], dict[str, object]]]:
    """Positions spread through two seeded games."""
    _, _, _, make = BOARDS[name]
    return positions(make, range(1, 3), 60)[::10]


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_each_board_looks_as_it_did_when_drawn_whole(name: str) -> None:
    """Against the frozen renderers (RGB, an adaptive palette a picture): the same size and,
    to the eye, the same picture."""
    _, new, old, _ = BOARDS[name]
    for args, kwargs in _cases(name):
        now, before = _rgb(new.__wrapped__(*args, **kwargs).png), _rgb(old(*args, **kwargs).png)
        assert now.size == before.size
        difference = ImageChops.difference(now, before)
        assert sum(ImageStat.Stat(difference).mean) / 3 < MEAN_BOUND
        far = difference.convert("L").histogram()[FAR + 1 :]
        assert sum(far) <= FAR_SHARE * now.width * now.height


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_a_board_is_the_same_png_whatever_the_caches_held(name: str) -> None:
    """Drawn after other positions (most of its bands and sprites cached) and drawn again from
    empty caches, a picture is the same bytes, and a valid PNG of the kind's palette."""
    kind, new, _, _ = BOARDS[name]
    cases = _cases(name)
    args, kwargs = cases[-1]
    for earlier, more in cases[:-1]:
        new.__wrapped__(*earlier, **more)
    warm = new.__wrapped__(*args, **kwargs).png
    kind.bands.clear()
    kind.sprites.clear()
    cold = new.__wrapped__(*args, **kwargs).png
    assert warm == cold
    with Image.open(io.BytesIO(warm)) as image:
        image.verify()
    with Image.open(io.BytesIO(warm)) as image:
        assert image.mode == "P" and len(image.getpalette() or []) == 3 * 256
        image.load()


def test_a_picture_drawn_before_is_handed_back_not_drawn_again() -> None:
    _, _, _, make = BOARDS["checkers board"]
    (view,), options = positions(make, range(5, 6), 1)[0]
    first = render_checkers(view, **options)
    assert render_checkers(view, **options) is first
    with text_boxes() as boxes:  # a test measuring the texts always draws
        drawn = render_checkers(view, **options)
    assert boxes and drawn is not first and drawn == first


@given(st.binary(max_size=300), st.binary(max_size=300))
def test_adler32_combine_joins_two_checksums(first: bytes, second: bytes) -> None:
    combined = adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second))
    assert combined == zlib.adler32(first + second)


def test_a_palette_holds_its_exact_colours_and_text_ramps() -> None:
    ink, felt = (245, 245, 240), (24, 92, 62)
    sample = Image.linear_gradient("L").convert("RGB")
    palette = Palette.build([felt, ink], ramps=[(ink, felt)], samples=lambda: [sample])
    assert len(palette.colours) == 256
    assert palette.colours[palette.index(felt)] == felt
    ramp = palette.ramp(ink, felt)
    assert palette.colours[ramp[0]] == felt and palette.colours[ramp[255]] == ink
    halfway = palette.colours[ramp[128]]
    assert all(abs(h - (f + i) / 2) <= 9 for h, f, i in zip(halfway, felt, ink, strict=True))
    with pytest.raises(ValueError, match="256"):
        Palette.build([(n, n, n) for n in range(200)], ramps=[(ink, (n, 0, 0)) for n in range(9)])
