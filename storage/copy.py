"""Copy an installation's data between databases: ``python -m storage.copy SRC_URL DST_URL``.

Moves every table (tables, moves inside them, results, ratings, settings, meta) from SQLite to
PostgreSQL or back, keeping ids. Both databases are migrated to the latest schema first. A
destination that already holds data is refused unless ``--replace`` is given (which empties it
first). At the end the row counts of both sides are compared; the exit status says if they match.

    python -m storage.copy sqlite:///data/parlour.db postgresql://parlour@db:5432/parlour
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from typing import Any

from storage.backends import Session
from storage.database import Database

# In foreign-key order: results refer to game_tables.
TABLES = ("game_tables", "results", "ratings", "guild_settings", "meta", "daily_attempts")
_IDENTITY_TABLES = ("game_tables", "results", "daily_attempts")
_BATCH = 1000


class CopyError(Exception):
    """The copy was refused or did not check out; the message says why."""


async def columns(db: Database, table: str) -> list[str]:
    """The table's columns, in schema order."""
    async with db.backend.session() as s:
        return await _columns_in(db, s, table)


async def row_counts(db: Database) -> dict[str, int]:
    """Rows in each copied table."""
    counts = {}
    async with db.backend.session() as s:
        for table in TABLES:
            row = await s.fetchrow(f"SELECT COUNT(*) FROM {table}")
            counts[table] = int(row[0]) if row else 0
    return counts


async def contents(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every copied table, in a stable order (to compare two databases)."""
    found = {}
    async with db.backend.session() as s:
        for table in TABLES:
            names = await _columns_in(db, s, table)
            order = ", ".join(str(n) for n in range(1, len(names) + 1))
            rows = await s.fetch(f"SELECT {', '.join(names)} FROM {table} ORDER BY {order}")
            found[table] = [tuple(row) for row in rows]
    return found


async def _columns_in(db: Database, s: Session, table: str) -> list[str]:
    if db.dialect == "sqlite":
        return [row[1] for row in await s.fetch(f"PRAGMA table_info({table})")]
    rows = await s.fetch(
        "SELECT column_name FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position",
        table,
    )
    return [row[0] for row in rows]


async def copy(source: Database, target: Database, *, replace: bool = False) -> dict[str, int]:
    """Copy every row from ``source`` to ``target`` in one transaction; return the counts."""
    if await source.schema_version() != await target.schema_version():
        raise CopyError("the two databases are at different schema versions")
    existing = await row_counts(target)
    if any(existing.values()) and not replace:
        held = ", ".join(f"{n} {t}" for t, n in existing.items() if n)
        raise CopyError(f"the destination is not empty ({held}); pass --replace to overwrite it")
    async with target.backend.session(transaction=True) as out:
        for table in reversed(TABLES):
            await out.execute(f"DELETE FROM {table}")
        for table in TABLES:
            names = await columns(source, table)
            insert = (
                f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"
            )
            async with source.backend.session() as src:
                rows = await src.fetch(f"SELECT {', '.join(names)} FROM {table} ORDER BY 1")
            for start in range(0, len(rows), _BATCH):
                await out.executemany(insert, [tuple(r) for r in rows[start : start + _BATCH]])
        if target.dialect == "postgresql":
            await _move_identities_past_copied_ids(out)
    copied, wanted = await row_counts(target), await row_counts(source)
    if copied != wanted:
        raise CopyError(f"row counts differ after the copy: source {wanted}, destination {copied}")
    return copied


async def _move_identities_past_copied_ids(out: Session) -> None:
    """New rows must get ids after the copied ones (SQLite does this by itself)."""
    for table in _IDENTITY_TABLES:
        await out.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
            f"COALESCE(MAX(id), 1), MAX(id) IS NOT NULL) FROM {table}"
        )


async def run(source_url: str, target_url: str, *, replace: bool) -> dict[str, int]:
    source = await Database.open(source_url)
    try:
        target = await Database.open(target_url)
        try:
            return await copy(source, target, replace=replace)
        finally:
            await target.close()
    finally:
        await source.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m storage.copy", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("source", metavar="SRC_URL", help="sqlite:///... or postgresql://...")
    parser.add_argument("target", metavar="DST_URL", help="sqlite:///... or postgresql://...")
    parser.add_argument(
        "--replace", action="store_true", help="empty a destination that holds data first"
    )
    args = parser.parse_args(argv)
    try:
        counts = asyncio.run(run(args.source, args.target, replace=args.replace))
    except (CopyError, ValueError) as exc:
        print(f"storage.copy: {exc}", file=sys.stderr)
        return 1
    print("copied " + ", ".join(f"{n} {t}" for t, n in counts.items()) + "; row counts match")
    return 0


if __name__ == "__main__":
    sys.exit(main())
