"""Online backups of the SQLite database: consistent while writes run, and they restore."""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from storage import Database, Result, Seat, TableStatus
from storage.backup import BackupError, backup
from storage.database import DEFAULT_RATING

ROOT = Path(__file__).resolve().parent.parent
GUILD = 10


async def play_games(db: Database, stop: asyncio.Event, *, at_least: int) -> int:
    """Finish games (results and ratings in the finishing transaction) until told to stop."""
    played = 0
    while played < at_least or not stop.is_set():
        table = await db.create_table(
            guild_id=GUILD,
            channel_id=1000 + played,
            kind="checkers",
            status=TableStatus.ACTIVE,
            seats=[Seat("A", 1), Seat("B", 2)],
            options={},
            state={"ply": played},
            created_by=1,
        )
        table.state = {"ply": played, "over": True}
        assert await db.finish_table(
            table,
            [
                Result(1, "win", points=1, rating_change=8.0, name="A"),
                Result(2, "loss", points=0, rating_change=-8.0, name="B"),
            ],
        )
        played += 1
        await asyncio.sleep(0)
    return played


async def check_consistent(path: Path) -> int:
    """Open a copy with the bot's storage layer; every finished game has its results and its
    rating changes, no more, no less. Returns the number of finished games."""
    db = await Database.open(path)
    try:
        async with db.backend.conn.execute(
            "SELECT COUNT(*) FROM game_tables WHERE status = 'finished'"
        ) as cur:
            (finished,) = await cur.fetchone()
        standings = {s.user_id: s for s in await db.standings(GUILD, "checkers")}
        if finished:
            assert standings[1].games == standings[2].games == finished
            assert standings[1].wins == standings[2].losses == finished
            ratings = await db.ratings(GUILD, "checkers", [1, 2])
            assert ratings == {1: DEFAULT_RATING + 8 * finished, 2: DEFAULT_RATING - 8 * finished}
        else:
            assert standings == {}
        assert len(await db.open_tables()) <= 1  # a game created, not finished yet
        return finished
    finally:
        await db.close()


async def test_backups_taken_while_games_finish_are_consistent_and_open(tmp_path):
    db = await Database.open(tmp_path / "live.db")
    stop = asyncio.Event()
    writer = asyncio.create_task(play_games(db, stop, at_least=20))
    copies = []
    try:
        for n in range(4):
            await asyncio.sleep(0)
            copy = await asyncio.to_thread(backup, tmp_path / "live.db", tmp_path / f"{n}.db")
            copies.append(copy)
    finally:
        stop.set()
        played = await writer
    await db.close()
    finished = [await check_consistent(copy) for copy in copies]
    assert finished == sorted(finished) and finished[-1] <= played
    assert await check_consistent(tmp_path / "live.db") == played
    for copy in copies:  # each copy is one self-contained file
        assert not copy.with_name(copy.name + "-wal").exists()


async def test_a_restored_backup_resumes_open_tables(tmp_path):
    db = await Database.open(tmp_path / "live.db")
    table = await db.create_table(
        guild_id=GUILD,
        channel_id=5,
        kind="quarters",
        status=TableStatus.ACTIVE,
        seats=[Seat("A", 1), Seat("B", 2)],
        options={},
        state={"piles": [3, 4, 5]},
        created_by=1,
    )
    copy = backup(tmp_path / "live.db", tmp_path)  # while the bot's connection is open
    assert copy.parent == tmp_path and copy.name.startswith("parlour-")
    await db.close()
    restored = tmp_path / "restored" / "parlour.db"
    restored.parent.mkdir()
    shutil.copy(copy, restored)
    db = await Database.open(restored)
    (resumed,) = await db.open_tables()
    assert (resumed.id, resumed.state, resumed.version) == (table.id, table.state, table.version)
    resumed.state = {"piles": [3, 4, 4]}
    assert await db.save_table(resumed, moved=True)  # the restored database takes writes
    await db.close()


def test_a_backup_never_replaces_a_file_unless_forced_and_needs_a_database(tmp_path):
    sqlite3.connect(tmp_path / "live.db").execute("CREATE TABLE t (x)").connection.close()
    backup(tmp_path / "live.db", tmp_path / "copy.db")
    with pytest.raises(BackupError, match="--force"):
        backup(tmp_path / "live.db", tmp_path / "copy.db")
    backup(tmp_path / "live.db", tmp_path / "copy.db", force=True)
    with pytest.raises(BackupError, match="no database"):
        backup(tmp_path / "missing.db", tmp_path / "other.db")
    assert not (tmp_path / "missing.db").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy.db", "live.db"]


def test_a_destination_ending_in_a_slash_is_a_directory_made_when_missing(tmp_path):
    sqlite3.connect(tmp_path / "live.db").execute("CREATE TABLE t (x)").connection.close()
    copy = backup(tmp_path / "live.db", f"{tmp_path}/backups/")
    assert copy.parent == tmp_path / "backups" and copy.name.startswith("parlour-")
    assert sqlite3.connect(copy).execute("PRAGMA integrity_check").fetchone() == ("ok",)


def run_cli(*args: str, url: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": url}
    return subprocess.run(
        [sys.executable, "-m", "storage.backup", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


async def test_the_command_backs_up_the_database_of_database_url_while_it_is_written(tmp_path):
    db = await Database.open(tmp_path / "live.db")
    stop = asyncio.Event()
    writer = asyncio.create_task(play_games(db, stop, at_least=5))
    (tmp_path / "backups").mkdir()
    try:
        done = await asyncio.to_thread(
            run_cli, str(tmp_path / "backups"), url=f"sqlite:///{tmp_path}/live.db"
        )
    finally:
        stop.set()
        await writer
    await db.close()
    assert done.returncode == 0, done.stderr
    (copy,) = (tmp_path / "backups").iterdir()
    assert done.stdout.strip() == str(copy)
    await check_consistent(copy)


def test_the_command_points_postgresql_to_pg_dump(tmp_path):
    done = run_cli(str(tmp_path), url="postgresql://postgres@127.0.0.1/test")
    assert done.returncode == 2 and "pg_dump" in done.stderr


async def test_a_stopped_bots_database_is_backed_up_too(tmp_path):
    db = await Database.open(tmp_path / "live.db")
    await db.set_meta("marker", "kept")
    await db.close()  # WAL mode, no connection open
    copy = backup(tmp_path / "live.db", tmp_path / "copy.db")
    db = await Database.open(copy)
    assert await db.get_meta("marker") == "kept"
    await db.close()
