"""``python -m storage.copy``: SQLite -> PostgreSQL -> SQLite with equal contents."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest
from pg import fresh_schema

from storage import Database, Result, Seat, TableStatus
from storage.copy import CopyError, contents, copy, row_counts

ROOT = Path(__file__).resolve().parent.parent


async def populate(db: Database) -> None:
    """Open and finished tables in two guilds, results, ratings, settings and meta."""
    for n in range(6):
        table = await db.create_table(
            guild_id=(n % 2 + 1) << 40,
            channel_id=1000 + n,
            kind=("quarters", "hearts")[n % 2],
            status=TableStatus.ACTIVE,
            seats=[Seat("Alice", 1), Seat("Computer", None, "hard")],
            options={"piles": "1,2,3", "n": n},
            state={"moves": [f"{n}-1"], "seed": 12345678901234 + n} if n else None,
            ui={"pick": n},
            created_by=1,
            now=1_700_000_000.25 + n,
        )
        assert table is not None
        if n % 3 == 0:
            await db.set_board_message(table.id, 1_234_567_890_123_456_789 + n)
        if n >= 3:
            results = [
                Result(1, "win", 3 + n, rating_change=12.5, extra={"moons": 1}, name="Alice"),
                Result(2, "loss", 0, vs_computer=True, rating_change=-12.5, name="Bob"),
            ]
            assert await db.finish_table(table, results, now=1_700_000_100.5 + n)
    await db.set_guild_setting(1 << 40, "idle_claim_minutes", "7")
    await db.set_meta("command-hash:global", "abc")
    attempt, _ = await db.daily.start(
        puzzle="checkers",
        user_id=1 << 50,
        user_name="Alice",
        guild_id=1 << 40,
        state={"m": []},
        now=1_700_000_200.5,
    )
    attempt.moves = 3
    assert await db.daily.save(attempt, now=1_700_000_300.25)


async def test_a_populated_sqlite_database_round_trips_through_postgres_unchanged(tmp_path):
    original = await Database.open(tmp_path / "original.db")
    await populate(original)
    async with fresh_schema() as url:
        middle = await Database.open(url)
        back = await Database.open(tmp_path / "back.db")
        try:
            counts = await copy(original, middle)
            assert counts == {
                "game_tables": 6,
                "results": 6,
                "ratings": 4,
                "guild_settings": 1,
                "meta": 1,
                "daily_attempts": 1,
            }
            await copy(middle, back)
            assert await contents(back) == await contents(original)
            assert await contents(middle) == await contents(original)
            # New rows get fresh ids after the copied ones on both sides.
            for db in (middle, back):
                fresh = await db.create_table(
                    guild_id=5,
                    channel_id=1,
                    kind="kabu",
                    status=TableStatus.CHALLENGE,
                    seats=[Seat("A", 1)],
                    options={},
                    state=None,
                    created_by=1,
                )
                assert fresh.id == 7
        finally:
            await middle.close()
            await back.close()
            await original.close()


async def test_a_destination_holding_data_is_refused_unless_replaced(db_path, tmp_path):
    source = await Database.open(tmp_path / "source.db")
    target = await Database.open(db_path)
    try:
        await populate(source)
        await target.set_meta("mine", "keep?")
        with pytest.raises(CopyError, match=r"not empty .*1 meta.*--replace"):
            await copy(source, target)
        assert await target.get_meta("mine") == "keep?"
        await copy(source, target, replace=True)
        assert await target.get_meta("mine") is None
        assert await row_counts(target) == await row_counts(source)
    finally:
        await source.close()
        await target.close()


def test_the_command_copies_and_says_what_it_did(tmp_path):
    source, target = tmp_path / "a.db", tmp_path / "b.db"

    async def fill():
        db = await Database.open(source)
        await populate(db)
        await db.close()

    asyncio.run(fill())
    command = [sys.executable, "-m", "storage.copy", f"sqlite:///{source}", f"sqlite:///{target}"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "6 game_tables, 6 results" in done.stdout and "row counts match" in done.stdout
    again = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert again.returncode == 1 and "not empty" in again.stderr
    bad = subprocess.run(
        [*command[:3], "mysql://x/y", command[4]], cwd=ROOT, capture_output=True, text=True
    )
    assert bad.returncode == 1 and len(bad.stderr.strip().splitlines()) == 1
