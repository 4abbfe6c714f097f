"""The repository: every query the bot runs, on SQLite or PostgreSQL (see ``storage.backends``).

``DATABASE_URL`` chooses the back-end: ``sqlite:///path`` (the default, one file in WAL mode)
or ``postgresql://user:password@host:5432/name`` (an asyncpg pool). The SQL is written once;
the few fragments that differ between the dialects are in :data:`_DIALECT_SQL`. Saves are
version-checked (``UPDATE ... WHERE id = ? AND version = ?``) so two racing clicks apply once,
and a table's final state, its results and the rating changes commit in one transaction.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

from storage.backends import (
    DEFAULT_POOL_SIZE,
    Backend,
    PostgresBackend,
    Session,
    SqliteBackend,
)
from storage.daily import DailyStore
from storage.models import (
    Place,
    PlaceKind,
    RatingPoint,
    Result,
    Seat,
    Standing,
    Table,
    TableStatus,
)

_TABLE_COLUMNS = (
    "id, guild_id, channel_id, kind, status, seats, options, state, ui, version, "
    "board_message_id, created_by, created_at, updated_at, last_move_at, outcome, place"
)
DEFAULT_RATING = 1200.0
_SQLITE_PREFIX = "sqlite:///"
_POSTGRES_SCHEMES = ("postgresql://", "postgres://")

# The per-game figures of the results (``extra``, a JSON object) summed by key.
_DIALECT_SQL = {
    "sqlite": {
        "extra_sums": "SELECT r.{group}, j.key, SUM(j.value) FROM results r, json_each(r.extra) j "
        "WHERE r.place = ? AND r.place_id = ? AND r.{column} = ? "
        "AND j.type IN ('integer', 'real') "
        "GROUP BY r.{group}, j.key",
    },
    "postgresql": {
        "extra_sums": "SELECT r.{group}, j.key, SUM(j.value::text::numeric) "
        "FROM results r, jsonb_each(r.extra::jsonb) j "
        "WHERE r.place = ? AND r.place_id = ? AND r.{column} = ? "
        "AND jsonb_typeof(j.value) = 'number' "
        "GROUP BY r.{group}, j.key",
    },
}


def parse_database_url(url: str) -> Path | str:
    """The SQLite file behind ``sqlite:///...``, or a PostgreSQL URL as it is.

    >>> parse_database_url("sqlite:///data/parlour.db")
    PosixPath('data/parlour.db')
    >>> parse_database_url("postgresql://parlour@db:5432/parlour")
    'postgresql://parlour@db:5432/parlour'
    """
    if url.startswith(_SQLITE_PREFIX):
        return Path(url[len(_SQLITE_PREFIX) :])
    if url.startswith(_POSTGRES_SCHEMES):
        return url
    scheme = url.split(":", 1)[0]
    raise ValueError(
        f"scheme {scheme!r} is not supported; use sqlite:///path/to/file.db "
        "or postgresql://user:password@host:5432/name"
    )


def database_path(url: str) -> Path:
    """The file behind a ``sqlite:///`` URL.

    >>> database_path("sqlite:////var/lib/parlour/parlour.db")
    PosixPath('/var/lib/parlour/parlour.db')
    """
    target = parse_database_url(url)
    if not isinstance(target, Path):
        raise ValueError(f"{url.split(':', 1)[0]!r} is not a SQLite URL")
    return target


def is_postgres(target: str | Path) -> bool:
    """Whether ``target`` (a path or a URL) names a PostgreSQL database."""
    return isinstance(target, str) and target.startswith(_POSTGRES_SCHEMES)


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
        outcome=json.loads(row[15]) if row[15] is not None else None,
        place=PlaceKind(row[16]),
    )


def place_of(where: Place | int) -> Place:
    """A place as given, or a server's by its guild id (how the server-only callers name it)."""
    return where if isinstance(where, Place) else Place.server(where)


def _plain_number(value: Any) -> float:
    """A sum as SQLite gives it: an int when whole (PostgreSQL sums JSON numbers as Decimal)."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    plain: float = value  # SQLite's own int or float
    return plain


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


class Database:
    """Open with ``await Database.open(path_or_url)``; close with ``await db.close()``.

    Every public method runs in one session of the back-end: alone on SQLite's one connection,
    on a pooled connection on PostgreSQL.
    """

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self.daily = DailyStore(backend)  # the daily puzzles' attempts
        self.shard_scope: tuple[int, tuple[int, ...]] | None = None

    def only_shards(self, shard_count: int, shard_ids: Iterable[int]) -> None:
        """Make :meth:`open_tables` list only the tables of these shards by default: what a
        process running those shards acts on by itself (restoring, sweeps, time-outs)."""
        self.shard_scope = (shard_count, tuple(shard_ids))

    @classmethod
    async def open(cls, target: str | Path, *, pool_size: int = DEFAULT_POOL_SIZE) -> Database:
        """Open (and migrate) a SQLite file, a ``sqlite:///`` URL or a ``postgresql://`` URL;
        ``pool_size`` caps PostgreSQL's connections."""
        if isinstance(target, str):
            target = parse_database_url(target) if "://" in target else Path(target)
        if is_postgres(target):
            return cls(await PostgresBackend.open(str(target), pool_size=pool_size))
        return cls(await SqliteBackend.open(target))

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.backend.dialect

    async def close(self) -> None:
        await self.backend.close()

    async def schema_version(self) -> int:
        return await self.backend.schema_version()

    # -- tables -----------------------------------------------------------------------------
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
        place: PlaceKind | None = None,
    ) -> Table | None:
        """Insert a new open table; None when the channel already has one. Its results count
        in ``place`` (by default its server, or with guild 0 each member's own record)."""
        now = time.time() if now is None else now
        if place is None:
            place = PlaceKind.SERVER if guild_id else PlaceKind.DM
        try:
            async with self.backend.session(transaction=True) as s:
                row = await s.fetchrow(
                    "INSERT INTO game_tables (guild_id, channel_id, kind, status, seats, options, "
                    "state, ui, created_by, created_at, updated_at, last_move_at, place) "
                    f"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING {_TABLE_COLUMNS}",
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
                    place.value,
                )
        except self.backend.integrity_errors:
            return None
        assert row is not None
        return _row_to_table(row)

    async def get_table(self, table_id: int) -> Table | None:
        return await self._one_table(
            f"SELECT {_TABLE_COLUMNS} FROM game_tables WHERE id = ?", table_id
        )

    async def open_table_in_channel(self, channel_id: int) -> Table | None:
        return await self._one_table(
            f"SELECT {_TABLE_COLUMNS} FROM game_tables WHERE channel_id = ? "
            "AND status IN ('challenge', 'active')",
            channel_id,
        )

    async def last_table_in_channel(self, channel_id: int, kind: str) -> Table | None:
        """The channel's most recent table of ``kind``, open or not (None when it has none)."""
        return await self._one_table(
            f"SELECT {_TABLE_COLUMNS} FROM game_tables WHERE channel_id = ? AND kind = ? "
            "ORDER BY id DESC LIMIT 1",
            channel_id,
            kind,
        )

    async def finished_tables(
        self, guild_id: int, kind: str, *, channel_id: int | None = None, limit: int = 25
    ) -> list[Table]:
        """The server's (or one channel's) finished tables of ``kind``, newest first."""
        sql = (
            f"SELECT {_TABLE_COLUMNS} FROM game_tables WHERE guild_id = ? AND kind = ? "
            "AND status = 'finished'"
        )
        args: list[Any] = [guild_id, kind]
        if channel_id is not None:
            sql += " AND channel_id = ?"
            args.append(channel_id)
        async with self.backend.session() as s:
            rows = await s.fetch(sql + " ORDER BY id DESC LIMIT ?", *args, limit)
        return [_row_to_table(row) for row in rows]

    async def _one_table(self, sql: str, *args: Any) -> Table | None:
        async with self.backend.session() as s:
            row = await s.fetchrow(sql, *args)
        return _row_to_table(row) if row else None

    async def open_tables(
        self, *, shard_count: int | None = None, shard_ids: Iterable[int] | None = None
    ) -> list[Table]:
        """Every open table, oldest first; with ``shard_count`` and ``shard_ids`` (by default
        those of :meth:`only_shards`) only those whose guild belongs to one of those shards
        (``(guild_id >> 22) % shard_count``)."""
        scope = self._shard_filter(shard_count, shard_ids)
        if scope is None:
            return []
        where, args = scope
        async with self.backend.session() as s:
            rows = await s.fetch(
                f"SELECT {_TABLE_COLUMNS} FROM game_tables "
                f"WHERE status IN ('challenge', 'active'){where} ORDER BY id",
                *args,
            )
        return [_row_to_table(r) for r in rows]

    async def open_table_counts(self) -> dict[str, int]:
        """How many tables are open, by game (in this process's shards, see :meth:`only_shards`)."""
        scope = self._shard_filter(None, None)
        if scope is None:
            return {}
        where, args = scope
        async with self.backend.session() as s:
            rows = await s.fetch(
                "SELECT kind, COUNT(*) FROM game_tables "
                f"WHERE status IN ('challenge', 'active'){where} GROUP BY kind",
                *args,
            )
        return {r[0]: int(r[1]) for r in rows}

    def _shard_filter(
        self, shard_count: int | None, shard_ids: Iterable[int] | None
    ) -> tuple[str, list[Any]] | None:
        """The ``AND ...`` clause keeping the given shards' guilds (by default those of
        :meth:`only_shards`; none when unscoped), with its arguments; None when no shard."""
        if shard_count is None and self.shard_scope is not None:
            shard_count, shard_ids = self.shard_scope
        if shard_count is None:
            return "", []
        ids = sorted(set(shard_ids if shard_ids is not None else range(shard_count)))
        if not ids:
            return None
        return f" AND (guild_id >> 22) % ? IN ({', '.join('?' * len(ids))})", [shard_count, *ids]

    async def save_table(
        self, table: Table, *, moved: bool = False, now: float | None = None
    ) -> bool:
        """Write ``table`` if nobody changed it since it was read; bump its version.

        Returns False (and writes nothing) when the stored version differs.
        """
        return await self._save(table, moved=moved, now=now, results=())

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
        async with self.backend.session(transaction=bool(results)) as s:
            row = await s.fetchrow(
                "UPDATE game_tables SET status = ?, seats = ?, options = ?, state = ?, ui = ?, "
                "outcome = ?, version = version + 1, updated_at = ?, last_move_at = ? "
                "WHERE id = ? AND version = ? RETURNING version",
                table.status.value,
                _dump([s.to_dict() for s in table.seats]),
                _dump(table.options),
                None if table.state is None else _dump(table.state),
                _dump(table.ui),
                None if table.outcome is None else _dump(table.outcome),
                now,
                now if moved else table.last_move_at,
                table.id,
                table.version,
            )
            if row is None:
                return False
            for result in results:
                await self._insert_result(s, table, result, now)
        table.version += 1
        table.updated_at = now
        if moved:
            table.last_move_at = now
        return True

    async def _insert_result(self, s: Session, table: Table, result: Result, now: float) -> None:
        place = table.place_of(result.user_id)
        await s.execute(
            "INSERT INTO results (table_id, guild_id, kind, user_id, user_name, outcome, points, "
            "rating_change, vs_computer, extra, finished_at, place, place_id) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            table.id,
            table.guild_id,
            table.kind,
            result.user_id,
            result.name,
            result.outcome,
            result.points,
            float(result.rating_change),
            int(result.vs_computer),
            _dump(result.extra),
            now,
            place.kind.value,
            place.id,
        )
        if result.rating_change:
            await s.execute(
                "INSERT INTO ratings (place, place_id, kind, user_id, rating, games) "
                "VALUES (?, ?, ?, ?, ?, 1) ON CONFLICT (place, place_id, kind, user_id) "
                "DO UPDATE SET rating = ratings.rating + ?, games = ratings.games + 1",
                place.kind.value,
                place.id,
                table.kind,
                result.user_id,
                DEFAULT_RATING + result.rating_change,
                float(result.rating_change),
            )

    async def set_board_message(self, table_id: int, message_id: int) -> None:
        """Remember the board's message (no version bump: the board's controls stay valid).

        Only this method writes ``board_message_id``, so a save racing with it cannot undo it.
        """
        async with self.backend.session() as s:
            await s.execute(
                "UPDATE game_tables SET board_message_id = ? WHERE id = ?", message_id, table_id
            )

    # -- scores -----------------------------------------------------------------------------
    async def ratings(
        self, where: Place | int, kind: str, user_ids: Iterable[int]
    ) -> dict[int, float]:
        """Current ratings in a place (a guild id: that server's), the default for members
        without one."""
        place = place_of(where)
        ids = list(user_ids)
        found: dict[int, float] = {}
        if ids:
            marks = ", ".join("?" * len(ids))
            async with self.backend.session() as s:
                rows = await s.fetch(
                    "SELECT user_id, rating FROM ratings WHERE place = ? AND place_id = ? "
                    f"AND kind = ? AND user_id IN ({marks})",
                    place.kind.value,
                    place.id,
                    kind,
                    *ids,
                )
            found = {row[0]: row[1] for row in rows}
        return {uid: found.get(uid, DEFAULT_RATING) for uid in ids}

    async def table_ratings(self, table: Table, user_ids: Iterable[int]) -> dict[int, float]:
        """The members' current ratings where their results at ``table`` count."""
        found: dict[int, float] = {}
        for uid in user_ids:
            found |= await self.ratings(table.place_of(uid), table.kind, [uid])
        return found

    async def rating_history(
        self, user_id: int, kind: str, where: Place | int | None = None
    ) -> list[RatingPoint]:
        """A member's rating after each rated game of ``kind``, per place (or in one place; a
        guild id: that server), oldest first within a place. Rebuilt from the results' rating
        changes, from the default rating, so it always ends at the rating ``ratings`` holds."""
        sql = (
            "SELECT place, place_id, table_id, finished_at, rating_change FROM results "
            "WHERE user_id = ? AND kind = ? AND rating_change <> 0"
        )
        params: list[Any] = [user_id, kind]
        if where is not None:
            place = place_of(where)
            sql += " AND place = ? AND place_id = ?"
            params += [place.kind.value, place.id]
        async with self.backend.session() as s:
            rows = await s.fetch(sql + " ORDER BY place, place_id, finished_at, id", *params)
        rating: dict[tuple[str, int], float] = {}
        points = []
        for kind_of_place, place_id, table_id, finished_at, change in rows:
            key = (kind_of_place, place_id)
            rating[key] = rating.get(key, DEFAULT_RATING) + change
            points.append(
                RatingPoint(place_id, table_id, finished_at, rating[key], PlaceKind(kind_of_place))
            )
        return points

    async def standings(self, where: Place | int, kind: str) -> list[Standing]:
        """Every player's totals for one game in one place (a guild id: that server), not yet
        ordered."""
        return list((await self._standings_by(place_of(where), "kind", kind, "user_id")).values())

    async def player_standings(self, where: Place | int, user_id: int) -> dict[str, Standing]:
        """One member's totals in every game they played in a place (a guild id: that server),
        by game kind."""
        return await self._standings_by(place_of(where), "user_id", user_id, "kind")

    async def _standings_by(
        self, place: Place, column: str, value: Any, group: str
    ) -> dict[Any, Standing]:
        """Totals of the results where ``column = value``, one :class:`Standing` per ``group``
        (``column`` and ``group`` are ``kind`` or ``user_id``; never user input)."""
        assert {column, group} == {"kind", "user_id"}
        extra_sums = _DIALECT_SQL[self.dialect]["extra_sums"].format(group=group, column=column)
        async with self.backend.session() as s:
            rows = await s.fetch(
                f"SELECT r.{group}, r.user_id, COUNT(*), "
                "SUM(CASE WHEN r.outcome = 'win' THEN 1 ELSE 0 END), "
                "SUM(CASE WHEN r.outcome = 'loss' THEN 1 ELSE 0 END), "
                "SUM(CASE WHEN r.outcome = 'draw' THEN 1 ELSE 0 END), SUM(r.points), "
                "MAX(r.points), MAX(g.rating), (SELECT n.user_name FROM results n "
                "WHERE n.place = r.place AND n.place_id = r.place_id AND n.user_id = r.user_id "
                "ORDER BY n.id DESC LIMIT 1) "
                "FROM results r LEFT JOIN ratings g ON g.place = r.place "
                "AND g.place_id = r.place_id AND g.kind = r.kind AND g.user_id = r.user_id "
                f"WHERE r.place = ? AND r.place_id = ? AND r.{column} = ? "
                f"GROUP BY r.{group}, r.user_id, r.place, r.place_id",
                place.kind.value,
                place.id,
                value,
            )
            extras: dict[Any, dict[str, float]] = {}
            for key, name, total in await s.fetch(extra_sums, place.kind.value, place.id, value):
                extras.setdefault(key, {})[name] = _plain_number(total)
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
    async def guild_setting(self, guild_id: int, name: str) -> str | None:
        async with self.backend.session() as s:
            row = await s.fetchrow(
                "SELECT value FROM guild_settings WHERE guild_id = ? AND name = ?", guild_id, name
            )
        return row[0] if row else None

    async def set_guild_setting(self, guild_id: int, name: str, value: str) -> None:
        async with self.backend.session() as s:
            await s.execute(
                "INSERT INTO guild_settings (guild_id, name, value) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id, name) DO UPDATE SET value = excluded.value",
                guild_id,
                name,
                value,
            )

    async def get_meta(self, name: str) -> str | None:
        async with self.backend.session() as s:
            row = await s.fetchrow("SELECT value FROM meta WHERE name = ?", name)
        return row[0] if row else None

    async def set_meta(self, name: str, value: str) -> None:
        async with self.backend.session() as s:
            await s.execute(
                "INSERT INTO meta (name, value) VALUES (?, ?) "
                "ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                name,
                value,
            )
