"""The daily puzzles: the same three challenges for everyone, chosen from the date alone.

``puzzles_for(day)`` gives the Quarters, Checkers and Quatorze puzzles of a UTC day, each
verified when it is generated (``verify``): Quarters with exactly one winning move by the
exact theory, Checkers from the endgame database with exactly one winning move and a distance
to the win that grows through the week, Quatorze a deal the stock-knowing solver clears.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import date

from games.daily.checkers import CheckersPuzzle, checkers_puzzle, verify_checkers
from games.daily.quarters import QuartersPuzzle, quarters_puzzle, verify_quarters
from games.daily.quatorze import QuatorzeDeal, quatorze_deal, verify_quatorze
from games.daily.seeds import CHECKERS, KINDS, QUARTERS, QUATORZE, seed_for


@dataclass(frozen=True, slots=True)
class Puzzles:
    """The three puzzles of one day."""

    day: date
    quarters: QuartersPuzzle
    checkers: CheckersPuzzle
    quatorze: QuatorzeDeal


@functools.lru_cache(maxsize=8)
def puzzles_for(day: date) -> Puzzles:
    """The day's three puzzles (computed once per process per day)."""
    return Puzzles(
        day=day,
        quarters=quarters_puzzle(seed_for(day, "quarters")),
        checkers=checkers_puzzle(seed_for(day, "checkers"), day.weekday()),
        quatorze=quatorze_deal(seed_for(day, "quatorze")),
    )


def verify(puzzles: Puzzles) -> None:
    """Raise ValueError unless all three puzzles hold what they promise."""
    verify_quarters(puzzles.quarters)
    verify_checkers(puzzles.checkers, puzzles.day.weekday())
    verify_quatorze(puzzles.quatorze)


__all__ = [
    "CHECKERS",
    "KINDS",
    "QUARTERS",
    "QUATORZE",
    "CheckersPuzzle",
    "Puzzles",
    "QuartersPuzzle",
    "QuatorzeDeal",
    "puzzles_for",
    "seed_for",
    "verify",
]
