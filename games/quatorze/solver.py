"""A solver that knows the stock order: used only to offer deals that can be won.

Depth-first search with a memo over (grid, stock top), stopping at the first full clearance.

>>> from games.cards import shuffled_deck
>>> values = [int(c.rank) for c in shuffled_deck(1)]
>>> solve(tuple(values[:25]), tuple(values[25:])).won
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.quatorze.board import pairs, play


@dataclass(frozen=True, slots=True)
class Solution:
    """``pairs``: the most pairs found; ``won``: all cards can go; ``complete``: the search
    finished within its node limit (so a ``won=False`` is a proof)."""

    pairs: int
    won: bool
    complete: bool
    nodes: int


class _Budget(Exception):
    pass


def moves(grid: Sequence[int], stock_left: int) -> list[tuple[int, int]]:
    """Ordered moves: both orders of each pair while the stock lasts, one order after."""
    found = pairs(grid)
    if stock_left:
        return [m for a, b in found for m in ((a, b), (b, a))]
    return found


def solve(
    grid: tuple[int, ...], stock: Sequence[int], top: int = 0, node_limit: int = 200_000
) -> Solution:
    """The most pairs that can still be removed from ``grid`` with the known ``stock``."""
    stock = tuple(stock)
    memo: dict[tuple[tuple[int, ...], int], int] = {}
    nodes = 0
    cards = sum(1 for v in grid if v) + len(stock) - top
    goal = cards // 2

    def best(g: tuple[int, ...], t: int, depth: int) -> int:
        nonlocal nodes
        key = (g, t)
        known = memo.get(key)
        if known is not None:
            return known
        nodes += 1
        if nodes > node_limit:
            raise _Budget
        result = 0
        for a, b in moves(g, len(stock) - t):
            g2, t2 = play(g, stock, t, a, b)
            value = 1 + best(g2, t2, depth + 1)
            if value > result:
                result = value
                if depth + value == goal:
                    break
        memo[key] = result
        return result

    top_pairs = 0
    complete = True
    try:
        top_pairs = best(grid, top, 0)
    except _Budget:
        complete = False
        top_pairs = max(memo.values(), default=0)
    return Solution(pairs=top_pairs, won=top_pairs == goal, complete=complete, nodes=nodes)
