"""The Quatorze grid: 25 numbered cells, selected cards ringed, stock and score on top."""

from __future__ import annotations

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
    Picture,
    draw_text,
    legible_size,
    to_picture,
)
from bench.perf.render_baseline.cards import card_height, card_text, place_card
from games.cards import Card

CARD_W = 100
CARD_H = card_height(CARD_W)
GAP = 14
LABEL = 26  # room above each card for its cell number
MARGIN = 20
HEADER = 64
WIDTH = 2 * MARGIN + 5 * CARD_W + 4 * GAP
HEIGHT = HEADER + MARGIN + 5 * (LABEL + CARD_H) + 4 * GAP + MARGIN
NUMBER = legible_size(WIDTH) + 1  # the cell numbers, the smallest text: 11.6 px on a phone
TEXT = 24


def _cell_box(cell: int) -> tuple[int, int]:
    row, col = divmod(cell, 5)
    x = MARGIN + col * (CARD_W + GAP)
    y = HEADER + MARGIN + row * (LABEL + CARD_H + GAP)
    return x, y


@lru_cache(maxsize=2)
def _board() -> Image.Image:
    image = Image.new("RGBA", (WIDTH, HEIGHT), FELT)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, HEADER), fill=FELT_DARK)
    for cell in range(25):
        x, y = _cell_box(cell)
        draw.rounded_rectangle(
            (x, y + LABEL, x + CARD_W, y + LABEL + CARD_H), radius=8, outline=FELT_DARK, width=3
        )
    return image


def render_quatorze(view: Any, selected: tuple[int, ...] = ()) -> Picture:
    """Draw the grid from a Quatorze view; ``selected`` holds cell numbers (1..25) to ring."""
    image = _board().copy()
    draw = ImageDraw.Draw(image)
    grid = view["grid"]
    chosen = set(selected)
    for cell, code in enumerate(grid):
        x, y = _cell_box(cell)
        number = cell + 1
        colour = HIGHLIGHT if number in chosen else MUTED
        draw_text(draw, (x + CARD_W // 2, y + LABEL // 2), str(number), NUMBER, colour, anchor="mm")
        if code is None:
            continue
        place_card(image, Card.parse(code), CARD_W, (x, y + LABEL))
        if number in chosen:
            draw.rounded_rectangle(
                (x - 4, y + LABEL - 4, x + CARD_W + 4, y + LABEL + CARD_H + 4),
                radius=10,
                outline=HIGHLIGHT,
                width=5,
            )
    middle = HEADER // 2
    draw_text(draw, (MARGIN, middle), f"Score {view['score']}/52", TEXT, GOLD, anchor="lm")
    draw_text(draw, (WIDTH // 2, middle), _status(view), TEXT, INK, anchor="mm")
    stock = f"Stock {view['stock_count']}"
    draw_text(draw, (WIDTH - MARGIN, middle), stock, TEXT, INK, anchor="rm")
    return to_picture(image.convert("RGB"), "quatorze.png", describe(view, selected))


def _status(view: Any) -> str:
    if view["won"]:
        return "Cleared!"
    if view["status"] == "lost":
        return "No pair left"
    if view["status"] == "gave-up":
        return "Given up"
    pairs = len(view["pairs"])
    return f"{pairs} pair{'s' if pairs != 1 else ''}"


def describe(view: Any, selected: tuple[int, ...] = ()) -> str:
    """Alt text: the grid row by row with cell numbers, then score, stock and the pairs."""
    rows = []
    for r in range(5):
        cells = []
        for c in range(5):
            n = r * 5 + c
            code = view["grid"][n]
            if code is not None:
                cells.append(f"{n + 1} {card_text(Card.parse(code))}")
        rows.append(f"Row {r + 1}: " + (", ".join(cells) if cells else "empty") + ".")
    text = (
        f"Quatorze. Score {view['score']} of 52, {view['stock_count']} cards in the stock. "
        + " ".join(rows)
    )
    if selected:
        text += " Selected: " + ", ".join(str(n) for n in selected) + "."
    if view["pairs"]:
        text += " Pairs: " + ", ".join(f"{a} and {b}" for a, b in view["pairs"]) + "."
    else:
        text += " " + _status(view) + "."
    return text
