"""Numbered schema migrations (``NNNN_name.sql``), applied in order at start-up.

``PRAGMA user_version`` holds the number of the last applied file; each file runs in one
transaction together with the version bump.
"""

from __future__ import annotations

import re
from importlib import resources

import aiosqlite

_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


def migrations() -> list[tuple[int, str]]:
    """(number, SQL) of every migration file, in order."""
    found = []
    for entry in resources.files(__package__).iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.read_text(encoding="utf-8")))
    found.sort()
    numbers = [n for n, _ in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..n without gaps, found {numbers}")
    return found


async def apply_migrations(conn: aiosqlite.Connection, upto: int | None = None) -> int:
    """Apply every migration newer than the database (up to ``upto``); return the version."""
    async with conn.execute("PRAGMA user_version") as cur:
        current = (await cur.fetchone())[0]
    for number, sql in migrations():
        if number <= current or (upto is not None and number > upto):
            continue
        await conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in _statements(sql):
                await conn.execute(statement)
            await conn.execute(f"PRAGMA user_version = {number}")
            await conn.execute("COMMIT")
        except BaseException:
            await conn.execute("ROLLBACK")
            raise
        current = number
    return current


def _statements(sql: str) -> list[str]:
    """Split a migration into statements (no semicolons inside string literals, by rule)."""
    lines = [line for line in sql.splitlines() if not line.strip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
