"""/healthz and /metrics of one bot process running two shards: one gateway connection each."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest
from test_e2e_ops import get, ops_port, samples, value

from fakediscord import FakeDiscord, World


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """The default world with "Parlour Test" on shard 0 and "Other Guild" on shard 1 of 2."""
    async with FakeDiscord(World.default().spread_over_shards(2)) as server:
        yield server
    assert server.problems() == []


async def test_each_shard_is_reported_by_health_and_metrics(start_bot):
    bot = await start_bot(env={"PARLOUR_HTTP": "127.0.0.1:0", "SHARD_COUNT": "2"})
    port = await ops_port(bot)
    code, body = await get(port, "/healthz")
    assert code == 200, body
    assert json.loads(body)["shards"] == {"0": True, "1": True}
    code, text = await get(port, "/metrics")
    found = samples(text)
    for shard in ("0", "1"):
        assert value(found, "parlour_shard_connected", shard=shard) == 1
        assert ("parlour_gateway_latency_seconds", frozenset({("shard", shard)})) in found
    assert await bot.stop() == 0
