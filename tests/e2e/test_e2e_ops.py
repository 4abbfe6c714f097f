"""The operator's view of the real bot process (``python -m bot``) against the fake Discord:
/healthz and /metrics on ``PARLOUR_HTTP``, one log line per interaction, and SIGTERM."""

from __future__ import annotations

import asyncio
import re

import aiohttp
from e2e_helpers import TableRows
from prometheus_client.parser import text_string_to_metric_families
from test_e2e_quarters import computer_answers, secret_move, start_vs_computer, take

from bot.fakediscord import Driver

LISTENING = re.compile(r"health and metrics on http://127\.0\.0\.1:(\d+) ")
LINE = re.compile(
    r"interaction guild=(\d+) channel=(\d+) table=(\S+) action=(\S+) outcome=(\w+) "
    r"latency_ms=[\d.]+"
)


async def ops_port(bot, timeout: float = 10.0) -> int:
    """The port the bot's HTTP server bound (PARLOUR_HTTP=127.0.0.1:0 picks a free one)."""
    for _ in range(int(timeout / 0.05)):
        if m := LISTENING.search(bot.log):
            return int(m[1])
        await asyncio.sleep(0.05)
    raise AssertionError(f"the bot never said where it listens:\n{bot.log}")


async def get(port: int, path: str) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as response,
    ):
        return response.status, await response.text()


def samples(text: str) -> dict[tuple[str, frozenset], float]:
    """Every sample of the exposition, parsed by prometheus_client's own parser."""
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def value(found: dict, name: str, **labels: str) -> float:
    return found.get((name, frozenset(labels.items())), 0.0)


async def test_health_metrics_and_log_lines_follow_a_game_played_end_to_end(
    driver: Driver, start_bot, tmp_path
):
    bot = await start_bot(env={"PARLOUR_HTTP": "127.0.0.1:0"})
    port = await ops_port(bot)
    code, body = await get(port, "/healthz")
    assert code == 200, body
    assert '"shards": {"0": true}' in body and '"ok": true' in body

    code, text = await get(port, "/metrics")
    assert code == 200
    before = samples(text)

    board = await start_vs_computer(driver)
    code, text = await get(port, "/metrics")
    assert value(samples(text), "parlour_open_tables", game="quarters") == 1
    moves = 0
    while "wins!" not in board.content:
        pile, count = await secret_move(driver, "alice", board)
        await take(driver, "alice", board, pile, count)
        await computer_answers(driver, board)
        moves += 1
        assert moves < 10
    assert TableRows(tmp_path / "parlour.db").last().status == "finished"

    code, text = await get(port, "/metrics")
    after = samples(text)

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert moved("parlour_interactions_total", game="quarters", kind="command", outcome="applied")
    # coin clicks, Remove Coins and Secret: all applied, all buttons
    clicks = moved("parlour_interactions_total", game="quarters", kind="button", outcome="applied")
    assert clicks >= 3 * moves
    assert moved("parlour_first_response_seconds_count", game="quarters") >= clicks
    assert moved("parlour_board_update_seconds_count", game="quarters") >= moves
    assert moved("parlour_computer_think_seconds_count", game="quarters", level="perfect") >= 1
    assert value(after, "parlour_open_tables", game="quarters") == 0
    assert moved("parlour_db_query_seconds_count", operation="save_table") >= moves
    assert value(after, "parlour_shard_connected", shard="0") == 1
    assert ("parlour_gateway_latency_seconds", frozenset({("shard", "0")})) in after
    assert value(after, "parlour_ai_pool_queue_depth") == 0
    assert value(after, "parlour_event_loop_lag_seconds_count") > 0
    # No member, server, channel or table id became a label.
    for _, labels in after:
        assert not any(v.isdigit() and len(v) > 3 for _, v in labels)

    # One INFO line per interaction with its ids, action name and outcome.
    lines = LINE.findall(bot.log)
    actions = [line[3] for line in lines]
    assert "quarters.start" in actions and "secret" in actions
    guild = str(driver.channel().guild_id)
    assert all(line[0] == guild and line[4] == "applied" for line in lines)

    assert await bot.stop() == 0


async def test_sigterm_stops_cleanly_and_a_restart_resumes_every_table(
    driver: Driver, start_bot, tmp_path
):
    rows = TableRows(tmp_path / "parlour.db")
    bot = await start_bot()
    board = await start_vs_computer(driver)
    await take(driver, "alice", board, 1, 1)
    await computer_answers(driver, board)
    lobby = (await driver.slash("alice", "hearts start", channel="lobby", delay=0)).message
    await driver.click("bob", lobby, label="Join")
    challenge = await driver.slash("alice", "quarters start", channel="general", opponent="frank")
    assert challenge.message is not None and not challenge.ephemeral
    tables = {t.id: t.version for t in rows.all() if t.status in ("active", "challenge")}
    assert len(tables) == 3

    assert await bot.stop() == 0  # SIGTERM: drained, database closed, exit status 0
    assert "stopping: finishing" in bot.log and "database closed" in bot.log
    assert not bot.errors()
    # Nothing was lost or changed by the stop.
    assert {t.id: t.version for t in rows.all() if t.status in ("active", "challenge")} == tables

    await bot.start()
    for table_id in tables:
        assert f"resumed table {table_id} " in bot.log
    # Each table carries on from the message the members already have.
    r = await driver.click("alice", board, label="3·1")
    assert r.type == 7 and r.message is board
    r = await driver.click("alice", lobby, label="Start")
    assert not r.ephemeral, r.text()
    r = await driver.click("frank", challenge.message, label="Accept")
    assert not r.ephemeral, r.text()
    assert {t.status for t in rows.all() if t.id in tables} == {"active"}
