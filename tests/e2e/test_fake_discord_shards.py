"""The fake Discord shards as Discord does: READY and guild events per shard, 4010, /gateway/bot.

The world here has "Parlour Test" on shard 0 and "Other Guild" on shard 1 (of 2).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import aiohttp
import discord
import pytest
from discord import app_commands

from fakediscord import Driver, FakeDiscord, World
from fakediscord.gateway import HEARTBEAT_ACK, INVALID_SHARD, shard_of


def two_shard_world() -> World:
    world = World.default().spread_over_shards(2)
    assert [shard_of(g.id, 2) for g in world.guilds] == [0, 1]
    return world


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(two_shard_world()) as server:
        yield server
    assert server.problems() == []


class ShardBot(discord.Client):
    """A bot answering /ping with the shard that got the interaction."""

    def __init__(self, **shard: int) -> None:
        super().__init__(intents=discord.Intents(guilds=True), **shard)
        self.tree = app_commands.CommandTree(self)
        self.interactions: list[int] = []

        @self.tree.command(name="ping", description="Pong")
        async def ping(interaction: discord.Interaction) -> None:
            self.interactions.append(interaction.guild_id or 0)
            shard = interaction.guild.shard_id if interaction.guild else None
            await interaction.response.send_message(f"pong from shard {shard}")

    async def setup_hook(self) -> None:
        if self.shard_id in (None, 0):  # only shard 0's owner syncs, as Parlour does
            await self.tree.sync()


def guild_ids(messages: list[dict]) -> list[int]:
    return [int(g["id"]) for m in messages for g in m["d"]["guilds"]]


async def test_each_shard_is_ready_with_only_its_guilds(fake: FakeDiscord, in_process) -> None:
    first = await in_process(ShardBot(shard_id=0, shard_count=2))
    second = await in_process(ShardBot(shard_id=1, shard_count=2))
    parlour, other = fake.world.guilds
    assert [g.id for g in first.guilds] == [parlour.id]
    assert [g.id for g in second.guilds] == [other.id]
    gateway = fake.gateway
    assert guild_ids(gateway.dispatched((0, 2), "READY")) == [parlour.id]
    assert guild_ids(gateway.dispatched((1, 2), "READY")) == [other.id]
    assert [m["d"]["shard"] for m in gateway.dispatched((1, 2), "READY")] == [[1, 2]]
    assert len(gateway.dispatched((1, 2), "GUILD_CREATE")) == 1
    assert gateway.connected and gateway.shard_count == 2


async def test_an_interaction_reaches_only_the_connection_of_its_guild(
    fake: FakeDiscord, driver: Driver, in_process
) -> None:
    first = await in_process(ShardBot(shard_id=0, shard_count=2))
    second = await in_process(ShardBot(shard_id=1, shard_count=2))
    parlour, other = fake.world.guilds
    assert (await driver.slash("alice", "ping", channel="general")).content == ("pong from shard 1")
    assert (await driver.slash("alice", "ping", channel="games")).content == "pong from shard 0"
    assert first.interactions == [parlour.id] and second.interactions == [other.id]
    on = {s: fake.gateway.dispatched(s, "INTERACTION_CREATE") for s in [(0, 2), (1, 2)]}
    assert [int(m["d"]["guild_id"]) for m in on[(0, 2)]] == [parlour.id]
    assert [int(m["d"]["guild_id"]) for m in on[(1, 2)]] == [other.id]


async def test_an_interaction_waits_for_its_own_shard_to_reconnect(
    fake: FakeDiscord, driver: Driver, in_process
) -> None:
    await in_process(ShardBot(shard_id=0, shard_count=2))
    await in_process(ShardBot(shard_id=1, shard_count=2))
    await fake.gateway.drop(shard=(1, 2))
    assert not fake.gateway.connected_for(fake.world.guilds[1].id)
    assert fake.gateway.connected_for(fake.world.guilds[0].id)
    reply = await driver.slash("alice", "ping", channel="general")  # after the RESUME
    assert reply.content == "pong from shard 1" and fake.gateway.resume_count == 1


async def test_gateway_bot_recommends_a_shard_count_that_autosharding_follows(
    fake: FakeDiscord, in_process
) -> None:
    fake.recommended_shards = 2
    client = await in_process(discord.AutoShardedClient(intents=discord.Intents(guilds=True)))
    assert client.shard_count == 2 and sorted(client.shards) == [0, 1]
    assert {g.id: g.shard_id for g in client.guilds} == {
        g.id: shard_of(g.id, 2) for g in fake.world.guilds
    }
    assert fake.gateway.identify_count == 2


async def test_gateway_bot_recommends_one_shard_per_thousand_guilds(fake: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as http:
        url = fake.api_url + "/gateway/bot"
        headers = {"Authorization": f"Bot {fake.world.token}"}
        async with http.get(url, headers=headers) as answer:
            assert (await answer.json())["shards"] == 1


async def raw_identify(fake: FakeDiscord, shard: object, *, heartbeat_first: bool = False):
    """IDENTIFY over a plain websocket; the messages received until the socket closes or the
    first guild arrives, and the close code."""
    got = []
    async with aiohttp.ClientSession() as http, http.ws_connect(fake.ws_url) as ws:
        got.append(json.loads((await ws.receive()).data))  # HELLO
        if heartbeat_first:
            await ws.send_str(json.dumps({"op": 1, "d": None}))
        identify = {"token": fake.world.token, "intents": 1, "properties": {}, "shard": shard}
        await ws.send_str(json.dumps({"op": 2, "d": identify}))
        while True:
            msg = await asyncio.wait_for(ws.receive(), 10)
            if msg.type != aiohttp.WSMsgType.TEXT:
                return got, ws.close_code
            got.append(json.loads(msg.data))
            if heartbeat_first and got[-1]["op"] == HEARTBEAT_ACK:
                return got, None


@pytest.mark.parametrize("shard", [[2, 2], [-1, 2], [0, 0], [0], "0,1"])
async def test_an_invalid_shard_closes_the_socket_with_4010(fake: FakeDiscord, shard) -> None:
    got, code = await raw_identify(fake, shard)
    assert code == INVALID_SHARD and [m["op"] for m in got] == [10]
    assert fake.gateway.identify_count == 0


async def test_a_heartbeat_is_acknowledged_after_a_round_trip_without_holding_up_reads(
    fake: FakeDiscord,
) -> None:
    got, _ = await raw_identify(fake, [0, 1], heartbeat_first=True)
    events = [m.get("t") or m["op"] for m in got]
    # The IDENTIFY sent after the heartbeat is answered first: the ACK waits for its round trip
    # off the read loop (see gateway.HEARTBEAT_ACK_DELAY for why it must not come back at once).
    assert events[:4] == [10, "READY", "GUILD_CREATE", "GUILD_CREATE"]
    assert events[-1] == HEARTBEAT_ACK
