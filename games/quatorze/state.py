"""A game of Quatorze: clear a 5x5 grid by pairs adding up to 14.

Actions: ``"3-18"`` takes the cards in cells 3 and 18 (cells numbered 1..25 in reading order),
the first-named cell first: while the stock lasts it is refilled first, so ``3-18`` and ``18-3``
are different moves and both are listed. Once the stock is empty the order no longer matters:
only the form with the smaller cell first is listed, and the other is accepted as the same move.
``give-up`` ends the game.

>>> s = State.new(seed=5)
>>> move = s.legal_actions(0)[0]
>>> s.apply(0, move)
>>> s.score
2
"""

from __future__ import annotations

import random
from enum import Enum
from typing import Any, TypedDict

from games.base import IllegalAction, Outcome
from games.cards import Card, cards_from_text, cards_to_text, full_deck, shuffled_deck
from games.digits import is_number
from games.quatorze.board import CELLS, pairs

SCHEMA = 1
GRID = 25
WINNABLE_TRIES = 40
WINNABLE_NODES = 100_000


class Status(Enum):
    PLAYING = "playing"
    WON = "won"
    LOST = "lost"
    GAVE_UP = "gave-up"


class QuatorzeView(TypedDict):
    """:meth:`State.view`: what the player sees (the stock's size, never its order)."""

    game: str  # "quatorze"
    grid: list[str | None]  # the 25 cells, row by row (None: empty)
    stock_count: int
    score: int
    removed: list[str]  # the cards taken, in order
    pairs: list[list[int]]  # the cells (1-25) of every pair that may be taken now
    status: str  # a Status's value
    over: bool
    won: bool
    legal: list[str]  # the player's legal actions (none for a spectator)
    moves: int  # pairs taken so far


def format_move(first: int, second: int) -> str:
    """Cells 0-based in, ``"1-2"`` (1-based) out."""
    return f"{first + 1}-{second + 1}"


def parse_move(action: str) -> tuple[int, int]:
    """``"3-18"`` -> ``(2, 17)`` (0-based cells)."""
    head, sep, tail = action.partition("-")
    if not sep or not is_number(head, 2) or not is_number(tail, 2):
        raise IllegalAction(f"`{action}` is not a move (write two cells like 3-18).")
    first, second = int(head) - 1, int(tail) - 1
    if not (0 <= first < CELLS and 0 <= second < CELLS) or first == second:
        raise IllegalAction(f"`{action}` does not name two different cells 1..25.")
    return first, second


def winnable_deck(seed: int) -> list[Card]:
    """The first deck, among decks shuffled from seeds drawn from ``seed``, that the solver can
    clear (at most ``WINNABLE_TRIES`` tries; then the last one tried)."""
    from games.quatorze.solver import solve

    rng = random.Random(seed)
    deck = shuffled_deck(seed)
    for _ in range(WINNABLE_TRIES):
        deck = shuffled_deck(rng.getrandbits(64))
        values = [int(c.rank) for c in deck]
        if solve(tuple(values[:GRID]), values[GRID:], node_limit=WINNABLE_NODES).won:
            break
    return deck


class State:
    """One solitaire game (one seat, 0)."""

    __slots__ = ("deck", "grid", "moves", "removed", "seed", "status", "stock", "winnable")

    def __init__(
        self,
        *,
        seed: int,
        winnable: bool,
        deck: list[Card],
        grid: list[Card | None],
        stock: list[Card],
        removed: list[Card],
        moves: list[str],
        status: Status,
    ) -> None:
        self.seed = seed
        self.winnable = winnable
        self.deck = deck
        self.grid = grid
        self.stock = stock
        self.removed = removed
        self.moves = moves
        self.status = status

    @classmethod
    def new(cls, seed: int = 0, winnable: bool = False) -> State:
        """Deal 25 cards row by row into the grid; the other 27 are the stock (top first)."""
        deck = winnable_deck(seed) if winnable else shuffled_deck(seed)
        return cls.from_deck(deck, seed=seed, winnable=winnable)

    @classmethod
    def from_deck(cls, deck: list[Card], seed: int = 0, winnable: bool = False) -> State:
        """A game dealt from a given order (tests and replays)."""
        if len(deck) != 52 or set(deck) != set(full_deck()):
            raise ValueError("a Quatorze deck has the 52 cards once each")
        state = cls(
            seed=seed,
            winnable=winnable,
            deck=list(deck),
            grid=list(deck[:GRID]),
            stock=list(deck[GRID:]),
            removed=[],
            moves=[],
            status=Status.PLAYING,
        )
        state._settle()
        return state

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "seed": self.seed,
            "winnable": self.winnable,
            "deck": cards_to_text(self.deck),
            "grid": " ".join("--" if c is None else str(c) for c in self.grid),
            "stock": cards_to_text(self.stock),
            "removed": cards_to_text(self.removed),
            "moves": list(self.moves),
            "status": self.status.value,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> State:
        if data.get("schema") != SCHEMA:
            raise ValueError(f"unknown Quatorze schema {data.get('schema')!r}")
        return cls(
            seed=data["seed"],
            winnable=data["winnable"],
            deck=cards_from_text(data["deck"]),
            grid=[None if t == "--" else Card.parse(t) for t in data["grid"].split()],
            stock=cards_from_text(data["stock"]),
            removed=cards_from_text(data["removed"]),
            moves=list(data["moves"]),
            status=Status(data["status"]),
        )

    # -- the shared shape ------------------------------------------------------------------

    seats = 1

    @property
    def score(self) -> int:
        return len(self.removed)

    def values(self) -> tuple[int, ...]:
        return tuple(0 if c is None else int(c.rank) for c in self.grid)

    def unseen_values(self) -> list[int]:
        """The values of the cards neither on the grid nor removed: the stock, as a multiset."""
        seen = {c for c in self.grid if c is not None} | set(self.removed)
        return sorted(int(c.rank) for c in full_deck() if c not in seen)

    def pairs(self) -> list[tuple[int, int]]:
        """The pairs that may be taken, as unordered 0-based cells."""
        return pairs(self.values())

    def to_act(self) -> tuple[int, ...]:
        return (0,) if self.status is Status.PLAYING else ()

    def legal_actions(self, seat: int = 0) -> list[str]:
        if seat != 0 or self.status is not Status.PLAYING:
            return []
        found = self.pairs()
        if self.stock:
            actions = [format_move(x, y) for a, b in found for x, y in ((a, b), (b, a))]
        else:
            actions = [format_move(a, b) for a, b in found]
        return [*actions, "give-up"]

    def apply(self, seat: int, action: str) -> None:
        """Take a pair (``"3-18"``) or ``give-up``."""
        if seat != 0:
            raise IllegalAction("Quatorze has one player.")
        if self.status is not Status.PLAYING:
            raise IllegalAction("This game is over.")
        if action == "give-up":
            self.status = Status.GAVE_UP
            self.moves.append(action)
            return
        first, second = parse_move(action)
        grid = self.values()
        if (min(first, second), max(first, second)) not in pairs(grid):
            raise IllegalAction(
                f"Cells {first + 1} and {second + 1} are not a pair adding up to 14 in one "
                "row or column."
            )
        if not self.stock and first > second:
            first, second = second, first
        # Replay the move on the cards (the value-level `play` fixes where each card goes).
        cards = list(self.grid)
        taken = [cards[first], cards[second]]
        cards[first] = cards[second] = None
        for cell in (first, second):
            if self.stock:
                cards[cell] = self.stock.pop(0)
        if not self.stock:
            filled = [c for c in cards if c is not None]
            cards = filled + [None] * (GRID - len(filled))
        self.grid = cards
        self.removed.extend(c for c in taken if c is not None)
        self.moves.append(format_move(first, second))
        self._settle()

    def _settle(self) -> None:
        if len(self.removed) == 52:
            self.status = Status.WON
        elif not self.pairs():
            self.status = Status.LOST

    def is_over(self) -> bool:
        return self.status is not Status.PLAYING

    def outcome(self) -> Outcome | None:
        if self.status is Status.PLAYING:
            return None
        termination = {Status.WON: "won", Status.LOST: "no-moves", Status.GAVE_UP: "give-up"}
        return Outcome(
            winners=(0,) if self.status is Status.WON else (),
            termination=termination[self.status],
            scores=(self.score,),
            details={"removed": len(self.removed), "stock": len(self.stock)},
        )

    def view(self, seat: int | None = 0) -> QuatorzeView:
        """The grid, the stock's size (never its order), score, removed cards, legal pairs."""
        return {
            "game": "quatorze",
            "grid": [None if c is None else str(c) for c in self.grid],
            "stock_count": len(self.stock),
            "score": self.score,
            "removed": [str(c) for c in self.removed],
            "pairs": [[a + 1, b + 1] for a, b in self.pairs()] if not self.is_over() else [],
            "status": self.status.value,
            "over": self.is_over(),
            "won": self.status is Status.WON,
            "legal": self.legal_actions(0) if seat == 0 else [],
            "moves": len([m for m in self.moves if m != "give-up"]),
        }
