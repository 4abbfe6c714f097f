"""The Quarters board: piles of coins on felt, selected coins lifted and ringed."""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from functools import lru_cache, partial

from PIL import Image, ImageDraw

from games.quarters.state import QuartersView
from i18n import Message, _, _n, _p, render, sentences
from i18n.formats import Listing
from render.base import (
    FELT,
    FELT_DARK,
    GOLD,
    HIGHLIGHT,
    INK,
    MUTED,
    Box,
    Picture,
    face,
    fit_text,
    note_box,
    note_drawn,
    recording,
    text_width,
)
from render.compose import Kind, reused
from render.palette import Palette

COIN = 48  # coin diameter in pixels
GAP = 6
SCALE = 4  # supersampling for smooth edges
LABEL_W = 80  # room for "Pile 1" left of the coins
COIN_TEXT = 0.36  # the "25" on a coin, as a fraction of its diameter
MAX_WIDTH = 482  # seven coins side by side; longer piles overlap their coins to stay this wide
MIN_WIDTH = 400
HEADER, FOOTER = 58, 34
TEXT = 20


def board_width(start: Sequence[int]) -> int:
    """How wide the picture of a game that started with piles ``start`` is."""
    return min(max(LABEL_W + max(start) * (COIN + GAP) + 24, MIN_WIDTH), MAX_WIDTH)


def _step(start: Sequence[int]) -> int:
    """From one coin of a pile to the next: a little gap, or an overlap in long piles."""
    return min(COIN + GAP, (MAX_WIDTH - LABEL_W - 24) // max(start))


def coin_sprite(selected: bool) -> Image.Image:
    """A silver quarter seen from above; a selected one glows gold."""
    return _coin(selected)


@lru_cache(maxsize=1)
def coin_text_box() -> Box:
    """The box of the "25" on a coin sprite, in the sprite's pixels."""
    label = face(round(COIN * SCALE * COIN_TEXT))
    centre = COIN * SCALE / 2
    left, top, right, bottom = label.getbbox("25", anchor="mm")
    x0, y0, x1, y1 = ((centre + v) / SCALE for v in (left, top, right, bottom))
    return (x0, y0, x1, y1)


@lru_cache(maxsize=4)
def _coin(selected: bool) -> Image.Image:
    size = COIN * SCALE
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    rim = (255, 200, 60) if selected else (150, 155, 160)
    surface = (236, 238, 240) if not selected else (255, 236, 170)
    inner = (200, 204, 208) if not selected else (240, 205, 110)
    draw.ellipse((0, 0, size - 1, size - 1), fill=rim)
    pad = size // 14
    draw.ellipse((pad, pad, size - 1 - pad, size - 1 - pad), fill=surface)
    pad2 = size // 5
    draw.ellipse((pad2, pad2, size - 1 - pad2, size - 1 - pad2), outline=inner, width=SCALE * 2)
    # Reeded edge: small ticks around the rim.
    centre = size / 2
    for k in range(48):
        angle = 2 * math.pi * k / 48
        r1, r2 = centre - pad * 0.9, centre - 1
        draw.line(
            (
                centre + r1 * math.cos(angle),
                centre + r1 * math.sin(angle),
                centre + r2 * math.cos(angle),
                centre + r2 * math.sin(angle),
            ),
            fill=inner,
            width=SCALE,
        )
    label = face(round(size * COIN_TEXT))
    draw.text((centre, centre), "25", font=label, fill=(90, 95, 100), anchor="mm")
    return image.resize((COIN, COIN), Image.Resampling.LANCZOS)


def _palette() -> Palette:
    coins = [_flat(_coin(selected), FELT_DARK) for selected in (False, True)]
    return Palette.build(
        [FELT, FELT_DARK, INK, MUTED, GOLD, HIGHLIGHT, SLOT],
        ramps=[(INK, FELT), (GOLD, FELT), (MUTED, FELT_DARK), (HIGHLIGHT, FELT)],
        samples=lambda: [_base(MAX_WIDTH, (9, 9)), *coins],
    )


def _flat(image: Image.Image, under: tuple[int, int, int]) -> Image.Image:
    flat = Image.new("RGBA", image.size, (*under, 255))
    flat.alpha_composite(image)
    return flat.convert("RGB")


QUARTERS = Kind("quarters", _palette)
SLOT = (40, 110, 80)  # the ring where a coin was
ROW = COIN + 2 * GAP + 10  # a pile's row


def _base(width: int, start: Sequence[int], lang: str = "en") -> Image.Image:
    """The felt with its edge, a row a pile, and a ring where each coin of the start lies."""
    step = _step(start)
    height = HEADER + len(start) * ROW + FOOTER
    image = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((4, 4, width - 5, height - 5), radius=16, outline=FELT_DARK, width=5)
    title = _title(lang)
    draw.text(_TITLE, title, fill=INK, font=face(26, title), anchor="lm")
    for i, size in enumerate(start):
        top = HEADER + i * ROW
        draw.rounded_rectangle((12, top, width - 13, top + ROW - 8), radius=12, fill=FELT_DARK)
        label = _pile_name(i, lang)
        draw.text(_pile_label(i), label, fill=MUTED, font=face(TEXT, label), anchor="lm")
        for c in range(size):
            x, y = LABEL_W + c * step, top + GAP - 2
            draw.ellipse((x + 6, y + 6, x + COIN - 6, y + COIN - 6), outline=SLOT, width=2)
    return image


_TITLE = (20, HEADER // 2)


def _title(lang: str) -> str:
    return render(_p("game name", "Quarters"), lang)


def _pile_name(pile: int, lang: str) -> str:
    """ "Pile 1" for the ``pile``-th row (from 0), cut to fit left of the coins."""
    return fit_text(render(_p("quarters board", "Pile {pile}", pile=pile + 1), lang), TEXT, 54)


def _pile_label(pile: int) -> tuple[float, float]:
    """Where "Pile N" of the ``pile``-th row (from 0) starts, at mid-height."""
    return 24, HEADER + pile * ROW + ROW / 2 - 4


@reused
def render_quarters(
    view: QuartersView,
    selected: Collection[tuple[int, int]] = (),
    names: Sequence[str] = ("", ""),
    status: str = "",
    lang: str = "en",
) -> Picture:
    """Draw the piles. ``selected`` holds (pile, coin) pairs, both counted from 1."""
    piles: list[int] = view["piles"]
    start: list[int] = view["start"]
    width = board_width(start)
    step = _step(start)
    height = HEADER + len(piles) * ROW + FOOTER
    bands = (0, *(HEADER + i * ROW for i in range(len(piles))), HEADER + len(piles) * ROW)
    scene = QUARTERS.scene((width, height), bands, FELT, lang)
    base = ("base", width, tuple(start))
    scene.sprite(base, partial(_base, width, start, lang), (0, 0), under=FELT, words=True)
    title = _title(lang)
    note_drawn(_TITLE, title, 26, "lm")  # the words on the base
    left = sum(piles)
    said = status or render(_n("{n} coin left", "{n} coins left", left), lang)
    status = fit_text(said, TEXT, width - 20 - 40 - text_width(title, 26) - 16)
    scene.text((width - 20, HEADER // 2), status, TEXT, GOLD, FELT, anchor="rm")
    text_box = coin_text_box()
    for i, size in enumerate(piles):
        top = HEADER + i * ROW
        note_drawn(_pile_label(i), _pile_name(i, lang), TEXT, "lm")
        coins = [(i + 1, c + 1) in selected for c in range(size)]
        items = [(("coin", chosen), partial(_coin, chosen), -4 * chosen) for chosen in coins]
        scene.row(items, (LABEL_W, top + GAP - 2), step, FELT_DARK)
        if recording():
            x0, y0, x1, y1 = text_box
            for c, chosen in enumerate(coins):
                x, y = LABEL_W + c * step, top + GAP - 2 - 4 * chosen
                note_box("25", (x + x0, y + y0, x + x1, y + y1), COIN * COIN_TEXT)
    caption = _p("quarters board", "Gold coins are selected") if selected else _last_move(view)
    if caption is not None:
        note = fit_text(render(caption, lang), TEXT, width - 40)
        scene.text((20, height - FOOTER // 2 - 2), note, TEXT, HIGHLIGHT, FELT, anchor="lm")
    return scene.picture("quarters.png", describe(view, selected, lang))


def _last_move(view: QuartersView, said: bool = False) -> Message | None:
    """The last move in words: a caption, or (``said``) a sentence of the alt text."""
    last = view.get("last_move")
    if not last:
        return None
    pile, count = (int(part) for part in last.split("-"))
    if said:
        return _("The last move took {count} from pile {pile}.", count=count, pile=pile)
    return _("Last move took {count} from pile {pile}", count=count, pile=pile)


def describe(
    view: QuartersView, selected: Collection[tuple[int, int]] = (), lang: str = "en"
) -> str:
    """The position in words, for screen readers, in the language ``lang``."""
    piles = Listing(
        tuple(
            _n("{n} coin in pile {pile}", "{n} coins in pile {pile}", n, pile=i + 1)
            for i, n in enumerate(view["piles"])
        )
    )
    chosen = len(selected)
    text = sentences(
        _("Quarters, with {piles}.", piles=piles),
        _last_move(view, said=True),
        _n("{n} coin selected.", "{n} coins selected.", chosen) if chosen else None,
    )
    return render(text, lang)
