"""Numbered schema migrations, applied in order at start-up on SQLite and on PostgreSQL.

Each migration is ``NNNN_name.sql``, shared by both dialects. Where PostgreSQL's SQL must differ
(identity columns, wider integer types), a ``NNNN_name.postgresql.sql`` next to it replaces the
shared file on PostgreSQL (and ``NNNN_name.sqlite.sql`` would do the same for SQLite).

The schema version is ``PRAGMA user_version`` on SQLite and the one row of ``schema_version`` on
PostgreSQL. Each migration runs in one transaction together with the version bump, and that
transaction takes the database's write lock (SQLite's ``BEGIN IMMEDIATE``, a PostgreSQL advisory
lock) *before* it reads the version, so several processes may start at once on a fresh database:
the first applies the migration, the others wait and then find it applied.
"""

from __future__ import annotations

import re
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

import aiosqlite

DIALECTS = ("sqlite", "postgresql")
_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+?)(?:\.(sqlite|postgresql))?\.sql$")
# pg_advisory_xact_lock key: "parlour" in ASCII; the lock ends with the transaction.
_PG_LOCK_KEY = 0x7061726C6F7572


def migrations(dialect: str = "sqlite", folder: Traversable | None = None) -> list[tuple[int, str]]:
    """(number, SQL) of every migration for ``dialect`` (from this package, or ``folder``),
    in order."""
    if dialect not in DIALECTS:
        raise ValueError(f"unknown SQL dialect {dialect!r}")
    shared: dict[int, str] = {}
    own: dict[int, str] = {}
    for entry in (folder or resources.files(__package__)).iterdir():
        match = _NAME.match(entry.name)
        if not match:
            continue
        number, _, only = int(match.group(1)), match.group(2), match.group(3)
        if only is None:
            shared[number] = entry.read_text(encoding="utf-8")
        elif only == dialect:
            own[number] = entry.read_text(encoding="utf-8")
    numbers = sorted(shared.keys() | own.keys())
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..n without gaps, found {numbers}")
    return [(n, own.get(n, shared.get(n, ""))) for n in numbers]


def statements(sql: str) -> list[str]:
    """Split a migration into statements (no semicolons inside string literals, by rule)."""
    lines = [line for line in sql.splitlines() if not line.strip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


def _first(row: Any) -> int:
    """The one value of a one-row, one-column answer (``PRAGMA user_version`` always has one)."""
    assert row is not None
    return int(row[0])


async def apply_migrations(conn: aiosqlite.Connection, upto: int | None = None) -> int:
    """Apply every SQLite migration newer than the database (up to ``upto``); return the version.

    ``conn`` must be in autocommit mode (``isolation_level=None``).
    """
    for number, sql in migrations("sqlite"):
        if upto is not None and number > upto:
            break
        await conn.execute("BEGIN IMMEDIATE")
        try:
            async with conn.execute("PRAGMA user_version") as cur:
                current = _first(await cur.fetchone())
            if number > current:
                for statement in statements(sql):
                    await conn.execute(statement)
                await conn.execute(f"PRAGMA user_version = {number}")
            await conn.execute("COMMIT")
        except BaseException:
            await conn.execute("ROLLBACK")
            raise
    async with conn.execute("PRAGMA user_version") as cur:
        return _first(await cur.fetchone())


async def apply_postgres_migrations(conn: Any, upto: int | None = None) -> int:
    """Apply every PostgreSQL migration newer than the schema (up to ``upto``) on an asyncpg
    connection; return the version."""
    current = 0
    for number, sql in migrations("postgresql"):
        if upto is not None and number > upto:
            break
        async with conn.transaction():
            current = await _locked_postgres_version(conn)
            if number > current:
                for statement in statements(sql):
                    await conn.execute(statement)
                await conn.execute("UPDATE schema_version SET version = $1", number)
                current = number
    if upto is None or current == 0:
        async with conn.transaction():
            current = await _locked_postgres_version(conn)
    return current


async def _locked_postgres_version(conn: Any) -> int:
    """Take the migration lock of the current schema, then read the version (0 when new)."""
    await conn.execute(
        "SELECT pg_advisory_xact_lock($1::bigint # hashtext(current_schema())::bigint)",
        _PG_LOCK_KEY,
    )
    await conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);"
        "INSERT INTO schema_version (version) SELECT 0 "
        "WHERE NOT EXISTS (SELECT 1 FROM schema_version)"
    )
    return int(await conn.fetchval("SELECT version FROM schema_version"))
