"""Elo ratings and scoreboard ranking: pure functions."""

from __future__ import annotations

K_FACTOR = 32.0


def elo_change(rating: float, opponent: float, score: float, k: float = K_FACTOR) -> float:
    """Rating change for a player scoring ``score`` (1 win, 0.5 draw, 0 loss).

    >>> round(elo_change(1200, 1200, 1.0), 1)
    16.0
    """
    expected = 1.0 / (1.0 + 10 ** ((opponent - rating) / 400.0))
    return k * (score - expected)
