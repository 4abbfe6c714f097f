"""The Quarters board: piles of coins on felt, selected coins lifted and ringed."""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bench.perf.render_baseline.base import (
    FELT,
    FELT_DARK,
    GOLD,
    HIGHLIGHT,
    INK,
    MUTED,
    Box,
    Picture,
    draw_text,
    face,
    note_box,
    recording,
    to_picture,
)

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
    return tuple((centre + v) / SCALE for v in (left, top, right, bottom))  # type: ignore[return-value]


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


def render_quarters(
    view: Any,
    selected: Collection[tuple[int, int]] = (),
    names: Sequence[str] = ("", ""),
    status: str = "",
) -> Picture:
    """Draw the piles. ``selected`` holds (pile, coin) pairs, both counted from 1."""
    piles: list[int] = view["piles"]
    start: list[int] = view["start"]
    width = board_width(start)
    step = _step(start)
    row_h = COIN + 2 * GAP + 10
    height = HEADER + len(piles) * row_h + FOOTER
    image = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((4, 4, width - 5, height - 5), radius=16, outline=FELT_DARK, width=5)
    draw_text(draw, (20, HEADER // 2), "Quarters", 26, INK, anchor="lm")
    left = sum(piles)
    status = status or f"{left} coin{'s' if left != 1 else ''} left"
    draw_text(draw, (width - 20, HEADER // 2), status, TEXT, GOLD, anchor="rm")
    for i, size in enumerate(piles):
        top = HEADER + i * row_h
        draw.rounded_rectangle((12, top, width - 13, top + row_h - 8), radius=12, fill=FELT_DARK)
        draw_text(draw, (24, top + row_h / 2 - 4), f"Pile {i + 1}", TEXT, MUTED, anchor="lm")
        for c in range(start[i]):
            x = LABEL_W + c * step
            y = top + GAP - 2
            if c < size:
                chosen = (i + 1, c + 1) in selected
                sprite = coin_sprite(chosen)
                y -= 4 if chosen else 0
                image.paste(sprite, (x, y), sprite)
                if recording():
                    x0, y0, x1, y1 = coin_text_box()
                    note_box("25", (x + x0, y + y0, x + x1, y + y1), COIN * COIN_TEXT)
            else:
                draw.ellipse(
                    (x + 6, y + 6, x + COIN - 6, y + COIN - 6), outline=(40, 110, 80), width=2
                )
    note = "Gold coins are selected" if selected else _last_move(view)
    if note:
        draw_text(draw, (20, height - FOOTER // 2 - 2), note, TEXT, HIGHLIGHT, anchor="lm")
    return to_picture(image, "quarters.png", describe(view, selected))


def _last_move(view: Any) -> str:
    if not view.get("last_move"):
        return ""
    pile, count = view["last_move"].split("-")
    return f"Last move took {count} from pile {pile}"


def describe(view: Any, selected: Collection[tuple[int, int]] = ()) -> str:
    """The position in words, for screen readers."""
    parts = [f"pile {i + 1}: {n} coin{'s' if n != 1 else ''}" for i, n in enumerate(view["piles"])]
    text = "Quarters. " + ", ".join(parts) + "."
    if view.get("last_move"):
        pile, count = view["last_move"].split("-")
        text += f" Last move took {count} from pile {pile}."
    if selected:
        text += f" {len(selected)} coin{'s' if len(selected) != 1 else ''} selected."
    return text
