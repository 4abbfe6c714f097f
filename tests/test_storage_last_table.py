"""The repository's look-up of a channel's most recent table of one game."""

from __future__ import annotations

from storage import Database, Seat, TableStatus


async def make(db, channel: int, kind: str):
    return await db.create_table(
        guild_id=10,
        channel_id=channel,
        kind=kind,
        status=TableStatus.ACTIVE,
        seats=[Seat("A", 1), Seat("B", 2)],
        options={},
        state={"x": 1},
        created_by=1,
    )


async def finish(db, table) -> None:
    assert await db.finish_table(table, [])


async def test_last_table_in_channel_finds_the_newest_of_that_kind_open_or_finished(db_path):
    db = await Database.open(db_path)
    assert await db.last_table_in_channel(1, "checkers") is None
    first = await make(db, 1, "checkers")
    assert (await db.last_table_in_channel(1, "checkers")).id == first.id  # open
    await finish(db, first)
    second = await make(db, 1, "checkers")
    await finish(db, second)
    other_kind = await make(db, 1, "quarters")
    await make(db, 2, "checkers")  # another channel
    found = await db.last_table_in_channel(1, "checkers")
    assert found.id == second.id and found.status is TableStatus.FINISHED
    assert (await db.last_table_in_channel(1, "quarters")).id == other_kind.id
    assert await db.last_table_in_channel(3, "checkers") is None
    await db.close()
