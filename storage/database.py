"""The repository: every query the bot runs, over one aiosqlite connection.

SQLite in WAL mode with ``synchronous=NORMAL``; every write is its own transaction. Saves are
version-checked (``UPDATE ... WHERE id = ? AND version = ?``) so two racing clicks apply once.
"""

from __future__ import annotations

import asyncio
import functools
import json
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from storage.migrations import apply_migrations
from storage.models import RatingPoint, Result, Seat, Standing, Table, TableStatus

_TABLE_COLUMNS = (
    "id, guild_id, channel_id, kind, status, seats, options, state, ui, version, "
    "board_message_id, created_by, created_at, updated_at, last_move_at"
)
DEFAULT_RATING = 1200.0


def database_path(url: str) -> Path:
    """The file behind a SQLAlchemy-style URL.

    >>> database_path("sqlite:///data/parlour.db")
    PosixPath('data/parlour.db')
    >>> database_path("sqlite:////var/lib/parlour/parlour.db")
    PosixPath('/var/lib/parlour/parlour.db')
    """
    prefix = "sqlite:///"
    if not url.startswith(prefix):
        scheme = url.split(":", 1)[0]
        raise ValueError(f"DATABASE_URL scheme {scheme!r} is not supported yet; use sqlite:///...")
    return Path(url[len(prefix) :])


def _row_to_table(row: Sequence[Any]) -> Table:
    return Table(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        kind=row[3],
        status=TableStatus(row[4]),
        seats=[Seat.from_dict(s) for s in json.loads(row[5])],
        options=json.loads(row[6]),
        state=json.loads(row[7]) if row[7] is not None else None,
        ui=json.loads(row[8]),
        version=row[9],
        board_message_id=row[10],
        created_by=row[11],
        created_at=row[12],
        updated_at=row[13],
        last_move_at=row[14],
    )


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _serialised(method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """Run the method alone on the connection: one connection has one transaction at a time,
    so a write of one table must not interleave with another table's transaction."""

    @functools.wraps(method)
    async def wrapper(self: Database, *args: Any, **kwargs: Any) -> Any:
        async with self._lock:
            return await method(self, *args, **kwargs)

    return wrapper


class Database:
    """Open with ``await Database.open(path)``; close with ``await db.close()``.

    Every public method runs alone on the one connection (see :func:`_serialised`).
    """

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> Database:
        path = Path(path)
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute("PRAGMA synchronous=NORMAL")
        await conn.execute("PRAGMA foreign_keys=ON")
        await conn.execute("PRAGMA busy_timeout=5000")
        await apply_migrations(conn)
        return cls(conn)

    async def close(self) -> None:
        await self._conn.close()

    @_serialised
    async def schema_version(self) -> int:
        async with self._conn.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0])

    # -- tables -----------------------------------------------------------------------------
    @_serialised
    async def create_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        kind: str,
        status: TableStatus,
        seats: list[Seat],
        options: dict[str, Any],
        state: dict[str, Any] | None,
        ui: dict[str, Any] | None = None,
        created_by: int,
        now: float | None = None,
    ) -> Table | None:
        """Insert a new open table; None when the channel already has one."""
        now = time.time() if now is None else now
        try:
            cur = await self._conn.execute(
                "INSERT INTO game_tables (guild_id, channel_id, kind, status, seats, options, "
                "state, ui, created_by, created_at, updated_at, last_move_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    guild_id,
                    channel_id,
                    kind,
                    status.value,
                    _dump([s.to_dict() for s in seats]),
                    _dump(options),
                    None if state is None else _dump(state),
                    _dump(ui or {}),
                    created_by,
                    now,
                    now,
                    now,
                ),
            )
        except aiosqlite.IntegrityError:
            return None
        return await self._get_table(cur.lastrowid)

    @_serialised
    async def get_table(self, table_id: int) -> Table | None:
        return await self._get_table(table_id)

    async def _get_table(self, table_id: int) -> Table | None:
        async with self._conn.execute(
            f"SELECT {_TABLE_COLUMNS} FROM game_tables WHERE id = ?", (table_id,)
        ) as cur:
            row = await cur.fetchone()
        return _row_to_table(row) if row else None

    @_serialised
    async def open_table_in_channel(self, channel_id: int) -> Table | None:
        async with self._conn.execute(
            f"SELECT {_TABLE_COLUMNS} FROM game_tables WHERE channel_id = ? "
            "AND status IN ('challenge', 'active')",
            (channel_id,),
        ) as cur:
            row = await cur.fetchone()
        return _row_to_table(row) if row else None

    @_serialised
    async def last_table_in_channel(self, channel_id: int, kind: str) -> Table | None:
        """The channel's most recent table of ``kind``, open or not (None when it has none)."""
        async with self._conn.execute(
            f"SELECT {_TABLE_COLUMNS} FROM game_tables WHERE channel_id = ? AND kind = ? "
            "ORDER BY id DESC LIMIT 1",
            (channel_id, kind),
        ) as cur:
            row = await cur.fetchone()
        return _row_to_table(row) if row else None

    @_serialised
    async def open_tables(self) -> list[Table]:
        async with self._conn.execute(
            f"SELECT {_TABLE_COLUMNS} FROM game_tables "
            "WHERE status IN ('challenge', 'active') ORDER BY id"
        ) as cur:
            rows = await cur.fetchall()
        return [_row_to_table(r) for r in rows]

    @_serialised
    async def save_table(
        self, table: Table, *, moved: bool = False, now: float | None = None
    ) -> bool:
        """Write ``table`` if nobody changed it since it was read; bump its version.

        Returns False (and writes nothing) when the stored version differs.
        """
        return await self._save(table, moved=moved, now=now, results=())

    @_serialised
    async def finish_table(
        self,
        table: Table,
        results: Iterable[Result],
        *,
        status: TableStatus = TableStatus.FINISHED,
        now: float | None = None,
    ) -> bool:
        """Save the final state and the players' results in one transaction (version-checked)."""
        table.status = status
        return await self._save(table, moved=True, now=now, results=tuple(results))

    async def _save(
        self, table: Table, *, moved: bool, now: float | None, results: tuple[Result, ...]
    ) -> bool:
        now = time.time() if now is None else now
        await self._conn.execute("BEGIN IMMEDIATE")
        try:
            cur = await self._conn.execute(
                "UPDATE game_tables SET status = ?, seats = ?, options = ?, state = ?, ui = ?, "
                "version = version + 1, updated_at = ?, "
                "last_move_at = CASE WHEN ? THEN ? ELSE last_move_at END "
                "WHERE id = ? AND version = ?",
                (
                    table.status.value,
                    _dump([s.to_dict() for s in table.seats]),
                    _dump(table.options),
                    None if table.state is None else _dump(table.state),
                    _dump(table.ui),
                    now,
                    moved,
                    now,
                    table.id,
                    table.version,
                ),
            )
            if cur.rowcount != 1:
                await self._conn.execute("ROLLBACK")
                return False
            for result in results:
                await self._insert_result(table, result, now)
            await self._conn.execute("COMMIT")
        except BaseException:
            await self._conn.execute("ROLLBACK")
            raise
        table.version += 1
        table.updated_at = now
        if moved:
            table.last_move_at = now
        return True

    async def _insert_result(self, table: Table, result: Result, now: float) -> None:
        await self._conn.execute(
            "INSERT INTO results (table_id, guild_id, kind, user_id, user_name, outcome, points, "
            "rating_change, vs_computer, extra, finished_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                table.id,
                table.guild_id,
                table.kind,
                result.user_id,
                result.name,
                result.outcome,
                result.points,
                result.rating_change,
                int(result.vs_computer),
                _dump(result.extra),
                now,
            ),
        )
        if result.rating_change:
            await self._conn.execute(
                "INSERT INTO ratings (guild_id, kind, user_id, rating, games) "
                "VALUES (?, ?, ?, ? + ?, 1) ON CONFLICT (guild_id, kind, user_id) DO UPDATE SET "
                "rating = rating + excluded.rating - ?, games = games + 1",
                (
                    table.guild_id,
                    table.kind,
                    result.user_id,
                    DEFAULT_RATING,
                    result.rating_change,
                    DEFAULT_RATING,
                ),
            )

    @_serialised
    async def set_board_message(self, table_id: int, message_id: int) -> None:
        """Remember the board's message (no version bump: the board's controls stay valid).

        Only this method writes ``board_message_id``, so a save racing with it cannot undo it.
        """
        await self._conn.execute(
            "UPDATE game_tables SET board_message_id = ? WHERE id = ?", (message_id, table_id)
        )

    # -- scores -----------------------------------------------------------------------------
    @_serialised
    async def ratings(self, guild_id: int, kind: str, user_ids: Iterable[int]) -> dict[int, float]:
        """Current ratings (the default for members without one)."""
        ids = list(user_ids)
        found: dict[int, float] = {}
        if ids:
            marks = ",".join("?" * len(ids))
            async with self._conn.execute(
                f"SELECT user_id, rating FROM ratings WHERE guild_id = ? AND kind = ? "
                f"AND user_id IN ({marks})",
                (guild_id, kind, *ids),
            ) as cur:
                found = {row[0]: row[1] for row in await cur.fetchall()}
        return {uid: found.get(uid, DEFAULT_RATING) for uid in ids}

    @_serialised
    async def rating_history(
        self, user_id: int, kind: str, guild_id: int | None = None
    ) -> list[RatingPoint]:
        """A member's rating after each rated game of ``kind``, per server (or in one server),
        oldest first within a server. Rebuilt from the results' rating changes, from the
        default rating, so it always ends at the rating the ``ratings`` table holds."""
        sql = (
            "SELECT guild_id, table_id, finished_at, rating_change FROM results "
            "WHERE user_id = ? AND kind = ? AND rating_change <> 0"
        )
        params: list[Any] = [user_id, kind]
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(guild_id)
        async with self._conn.execute(sql + " ORDER BY guild_id, finished_at, id", params) as cur:
            rows = await cur.fetchall()
        rating: dict[int, float] = {}
        points = []
        for guild, table_id, finished_at, change in rows:
            rating[guild] = rating.get(guild, DEFAULT_RATING) + change
            points.append(RatingPoint(guild, table_id, finished_at, rating[guild]))
        return points

    @_serialised
    async def standings(self, guild_id: int, kind: str) -> list[Standing]:
        """Every player's totals for one game in one server (not yet ordered)."""
        return list((await self._standings_by(guild_id, "kind", kind, "user_id")).values())

    @_serialised
    async def player_standings(self, guild_id: int, user_id: int) -> dict[str, Standing]:
        """One member's totals in every game they played in a server, by game kind."""
        return await self._standings_by(guild_id, "user_id", user_id, "kind")

    async def _standings_by(
        self, guild_id: int, column: str, value: Any, group: str
    ) -> dict[Any, Standing]:
        """Totals of the results where ``column = value``, one :class:`Standing` per ``group``
        (``column`` and ``group`` are ``kind`` or ``user_id``; never user input)."""
        assert {column, group} == {"kind", "user_id"}
        async with self._conn.execute(
            f"SELECT r.{group}, r.user_id, COUNT(*), SUM(r.outcome = 'win'), "
            "SUM(r.outcome = 'loss'), SUM(r.outcome = 'draw'), SUM(r.points), MAX(r.points), "
            "g.rating, (SELECT user_name FROM results n WHERE n.guild_id = r.guild_id "
            "AND n.user_id = r.user_id ORDER BY n.id DESC LIMIT 1) "
            "FROM results r LEFT JOIN ratings g ON g.guild_id = r.guild_id AND g.kind = r.kind "
            f"AND g.user_id = r.user_id WHERE r.guild_id = ? AND r.{column} = ? "
            f"GROUP BY r.{group}",
            (guild_id, value),
        ) as cur:
            rows = await cur.fetchall()
        extras: dict[Any, dict[str, float]] = {}
        async with self._conn.execute(
            f"SELECT r.{group}, j.key, SUM(j.value) FROM results r, json_each(r.extra) j "
            f"WHERE r.guild_id = ? AND r.{column} = ? AND j.type IN ('integer', 'real') "
            f"GROUP BY r.{group}, j.key",
            (guild_id, value),
        ) as cur:
            for key, name, total in await cur.fetchall():
                extras.setdefault(key, {})[name] = total
        return {
            r[0]: Standing(
                user_id=r[1],
                name=r[9],
                games=r[2],
                wins=r[3],
                losses=r[4],
                draws=r[5],
                points=r[6] or 0,
                best=r[7] or 0,
                rating=r[8],
                extra=extras.get(r[0], {}),
            )
            for r in rows
        }

    # -- settings and meta ------------------------------------------------------------------
    @_serialised
    async def guild_setting(self, guild_id: int, name: str) -> str | None:
        async with self._conn.execute(
            "SELECT value FROM guild_settings WHERE guild_id = ? AND name = ?", (guild_id, name)
        ) as cur:
            row = await cur.fetchone()
        return row[0] if row else None

    @_serialised
    async def set_guild_setting(self, guild_id: int, name: str, value: str) -> None:
        await self._conn.execute(
            "INSERT INTO guild_settings (guild_id, name, value) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id, name) DO UPDATE SET value = excluded.value",
            (guild_id, name, value),
        )

    @_serialised
    async def get_meta(self, name: str) -> str | None:
        async with self._conn.execute("SELECT value FROM meta WHERE name = ?", (name,)) as cur:
            row = await cur.fetchone()
        return row[0] if row else None

    @_serialised
    async def set_meta(self, name: str, value: str) -> None:
        await self._conn.execute(
            "INSERT INTO meta (name, value) VALUES (?, ?) "
            "ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            (name, value),
        )
