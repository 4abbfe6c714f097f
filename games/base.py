"""The shape every game engine shares.

Each game package (``games.quarters``, ``games.checkers``, ...) exposes:

- ``State``: a position, with ``new(...)``, ``to_dict()`` / ``from_dict()`` (plain JSON with a
  ``schema`` number), ``seats`` (how many), ``to_act()`` (the seats that may act now: one seat,
  several during a simultaneous phase such as the Hearts pass, none once over),
  ``legal_actions(seat)`` (canonical action strings in a stable order), ``apply(seat, action)``
  (raises :class:`IllegalAction`, leaving the state unchanged), ``is_over()``, ``outcome()`` and
  ``view(seat)`` (what that seat may see: a plain dict, hidden cards removed).
- ``choose(state, seat, level, budget, seed) -> str``: the computer's action, a pure function
  that always returns a legal action within about ``budget`` seconds.
- ``LEVELS``: the level names, weakest first; the last one is the default.

Actions are short strings (``"1-2"`` for Quarters, ``"11-15"`` for Checkers, ``"QS"`` for
Hearts): one canonical form per game, used in custom_ids, move logs and tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


class IllegalAction(ValueError):
    """An action that the rules refuse. ``str(exc)`` is a short message fit to show a player."""


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

    def to_dict(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "termination": self.termination,
            "scores": list(self.scores),
            "details": self.details,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Outcome:
        return cls(
            winners=tuple(data["winners"]),
            termination=data["termination"],
            scores=tuple(data.get("scores", ())),
            details=dict(data.get("details", {})),
        )


class GameState(Protocol):
    """The protocol every game's ``State`` follows (see the module docstring)."""

    seats: int

    def to_dict(self) -> dict[str, Any]: ...
    def to_act(self) -> tuple[int, ...]: ...
    def legal_actions(self, seat: int) -> list[str]: ...
    def apply(self, seat: int, action: str) -> None: ...
    def is_over(self) -> bool: ...
    def outcome(self) -> Outcome | None: ...
    def view(self, seat: int | None) -> dict[str, Any]: ...
