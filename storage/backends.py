"""The two SQL back-ends behind the repository: SQLite (aiosqlite) and PostgreSQL (asyncpg).

The repository writes its SQL once with ``?`` placeholders; a back-end runs it as its driver
wants it (PostgreSQL numbers them ``$1, $2, ...``). Every repository method runs in one
:meth:`Backend.session`, which is a transaction when asked for one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import shutil
import sqlite3
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any, Protocol

import aiosqlite
import asyncpg

from storage.errors import StoreUnavailable, sqlite_away, translated
from storage.migrations import apply_migrations, apply_postgres_migrations

DEFAULT_POOL_SIZE = 10
CONNECT_TIMEOUT = 5.0  # seconds a new PostgreSQL connection may take before the store is away
QUERY_TIMEOUT = 5.0  # seconds a PostgreSQL query may take before the store counts as away
log = logging.getLogger("parlour")
BUSY_TIMEOUT_MS = 5000  # how long a SQLite statement waits for a file another process holds
ROOM_PAGES = 64  # free pages a SQLite file needs, after a failed write, to take writes again
_PLACEHOLDER = re.compile(r"\?")


class Session(Protocol):
    """One connection (inside a transaction when the session asked for one)."""

    async def fetch(self, sql: str, *args: Any) -> list[Sequence[Any]]: ...

    async def fetchrow(self, sql: str, *args: Any) -> Sequence[Any] | None: ...

    async def execute(self, sql: str, *args: Any) -> None: ...

    async def executemany(self, sql: str, rows: list[Sequence[Any]]) -> None: ...


class Backend(Protocol):
    dialect: str
    integrity_errors: tuple[type[BaseException], ...]

    def session(
        self, *, transaction: bool = False
    ) -> contextlib.AbstractAsyncContextManager[Session]: ...

    async def schema_version(self) -> int: ...

    async def check_writes(self) -> None: ...

    async def close(self) -> None: ...


# -- SQLite ---------------------------------------------------------------------------------
_READS = ("SELECT", "WITH")  # statements that only read (the repository writes no CTE DML)


def _reads_only(sql: str) -> bool:
    """Whether ``sql`` only reads (a ``SELECT``).

    >>> _reads_only("  select 1"), _reads_only("UPDATE t SET a = 1 RETURNING a")
    (True, False)
    """
    return sql.lstrip()[:6].upper().startswith(_READS)


class _SqliteSession:
    """Statements on the writing connection, each one trip to aiosqlite's thread (a cursor's
    execute, fetch and close are three). Outside a transaction, reads go to the reading
    connection and each write takes the writing connection for itself (see
    :class:`SqliteBackend`)."""

    def __init__(self, backend: SqliteBackend, *, transaction: bool) -> None:
        self._backend = backend
        self._transaction = transaction

    @contextlib.asynccontextmanager
    async def _connection(self, sql: str) -> AsyncIterator[aiosqlite.Connection]:
        backend = self._backend
        if self._transaction:  # the session holds the writing connection already
            yield backend.conn
        elif backend.reader is not None and _reads_only(sql):
            yield backend.reader
        else:
            async with backend.writing():
                yield backend.conn

    async def fetch(self, sql: str, *args: Any) -> list[Sequence[Any]]:
        async with self._connection(sql) as conn:
            return list(await conn.execute_fetchall(sql, args))

    async def fetchrow(self, sql: str, *args: Any) -> Sequence[Any] | None:
        rows = await self.fetch(sql, *args)  # every caller asks for one row at most
        return rows[0] if rows else None

    async def execute(self, sql: str, *args: Any) -> None:
        async with self._connection(sql) as conn:
            await conn.execute(sql, args)

    async def executemany(self, sql: str, rows: list[Sequence[Any]]) -> None:
        async with self._connection(sql) as conn:
            await conn.executemany(sql, rows)


async def _enter_wal(conn: aiosqlite.Connection, attempts: int = 40) -> None:
    """Switch a database to WAL mode. SQLite answers "database is locked" at once, without
    waiting on the busy timeout, when another connection is switching the same fresh file at
    the same moment (several processes starting together), so try again a little later."""
    for attempt in range(attempts):
        try:
            await conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == attempts - 1:
                raise
            await asyncio.sleep(0.01 * (attempt + 1))


class SqliteBackend:
    """Two aiosqlite connections to one file in WAL mode with ``synchronous=NORMAL``: one
    writes, one reads.

    The writing connection has one transaction at a time, so writers take turns (a lock): a
    write of one table never interleaves with another table's transaction. Reads outside a
    transaction go to the reading connection, which WAL lets read the last commit while a
    write is under way: a read never queues behind a write that waits for the file (held by
    another process, up to ``busy_timeout``), so a member's command that only reads is
    answered at once, and the client's deadline covers every wait. An in-memory database
    (one per connection) has the writing connection only.
    """

    dialect = "sqlite"
    integrity_errors: tuple[type[BaseException], ...] = (aiosqlite.IntegrityError,)

    def __init__(
        self,
        conn: aiosqlite.Connection,
        reader: aiosqlite.Connection | None = None,
        path: Path | None = None,
    ):
        self.conn = conn
        self.reader = reader
        self.path = path  # the file (None in memory): its disk's free space counts as room
        self._lock = asyncio.Lock()
        self.write_failure: str | None = None  # why a write failed, until check_writes passes

    @classmethod
    async def open(cls, path: str | Path) -> SqliteBackend:
        path = Path(path)
        in_memory = str(path) == ":memory:"
        if not in_memory:
            path.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)
        reader = None
        try:
            await conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            await _enter_wal(conn)
            await conn.execute("PRAGMA synchronous=NORMAL")
            await conn.execute("PRAGMA foreign_keys=ON")
            await apply_migrations(conn)
            if not in_memory:
                reader = await aiosqlite.connect(path, isolation_level=None)
                await reader.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
                await reader.execute("PRAGMA query_only=ON")
        except BaseException:
            await conn.close()
            if reader is not None:
                await reader.close()
            raise
        return cls(conn, reader, None if in_memory else path)

    @contextlib.asynccontextmanager
    async def writing(self) -> AsyncIterator[None]:
        """The writing connection, for one statement or one transaction; a failure because
        the file is out of reach is kept in :attr:`write_failure` (see :meth:`check_writes`)."""
        async with self._lock:
            if self.conn.in_transaction:  # left open by a statement cancelled on its way
                log.warning("rolling back a SQLite transaction nobody holds")
                await self.conn.execute("ROLLBACK")
            try:
                yield
            except sqlite3.Error as exc:
                if sqlite_away(exc):
                    self.write_failure = f"{type(exc).__name__}: {exc}"
                raise

    async def check_writes(self) -> None:
        """Raise :class:`StoreUnavailable` while writes fail. Nothing is checked until a write
        fails (the bot's writes are the probe: a write may fail where a smaller one still
        goes, so one that went does not clear a failure); from then on, until a check passes,
        the file must have room to grow (:data:`ROOM_PAGES` free pages, or pages it may still
        add within its limit and its disk's free space) and one row is written (a read-only
        file, a lock held too long or an I/O error show there)."""
        failure = self.write_failure
        if failure is None:
            return
        with translated(self.dialect):
            async with self._lock:
                rows = await self.conn.execute_fetchall(
                    "SELECT * FROM pragma_page_count(), pragma_freelist_count(), "
                    "pragma_max_page_count(), pragma_page_size()"
                )
        pages, free, limit, size = next(iter(rows))
        grow = limit - pages
        if self.path is not None:
            grow = min(grow, shutil.disk_usage(self.path.parent).free // size)
        if grow + free < ROOM_PAGES:  # a page or two freed by a clean-up is not room
            raise StoreUnavailable(failure)
        async with self.session(transaction=True) as s:
            await s.execute(
                "INSERT INTO meta (name, value) VALUES ('write checked', ?) "
                "ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                str(round(time.time())),
            )
        self.write_failure = None

    @contextlib.asynccontextmanager
    async def session(self, *, transaction: bool = False) -> AsyncIterator[Session]:
        with translated(self.dialect):
            if not transaction:
                yield _SqliteSession(self, transaction=False)
                return
            async with self.writing():
                try:  # a BEGIN whose caller is cancelled still runs: it is rolled back too
                    await self.conn.execute("BEGIN IMMEDIATE")
                    yield _SqliteSession(self, transaction=True)
                    await self.conn.execute("COMMIT")
                except BaseException:
                    await self._roll_back()
                    raise

    async def _roll_back(self) -> None:
        """Undo the open transaction. The connection's thread runs its statements in order, so
        this comes after a BEGIN still on its way; with none open (SQLite rolls back by itself
        on a full disk, a BEGIN may have failed) SQLite's refusal is ignored."""
        with contextlib.suppress(sqlite3.Error):
            await self.conn.execute("ROLLBACK")

    async def schema_version(self) -> int:
        async with self.session() as s:
            row = await s.fetchrow("PRAGMA user_version")
        assert row is not None
        return int(row[0])

    async def close(self) -> None:
        if self.reader is not None:
            await self.reader.close()
        await self.conn.close()


# -- PostgreSQL -----------------------------------------------------------------------------
def postgres_sql(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's numbered ones (no ``?`` in literals, by rule).

    >>> postgres_sql("SELECT a FROM t WHERE b = ? AND c IN (?, ?)")
    'SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)'
    """
    count = 0

    def number(_: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(number, sql)


class _PostgresSession:
    def __init__(self, conn: Any) -> None:
        self._conn = conn

    async def fetch(self, sql: str, *args: Any) -> list[Sequence[Any]]:
        return list(await self._conn.fetch(postgres_sql(sql), *args))

    async def fetchrow(self, sql: str, *args: Any) -> Sequence[Any] | None:
        row: Sequence[Any] | None = await self._conn.fetchrow(postgres_sql(sql), *args)
        return row

    async def execute(self, sql: str, *args: Any) -> None:
        await self._conn.execute(postgres_sql(sql), *args)

    async def executemany(self, sql: str, rows: list[Sequence[Any]]) -> None:
        await self._conn.executemany(postgres_sql(sql), rows)


class PostgresBackend:
    """An asyncpg connection pool (``pool_size`` connections at most). A query not answered
    within :data:`QUERY_TIMEOUT` (a server that accepts connections and hangs) raises
    :class:`StoreUnavailable`, as a server gone does.

    Query parameters of the URL other than libpq's own become server settings, so
    ``postgresql://host/db?search_path=other`` keeps everything in the schema ``other``.
    """

    dialect = "postgresql"

    integrity_errors: tuple[type[BaseException], ...] = (asyncpg.UniqueViolationError,)

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    @classmethod
    async def open(cls, url: str, *, pool_size: int = DEFAULT_POOL_SIZE) -> PostgresBackend:
        if pool_size < 1:
            raise ValueError("the pool needs at least one connection")
        pool = await asyncpg.create_pool(
            url,
            min_size=1,
            max_size=pool_size,
            timeout=CONNECT_TIMEOUT,
            command_timeout=QUERY_TIMEOUT,
        )
        try:
            async with pool.acquire() as conn:
                await apply_postgres_migrations(conn)
        except BaseException:
            await pool.close()
            raise
        return cls(pool)

    @contextlib.asynccontextmanager
    async def session(self, *, transaction: bool = False) -> AsyncIterator[Session]:
        with translated(self.dialect):
            async with self.pool.acquire() as conn:
                if not transaction:
                    yield _PostgresSession(conn)
                    return
                async with conn.transaction():
                    yield _PostgresSession(conn)

    async def schema_version(self) -> int:
        async with self.session() as s:
            row = await s.fetchrow("SELECT version FROM schema_version")
        return int(row[0]) if row else 0

    async def check_writes(self) -> None:
        """Nothing more than :meth:`schema_version`'s query: a server that answers it takes
        writes, unless it was made read-only on purpose."""

    async def close(self) -> None:
        await self.pool.close()
