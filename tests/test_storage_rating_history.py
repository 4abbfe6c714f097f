"""Rating history: a member's rating after each rated game, per server, from the results."""

from __future__ import annotations

from storage import Database, Result, Seat, TableStatus


async def _finish(db: Database, guild: int, channel: int, results: list[Result], now: float):
    table = await db.create_table(
        guild_id=guild,
        channel_id=channel,
        kind="checkers",
        status=TableStatus.ACTIVE,
        seats=[Seat("A", 1), Seat("B", 2)],
        options={},
        state={},
        created_by=1,
        now=now,
    )
    assert await db.finish_table(table, results, now=now)
    return table


async def test_rating_history_follows_each_rated_game_per_server(db_path):
    db = await Database.open(db_path)
    await _finish(
        db,
        10,
        1,
        [Result(1, "win", rating_change=16.0), Result(2, "loss", rating_change=-16.0)],
        now=100.0,
    )
    await _finish(db, 20, 2, [Result(1, "loss", rating_change=-16.0)], now=150.0)
    await _finish(db, 10, 1, [Result(1, "loss", rating_change=-17.5)], now=200.0)
    await _finish(db, 10, 1, [Result(1, "win", vs_computer=True)], now=250.0)  # not rated
    history = await db.rating_history(1, "checkers")
    by_server = {
        g: [(p.finished_at, p.rating) for p in history if p.guild_id == g] for g in (10, 20)
    }
    assert by_server == {10: [(100.0, 1216.0), (200.0, 1198.5)], 20: [(150.0, 1184.0)]}
    # the history ends where the ratings table stands
    assert (await db.ratings(10, "checkers", [1]))[1] == 1198.5
    only = await db.rating_history(1, "checkers", where=20)
    assert [(p.guild_id, p.rating) for p in only] == [(20, 1184.0)]
    assert await db.rating_history(1, "quarters") == []
    await db.close()
