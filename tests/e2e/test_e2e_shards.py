"""Two bot processes (shards 0 and 1 of 2) against one fake Discord and one PostgreSQL database.

A game runs in a guild of each shard at the same time; the process of shard 1 is killed
mid-game (SIGKILL) and restarted; its game goes on with the old buttons, and the process of
shard 0 never made one REST call for shard 1's guild.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from test_e2e_quarters import COMPUTER, computer_answers, selected_coins, take

from fakediscord import Driver, FakeDiscord, World
from fakediscord.gateway import shard_of

# Several processes over one database: PostgreSQL only (a fresh schema, see conftest.py).
pytestmark = pytest.mark.parametrize("backend", ["postgresql"], indirect=True)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """The default world with "Parlour Test" on shard 0 and "Other Guild" on shard 1 of 2."""
    world = World.default().spread_over_shards(2)
    async with FakeDiscord(world) as server:
        yield server
    assert server.problems() == []


def shard_env(url: str, shard: int) -> dict[str, str]:
    return {
        "DATABASE_URL": url,
        "SHARD_COUNT": "2",
        "SHARD_IDS": str(shard),
        "FAKEDISCORD_CLIENT_NAME": f"shard{shard}",
    }


def touches(fake: FakeDiscord, client: str, guild_id: int) -> list[tuple[str, str, int]]:
    """The REST calls of ``client`` that concern the guild: its channels, or the answers to
    interactions from it (interaction callbacks and their webhooks)."""
    guild = fake.world.guild(guild_id)
    marks = [str(c.id) for c in guild.channels] + [str(guild.id)]
    marks += [i.token for i in fake.interactions.values() if i.guild_id == guild_id]
    marks += [str(i.id) for i in fake.interactions.values() if i.guild_id == guild_id]
    return [call for call in fake.requests_from(client) if any(m in call[1] for m in marks)]


async def start(driver: Driver, channel: str):
    r = await driver.slash("alice", "quarters start", channel=channel)
    assert not r.ephemeral and r.message is not None
    return r.message


async def test_two_processes_share_the_guilds_and_a_killed_one_resumes_only_its_own(
    fake: FakeDiscord, driver: Driver, start_bot, database_url: str
) -> None:
    parlour, other = fake.world.guilds
    assert (shard_of(parlour.id, 2), shard_of(other.id, 2)) == (0, 1)
    first = await start_bot(env=shard_env(database_url, 0))
    second = await start_bot(env=shard_env(database_url, 1))
    assert fake.sync_count() == 1  # only shard 0's process syncs the commands
    assert "synced by the process of shard 0" in second.log

    # A game in a guild of each shard, at the same time.
    here, there = await asyncio.gather(start(driver, "games"), start(driver, "general"))
    await asyncio.gather(take(driver, "alice", here, 1, 1), take(driver, "alice", there, 1, 1))
    await asyncio.gather(computer_answers(driver, here), computer_answers(driver, there))
    await driver.click("alice", there, label="3·1")
    assert selected_coins(there) == ["3·1"]

    await second.kill()  # SIGKILL mid-game: no clean-up at all
    await second.start()
    assert second.log.count("resumed table") == 1  # its own table, once
    assert first.log.count("resumed table") == 0

    # The old message's buttons still work, answered by the restarted process.
    r = await driver.click("alice", there, label="3·2")
    assert r.type == 7 and r.message is there and selected_coins(there) == ["3·1", "3·2"]
    r = await driver.click("alice", there, label="Remove Coins")
    assert r.type == 7
    await computer_answers(driver, there)
    assert COMPUTER + " took" in there.content or "🏆" in there.content
    # The other game went on undisturbed in the other process.
    await take(driver, "alice", here, 2, 1)
    await computer_answers(driver, here)

    assert touches(fake, "shard0", other.id) == []
    assert touches(fake, "shard1", parlour.id) == []
    assert touches(fake, "shard1", other.id) and touches(fake, "shard0", parlour.id)
