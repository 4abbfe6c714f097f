"""The fake Discord's fault handling: resume, restarts via the launcher, late answers, misuse."""

from __future__ import annotations

import aiohttp
import pytest
from fake_discord_tinybot import TinyBot

from fakediscord import Driver, DriverError, FakeDiscord


async def test_resume_after_dropped_connection_replays_missed_events(
    fake: FakeDiscord, driver: Driver, in_process
) -> None:
    await in_process(TinyBot())
    assert (await driver.slash("alice", "ping")).content == "pong"
    await driver.drop_connection()
    # An interaction dispatched while the socket is down reaches the bot when it resumes.
    interaction = fake.new_interaction(
        itype=2,
        user=driver.user("bob"),
        channel=driver.channel("games"),
        data=driver._command_data("ping", driver.channel("games"), {}),
    )
    await fake.send_interaction(interaction)
    await fake.wait_client_event("resumed")
    await driver.wait_for(lambda: interaction.responded)
    assert fake.gateway.identify_count == 1
    assert fake.gateway.resume_count == 1
    assert (await driver.slash("carol", "ping")).content == "pong"


async def test_reconnect_request_is_resumed(fake: FakeDiscord, driver: Driver, in_process) -> None:
    await in_process(TinyBot())
    await fake.gateway.send_reconnect()
    await fake.wait_client_event("resumed")
    assert fake.gateway.identify_count == 1
    assert (await driver.slash("carol", "ping")).content == "pong"


async def test_late_first_response_is_recorded(
    fake: FakeDiscord, driver: Driver, in_process
) -> None:
    fake.response_deadline = 0.3
    await in_process(TinyBot())
    with pytest.raises(DriverError, match="late"):
        await driver.slash("alice", "slow")
    assert [p.kind for p in fake.problems()] == ["late-response"]
    fake.expect_problem("late-response")


async def test_limit_violation_by_the_bot_is_recorded_and_refused(
    fake: FakeDiscord, driver: Driver, in_process
) -> None:
    await in_process(TinyBot())
    with pytest.raises(DriverError, match="did not answer"):
        await driver.slash("alice", "bad", timeout=1.0)
    assert any("content is 2001 characters" in str(p) for p in fake.problems())
    assert driver.channel_messages() == []
    fake.expect_problem("content is 2001")


async def test_unknown_route_fails_loudly(fake: FakeDiscord) -> None:
    headers = {"Authorization": "Bot fake"}
    async with (
        aiohttp.ClientSession() as session,
        session.get(fake.api_url + "/guilds/1/bans", headers=headers) as resp,
    ):
        assert resp.status == 404
        assert "no such route" in (await resp.json())["message"]
    assert [p.kind for p in fake.problems()] == ["unknown-route"]
    fake.expect_problem("unknown-route")


async def test_wrong_token_is_refused(fake: FakeDiscord) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.get(fake.api_url + "/users/@me", headers={"Authorization": "Bot nope"}) as resp,
    ):
        assert resp.status == 401


async def test_driver_refuses_what_a_member_cannot_do(driver: Driver, in_process) -> None:
    await in_process(TinyBot())
    with pytest.raises(DriverError, match="not a registered command"):
        await driver.slash("alice", "nosuch")
    with pytest.raises(DriverError, match="required option 'opponent'"):
        await driver.slash("alice", "game challenge")
    with pytest.raises(DriverError, match="no options"):
        await driver.slash("alice", "ping", loud=True)
    secret = (await driver.slash("alice", "secret")).message
    with pytest.raises(DriverError, match="someone else's ephemeral"):
        await driver.click("bob", secret, label="x")
    board = (await driver.slash("alice", "board")).message
    with pytest.raises(DriverError, match="no button labelled 'Nope'"):
        await driver.click("bob", board, label="Nope")
    with pytest.raises(DriverError, match="not an option"):
        await driver.select("bob", board, ["green"])
    board.components[0]["components"][0]["disabled"] = True
    with pytest.raises(DriverError, match="disabled"):
        await driver.click("bob", board, label="Count 0")


async def test_bot_process_via_launcher_survives_restart(
    fake: FakeDiscord, driver: Driver, start_bot
) -> None:
    guild = fake.world.guild("Parlour Test")
    bot = await start_bot("fake_discord_tinybot", env={"DISCORD_GUILD_ID": str(guild.id)})
    assert fake.sync_count(guild.id) == 1 and fake.sync_count() == 0
    r = await driver.slash("alice", "board")
    board = r.message
    assert await driver.attachment_bytes(board) == board.attachments[0].data

    await bot.kill()
    await bot.start()
    assert fake.gateway.identify_count == 2
    # The DynamicItem button on the old message still works in the new process.
    click = await driver.click("bob", board, label="Count 0")
    assert click.message.content == "count is 1"
    assert fake.client_events.count("ready") == 2
    assert bot.errors() == []
