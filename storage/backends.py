"""The two SQL back-ends behind the repository: SQLite (aiosqlite) and PostgreSQL (asyncpg).

The repository writes its SQL once with ``?`` placeholders; a back-end runs it as its driver
wants it (PostgreSQL numbers them ``$1, $2, ...``). Every repository method runs in one
:meth:`Backend.session`, which is a transaction when asked for one.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import sqlite3
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any, Protocol

import aiosqlite
import asyncpg

from storage.errors import translated
from storage.migrations import apply_migrations, apply_postgres_migrations

DEFAULT_POOL_SIZE = 10
CONNECT_TIMEOUT = 5.0  # seconds a new PostgreSQL connection may take before the store is away
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

    async def close(self) -> None: ...


# -- SQLite ---------------------------------------------------------------------------------
class _SqliteSession:
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def fetch(self, sql: str, *args: Any) -> list[Sequence[Any]]:
        # One trip to aiosqlite's thread (a cursor's execute, fetch and close are three).
        return list(await self._conn.execute_fetchall(sql, args))

    async def fetchrow(self, sql: str, *args: Any) -> Sequence[Any] | None:
        rows = await self.fetch(sql, *args)  # every caller asks for one row at most
        return rows[0] if rows else None

    async def execute(self, sql: str, *args: Any) -> None:
        await self._conn.execute(sql, args)

    async def executemany(self, sql: str, rows: list[Sequence[Any]]) -> None:
        await self._conn.executemany(sql, rows)


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
    """One aiosqlite connection in WAL mode with ``synchronous=NORMAL``.

    One connection has one transaction at a time, so sessions take turns (a lock): a write of
    one table never interleaves with another table's transaction.
    """

    dialect = "sqlite"
    integrity_errors: tuple[type[BaseException], ...] = (aiosqlite.IntegrityError,)

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> SqliteBackend:
        path = Path(path)
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            await conn.execute("PRAGMA busy_timeout=5000")
            await _enter_wal(conn)
            await conn.execute("PRAGMA synchronous=NORMAL")
            await conn.execute("PRAGMA foreign_keys=ON")
            await apply_migrations(conn)
        except BaseException:
            await conn.close()
            raise
        return cls(conn)

    @contextlib.asynccontextmanager
    async def session(self, *, transaction: bool = False) -> AsyncIterator[Session]:
        async with self._lock:
            with translated(self.dialect):
                if not transaction:
                    yield _SqliteSession(self.conn)
                    return
                await self.conn.execute("BEGIN IMMEDIATE")
                try:
                    yield _SqliteSession(self.conn)
                    await self.conn.execute("COMMIT")
                except BaseException:
                    await self._roll_back()
                    raise

    async def _roll_back(self) -> None:
        """Undo the open transaction, if SQLite has not already (it does on a full disk)."""
        if self.conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                await self.conn.execute("ROLLBACK")

    async def schema_version(self) -> int:
        async with self.session() as s:
            row = await s.fetchrow("PRAGMA user_version")
        assert row is not None
        return int(row[0])

    async def close(self) -> None:
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
    """An asyncpg connection pool (``pool_size`` connections at most).

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
            url, min_size=1, max_size=pool_size, timeout=CONNECT_TIMEOUT
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

    async def close(self) -> None:
        await self.pool.close()
