"""The rules of Hearts as pure functions on bitmask hands (see ``cardbits``).

The engine and the AI share these, so a simulated play can never differ from a real one.

>>> from games.hearts.cardbits import mask_of
>>> from games.cards import cards_from_text
>>> hand = mask_of(cards_from_text("2H 5H 9C"))
>>> legal_mask(hand, lead_suit=None, first_trick=True, hearts_broken=False, rules=Rules()) == (
...     mask_of(cards_from_text("9C")))
True
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

from games.hearts.cardbits import (
    HEARTS_MASK,
    POINT_MASK,
    SUIT_MASK,
    TWO_OF_CLUBS,
)

SEATS = 4
PASS_SIZE = 3
GAME_TARGET = 100
MOON_POINTS = 26


@dataclass(frozen=True, slots=True)
class Rules:
    """House rules. The defaults are the seed's rules; the modern first-trick rules are options."""

    two_of_clubs_leads: bool = False
    no_points_on_first_trick: bool = False

    def to_dict(self) -> dict[str, bool]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        names = {f.name for f in fields(cls)}
        return cls(**{k: bool(v) for k, v in data.items() if k in names})


class Phase(Enum):
    """Where a game stands. A finished hand deals the next one at once (no resting phase)."""

    PASS = "pass"
    PLAY = "play"
    GAME_OVER = "game-over"


class PassDirection(Enum):
    """Where the three passed cards go; ``offset`` is added to the passer's seat."""

    LEFT = "left"
    RIGHT = "right"
    ACROSS = "across"
    HOLD = "hold"

    @property
    def offset(self) -> int:
        return {"left": 1, "right": 3, "across": 2, "hold": 0}[self.value]

    @classmethod
    def for_hand(cls, hand_number: int) -> PassDirection:
        """Left, right, across, hold, and round again (hand numbers from 0)."""
        return (cls.LEFT, cls.RIGHT, cls.ACROSS, cls.HOLD)[hand_number % 4]


def next_seat(seat: int) -> int:
    """Play goes clockwise, to the left: seat + 1."""
    return (seat + 1) % SEATS


def first_leader(dealer: int) -> int:
    """The player to the right of the dealer leads the first trick (seed rule)."""
    return (dealer - 1) % SEATS


def pass_target(seat: int, direction: PassDirection) -> int:
    return (seat + direction.offset) % SEATS


def legal_mask(
    hand: int,
    lead_suit: int | None,
    first_trick: bool,
    hearts_broken: bool,
    rules: Rules,
) -> int:
    """The cards of ``hand`` that may be played now (``lead_suit`` None when leading)."""
    if lead_suit is None:
        if first_trick and rules.two_of_clubs_leads and hand & (1 << TWO_OF_CLUBS):
            return 1 << TWO_OF_CLUBS
        if first_trick and rules.no_points_on_first_trick:
            return (hand & ~POINT_MASK) or (hand & ~HEARTS_MASK) or hand
        if first_trick or not hearts_broken:
            return (hand & ~HEARTS_MASK) or hand
        return hand
    follow = hand & SUIT_MASK[lead_suit]
    if follow:
        return follow
    if first_trick and rules.no_points_on_first_trick:
        return (hand & ~POINT_MASK) or hand
    return hand


def trick_winner(leader: int, cards: list[int]) -> int:
    """The seat that takes a full trick: the highest card of the suit led."""
    lead = cards[0] // 13
    best = 0
    for i, c in enumerate(cards):
        if c // 13 == lead and c > cards[best]:
            best = i
    return (leader + best) % SEATS


def hand_scores(points: list[int]) -> tuple[list[int], int | None]:
    """Points taken -> points scored, and the seat that shot the moon (or None)."""
    for seat, p in enumerate(points):
        if p == MOON_POINTS:
            return [0 if s == seat else MOON_POINTS for s in range(SEATS)], seat
    return list(points), None
