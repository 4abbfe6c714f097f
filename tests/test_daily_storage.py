"""Daily attempts on both back-ends: one per member, puzzle and day; resumed, not restarted;
a stale save (a click twice) is refused; the day is the one the attempt started on; boards and
streaks."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from storage import Database
from storage.daily import AttemptStatus, Streak, day_of

DAY = datetime(2026, 12, 7, tzinfo=UTC).timestamp()  # midnight UTC


@pytest.fixture
async def store(db_path):
    db = await Database.open(db_path)
    yield db.daily
    await db.close()


async def start(store, user=1, puzzle="quarters", now=DAY + 60, guild=10):
    return await store.start(
        puzzle=puzzle, user_id=user, user_name=f"m{user}", guild_id=guild, state={"m": []}, now=now
    )


async def test_starting_again_resumes_the_same_attempt(store):
    first, made = await start(store)
    again, made_again = await start(store, now=DAY + 3600)
    assert made and not made_again
    assert again.id == first.id and again.day == date(2026, 12, 7)
    assert again.started_at == DAY + 60


async def test_a_failed_attempt_is_over_and_is_not_a_solve(store):
    attempt, _ = await start(store, puzzle="checkers")
    attempt.status = AttemptStatus.FAILED
    assert await store.save(attempt, now=DAY + 90)
    mine = await store.attempts_of(1, date(2026, 12, 7))
    assert mine["checkers"].over and mine["checkers"].status is AttemptStatus.FAILED
    assert await store.solvers(10, date(2026, 12, 7)) == []
    assert (await store.streaks(1, date(2026, 12, 7)))["checkers"] == Streak(0, 0)


async def test_a_stale_save_of_the_same_move_counts_once(store):
    attempt, _ = await start(store)
    twin = await store.get(attempt.id)
    attempt.state = {"m": ["1-2"]}
    attempt.moves = 1
    assert await store.save(attempt, now=DAY + 70)
    twin.state = {"m": ["1-2"]}
    twin.moves = 1
    assert not await store.save(twin, now=DAY + 71)
    stored = await store.get(attempt.id)
    assert stored.moves == 1 and stored.version == 1


async def test_a_finished_attempt_takes_no_more_moves(store):
    attempt, _ = await start(store)
    attempt.status = AttemptStatus.SOLVED
    assert await store.save(attempt, now=DAY + 100)
    attempt.moves = 9
    assert not await store.save(attempt, now=DAY + 101)
    stored = await store.get(attempt.id)
    assert stored.finished_at == DAY + 100 and stored.moves == 0


async def test_the_day_is_the_day_the_attempt_started(store):
    late, _ = await start(store, now=DAY - 30)  # 23:59:30 the day before
    late.status = AttemptStatus.SOLVED
    assert await store.save(late, now=DAY + 30)
    assert (await store.get(late.id)).day == date(2026, 12, 6)
    today, made = await start(store, now=DAY + 60)
    assert made and today.id != late.id
    assert [a.id for a in await store.solvers(10, date(2026, 12, 6))] == [late.id]


async def test_solvers_come_in_finishing_order_for_their_server_only(store):
    a, _ = await start(store, user=1)
    b, _ = await start(store, user=2)
    c, _ = await start(store, user=3, guild=20)
    for attempt, at in ((b, 100), (a, 200), (c, 50)):
        attempt.status = AttemptStatus.SOLVED
        await store.save(attempt, now=DAY + at)
    assert [x.user_id for x in await store.solvers(10, date(2026, 12, 7))] == [2, 1]


async def solve(store, user, puzzle, day_index):
    attempt, _ = await start(store, user=user, puzzle=puzzle, now=DAY + day_index * 86400 + 60)
    attempt.status = AttemptStatus.SOLVED
    assert await store.save(attempt, now=DAY + day_index * 86400 + 120)


async def test_streaks_per_puzzle_and_for_all_three_break_on_a_missed_day(store):
    for day_index in (0, 1, 3, 4):
        for puzzle in ("quarters", "checkers", "quatorze"):
            if not (day_index == 4 and puzzle == "quatorze"):
                await solve(store, 1, puzzle, day_index)
    streaks = await store.streaks(1, date(2026, 12, 11))
    assert streaks["quarters"] == Streak(current=2, best=2)
    assert streaks["quatorze"] == Streak(current=1, best=2)
    assert streaks["all"] == Streak(current=1, best=2)
    assert (await store.streaks(1, date(2026, 12, 13)))["all"] == Streak(current=0, best=2)
    assert await store.longest_streaks(10, date(2026, 12, 11)) == [(1, Streak(1, 2))]


def test_day_of_is_the_utc_day():
    assert day_of(DAY - 1) == date(2026, 12, 6) and day_of(DAY) == date(2026, 12, 7)


async def test_privacy_shows_forgets_and_erases_daily_attempts(db_path):
    from storage.privacy import erase_guild, forget_member, member_data

    db = await Database.open(db_path)
    try:
        mine, _ = await start(db.daily, user=1)
        other, _ = await start(db.daily, user=2)
        elsewhere, _ = await start(db.daily, user=1, puzzle="checkers", guild=20)
        shown = await member_data(db, 10, 1)
        assert shown["daily_puzzles"] == [
            {"day": "2026-12-07", "puzzle": "quarters", "status": "playing", "moves": 0, "hints": 0}
        ]
        assert (await forget_member(db, 10, 1)).results == 1
        assert await db.daily.get(mine.id) is None and await db.daily.get(elsewhere.id)
        assert (await erase_guild(db, 10)).results == 1
        assert await db.daily.get(other.id) is None
    finally:
        await db.close()


async def test_a_finished_attempt_is_marked_shared_once(store):
    attempt, _ = await start(store)
    assert not await store.mark_shared(attempt)  # still playing: nothing to share
    attempt.status = AttemptStatus.SOLVED
    assert await store.save(attempt, now=DAY + 120)
    stale = await store.get(attempt.id)
    assert await store.mark_shared(attempt)
    assert not await store.mark_shared(stale)  # the same click arriving twice
    again = await store.get(attempt.id)
    assert again.state["shared"] is True and not await store.mark_shared(again)


async def test_retention_erases_direct_message_attempts_of_members_gone_that_long(db_path):
    from storage.privacy import purge_direct_daily

    db = await Database.open(db_path)
    try:
        month = 30 * 86400
        gone, _ = await start(db.daily, user=1, guild=0)
        old, _ = await start(db.daily, user=2, guild=0)
        recent, _ = await start(db.daily, user=2, guild=0, now=DAY + 20 * 86400)
        server, _ = await start(db.daily, user=1, puzzle="checkers", guild=10)
        assert await purge_direct_daily(db, month, DAY + 60 + month) == 1
        assert await db.daily.get(gone.id) is None
        assert await db.daily.get(old.id) and await db.daily.get(recent.id)  # still playing
        assert await db.daily.get(server.id)  # a server's attempts go with the server
        assert await purge_direct_daily(db, month, DAY + 20 * 86400 + month) == 2
    finally:
        await db.close()


async def test_the_bots_regular_purge_erases_old_direct_message_attempts(db_path):
    from bot.ops.departures import Departures

    db = await Database.open(db_path)
    try:
        attempt, _ = await start(db.daily, user=1, guild=0)
        now = [DAY + 60 + 29 * 86400]
        departures = Departures(db, 30, stop_tables=lambda ids: None, clock=lambda: now[0])
        await departures.purge()
        assert await db.daily.get(attempt.id)  # 29 days: kept
        now[0] += 86400
        await departures.purge()
        assert await db.daily.get(attempt.id) is None
    finally:
        await db.close()
