"""Places on both back-ends: migration 0004 of a 0003 database with data, and results, ratings,
daily boards and members' data kept per place (a server, a chat outside servers, a DM)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import aiosqlite
import asyncpg

from storage import Database, Place, PlaceKind, Result, Seat, TableStatus
from storage.backends import postgres_sql
from storage.daily import AttemptStatus
from storage.migrations import apply_migrations, apply_postgres_migrations
from storage.privacy import erase_guild, forget_member, guilds_with_data, member_data

SERVER, CHAT = 10, 500  # a guild id; a group DM's channel id
ALICE, BOB = 1, 2
NOON = 1_796_644_800.0  # 2026-12-07 12:00 UTC

_OLD_ROWS = [
    "INSERT INTO game_tables (id, guild_id, channel_id, kind, status, seats, options, ui, "
    "created_by, created_at, updated_at, last_move_at) VALUES "
    "(1, 10, 100, 'checkers', 'finished', '[]', '{}', '{}', 1, 1, 1, 1), "
    "(2, 0, 300, 'checkers', 'finished', '[]', '{}', '{}', 1, 2, 2, 2)",
    "INSERT INTO results (table_id, guild_id, kind, user_id, user_name, outcome, "
    "rating_change, finished_at) VALUES (1, 10, 'checkers', 1, 'alice', 'win', 8, 1), "
    "(1, 10, 'checkers', 2, 'bob', 'loss', -8, 1), (2, 0, 'checkers', 1, 'alice', 'loss', -5, 2)",
    "INSERT INTO ratings (guild_id, kind, user_id, rating, games) VALUES "
    "(10, 'checkers', 1, 1208, 1), (10, 'checkers', 2, 1192, 1), (0, 'checkers', 1, 1195, 1)",
    "INSERT INTO daily_attempts (day, puzzle, user_id, guild_id, status, state, started_at, "
    "finished_at) VALUES ('2026-12-07', 'quarters', 1, 10, 'solved', '{}', 5, 6), "
    "('2026-12-07', 'quarters', 2, 0, 'solved', '{}', 5, 7)",
]


async def _at_0003_with_rows(target: Path | str) -> None:
    """A database of schema 0003 (before places) holding a server's and a DM's rows."""
    if isinstance(target, Path):
        async with aiosqlite.connect(target, isolation_level=None) as conn:
            assert await apply_migrations(conn, upto=3) == 3
            for sql in _OLD_ROWS:
                await conn.execute(sql)
        return
    conn = await asyncpg.connect(target)
    try:
        assert await apply_postgres_migrations(conn, upto=3) == 3
        for sql in _OLD_ROWS:
            await conn.execute(postgres_sql(sql))
    finally:
        await conn.close()


async def test_a_0003_database_with_data_moves_each_row_to_the_place_it_names(db_path):
    await _at_0003_with_rows(db_path)
    db = await Database.open(db_path)
    try:
        assert await db.schema_version() == 4
        server = {s.user_id: (s.wins, s.losses) for s in await db.standings(SERVER, "checkers")}
        assert server == {ALICE: (1, 0), BOB: (0, 1)}
        # guild 0 (a DM or a group DM, not told apart before 0004): each member's own record
        own = await db.standings(Place.dm(ALICE), "checkers")
        assert [(s.user_id, s.losses, s.rating) for s in own] == [(ALICE, 1, 1195.0)]
        assert await db.ratings(SERVER, "checkers", [ALICE]) == {ALICE: 1208.0}
        assert await db.ratings(Place.dm(ALICE), "checkers", [ALICE]) == {ALICE: 1195.0}
        assert (await db.get_table(1)).place is PlaceKind.SERVER
        assert (await db.get_table(2)).place is PlaceKind.DM
        day = date(2026, 12, 7)
        assert [a.user_id for a in await db.daily.solvers(SERVER, day)] == [ALICE]
        assert [a.user_id for a in await db.daily.solvers(Place.dm(BOB), day)] == [BOB]
        assert await guilds_with_data(db) == {SERVER}
    finally:
        await db.close()


async def _checkers(db, guild, channel, place, alice_change, *, now):
    """A rated game of checkers, Alice against Bob, in a place."""
    table = await db.create_table(
        guild_id=guild,
        channel_id=channel,
        kind="checkers",
        status=TableStatus.ACTIVE,
        seats=[Seat("alice", ALICE), Seat("bob", BOB)],
        options={},
        state={},
        created_by=ALICE,
        place=place,
        now=now,
    )
    won = "win" if alice_change > 0 else "loss"
    lost = "loss" if alice_change > 0 else "win"
    results = [
        Result(ALICE, won, rating_change=alice_change, name="alice"),
        Result(BOB, lost, rating_change=-alice_change, name="bob"),
    ]
    assert await db.finish_table(table, results, now=now)
    return table


async def test_results_ratings_and_members_data_are_kept_per_place(db_path):
    db = await Database.open(db_path)
    try:
        await _checkers(db, SERVER, 100, None, 16.0, now=NOON)
        await _checkers(db, 0, CHAT, PlaceKind.CHAT, -10.0, now=NOON + 1)
        await _checkers(db, 0, 700, PlaceKind.DM, 4.0, now=NOON + 2)
        chat = Place.chat(CHAT)
        assert {s.user_id: s.wins for s in await db.standings(chat, "checkers")} == {
            ALICE: 0,
            BOB: 1,
        }
        # ratings no longer mix: each place has its own, from the default
        assert await db.ratings(SERVER, "checkers", [ALICE, BOB]) == {ALICE: 1216.0, BOB: 1184.0}
        assert await db.ratings(chat, "checkers", [ALICE, BOB]) == {ALICE: 1190.0, BOB: 1210.0}
        assert await db.ratings(Place.dm(ALICE), "checkers", [ALICE]) == {ALICE: 1204.0}
        assert await db.ratings(Place.dm(BOB), "checkers", [BOB]) == {BOB: 1196.0}
        history = await db.rating_history(ALICE, "checkers")
        assert sorted((p.place, p.guild_id, p.rating) for p in history) == [
            (PlaceKind.CHAT, CHAT, 1190.0),
            (PlaceKind.DM, ALICE, 1204.0),
            (PlaceKind.SERVER, SERVER, 1216.0),
        ]
        # the chat's data, then everything outside servers from the DM
        in_chat = await member_data(db, chat, ALICE)
        assert (in_chat["place"], in_chat["chat"]) == ("chat", str(CHAT))
        assert [r["rating_change"] for r in in_chat["results"]] == [-10.0]
        outside = await member_data(db, Place.dm(ALICE), ALICE)
        assert [(r["place"], r["outcome"]) for r in outside["results"]] == [
            ("chat", "loss"),
            ("dm", "win"),
        ]
        assert len(outside["games"]) == 2 and outside["server_settings"] == {}
        # a server's erasure leaves the chat and the DMs; they are no server's
        erased = await erase_guild(db, SERVER)
        assert (erased.tables, erased.results, erased.ratings) == (1, 2, 2)
        assert await guilds_with_data(db) == set()
        forgotten = await forget_member(db, Place.dm(ALICE), ALICE)
        assert (forgotten.results, forgotten.ratings, forgotten.tables) == (2, 2, 2)
        assert await db.standings(Place.dm(ALICE), "checkers") == []
        assert [s.user_id for s in await db.standings(chat, "checkers")] == [BOB]
        assert await db.ratings(Place.dm(BOB), "checkers", [BOB]) == {BOB: 1196.0}
    finally:
        await db.close()


async def test_daily_boards_are_per_place(db_path):
    db = await Database.open(db_path)
    try:
        chat = Place.chat(CHAT)
        for user, place in ((ALICE, chat), (BOB, None)):
            attempt, _ = await db.daily.start(
                puzzle="quarters",
                user_id=user,
                user_name=f"m{user}",
                guild_id=0,
                state={},
                now=NOON,
                place=place,
            )
            attempt.status = AttemptStatus.SOLVED
            assert await db.daily.save(attempt, now=NOON + user)
        day = date(2026, 12, 7)
        assert [a.user_id for a in await db.daily.solvers(chat, day)] == [ALICE]
        assert [a.user_id for a in await db.daily.solvers(Place.dm(BOB), day)] == [BOB]
        assert await db.daily.solvers(0, day) == []  # guild 0 is no place
    finally:
        await db.close()
