"""The Secret: perfect play in misère Nim.

Play normal Nim (leave a nim-sum of zero) except when that would leave only piles of one coin;
then leave an odd number of one-coin piles.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce
from operator import xor

from games.quarters.state import format_move


def nim_sum(piles: Sequence[int]) -> int:
    """The XOR of the pile sizes.

    >>> nim_sum((3, 4, 5))
    2
    """
    return reduce(xor, piles, 0)


def is_winning(piles: Sequence[int]) -> bool:
    """True when the player to move can force a win (misère: the last coin loses)."""
    if sum(piles) <= 1:
        return sum(piles) == 0  # facing no coins means the opponent took the last one
    if all(p <= 1 for p in piles):
        return sum(piles) % 2 == 0
    return nim_sum(piles) != 0


def winning_moves(piles: Sequence[int]) -> list[str]:
    """Every move that leaves the opponent in a lost position, in pile order."""
    moves = []
    for i, size in enumerate(piles):
        for take in range(1, size + 1):
            after = list(piles)
            after[i] -= take
            if not is_winning(after):
                moves.append(format_move(i + 1, take))
    return moves
