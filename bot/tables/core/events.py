"""What happened at a table, as typed events, and the answer that carries them.

Each event kind has one short function in the client that turns it into its Discord call
(:mod:`bot.client.answers`). An :class:`Answer` is the events of one thing a member (or the
computer, or a timer) did at one table, in the order they are shown.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TypeVar

from bot.tables.screens import Screen
from games.base import Outcome


@dataclass(frozen=True, slots=True)
class Refused:
    """Nothing changed; ``reason`` is shown to the member only, with a link to the board."""

    reason: str
    board_message_id: int | None = None


@dataclass(frozen=True, slots=True)
class BoardChanged:
    """The table's board is now ``screen``: edited on ``message_id`` (or posted anew, the
    old message's controls retired, when ``repost``)."""

    screen: Screen
    message_id: int | None = None
    repost: bool = False
    # a repost's old message was this game's board: it says it moved on (not a finished game's)
    same_game: bool = True


@dataclass(frozen=True, slots=True)
class PrivateScreen:
    """A message only the member sees; ``in_place``: it replaces the private message they
    clicked on; ``hand_key``: it is their hand (see :meth:`Controller.private_key`)."""

    screen: Screen
    in_place: bool = False
    hand_key: str | None = None


@dataclass(frozen=True, slots=True)
class Posted:
    """A new message for the channel (a result, a game record)."""

    screen: Screen


@dataclass(frozen=True, slots=True)
class ComputerTurnDue:
    """The computer is to move next, ``delay`` seconds from now."""

    delay: float = 0.0


@dataclass(frozen=True, slots=True)
class ResultRecorded:
    """The game ended and its results (and ratings) were stored."""

    outcome: Outcome


E = TypeVar("E")

Event = Refused | BoardChanged | PrivateScreen | Posted | ComputerTurnDue | ResultRecorded


@dataclass(frozen=True, slots=True)
class Answer:
    """The events of one action at one table (``table_id`` None: no table was involved);
    ``version``: the table's version the screens' controls were drawn for."""

    events: tuple[Event, ...] = ()
    table_id: int | None = None
    version: int | None = None

    @classmethod
    def refuse(cls, reason: str, board_message_id: int | None = None) -> Answer:
        return cls((Refused(reason, board_message_id),))

    def plus(self, *events: Event) -> Answer:
        """This answer with ``events`` after its own."""
        return replace(self, events=self.events + events)

    def first(self, *events: Event) -> Answer:
        """This answer with ``events`` before its own."""
        return replace(self, events=events + self.events)

    def reposted(self, message_id: int | None = None, *, same_game: bool = True) -> Answer:
        """The board posted as a new message (the message ``message_id``, else the current
        one, retired; ``same_game``: it was this game's board, and says it moved on)."""
        events = tuple(
            replace(e, repost=True, message_id=message_id or e.message_id, same_game=same_game)
            if isinstance(e, BoardChanged)
            else e
            for e in self.events
        )
        return replace(self, events=events)

    def _one(self, kind: type[E]) -> E | None:
        return next((e for e in self.events if isinstance(e, kind)), None)

    @property
    def error(self) -> str | None:
        refused = self._one(Refused)
        return None if refused is None else refused.reason

    @property
    def board(self) -> Screen | None:
        changed = self._one(BoardChanged)
        return None if changed is None else changed.screen

    @property
    def board_message_id(self) -> int | None:
        """The board message: the one the board changes on, else the one a refusal links."""
        changed = self._one(BoardChanged)
        if changed is not None:
            return changed.message_id
        refused = self._one(Refused)
        return None if refused is None else refused.board_message_id

    @property
    def repost(self) -> bool:
        changed = self._one(BoardChanged)
        return changed is not None and changed.repost

    @property
    def private(self) -> Screen | None:
        shown = self._one(PrivateScreen)
        return None if shown is None else shown.screen

    @property
    def update_private(self) -> bool:
        shown = self._one(PrivateScreen)
        return shown is not None and shown.in_place

    @property
    def hand_key(self) -> str | None:
        shown = self._one(PrivateScreen)
        return None if shown is None else shown.hand_key

    @property
    def posts(self) -> list[Screen]:
        return [e.screen for e in self.events if isinstance(e, Posted)]

    @property
    def ai_next(self) -> bool:
        return self._one(ComputerTurnDue) is not None

    @property
    def delay(self) -> float:
        due = self._one(ComputerTurnDue)
        return 0.0 if due is None else due.delay
