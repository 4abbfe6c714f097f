"""The Quarters puzzle of the day: piles where exactly one move wins.

The player must find that move and then win the game against the perfect computer. The
position is checked with the Secret (``games.quarters.strategy``), the exact theory of
misère Nim.

>>> p = quarters_puzzle(1)
>>> len(winning_moves(p.piles)) == 1 and p.answer == winning_moves(p.piles)[0]
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.quarters.state import MAX_COINS, MAX_PILES
from games.quarters.strategy import is_winning, winning_moves

MIN_COINS = 10  # fewer coins would make the puzzle too easy to count through
MIN_PILES = 3


@dataclass(frozen=True, slots=True)
class QuartersPuzzle:
    """The starting piles (the player moves first) and the only winning move."""

    piles: tuple[int, ...]
    answer: str


def verify_quarters(puzzle: QuartersPuzzle) -> None:
    """Raise ValueError unless the player to move wins with exactly the stored move."""
    if not is_winning(puzzle.piles):
        raise ValueError(f"{puzzle.piles} is not a win for the player to move")
    if winning_moves(puzzle.piles) != [puzzle.answer]:
        raise ValueError(f"{puzzle.piles} does not have exactly one winning move")


def quarters_puzzle(seed: int) -> QuartersPuzzle:
    """The first random set-up drawn from ``seed`` with exactly one winning move."""
    rng = random.Random(seed)
    while True:
        count = rng.randint(MIN_PILES, MAX_PILES)
        piles = tuple(rng.randint(1, MAX_COINS) for _ in range(count))
        if sum(piles) < MIN_COINS:
            continue
        moves = winning_moves(piles)
        if len(moves) == 1:
            puzzle = QuartersPuzzle(piles, moves[0])
            verify_quarters(puzzle)
            return puzzle
