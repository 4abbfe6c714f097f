"""The Quatorze hint as it was before the fair search (frozen as the bench's reference).

It sampled stock orders and asked the stock-knowing solver about each move, so in every sample
it believed it would see the cards coming: almost every move looked like a win.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.quatorze.board import play
from games.quatorze.solver import moves, solve

NODE_LIMIT = 5_000
EXACT_NODE_LIMIT = 200_000


def best_move(
    grid: tuple[int, ...], unseen: Sequence[int], stock_count: int, samples: int, seed: int
) -> tuple[int, int]:
    """The old hint's move with a fixed number of samples (no clock)."""
    options = moves(grid, stock_count)
    if len(options) == 1:
        return options[0]
    rng = random.Random(seed)
    rounds = 1 if stock_count == 0 else max(1, samples)
    wins = [0] * len(options)
    found = [0] * len(options)
    pool = list(unseen)
    for _ in range(rounds):
        rng.shuffle(pool)
        stock = tuple(pool[:stock_count])
        for i, (a, b) in enumerate(options):
            child, top = play(grid, stock, 0, a, b)
            limit = NODE_LIMIT if stock_count else EXACT_NODE_LIMIT
            result = solve(child, stock, top, node_limit=limit)
            wins[i] += result.won
            found[i] += result.pairs
    best = max(range(len(options)), key=lambda i: (wins[i], found[i], -i))
    return options[best]
