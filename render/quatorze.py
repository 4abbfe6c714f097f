"""The Quatorze grid: 25 numbered cells, selected cards ringed, stock and score on top."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from games.quatorze.state import QuatorzeView
from i18n import Message, _, _n, _np, _p, render, sentences
from i18n.formats import Listing
from render.base import (
    FELT,
    FELT_DARK,
    GOLD,
    HIGHLIGHT,
    INK,
    MUTED,
    Picture,
    face,
    fit_text,
    legible_size,
    note_drawn,
    text_width,
)
from render.cards import card_height, card_words, parse_card, put_card, sample_sheet
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
    third = (WIDTH - 2 * MARGIN) // 3 - 8  # the score and the stock: a third of the band each
    said = _p("quatorze board", "Score {score}/52", score=view["score"])
    score = fit_text(render(said, lang), TEXT, third)
    scene.text((MARGIN, middle), score, TEXT, GOLD, FELT_DARK, anchor="lm")
    said = _p("quatorze board", "Stock {count}", count=view["stock_count"])
    stock = fit_text(render(said, lang), TEXT, third)
    scene.text((WIDTH - MARGIN, middle), stock, TEXT, INK, FELT_DARK, anchor="rm")
    room = WIDTH - 2 * MARGIN - 2 * max(text_width(score, TEXT), text_width(stock, TEXT)) - 24
    status = fit_text(render(_status(view), lang), TEXT, room)
    scene.text((WIDTH // 2, middle), status, TEXT, INK, FELT_DARK, anchor="mm")
    return scene.picture("quatorze.png", describe(view, selected, lang))


def _status(view: QuatorzeView) -> Message:
    if view["won"]:
        return _p("quatorze board", "Cleared!")
    if view["status"] == "lost":
        return _p("quatorze board", "No pair left")
    if view["status"] == "gave-up":
        return _p("quatorze board", "Given up")
    pairs = len(view["pairs"])
    return _np("quatorze board", "{n} pair", "{n} pairs", pairs)


def describe(view: QuatorzeView, selected: tuple[int, ...] = (), lang: str = "en") -> str:
    """Alt text: the grid row by row with cell numbers, then score, stock and the pairs."""
    grid = view["grid"]
    rows = [_row_said(r, tuple(grid[r * 5 : r * 5 + 5]), lang) for r in range(5)]
    head = _n(
        "Quatorze, score {score} of 52, {n} card in the stock.",
        "Quatorze, score {score} of 52, {n} cards in the stock.",
        view["stock_count"],
        score=view["score"],
    )
    chosen = Listing(tuple(str(n) for n in selected))
    pairs = Listing(tuple(_("{a} and {b}", a=a, b=b) for a, b in view["pairs"]), "or")
    text = sentences(
        head,
        *rows,
        _("Selected: {cells}.", cells=chosen) if selected else None,
        _("Pairs: {pairs}.", pairs=pairs) if view["pairs"] else _ending(view),
    )
    return render(text, lang)


@lru_cache(maxsize=2048)
def _row_said(row: int, codes: tuple[str | None, ...], lang: str) -> str:
    """A row of the alt text: its cells and cards, said once per row of cards and language
    (a move changes two cells: the other rows read as before)."""
    cells = tuple(
        _("cell {cell}: {card}", cell=row * 5 + i + 1, card=card_words(parse_card(code)))
        for i, code in enumerate(codes)
        if code is not None
    )
    if cells:
        return render(_("Row {row}: {cells}.", row=row + 1, cells=Listing(cells)), lang)
    return render(_("Row {row} is empty.", row=row + 1), lang)


def _ending(view: QuatorzeView) -> Message:
    """How a game with no pair left ended, a sentence of the alt text."""
    if view["won"]:
        return _("The grid is cleared!")
    if view["status"] == "gave-up":
        return _("The player gave up.")
    return _("No pair is left.")
