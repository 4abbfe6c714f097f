"""The fake Discord's places: DMs with the bot, group DMs, threads, and interaction tokens."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from fake_discord_tinybot import TinyBot

from fakediscord import Driver, DriverError, FakeDiscord
from fakediscord.places import TOKEN_LIFETIME
from fakediscord.state import CREATE_PUBLIC_THREADS

PLACE_NAMES = ("guild", "dm_channel", "private_channel")
EVERYWHERE = {"guilds": True, "dms": True, "private_channels": True}


class PlacesBot(TinyBot):
    """TinyBot plus commands that report where they run and open threads."""

    def _add_commands(self) -> None:
        super()._add_commands()
        tree = self.tree

        @tree.command(name="where", description="Where am I")
        @app_commands.allowed_installs(guilds=True, users=True)
        @app_commands.allowed_contexts(**EVERYWHERE)
        async def where(interaction: discord.Interaction) -> None:
            owners = {str(k): str(v) for k, v in interaction._integration_owners.items()}
            report = {
                "context": [c for c in PLACE_NAMES if getattr(interaction.context, c)],
                "owners": owners,
                "perms": interaction.app_permissions.value,
            }
            await interaction.response.send_message(json.dumps(report))
            try:
                await interaction.channel.send("by the channel route")  # type: ignore[union-attr]
            except discord.Forbidden as exc:
                await interaction.followup.send(f"refused {exc.status} {exc.code}")

        @tree.command(name="thread", description="Open a thread off a message")
        @app_commands.allowed_contexts(guilds=True)
        async def thread(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("opening", ephemeral=True)
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel)
            first = await channel.send("Checkers: a game starts")
            try:
                opened = await first.create_thread(name="Checkers · Alice vs Bob")
            except discord.Forbidden as exc:
                await interaction.followup.send(f"no thread {exc.code}", ephemeral=True)
                return
            await opened.send("the board")
            await opened.edit(archived=True)
            await channel.send("Alice won")


async def test_bot_dm_carries_context_one_and_allows_channel_routes(
    fake: FakeDiscord, driver: Driver, in_process
) -> None:
    await in_process(PlacesBot())
    alice = driver.user("alice")
    r = await driver.slash("alice", "where", channel="dm-alice")
    report = json.loads(r.content)
    assert report["context"] == ["dm_channel"]
    assert report["owners"] == {"0": "0", "1": str(alice.id)}
    await driver.wait_for(lambda: len(driver.channel_messages("dm-alice")) == 2)
    assert driver.last_message("dm-alice").content == "by the channel route"
    assert r.message is not None and r.message.guild_id is None


async def test_group_dm_answers_channel_routes_with_missing_access(
    fake: FakeDiscord, driver: Driver, in_process
) -> None:
    fake.expect_problem("missing-access")
    await in_process(PlacesBot())
    bob = driver.user("bob")
    r = await driver.slash("bob", "where", channel="friends")
    report = json.loads(r.content)
    assert report["context"] == ["private_channel"]
    assert report["owners"] == {"1": str(bob.id)}
    assert report["perms"] == (1 << 15) | (1 << 14) | (1 << 17)
    await driver.wait_for(lambda: len(r.followups) == 1)
    assert r.followups[0].content == "refused 403 50001"
    friends = driver.channel("friends")
    assert ("POST", f"/channels/{friends.id}/messages") in [
        (m, p.removeprefix("/api/v10")) for m, p, _ in fake.requests
    ]
    assert [p.kind for p in fake.problems_found] == ["missing-access"]


async def test_commands_without_the_user_install_are_not_offered_in_a_group_dm(
    driver: Driver, in_process
) -> None:
    await in_process(PlacesBot())
    with pytest.raises(DriverError, match="not offered where the bot is not a member"):
        await driver.slash("alice", "ping", channel="friends")
    with pytest.raises(DriverError, match="not offered in context 1"):
        await driver.slash("alice", "thread", channel="dm-alice")


async def test_a_member_without_the_app_cannot_use_it_in_a_group_dm(
    fake: FakeDiscord, driver: Driver, in_process
) -> None:
    await in_process(PlacesBot())
    fake.world.user_installs.discard(driver.user("carol").id)
    with pytest.raises(DriverError, match="carol has not installed the app"):
        await driver.slash("carol", "where", channel="friends")


async def test_a_click_carries_the_owners_of_the_message_it_is_on(
    fake: FakeDiscord, driver: Driver, in_process
) -> None:
    await in_process(PlacesBot())
    fake.world.user_installs.add(driver.user("olivia").id)
    r = await driver.slash("olivia", "board")  # the guild and olivia's own install
    assert r.message is not None
    click = await driver.click("bob", r.message, label="Count 0")
    owners = click.interaction.payload["authorizing_integration_owners"]
    assert owners == {"0": str(driver.channel().guild_id), "1": str(driver.user("olivia").id)}
    assert r.message.payload()["interaction_metadata"]["authorizing_integration_owners"] == owners


async def _call(
    session: aiohttp.ClientSession, method: str, url: str, body: dict[str, Any]
) -> tuple[int, dict[str, Any]]:
    async with session.request(method, url, json=body) as resp:
        return resp.status, await resp.json() if resp.status != 204 else {}


async def test_interaction_tokens_expire_after_fifteen_minutes_of_the_fake_clock(
    fake: FakeDiscord, driver: Driver
) -> None:
    fake.expect_problem("expired-token")
    interaction = fake.new_interaction(
        itype=2, user=driver.user("alice"), channel=driver.channel("friends"), data={}
    )
    interaction.dispatched = True
    base = f"{fake.api_url}/webhooks/{fake.world.application_id}/{interaction.token}"
    async with aiohttp.ClientSession() as session:
        callback = f"{fake.api_url}/interactions/{interaction.id}/{interaction.token}/callback"
        status, _ = await _call(session, "POST", callback, {"type": 4, "data": {"content": "a"}})
        assert status == 200
        fake.advance_clock(TOKEN_LIFETIME - 5)
        status, _ = await _call(session, "PATCH", f"{base}/messages/@original", {"content": "b"})
        assert status == 200
        fake.advance_clock(10)
        status, body = await _call(session, "PATCH", f"{base}/messages/@original", {"content": "c"})
        assert (status, body["code"]) == (401, 50027)
        status, body = await _call(session, "POST", base, {"content": "d"})
        assert (status, body["code"]) == (401, 50027)
    assert driver.last_message("friends").content == "b"


async def test_follow_ups_of_a_user_installed_interaction_stop_at_five(
    fake: FakeDiscord, driver: Driver
) -> None:
    fake.expect_problem("more than 5 follow-ups")
    interaction = fake.new_interaction(
        itype=2, user=driver.user("alice"), channel=driver.channel("friends"), data={}
    )
    interaction.dispatched = True
    base = f"{fake.api_url}/webhooks/{fake.world.application_id}/{interaction.token}"
    async with aiohttp.ClientSession() as session:
        callback = f"{fake.api_url}/interactions/{interaction.id}/{interaction.token}/callback"
        await _call(session, "POST", callback, {"type": 4, "data": {"content": "start"}})
        statuses = [(await _call(session, "POST", base, {"content": "more"}))[0] for _ in range(6)]
    assert statuses == [204] * 5 + [400]


async def test_thread_from_a_message_posts_archives_and_sends_gateway_events(
    fake: FakeDiscord, driver: Driver, in_process
) -> None:
    await in_process(PlacesBot())
    await driver.slash("alice", "thread")
    games = driver.channel("games")
    guild = fake.world.guild(games.guild_id or 0)
    await driver.wait_for(lambda: guild.threads and guild.threads[0].archived)
    thread = guild.threads[0]
    assert thread.name == "Checkers · Alice vs Bob" and thread.parent_id == games.id
    assert [m.content for m in driver.channel_messages(thread)] == ["the board"]
    await driver.wait_for(lambda: driver.last_message("games").content == "Alice won")
    events = [m["t"] for m in fake.gateway.dispatched((0, 1)) if m["t"].startswith("THREAD")]
    assert events == ["THREAD_CREATE", "THREAD_UPDATE"]
    assert thread.id == driver.channel_messages("games")[0].id


async def test_without_create_public_threads_the_thread_is_refused(
    fake: FakeDiscord, driver: Driver, in_process
) -> None:
    guild = fake.world.guild("Parlour Test")
    everyone = guild.role(guild.id)
    assert everyone is not None
    everyone.permissions &= ~CREATE_PUBLIC_THREADS
    await in_process(PlacesBot())
    r = await driver.slash("alice", "thread")
    await driver.wait_for(lambda: len(r.followups) == 1)
    assert r.followups[0].content == "no thread 50013"
    assert guild.threads == []
