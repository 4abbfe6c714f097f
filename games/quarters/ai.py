"""The computer player: perfect at the top level, deliberately fallible below."""

from __future__ import annotations

import random

from games.quarters.state import State
from games.quarters.strategy import winning_moves

LEVELS = ("beginner", "casual", "sharp", "perfect")
# Chance that a level plays a random move instead of the best one.
_MISTAKE_RATE = {"beginner": 0.7, "casual": 0.4, "sharp": 0.15, "perfect": 0.0}


def choose(
    state: State, seat: int, level: str = "perfect", budget: float = 1.0, seed: int = 0
) -> str:
    """The computer's move for ``seat``: a winning move when there is one (and no mistake is
    drawn), otherwise the move that leaves the most coins, to make the opponent work.

    >>> choose(State.new((3, 4, 5)), 0)
    '1-2'
    """
    legal = state.legal_actions(seat)
    if not legal:
        raise ValueError("no legal move for this seat")
    rng = random.Random(seed)
    if rng.random() < _MISTAKE_RATE[level]:
        return rng.choice(legal)
    best = winning_moves(state.piles)
    if best:
        return best[0]
    return min(legal, key=lambda move: int(move.split("-")[1]))
