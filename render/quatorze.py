"""The Quatorze grid: 25 numbered cells, selected cards ringed, stock and score on top."""

from __future__ import annotations

from PIL import Image, ImageDraw

from games.quatorze.state import QuatorzeView
from render.base import (
    FELT,
    FELT_DARK,
    GOLD,
    HIGHLIGHT,
    INK,
    MUTED,
    Picture,
    face,
    legible_size,
    note_drawn,
)
from render.cards import card_height, card_text, parse_card, put_card, sample_sheet
from render.compose import Kind, reused
from render.palette import Palette

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


def _board() -> Image.Image:
    """The felt, the header's band, each cell's number and an outline where its card lies."""
    image = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, HEADER), fill=FELT_DARK)
    for cell in range(25):
        x, y = _cell_box(cell)
        draw.rounded_rectangle(
            (x, y + LABEL, x + CARD_W, y + LABEL + CARD_H), radius=8, outline=FELT_DARK, width=3
        )
        draw.text(_number_at(cell), str(cell + 1), fill=MUTED, font=face(NUMBER), anchor="mm")
    return image


def _number_at(cell: int) -> tuple[int, int]:
    x, y = _cell_box(cell)
    return x + CARD_W // 2, y + LABEL // 2


def _ring() -> Image.Image:
    """The gold ring round a selected card."""
    image = Image.new("RGBA", (CARD_W + 9, CARD_H + 9), (0, 0, 0, 0))
    box = (0, 0, CARD_W + 8, CARD_H + 8)
    ImageDraw.Draw(image).rounded_rectangle(box, radius=10, outline=HIGHLIGHT, width=5)
    return image


def _palette() -> Palette:
    return Palette.build(
        [FELT, FELT_DARK, INK, MUTED, GOLD, HIGHLIGHT],
        ramps=[(MUTED, FELT), (HIGHLIGHT, FELT), (GOLD, FELT_DARK), (INK, FELT_DARK)],
        samples=lambda: [sample_sheet(CARD_W, FELT)],
    )


QUATORZE = Kind("quatorze", _palette)
# The bands: the header, then a row of cells each (its numbers, cards and rings).
BANDS = (0, HEADER, *(_cell_box(5 * row)[1] - GAP // 2 for row in range(1, 5)))


@reused
def render_quatorze(
    view: QuatorzeView, selected: tuple[int, ...] = (), lang: str = "en"
) -> Picture:
    """Draw the grid from a Quatorze view; ``selected`` holds cell numbers (1..25) to ring."""
    scene = QUATORZE.scene((WIDTH, HEIGHT), BANDS, FELT, lang)
    scene.sprite(("board",), _board, (0, 0), under=FELT)
    chosen = set(selected)
    for cell, code in enumerate(view["grid"]):
        x, y = _cell_box(cell)
        number = cell + 1
        if number in chosen:  # gold over the board's number
            scene.text(_number_at(cell), str(number), NUMBER, HIGHLIGHT, FELT, anchor="mm")
        else:
            note_drawn(_number_at(cell), str(number), NUMBER, "mm")
        if code is None:
            continue
        put_card(scene, parse_card(code), CARD_W, (x, y + LABEL), under=FELT)
        if number in chosen:
            scene.sprite(("ring",), _ring, (x - 4, y + LABEL - 4), under=FELT)
    middle = HEADER // 2
    score = f"Score {view['score']}/52"
    scene.text((MARGIN, middle), score, TEXT, GOLD, FELT_DARK, anchor="lm")
    scene.text((WIDTH // 2, middle), _status(view), TEXT, INK, FELT_DARK, anchor="mm")
    stock = f"Stock {view['stock_count']}"
    scene.text((WIDTH - MARGIN, middle), stock, TEXT, INK, FELT_DARK, anchor="rm")
    return scene.picture("quatorze.png", describe(view, selected))


def _status(view: QuatorzeView) -> str:
    if view["won"]:
        return "Cleared!"
    if view["status"] == "lost":
        return "No pair left"
    if view["status"] == "gave-up":
        return "Given up"
    pairs = len(view["pairs"])
    return f"{pairs} pair{'s' if pairs != 1 else ''}"


def describe(view: QuatorzeView, selected: tuple[int, ...] = ()) -> str:
    """Alt text: the grid row by row with cell numbers, then score, stock and the pairs."""
    rows = []
    for r in range(5):
        cells = []
        for c in range(5):
            n = r * 5 + c
            code = view["grid"][n]
            if code is not None:
                cells.append(f"{n + 1} {card_text(parse_card(code))}")
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
