"""Migration 0002: the outcome of a finished game moves out of the ui JSON into its own column,
on both back-ends, and the service writes it there."""

from __future__ import annotations

import json

import aiosqlite
import asyncpg
from pg import fresh_schema
from support import member

from storage import Database
from storage.migrations import apply_migrations, apply_postgres_migrations

OUTCOME = {"winners": [1], "termination": "resign", "scores": [], "details": {}}
INSERT = (
    "INSERT INTO game_tables (guild_id, channel_id, kind, status, seats, options, state, ui, "
    "created_by, created_at, updated_at, last_move_at) "
    "VALUES (1, {channel}, 'quarters', 'finished', '[]', '{{}}', NULL, {ui}, 1, 0, 0, 0)"
)
OLD_UI = json.dumps({"outcome": OUTCOME, "selected": [[1, 1]]})


def quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


async def check_moved(db: Database) -> None:
    ended = await db.get_table(1)
    assert ended.outcome == OUTCOME and ended.ui == {"selected": [[1, 1]]}
    plain = await db.get_table(2)
    assert plain.outcome is None and plain.ui == {}


async def test_sqlite_moves_a_stored_outcome_into_its_column(tmp_path):
    path = tmp_path / "old.db"
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        await apply_migrations(conn, upto=1)
        await conn.execute(INSERT.format(channel=10, ui=quoted(OLD_UI)))
        await conn.execute(INSERT.format(channel=11, ui=quoted("{}")))
    db = await Database.open(path)
    try:
        await check_moved(db)
    finally:
        await db.close()


async def test_postgres_moves_a_stored_outcome_into_its_column():
    async with fresh_schema() as url:
        conn = await asyncpg.connect(url)
        try:
            await apply_postgres_migrations(conn, upto=1)
            await conn.execute(INSERT.format(channel=10, ui=quoted(OLD_UI)))
            await conn.execute(INSERT.format(channel=11, ui=quoted("{}")))
        finally:
            await conn.close()
        db = await Database.open(url)
        try:
            await check_moved(db)
        finally:
            await db.close()


async def test_a_resignation_is_stored_as_the_tables_outcome(service):
    alice = member(1, "Alice")
    reply = await service.start(alice, "quarters", {"piles": "3,4,5"})
    ended = await service.act(alice, reply.table_id, reply.version, "resign")
    assert ended.error is None
    table = await service.db.get_table(reply.table_id)
    assert table.outcome["termination"] == "resign" and table.outcome["winners"] == [1]
    assert "outcome" not in table.ui
