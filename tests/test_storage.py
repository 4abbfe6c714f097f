"""The repository: migrations, version-checked saves, results, ratings and standings."""

from __future__ import annotations

import aiosqlite
import pytest

from storage import Database, Result, Seat, TableStatus, database_path
from storage.migrations import apply_migrations, migrations


async def new_table(db, channel=1, **kw):
    return await db.create_table(
        guild_id=10,
        channel_id=channel,
        kind="quarters",
        status=TableStatus.ACTIVE,
        seats=[Seat("A", 1), Seat("B", 2)],
        options={},
        state={"x": 1},
        created_by=1,
        **kw,
    )


def test_database_url_forms():
    assert str(database_path("sqlite:///data/parlour.db")) == "data/parlour.db"
    assert str(database_path("sqlite:////var/lib/p.db")) == "/var/lib/p.db"
    with pytest.raises(ValueError, match="not supported"):
        database_path("postgresql://host/db")


async def test_migrations_run_from_an_empty_database_and_from_each_earlier_schema(tmp_path):
    latest = migrations()[-1][0]
    for start in range(latest + 1):
        path = tmp_path / f"db{start}.sqlite"
        async with aiosqlite.connect(path, isolation_level=None) as conn:
            assert await apply_migrations(conn, upto=start) == start
        db = await Database.open(path)
        assert await db.schema_version() == latest
        await db.close()
        db = await Database.open(path)  # opening again applies nothing
        assert await db.schema_version() == latest
        await db.close()


async def test_wal_mode(tmp_path):
    db = await Database.open(tmp_path / "p.db")
    async with db._conn.execute("PRAGMA journal_mode") as cur:
        assert (await cur.fetchone())[0] == "wal"
    await db.close()


async def test_one_open_table_per_channel(tmp_path):
    db = await Database.open(tmp_path / "p.db")
    first = await new_table(db)
    assert await new_table(db) is None
    first.status = TableStatus.FINISHED
    assert await db.save_table(first)
    assert await new_table(db) is not None
    await db.close()


async def test_saves_are_version_checked(tmp_path):
    db = await Database.open(tmp_path / "p.db")
    table = await new_table(db)
    copy = await db.get_table(table.id)
    table.state = {"x": 2}
    assert await db.save_table(table)
    copy.state = {"x": 3}
    assert not await db.save_table(copy)
    assert (await db.get_table(table.id)).state == {"x": 2}
    await db.close()


async def test_results_and_ratings_are_written_with_the_final_state(tmp_path):
    db = await Database.open(tmp_path / "p.db")
    table = await new_table(db)
    results = [
        Result(1, "win", 5, rating_change=16.0, extra={"moons": 1}, name="A"),
        Result(2, "loss", 0, rating_change=-16.0, name="B"),
    ]
    assert await db.finish_table(table, results)
    stale = await db.get_table(table.id)
    stale.version -= 1
    assert not await db.finish_table(stale, results)  # nothing written twice
    standings = {s.user_id: s for s in await db.standings(10, "quarters")}
    assert standings[1].wins == 1 and standings[1].rating == 1216.0
    assert standings[1].extra == {"moons": 1}
    assert standings[2].losses == 1 and standings[2].rating == 1184.0
    assert (await db.ratings(10, "quarters", [1, 3])) == {1: 1216.0, 3: 1200.0}
    await db.close()


async def test_settings_and_meta(tmp_path):
    db = await Database.open(tmp_path / "p.db")
    assert await db.guild_setting(1, "idle_claim_minutes") is None
    await db.set_guild_setting(1, "idle_claim_minutes", "5")
    await db.set_guild_setting(1, "idle_claim_minutes", "7")
    assert await db.guild_setting(1, "idle_claim_minutes") == "7"
    await db.set_meta("k", "v")
    assert await db.get_meta("k") == "v"
    await db.close()
