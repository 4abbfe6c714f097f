"""The daily puzzles' attempts: one per member, per puzzle, per UTC day, stored as they happen.

``DailyStore(db.backend)`` (also ``db.daily``) starts or resumes an attempt, saves each move
under a version check (a click that arrives twice is applied once), and reads the boards and
streaks. The day of an attempt is the UTC day it started on, whenever it ends.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from enum import StrEnum
from typing import Any

from storage.backends import Backend
from storage.models import Place, PlaceKind

PUZZLES = ("quarters", "checkers", "quatorze")
_COLUMNS = (
    "id, day, puzzle, user_id, user_name, guild_id, status, state, moves, hints, score, version, "
    "started_at, finished_at, place, place_id"
)

_ONE_ATTEMPT = f"SELECT {_COLUMNS} FROM daily_attempts WHERE user_id = ? AND day = ? AND puzzle = ?"


class AttemptStatus(StrEnum):
    PLAYING = "playing"
    SOLVED = "solved"
    FAILED = "failed"


@dataclass(slots=True)
class Attempt:
    """One member's try at one puzzle of one day."""

    id: int
    day: date
    puzzle: str
    user_id: int
    user_name: str
    guild_id: int
    status: AttemptStatus
    state: dict[str, Any]
    moves: int
    hints: int
    score: int
    version: int
    started_at: float
    finished_at: float | None
    place: Place | None = None  # where it counts: the server, the chat, the member's own record

    @property
    def over(self) -> bool:
        return self.status is not AttemptStatus.PLAYING


@dataclass(frozen=True, slots=True)
class Streak:
    """Days in a row solved, up to today (or yesterday, while today is still open)."""

    current: int
    best: int


def day_of(moment: float) -> date:
    """The UTC day of a Unix time."""
    return datetime.fromtimestamp(moment, UTC).date()


def _attempt(row: Sequence[Any]) -> Attempt:
    return Attempt(
        id=int(row[0]),
        day=date.fromisoformat(row[1]),
        puzzle=row[2],
        user_id=int(row[3]),
        user_name=row[4],
        guild_id=int(row[5]),
        status=AttemptStatus(row[6]),
        state=json.loads(row[7]),
        moves=int(row[8]),
        hints=int(row[9]),
        score=int(row[10]),
        version=int(row[11]),
        started_at=float(row[12]),
        finished_at=None if row[13] is None else float(row[13]),
        place=Place(PlaceKind(row[14]), int(row[15])),
    )


def _where(place: Place | int) -> Place:
    """A place as given, or a server's by its guild id."""
    return place if isinstance(place, Place) else Place.server(place)


def streak_of(days: Iterable[date], today: date) -> Streak:
    """The running and the longest streak of consecutive days among ``days``.

    >>> d = date(2026, 12, 7)
    >>> streak_of([d, d - timedelta(1), d - timedelta(3)], d)
    Streak(current=2, best=2)
    >>> streak_of([d - timedelta(1)], d)  # today is still open
    Streak(current=1, best=1)
    """
    ordered = sorted(set(days))
    best = run = 0
    previous: date | None = None
    for day in ordered:
        run = run + 1 if previous is not None and day - previous == timedelta(1) else 1
        best = max(best, run)
        previous = day
    alive = previous is not None and today - previous <= timedelta(1)
    return Streak(current=run if alive else 0, best=best)


class DailyStore:
    """The daily attempts of one database (either back-end)."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend

    async def start(
        self,
        *,
        puzzle: str,
        user_id: int,
        user_name: str,
        guild_id: int,
        state: dict[str, Any],
        now: float | None = None,
        place: Place | None = None,
    ) -> tuple[Attempt, bool]:
        """Today's attempt of the member at ``puzzle``: (attempt, True) when it was just made,
        (the attempt already there, False) otherwise: starting again resumes, never restarts.
        It counts in ``place`` (by default the server, or with guild 0 the member's own)."""
        now = time.time() if now is None else now
        if place is None:
            place = Place.server(guild_id) if guild_id else Place.dm(user_id)
        day = day_of(now).isoformat()
        async with self.backend.session(transaction=True) as s:
            row = await s.fetchrow(
                f"INSERT INTO daily_attempts (day, puzzle, user_id, user_name, guild_id, status, "
                f"state, started_at, place, place_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                f"ON CONFLICT (user_id, day, puzzle) DO NOTHING RETURNING {_COLUMNS}",
                day,
                puzzle,
                user_id,
                user_name,
                guild_id,
                AttemptStatus.PLAYING.value,
                json.dumps(state, separators=(",", ":")),
                now,
                place.kind.value,
                place.id,
            )
            if row is not None:
                return _attempt(row), True
            row = await s.fetchrow(
                _ONE_ATTEMPT,
                user_id,
                day,
                puzzle,
            )
        assert row is not None
        return _attempt(row), False

    async def get(self, attempt_id: int) -> Attempt | None:
        async with self.backend.session() as s:
            row = await s.fetchrow(
                f"SELECT {_COLUMNS} FROM daily_attempts WHERE id = ?", attempt_id
            )
        return None if row is None else _attempt(row)

    async def find(self, user_id: int, day: date, puzzle: str) -> Attempt | None:
        async with self.backend.session() as s:
            row = await s.fetchrow(
                _ONE_ATTEMPT,
                user_id,
                day.isoformat(),
                puzzle,
            )
        return None if row is None else _attempt(row)

    async def attempts_of(self, user_id: int, day: date) -> dict[str, Attempt]:
        """The member's attempts of ``day`` by puzzle."""
        async with self.backend.session() as s:
            rows = await s.fetch(
                f"SELECT {_COLUMNS} FROM daily_attempts WHERE user_id = ? AND day = ?",
                user_id,
                day.isoformat(),
            )
        return {a.puzzle: a for a in map(_attempt, rows)}

    async def save(self, attempt: Attempt, now: float | None = None) -> bool:
        """Store ``attempt`` if nobody saved it since it was read (its version); then bump its
        version. False (and nothing written) when it was stale: a second click of the same
        move, or a move on an attempt already over."""
        now = time.time() if now is None else now
        finished = attempt.finished_at
        if attempt.over and finished is None:
            finished = now
        async with self.backend.session(transaction=True) as s:
            row = await s.fetchrow(
                "UPDATE daily_attempts SET status = ?, state = ?, moves = ?, hints = ?, score = ?, "
                "finished_at = ?, version = version + 1 "
                "WHERE id = ? AND version = ? AND status = ? RETURNING version",
                attempt.status.value,
                json.dumps(attempt.state, separators=(",", ":")),
                attempt.moves,
                attempt.hints,
                attempt.score,
                finished,
                attempt.id,
                attempt.version,
                AttemptStatus.PLAYING.value,
            )
        if row is None:
            return False
        attempt.version = int(row[0])
        attempt.finished_at = finished
        return True

    async def mark_shared(self, attempt: Attempt) -> bool:
        """Note that the finished ``attempt`` was shared (``state["shared"]``), if nobody changed
        it since it was read: True the first time, False when it was shared already (or a
        second click of the same Share arrived first)."""
        if not attempt.over or attempt.state.get("shared"):
            return False
        state = {**attempt.state, "shared": True}
        async with self.backend.session(transaction=True) as s:
            row = await s.fetchrow(
                "UPDATE daily_attempts SET state = ?, version = version + 1 "
                "WHERE id = ? AND version = ? AND status <> ? RETURNING version",
                json.dumps(state, separators=(",", ":")),
                attempt.id,
                attempt.version,
                AttemptStatus.PLAYING.value,
            )
        if row is None:
            return False
        attempt.state, attempt.version = state, int(row[0])
        return True

    async def solvers(self, where: Place | int, day: date) -> list[Attempt]:
        """The attempts of ``day`` started in the place (a guild id: that server) and solved,
        in finishing order."""
        place = _where(where)
        async with self.backend.session() as s:
            rows = await s.fetch(
                f"SELECT {_COLUMNS} FROM daily_attempts WHERE place = ? AND place_id = ? "
                "AND day = ? AND status = ? ORDER BY finished_at, id",
                place.kind.value,
                place.id,
                day.isoformat(),
                AttemptStatus.SOLVED.value,
            )
        return [_attempt(r) for r in rows]

    async def _solved_days(
        self, user_ids: Iterable[int] | None = None, place: Place | None = None
    ) -> dict[int, dict[str, set[date]]]:
        where: list[str] = ["status = ?"]
        args: list[str | int] = [AttemptStatus.SOLVED.value]
        if place is not None:
            where.append(
                "user_id IN (SELECT user_id FROM daily_attempts WHERE place = ? AND place_id = ?)"
            )
            args += [place.kind.value, place.id]
        ids = None if user_ids is None else set(user_ids)
        async with self.backend.session() as s:
            rows = await s.fetch(
                f"SELECT user_id, puzzle, day FROM daily_attempts WHERE {' AND '.join(where)}",
                *args,
            )
        found: dict[int, dict[str, set[date]]] = {}
        for user_id, puzzle, day in rows:
            if ids is None or int(user_id) in ids:
                found.setdefault(int(user_id), {}).setdefault(puzzle, set()).add(
                    date.fromisoformat(day)
                )
        return found

    async def streaks(self, user_id: int, today: date) -> dict[str, Streak]:
        """The member's streaks: one per puzzle and ``all`` (days with all three solved)."""
        days = (await self._solved_days([user_id])).get(user_id, {})
        return _streaks(days, today)

    async def longest_streaks(
        self, where: Place | int, today: date, limit: int = 5
    ) -> list[tuple[int, Streak]]:
        """The running ``all`` streaks of members who played in the place (a guild id: that
        server), longest first."""
        found = await self._solved_days(place=_where(where))
        ranked = [(uid, _streaks(days, today)["all"]) for uid, days in found.items()]
        ranked = [(uid, st) for uid, st in ranked if st.current > 0]
        ranked.sort(key=lambda item: (-item[1].current, item[0]))
        return ranked[:limit]

    async def names(self, user_ids: Iterable[int]) -> dict[int, str]:
        """The latest name stored for each member."""
        ids = list(user_ids)
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        async with self.backend.session() as s:
            rows = await s.fetch(
                f"SELECT user_id, user_name FROM daily_attempts WHERE user_id IN ({marks}) "
                "ORDER BY started_at",
                *ids,
            )
        return {int(uid): name for uid, name in rows}


def _streaks(days: dict[str, set[date]], today: date) -> dict[str, Streak]:
    out = {p: streak_of(days.get(p, set()), today) for p in PUZZLES}
    every = set.intersection(*(days.get(p, set()) for p in PUZZLES))
    out["all"] = streak_of(every, today)
    return out
