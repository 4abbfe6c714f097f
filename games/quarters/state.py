"""The Quarters position: piles of coins, whose turn, the moves so far."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

from games.base import IllegalAction, Outcome, OutcomeDict
from games.digits import is_number

SCHEMA = 1
MAX_PILES = 5
MAX_COINS = 9
DEFAULT_PILES = (3, 4, 5)


class QuartersView(TypedDict):
    """:meth:`State.view`: everything in Quarters is public."""

    piles: list[int]  # coins left in each pile
    start: list[int]  # the piles at the start
    turn: int | None  # the seat to take (None once over)
    moves: list[str]  # every move so far, ``pile-coins``
    last_move: str | None
    outcome: OutcomeDict | None


def parse_move(text: str) -> tuple[int, int]:
    """``"2-3"`` -> take 3 coins from pile 2 (piles count from 1): ``(2, 3)``."""
    pile, sep, count = text.strip().partition("-")
    if not sep or not is_number(pile, 2) or not is_number(count, 2):
        raise IllegalAction(f"`{text}` is not a move; write it as pile-coins, like 2-3.")
    return int(pile), int(count)


def format_move(pile: int, count: int) -> str:
    """The inverse of :func:`parse_move`."""
    return f"{pile}-{count}"


def check_piles(piles: Sequence[int]) -> tuple[int, ...]:
    """Validate a starting set-up: 1 to 5 piles of 1 to 9 coins, at least two coins in all."""
    piles = tuple(piles)
    if not 1 <= len(piles) <= MAX_PILES:
        raise IllegalAction(f"Use 1 to {MAX_PILES} piles.")
    if any(not 1 <= p <= MAX_COINS for p in piles):
        raise IllegalAction(f"Each pile holds 1 to {MAX_COINS} coins.")
    if sum(piles) < 2:
        raise IllegalAction("The game needs at least two coins.")
    return piles


@dataclass(slots=True)
class State:
    """A game of Quarters between seats 0 and 1.

    The game ends as soon as one coin is left (the player who must take it loses) or when a
    player takes every remaining coin (they took the last coin, and lose).
    """

    start: tuple[int, ...]
    first: int = 0
    piles: tuple[int, ...] = ()
    moves: list[str] = field(default_factory=list)
    seats: int = 2

    @classmethod
    def new(cls, piles: Sequence[int] = DEFAULT_PILES, first: int = 0) -> State:
        start = check_piles(piles)
        if first not in (0, 1):
            raise IllegalAction("The first player is seat 0 or 1.")
        return cls(start=start, first=first, piles=start)

    # -- turn and rules ---------------------------------------------------------------------
    @property
    def turn(self) -> int:
        return (self.first + len(self.moves)) % 2

    def to_act(self) -> tuple[int, ...]:
        return () if self.is_over() else (self.turn,)

    def is_over(self) -> bool:
        return sum(self.piles) <= 1

    def legal_actions(self, seat: int) -> list[str]:
        if self.is_over() or seat != self.turn:
            return []
        return [
            format_move(i + 1, n) for i, size in enumerate(self.piles) for n in range(1, size + 1)
        ]

    def apply(self, seat: int, action: str) -> None:
        """Take coins; raises :class:`IllegalAction` and changes nothing when refused."""
        if self.is_over():
            raise IllegalAction("The game is over.")
        if seat != self.turn:
            raise IllegalAction("It is not your turn.")
        pile, count = parse_move(action)
        if not 1 <= pile <= len(self.piles):
            raise IllegalAction(f"There is no pile {pile}.")
        if self.piles[pile - 1] == 0:
            raise IllegalAction(f"Pile {pile} is empty.")
        if not 1 <= count <= self.piles[pile - 1]:
            raise IllegalAction(f"Take 1 to {self.piles[pile - 1]} coins from pile {pile}.")
        piles = list(self.piles)
        piles[pile - 1] -= count
        self.piles = tuple(piles)
        self.moves.append(format_move(pile, count))

    def outcome(self) -> Outcome | None:
        """The winner is whoever did not have to take the last coin."""
        left = sum(self.piles)
        if left == 1:
            return Outcome(winners=(1 - self.turn,), termination="last-coin")
        if left == 0:
            return Outcome(winners=(self.turn,), termination="took-last-coin")
        return None

    # -- views and JSON ---------------------------------------------------------------------
    def view(self, seat: int | None = None) -> QuartersView:
        """Everything in Quarters is public."""
        outcome = self.outcome()
        return {
            "piles": list(self.piles),
            "start": list(self.start),
            "turn": None if outcome else self.turn,
            "moves": list(self.moves),
            "last_move": self.moves[-1] if self.moves else None,
            "outcome": outcome.to_dict() if outcome else None,
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "start": list(self.start),
            "first": self.first,
            "moves": list(self.moves),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> State:
        """Rebuild by replaying the stored moves from the start, so a stored game is re-checked."""
        if data.get("schema") != SCHEMA:
            raise ValueError(f"unknown quarters schema {data.get('schema')!r}")
        state = cls.new(data["start"], data["first"])
        for i, move in enumerate(data["moves"]):
            state.apply((state.first + i) % 2, move)
        return state
