"""The operator's endpoint: /healthz follows the shards and the database; /metrics parses."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.ops import healthcheck, metrics
from bot.ops.health import Health, ShardState
from bot.ops.http import OpsServer
from bot.ops.runtime import start_ops
from storage import Database


class Bot:
    """What the health check reads: the process's shards and its current database."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.shards = [ShardState(0, True, 0.042), ShardState(1, True, 0.051)]

    async def ping(self) -> int:
        return await self.db.schema_version()


@pytest.fixture
async def bot(tmp_path) -> AsyncIterator[Bot]:
    bot = Bot(await Database.open(tmp_path / "parlour.db"))
    yield bot
    await bot.db.close()


@pytest.fixture
async def server(bot: Bot) -> AsyncIterator[OpsServer]:
    # A generous timeout: a loaded test machine must not make a healthy database look down.
    server = OpsServer("127.0.0.1", 0, Health(lambda: bot.shards, bot.ping, timeout=10.0))
    await server.start()
    yield server
    await server.stop()


async def get(server: OpsServer, path: str) -> tuple[int, str, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{server.port}{path}") as response,
    ):
        return response.status, response.headers["Content-Type"], await response.text()


async def health(server: OpsServer) -> tuple[int, dict]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{server.port}/healthz") as response,
    ):
        return response.status, await response.json()


async def test_healthz_is_200_with_shards_and_database_when_all_is_well(server):
    status, body = await health(server)
    assert status == 200
    assert body["status"] == "ok"
    assert body["shards"] == {"0": True, "1": True}
    assert body["database"]["ok"] is True and "reason" not in body


async def test_healthz_goes_503_when_the_database_is_unreachable_and_back_to_200(
    server, bot, tmp_path
):
    await bot.db.close()
    status, body = await health(server)
    assert status == 503
    assert body["status"] == "unavailable"
    assert "database unreachable" in body["reason"]
    bot.db = await Database.open(tmp_path / "parlour.db")
    status, body = await health(server)
    assert status == 200 and body["status"] == "ok"


async def test_health_fails_while_the_database_is_held_past_the_timeout(bot):
    health = Health(lambda: bot.shards, bot.ping, timeout=0.05)
    async with bot.db.backend.session(transaction=True):  # a long transaction holds the db
        verdict = await health.check()
    assert not verdict.healthy
    assert verdict.body["reason"] == "database did not answer within 0.05 s"
    assert verdict.body["database"] == {"ok": False}


async def test_healthz_is_503_while_a_shard_is_down_or_none_is_up(server, bot):
    bot.shards[1] = ShardState(1, False, None)
    status, body = await health(server)
    assert status == 503
    assert body["reason"] == "shard 1 not connected"
    assert body["shards"] == {"0": True, "1": False}
    bot.shards = []
    status, body = await health(server)
    assert status == 503 and "no gateway connection" in body["reason"]


def families(text: str) -> dict[str, object]:
    return {family.name: family for family in text_string_to_metric_families(text)}


def sample(text: str, name: str, **labels: str) -> float:
    """The value of one sample of the exposition (0 when absent)."""
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name == name and s.labels == labels:
                return s.value
    return 0.0


async def test_metrics_parse_with_prometheus_client_and_counters_move(server):
    status, content_type, before = await get(server, "/metrics")
    assert status == 200 and content_type.startswith("text/plain")
    found = families(before)
    for name in (
        "parlour_interactions",
        "parlour_first_response_seconds",
        "parlour_board_update_seconds",
        "parlour_computer_think_seconds",
        "parlour_open_tables",
        "parlour_db_query_seconds",
        "parlour_gateway_latency_seconds",
        "parlour_event_loop_lag_seconds",
        "parlour_ai_pool_queue_depth",
        "process_cpu_seconds",
    ):
        assert name in found, name
    assert sample(before, "parlour_gateway_latency_seconds", shard="1") == 0.051
    assert sample(before, "parlour_shard_connected", shard="0") == 1

    applied = dict(game="hearts", kind="button", outcome="applied")
    metrics.record_interaction(
        game="hearts",
        kind="button",
        outcome="applied",
        latency=0.012,
        guild=1,
        channel=2,
        table=3,
        action="play=QS",
    )
    metrics.record_interaction(
        game="hearts",
        kind="button",
        outcome="applied",
        latency=0.02,
        guild=1,
        channel=2,
        table=3,
        action="play=2C",
    )
    metrics.observe_computer_think("checkers", "hard", 0.3)
    metrics.observe_first_response("hearts", 0.015)
    metrics.set_open_tables({"hearts": 2}, games=("hearts", "kabu"))
    with metrics.timed_query("save_table"):
        pass
    _, _, after = await get(server, "/metrics")
    name = "parlour_interactions_total"
    assert sample(after, name, **applied) == sample(before, name, **applied) + 2
    think = "parlour_computer_think_seconds_count"
    labels = dict(game="checkers", level="hard")
    assert sample(after, think, **labels) == sample(before, think, **labels) + 1
    first = "parlour_first_response_seconds_count"
    assert sample(after, first, game="hearts") == sample(before, first, game="hearts") + 1
    assert sample(after, "parlour_open_tables", game="hearts") == 2
    assert sample(after, "parlour_open_tables", game="kabu") == 0
    query = "parlour_db_query_seconds_count"
    assert sample(after, query, operation="save_table") >= 1


async def test_unknown_paths_are_404(server):
    assert (await get(server, "/"))[0] == 404


async def test_the_container_health_check_command_follows_healthz(bot, tmp_path):
    ops = await start_ops(("127.0.0.1", 0), shards=lambda: bot.shards, ping=bot.ping, timeout=10)
    try:
        env = {"PARLOUR_HTTP": f"0.0.0.0:{ops.server.port}"}
        assert await asyncio.to_thread(healthcheck.main, env) == 0
        bot.shards = [ShardState(0, False, None)]
        assert await asyncio.to_thread(healthcheck.main, env) == 1
    finally:
        await ops.stop()
    assert await asyncio.to_thread(healthcheck.main, env) == 1  # nobody listens any more
    assert healthcheck.main({}) == 1  # PARLOUR_HTTP unset: no endpoint to ask


async def test_without_an_address_only_the_lag_monitor_runs(bot):
    ops = await start_ops(None, shards=lambda: bot.shards, ping=bot.ping)
    assert ops.server is None
    await ops.stop()
