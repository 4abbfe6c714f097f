"""One record per interaction: its log line and metrics, the first response seen on the HTTP
session, the outcome, the drain; and every repository call timed."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace

import pytest
from yarl import URL

from bot.ops import interactions, metrics
from bot.ops.dbtiming import instrument
from bot.ops.drain import BUSY, Overloaded, Stopping
from bot.ops.interactions import Tracker, kind_of
from storage import Database


def interaction(iid: int = 7, itype: int = 3, component_type: int = 2):
    return SimpleNamespace(
        id=iid,
        type=itype,
        data={"component_type": component_type, "custom_id": "t:5:1:m=QS"},
        guild_id=111,
        channel_id=222,
    )


def count(game: str, kind: str, outcome: str) -> float:
    return metrics.INTERACTIONS.labels(game, kind, outcome)._value.get()


def observations(histogram, *labels: str) -> float:
    return next(
        s.value for s in histogram.labels(*labels).collect()[0].samples if s.name.endswith("_count")
    )


def test_the_kind_comes_from_the_interaction_type():
    assert kind_of(interaction(itype=2)) == "command"
    assert kind_of(interaction(itype=4)) == "autocomplete"
    assert kind_of(interaction(itype=5)) == "modal"
    assert kind_of(interaction(itype=3, component_type=2)) == "button"
    assert kind_of(interaction(itype=3, component_type=3)) == "select"


async def test_a_click_is_logged_once_with_its_game_looked_up_once(caplog):
    lookups = []

    async def lookup(table_id: int) -> str:
        lookups.append(table_id)
        return "hearts"

    tracker = Tracker(lookup=lookup)
    trace = tracker.trace_config()
    before = count("hearts", "select", "applied")
    first_before = observations(metrics.FIRST_RESPONSE, "hearts")
    board_before = observations(metrics.BOARD_UPDATE, "hearts")
    caplog.set_level(logging.INFO, logger="parlour.interactions")
    for iid in (1, 2):
        async with tracker.track(interaction(iid, component_type=3)):
            interactions.note(table=5, action="play=QS")
            await asyncio.sleep(0.01)
            # Discord accepted the answer: the callback request ended.
            url = URL(f"http://discord/api/v10/interactions/{iid}/tok/callback")
            await trace.on_request_end[0](None, None, SimpleNamespace(url=url))
            interactions.board_updated()
    assert lookups == [5]  # remembered after the first time
    assert count("hearts", "select", "applied") == before + 2
    assert observations(metrics.FIRST_RESPONSE, "hearts") == first_before + 2
    assert observations(metrics.BOARD_UPDATE, "hearts") == board_before + 2
    lines = [r.getMessage() for r in caplog.records if r.name == "parlour.interactions"]
    assert len(lines) == 2
    assert lines[0].startswith("interaction guild=111 channel=222 table=5 action=play outcome=")
    assert "QS" not in "".join(lines)


async def test_refusals_errors_and_a_stopping_bot_are_counted_as_such():
    tracker = Tracker()
    refused = count("quarters", "button", "refused")
    errors = count("quarters", "button", "error")
    async with tracker.track(interaction()):
        interactions.note(game="quarters", outcome="refused")
    with pytest.raises(RuntimeError):
        async with tracker.track(interaction()):
            interactions.note(game="quarters")
            raise RuntimeError("boom")
    tracker.drain.stop()
    with pytest.raises(Stopping):
        async with tracker.track(interaction()):
            raise AssertionError("no work starts once stopping")
    assert count("quarters", "button", "refused") == refused + 1
    assert count("quarters", "button", "error") == errors + 1
    assert interactions.current() is None
    interactions.note(outcome="error")  # outside an interaction: nothing to note, no failure


async def test_a_bot_with_its_hands_full_refuses_new_interactions_at_once_and_says_why():
    tracker = Tracker(limit=2)
    refused = count("quarters", "button", "refused")
    async with tracker.track(interaction(1)), tracker.track(interaction(2)):
        with pytest.raises(Overloaded) as caught:
            async with tracker.track(interaction(3)):
                raise AssertionError("no work starts beyond the limit")
        assert caught.value.text is BUSY and tracker.drain.in_flight == 2
    async with tracker.track(interaction(4)):  # room again once the others ended
        interactions.note(game="quarters", outcome="refused")
    assert count("quarters", "button", "refused") == refused + 1


async def test_every_repository_call_is_timed_by_its_name(tmp_path):
    seen = []
    db = instrument(await Database.open(tmp_path / "parlour.db"), lambda n, s: seen.append(n))
    try:
        await db.get_meta("x")
        await db.set_meta("x", "1")
        await db.open_table_counts()
        assert seen == ["get_meta", "set_meta", "open_table_counts"]
    finally:
        await db.close()


async def test_open_tables_are_counted_by_game_within_the_processs_shards(db_path):
    from storage import Seat, TableStatus

    db = await Database.open(db_path)
    try:
        for channel, (guild, kind, status) in enumerate(
            [
                (0, "hearts", TableStatus.CHALLENGE),
                (0, "hearts", TableStatus.ACTIVE),
                (1 << 22, "quarters", TableStatus.ACTIVE),
                (0, "kabu", TableStatus.FINISHED),
            ]
        ):
            table = await db.create_table(
                guild_id=guild,
                channel_id=channel,
                kind=kind,
                status=TableStatus.ACTIVE if status is TableStatus.FINISHED else status,
                seats=[Seat("a", 1)],
                options={},
                state=None,
                created_by=1,
            )
            if status is TableStatus.FINISHED:
                assert await db.finish_table(table, [])
        assert await db.open_table_counts() == {"hearts": 2, "quarters": 1}
        db.only_shards(2, [1])
        assert await db.open_table_counts() == {"quarters": 1}
    finally:
        await db.close()


async def test_a_tables_game_is_remembered_while_the_table_is_in_use():
    """The game labels the metrics by: kept while the table is clicked, forgotten after
    ``_KNOWN_FOR`` seconds without (a finished table is not clicked again)."""
    now = [0.0]
    lookups: list[int] = []

    async def lookup(table_id: int) -> str:
        lookups.append(table_id)
        return "quarters"

    tracker = Tracker(lookup=lookup, clock=lambda: now[0])
    for table_id in (1, 2):
        assert await tracker._game_of(table_id) == "quarters"
    for _ in range(3):
        now[0] += interactions._KNOWN_FOR * 0.6
        await tracker._game_of(1)  # in use: its game stays known
    assert lookups == [1, 2] and list(tracker._games) == [1]
