"""The Quarters board: piles of coins on felt, selected coins lifted and ringed."""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from render.base import FELT, FELT_DARK, GOLD, HIGHLIGHT, INK, MUTED, Picture, font, to_picture

COIN = 54  # coin diameter in pixels
GAP = 8
SCALE = 4  # supersampling for smooth edges


@lru_cache(maxsize=4)
def coin_sprite(selected: bool) -> Image.Image:
    """A silver quarter seen from above; a selected one glows gold."""
    size = COIN * SCALE
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    rim = (255, 200, 60) if selected else (150, 155, 160)
    face = (236, 238, 240) if not selected else (255, 236, 170)
    inner = (200, 204, 208) if not selected else (240, 205, 110)
    draw.ellipse((0, 0, size - 1, size - 1), fill=rim)
    pad = size // 14
    draw.ellipse((pad, pad, size - 1 - pad, size - 1 - pad), fill=face)
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
    label = font(size // 3)
    draw.text((centre, centre), "25", font=label, fill=(90, 95, 100), anchor="mm")
    return image.resize((COIN, COIN), Image.Resampling.LANCZOS)


def render_quarters(
    view: dict,
    selected: Collection[tuple[int, int]] = (),
    names: Sequence[str] = ("", ""),
    status: str = "",
) -> Picture:
    """Draw the piles. ``selected`` holds (pile, coin) pairs, both counted from 1."""
    piles: list[int] = view["piles"]
    start: list[int] = view["start"]
    most = max(start)
    label_w = 110
    width = label_w + most * (COIN + GAP) + 2 * GAP + 20
    width = max(width, 560)
    row_h = COIN + 2 * GAP + 10
    header = 64
    height = header + len(piles) * row_h + 30
    image = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((6, 6, width - 7, height - 7), radius=18, outline=FELT_DARK, width=6)
    draw.text((24, 20), "Quarters", font=font(28), fill=INK)
    left = sum(piles)
    draw.text(
        (width - 24, 24),
        status or f"{left} coin{'s' if left != 1 else ''} left",
        font=font(20),
        fill=GOLD,
        anchor="ra",
    )
    for i, size in enumerate(piles):
        top = header + i * row_h
        draw.rounded_rectangle((16, top, width - 17, top + row_h - 8), radius=12, fill=FELT_DARK)
        draw.text(
            (30, top + row_h / 2 - 4), f"Pile {i + 1}", font=font(22), fill=MUTED, anchor="lm"
        )
        for c in range(start[i]):
            x = label_w + c * (COIN + GAP)
            y = top + GAP - 4
            if c < size:
                chosen = (i + 1, c + 1) in selected
                sprite = coin_sprite(chosen)
                image.paste(sprite, (x, y - (4 if chosen else 0)), sprite)
            else:
                draw.ellipse(
                    (x + 6, y + 6, x + COIN - 6, y + COIN - 6), outline=(40, 110, 80), width=2
                )
    if selected:
        draw.text((24, height - 26), "Gold coins are selected", font=font(15), fill=HIGHLIGHT)
    return to_picture(image, "quarters.png", describe(view, selected))


def describe(view: dict, selected: Collection[tuple[int, int]] = ()) -> str:
    """The position in words, for screen readers."""
    parts = [f"pile {i + 1}: {n} coin{'s' if n != 1 else ''}" for i, n in enumerate(view["piles"])]
    text = "Quarters. " + ", ".join(parts) + "."
    if view.get("last_move"):
        pile, count = view["last_move"].split("-")
        text += f" Last move took {count} from pile {pile}."
    if selected:
        text += f" {len(selected)} coin{'s' if len(selected) != 1 else ''} selected."
    return text
