"""The hint (and the computer's play): the best move from what the player can see.

The player sees the grid, how many cards are left in the stock and the cards already removed,
so the stock holds exactly the unseen cards, in an unknown order. The hint samples orders of
those cards and, for each sample, asks the solver how many pairs each move leads to; the move
that clears the grid in the most samples wins (ties: the most pairs). With the stock empty the
game has no secret left and the solver decides exactly.

>>> from games.quatorze.state import State
>>> s = State.new(seed=5)
>>> choose(s, 0, "best", 0.1, seed=1) in s.legal_actions(0)
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from games.base import IllegalAction
from games.quatorze.board import play
from games.quatorze.solver import moves, solve
from games.quatorze.state import State, format_move

LEVELS: tuple[str, ...] = ("casual", "best")

SAMPLES_PER_SECOND = 40
NODE_LIMIT = 5_000
EXACT_NODE_LIMIT = 200_000  # with the stock gone nothing is hidden: search deeper


def best_move(
    grid: tuple[int, ...],
    unseen: Sequence[int],
    stock_count: int,
    samples: int,
    seed: int,
    deadline: float | None = None,
) -> tuple[int, int]:
    """The hint's move on a value grid, with ``unseen`` the values that make up the stock."""
    options = moves(grid, stock_count)
    if not options:
        raise ValueError("no move")
    if len(options) == 1:
        return options[0]
    rng = random.Random(seed)
    rounds = 1 if stock_count == 0 else max(1, samples)
    wins = [0] * len(options)
    found = [0] * len(options)
    pool = list(unseen)
    for done in range(rounds):
        rng.shuffle(pool)
        stock = tuple(pool[:stock_count])
        round_wins = [0] * len(options)
        round_found = [0] * len(options)
        for i, (a, b) in enumerate(options):
            if deadline is not None and done > 0 and time.monotonic() > deadline:
                break
            child, top = play(grid, stock, 0, a, b)
            limit = NODE_LIMIT if stock_count else EXACT_NODE_LIMIT
            result = solve(child, stock, top, node_limit=limit)
            round_wins[i] = result.won
            round_found[i] = result.pairs
        else:
            # only whole rounds count, so every move is judged on the same samples
            wins = [w + r for w, r in zip(wins, round_wins, strict=True)]
            found = [f + r for f, r in zip(found, round_found, strict=True)]
            continue
        break
    best = max(range(len(options)), key=lambda i: (wins[i], found[i], -i))
    return options[best]


def hint(state: State, budget: float = 0.5, seed: int = 0, *, limit: int | None = None) -> str:
    """The move the AI would make, from what the player can see (never the stock order).
    ``limit``: a fixed number of sampled stock orderings instead of the time ``budget``."""
    legal = state.legal_actions(0)
    pair_moves = [a for a in legal if a != "give-up"]
    if not pair_moves:
        raise IllegalAction("There is no pair to take.")
    grid = state.values()
    samples = max(2, round(budget * SAMPLES_PER_SECOND)) if limit is None else max(1, limit)
    deadline = time.monotonic() + budget if limit is None else None
    a, b = best_move(
        grid, state.unseen_values(), len(state.stock), samples, seed, deadline=deadline
    )
    return format_move(a, b)


def choose(
    state: State,
    seat: int = 0,
    level: str = "best",
    budget: float = 0.5,
    seed: int = 0,
    *,
    limit: int | None = None,
) -> str:
    """A legal action: ``best`` follows the hint; ``casual`` takes a random pair."""
    legal = state.legal_actions(seat)
    if not legal:
        raise IllegalAction("This game is over.")
    pair_moves = [a for a in legal if a != "give-up"]
    if not pair_moves:
        return "give-up"
    if level == "best":
        return hint(state, budget, seed, limit=limit)
    return random.Random(seed).choice(pair_moves)
