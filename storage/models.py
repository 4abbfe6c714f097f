"""The rows the repository returns, as dataclasses."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class TableStatus(StrEnum):
    CHALLENGE = "challenge"
    ACTIVE = "active"
    FINISHED = "finished"
    STOPPED = "stopped"

    @property
    def is_open(self) -> bool:
        return self in (TableStatus.CHALLENGE, TableStatus.ACTIVE)


class PlaceKind(StrEnum):
    """Where results, ratings and daily attempts count (see :class:`Place`)."""

    SERVER = "server"  # a server: its scoreboard
    CHAT = "chat"  # a group DM (or another chat outside servers): that chat's scoreboard
    DM = "dm"  # the DM with Parlour: the member's own record


@dataclass(frozen=True, slots=True)
class Place:
    """One scoreboard's place: a server (``id`` its guild id), a chat outside servers (its
    channel id), or a member's own record from their DMs with Parlour (their user id)."""

    kind: PlaceKind
    id: int

    @classmethod
    def server(cls, guild_id: int) -> Place:
        return cls(PlaceKind.SERVER, guild_id)

    @classmethod
    def chat(cls, channel_id: int) -> Place:
        return cls(PlaceKind.CHAT, channel_id)

    @classmethod
    def dm(cls, user_id: int) -> Place:
        return cls(PlaceKind.DM, user_id)


@dataclass(slots=True)
class Seat:
    """A seat at a table: a member (``user_id``) or the computer (``ai_level``)."""

    name: str
    user_id: int | None = None
    ai_level: str | None = None

    @property
    def is_ai(self) -> bool:
        return self.user_id is None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "user_id": self.user_id, "ai_level": self.ai_level}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        return cls(data["name"], data.get("user_id"), data.get("ai_level"))


@dataclass(slots=True)
class Table:
    """One game in one channel, as stored."""

    id: int
    guild_id: int
    channel_id: int
    kind: str
    status: TableStatus
    seats: list[Seat]
    options: dict[str, Any]
    state: dict[str, Any] | None
    ui: dict[str, Any]
    version: int
    board_message_id: int | None
    created_by: int
    created_at: float
    updated_at: float
    last_move_at: float
    # How a finished game ended (JSON of games.base.Outcome), written by the table service.
    outcome: Mapping[str, Any] | None = None
    place: PlaceKind = PlaceKind.SERVER  # where its results count (see :meth:`place_of`)

    def place_of(self, user_id: int) -> Place:
        """Where ``user_id``'s result at this table counts: the server, the chat, or (in a DM
        with Parlour) the member's own record."""
        if self.place is PlaceKind.CHAT:
            return Place.chat(self.channel_id)
        if self.place is PlaceKind.DM:
            return Place.dm(user_id)
        return Place.server(self.guild_id)

    def seat_of(self, user_id: int) -> int | None:
        """The first seat ``user_id`` holds, or None."""
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None

    def seats_of(self, user_id: int) -> list[int]:
        return [i for i, seat in enumerate(self.seats) if seat.user_id == user_id]


@dataclass(frozen=True, slots=True)
class Result:
    """One player's result in one finished game."""

    user_id: int
    outcome: str  # win | loss | draw
    points: int = 0
    vs_computer: bool = False
    rating_change: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)
    name: str = ""


@dataclass(frozen=True, slots=True)
class Standing:
    """A line of a scoreboard."""

    user_id: int
    name: str
    games: int
    wins: int
    losses: int
    draws: int
    points: int
    best: int
    rating: float | None
    extra: dict[str, float]

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A member's rating in one place right after one rated game (``guild_id`` is the place's
    id: a server's guild id, a chat's channel id, the member's own id for their DMs)."""

    guild_id: int
    table_id: int
    finished_at: float
    rating: float
    place: PlaceKind = PlaceKind.SERVER
