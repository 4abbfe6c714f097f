"""The shape every game engine shares.

Each game package (``games.quarters``, ``games.checkers``, ...) exposes:

- ``State``: a position, with ``new(...)``, ``to_dict()`` / ``from_dict()`` (plain JSON with a
  ``schema`` number), ``seats`` (how many), ``to_act()`` (the seats that may act now: one seat,
  several during a simultaneous phase such as the Hearts pass, none once over),
  ``legal_actions(seat)`` (canonical action strings in a stable order), ``apply(seat, action)``
  (raises :class:`IllegalAction`, leaving the state unchanged), ``is_over()``, ``outcome()`` and
  ``view(seat)`` (what that seat may see, hidden cards removed: a plain dict, typed by a
  ``TypedDict`` beside the state, such as ``games.checkers.CheckersView``).
- ``choose(state, seat, level, budget, seed) -> str``: the computer's action, a pure function
  that always returns a legal action within about ``budget`` seconds (on average: a search may
  finish a depth it began a little past it).
- ``LEVELS``: the level names, weakest first; the last one is the default.
- ``ENGINE``: an :class:`Engine` tying the three together under the game's kind; the bot
  registers a game by its engine, and a type checker holds ``State`` to :class:`GameState` and
  ``choose`` to :class:`Chooser` there.

Actions are short strings (``"1-2"`` for Quarters, ``"11-15"`` for Checkers, ``"QS"`` for
Hearts): one canonical form per game, used in custom_ids, move logs and tests.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, Protocol, Self, TypedDict, TypeVar, runtime_checkable


class IllegalAction(ValueError):
    """An action that the rules refuse. ``str(exc)`` is a short message fit to show a player."""


class Ending(StrEnum):
    """How a game ended, in the bot's terms: by its rules, or by a member's act."""

    RULES = "rules"  # the engine ended it (a last coin, no moves, a draw by the rules...)
    RESIGN = "resign"  # a player resigned (or, in Hearts, the last member left)
    TIMEOUT = "timeout"  # the waiting player claimed an idle game


class OutcomeDict(TypedDict):
    """:meth:`Outcome.to_dict`: an outcome as plain JSON (in views, and stored with a table)."""

    winners: list[int]
    termination: str
    scores: list[int]
    details: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended.

    ``winners`` are seat numbers (empty for a draw or a game nobody won, several for a shared
    win). ``scores`` are per-seat points where the game keeps them (Hearts, Quatorze).
    ``termination`` says why it ended, in a word (``"last-coin"``, ``"no-moves"``, ``"resign"``).
    """

    winners: tuple[int, ...]
    termination: str
    scores: tuple[int, ...] = ()
    details: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def is_draw(self) -> bool:
        return not self.winners

    @property
    def ending(self) -> Ending:
        """Whether the rules ended the game, or a resignation or a claim.

        >>> Outcome((1,), "resign").ending
        <Ending.RESIGN: 'resign'>
        >>> Outcome((0,), "no-moves").ending
        <Ending.RULES: 'rules'>
        """
        try:
            return Ending(self.termination)
        except ValueError:
            return Ending.RULES

    def to_dict(self) -> OutcomeDict:
        return {
            "winners": list(self.winners),
            "termination": self.termination,
            "scores": list(self.scores),
            "details": self.details,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Outcome:
        return cls(
            winners=tuple(data["winners"]),
            termination=data["termination"],
            scores=tuple(data.get("scores", ())),
            details=dict(data.get("details", {})),
        )


@runtime_checkable
class GameState(Protocol):
    """The protocol every game's ``State`` follows (see the module docstring).

    ``new`` takes each game's own options (piles, a FEN, a seed, rules), so its parameters are
    left open; the bot's controller is the one caller that knows them.
    """

    @property
    def seats(self) -> int: ...

    @classmethod
    def new(cls, *args: Any, **kwargs: Any) -> Self: ...
    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self: ...
    def to_dict(self) -> dict[str, Any]: ...
    def to_act(self) -> tuple[int, ...]: ...
    def legal_actions(self, seat: int) -> list[str]: ...
    def apply(self, seat: int, action: str) -> None: ...
    def is_over(self) -> bool: ...
    def outcome(self) -> Outcome | None: ...
    def view(self, seat: int | None) -> Mapping[str, object]: ...


S = TypeVar("S", bound=GameState)
S_contra = TypeVar("S_contra", bound=GameState, contravariant=True)


class Chooser(Protocol[S_contra]):
    """The computer's choice: ``choose(state, seat, level, budget, seed) -> action``."""

    def __call__(
        self, state: S_contra, seat: int, level: str, budget: float, seed: int, /
    ) -> str: ...


@dataclass(frozen=True, slots=True)
class Engine(Generic[S]):
    """A game's engine as the rest of Parlour sees it: its kind, state type, AI and levels.

    Each game package exports one as ``ENGINE``. It is plain data made of top-level names, so a
    process pool can pickle it and run :meth:`choose` in a worker.
    """

    kind: str
    state: type[S]
    choose: Chooser[S]
    levels: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.levels:
            raise ValueError(f"the {self.kind} engine names no level for its AI")

    def load(self, data: dict[str, Any]) -> S:
        """The state stored as ``data`` (see ``State.to_dict``)."""
        return self.state.from_dict(data)

    @property
    def default_level(self) -> str:
        """The strongest level (the last), the one a table gets unless it asks for another."""
        return self.levels[-1]

    def decide(self, data: dict[str, Any], seat: int, level: str, budget: float, seed: int) -> str:
        """Rebuild the stored state and ask the AI for ``seat``'s action."""
        return self.choose(self.load(data), seat, level, budget, seed)
