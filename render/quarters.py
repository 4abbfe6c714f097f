"""The Quarters board: piles of coins on felt, selected coins lifted and ringed."""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from games.quarters.state import QuartersView
from render.base import (
    FELT,
    FELT_DARK,
    GOLD,
    HIGHLIGHT,
    INK,
    MUTED,
    Picture,
    face,
    font,
    note_text,
    to_picture,
)

COIN = 48  # coin diameter in pixels
GAP = 6
SCALE = 4  # supersampling for smooth edges
LABEL_W = 80  # room for "Pile 1" left of the coins
COIN_TEXT = 0.36  # the "25" on a coin, as a fraction of its diameter


def coin_sprite(selected: bool) -> Image.Image:
    """A silver quarter seen from above; a selected one glows gold."""
    note_text(COIN * COIN_TEXT)
    return _coin(selected)


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
    view: QuartersView,
    selected: Collection[tuple[int, int]] = (),
    names: Sequence[str] = ("", ""),
    status: str = "",
) -> Picture:
    """Draw the piles. ``selected`` holds (pile, coin) pairs, both counted from 1."""
    piles: list[int] = view["piles"]
    start: list[int] = view["start"]
    width = max(LABEL_W + max(start) * (COIN + GAP) + 24, 400)
    row_h = COIN + 2 * GAP + 10
    header = 58
    footer = 34
    height = header + len(piles) * row_h + footer
    image = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((4, 4, width - 5, height - 5), radius=16, outline=FELT_DARK, width=5)
    draw.text((20, header // 2), "Quarters", font=font(26), fill=INK, anchor="lm")
    left = sum(piles)
    draw.text(
        (width - 20, header // 2),
        status or f"{left} coin{'s' if left != 1 else ''} left",
        font=font(20),
        fill=GOLD,
        anchor="rm",
    )
    for i, size in enumerate(piles):
        top = header + i * row_h
        draw.rounded_rectangle((12, top, width - 13, top + row_h - 8), radius=12, fill=FELT_DARK)
        draw.text(
            (24, top + row_h / 2 - 4), f"Pile {i + 1}", font=font(20), fill=MUTED, anchor="lm"
        )
        for c in range(start[i]):
            x = LABEL_W + c * (COIN + GAP)
            y = top + GAP - 2
            if c < size:
                chosen = (i + 1, c + 1) in selected
                sprite = coin_sprite(chosen)
                image.paste(sprite, (x, y - (4 if chosen else 0)), sprite)
            else:
                draw.ellipse(
                    (x + 6, y + 6, x + COIN - 6, y + COIN - 6), outline=(40, 110, 80), width=2
                )
    note = "Gold coins are selected" if selected else _last_move(view)
    if note:
        draw.text((20, height - footer // 2 - 2), note, font=font(18), fill=HIGHLIGHT, anchor="lm")
    return to_picture(image, "quarters.png", describe(view, selected))


def _last_move(view: QuartersView) -> str:
    last = view.get("last_move")
    if not last:
        return ""
    pile, count = last.split("-")
    return f"Last move took {count} from pile {pile}"


def describe(view: QuartersView, selected: Collection[tuple[int, int]] = ()) -> str:
    """The position in words, for screen readers."""
    parts = [f"pile {i + 1}: {n} coin{'s' if n != 1 else ''}" for i, n in enumerate(view["piles"])]
    text = "Quarters. " + ", ".join(parts) + "."
    if last := view.get("last_move"):
        pile, count = last.split("-")
        text += f" Last move took {count} from pile {pile}."
    if selected:
        text += f" {len(selected)} coin{'s' if len(selected) != 1 else ''} selected."
    return text
