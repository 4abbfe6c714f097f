"""The Quatorze grid as plain values, fast enough for search.

Cells are numbered 0..24 here (reading order); actions show them as 1..25. A grid is a tuple of
25 values (1..13, 0 = empty); the stock is a sequence of values read from ``top`` on.

>>> grid = (1, 13, 0, 0, 0) + (0,) * 20
>>> pairs(grid)
[(0, 1)]
>>> play(grid, (5, 6), 0, 1, 0)[0][:3]
(6, 5, 0)
"""

from __future__ import annotations

from collections.abc import Sequence

SIZE = 5
CELLS = SIZE * SIZE
TARGET = 14

ROWS = tuple(tuple(r * SIZE + c for c in range(SIZE)) for r in range(SIZE))
COLUMNS = tuple(tuple(r * SIZE + c for r in range(SIZE)) for c in range(SIZE))
LINES = ROWS + COLUMNS
# Every unordered pair of cells sharing a row or a column, in a stable order.
LINE_PAIRS = tuple(
    sorted({(line[i], line[j]) for line in LINES for i in range(SIZE) for j in range(i + 1, SIZE)})
)


def pairs(grid: Sequence[int]) -> list[tuple[int, int]]:
    """Unordered pairs ``(a, b)``, a < b, in one row or column whose values add up to 14."""
    return [(a, b) for a, b in LINE_PAIRS if grid[a] and grid[a] + grid[b] == TARGET]


def play(
    grid: Sequence[int], stock: Sequence[int], top: int, first: int, second: int
) -> tuple[tuple[int, ...], int]:
    """Remove the cards at ``first`` and ``second``; return the new grid and stock top.

    While the stock lasts, the first card's cell is refilled first, then the second's. Once
    the stock is empty (also when it runs out between the two), the cards close up in reading
    order, keeping their order, so the empty cells come last.
    """
    cells = list(grid)
    cells[first] = 0
    cells[second] = 0
    for cell in (first, second):
        if top < len(stock):
            cells[cell] = stock[top]
            top += 1
    if top >= len(stock):
        filled = [v for v in cells if v]
        cells = filled + [0] * (CELLS - len(filled))
    return tuple(cells), top
