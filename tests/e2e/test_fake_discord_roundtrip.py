"""The fake Discord against the real discord.py client: every kind of round trip."""

from __future__ import annotations

import asyncio

from fake_discord_tinybot import TinyBot

from fakediscord import Driver, FakeDiscord
from fakediscord.launch import finish_client_events


async def test_login_sync_and_ready(fake: FakeDiscord, in_process) -> None:
    client = await in_process(TinyBot())
    assert client.user.id == fake.world.bot_user.id
    assert {g.name for g in client.guilds} == {"Parlour Test", "Other Guild"}
    names = {c["name"] for c in fake.commands()}
    assert {"ping", "secret", "think", "board", "game"} <= names
    assert fake.sync_count() == 1
    assert fake.gateway.identify_count == 1


async def test_slash_reply_is_public(fake: FakeDiscord, driver: Driver, in_process) -> None:
    await in_process(TinyBot())
    r = await driver.slash("alice", "ping")
    assert r.type == 4
    assert r.content == "pong"
    assert not r.ephemeral
    assert driver.last_message("games").content == "pong"
    assert r.latency is not None and r.latency < 3


async def test_ephemeral_reply_only_for_that_member(driver: Driver, in_process) -> None:
    await in_process(TinyBot())
    r = await driver.slash("alice", "secret")
    assert r.ephemeral
    assert "manage messages: True" in r.content
    assert driver.channel_messages("games") == []
    assert driver.ephemerals("alice") == [r.message]
    assert driver.ephemerals("bob") == []
    r = await driver.slash("bob", "secret")
    assert "manage messages: False" in r.content


async def test_defer_then_followups(driver: Driver, in_process) -> None:
    await in_process(TinyBot())
    r = await driver.slash("bob", "think")
    assert r.type == 5
    assert r.message is not None and r.message.content == "thought hard"
    await driver.wait_for(lambda: len(r.followups) == 2)
    assert [m.content for m in r.messages] == ["thought hard", "and one more thing"]
    assert [m.content for m in driver.channel_messages()] == ["thought hard", "and one more thing"]


async def test_private_defer_keeps_followup_ephemeral(driver: Driver, in_process) -> None:
    await in_process(TinyBot())
    r = await driver.slash("bob", "think", private=True)
    assert r.ephemeral and r.content == "thought hard"
    assert driver.ephemerals("bob")[0].content == "thought hard"


async def test_board_with_file_buttons_and_select(
    fake: FakeDiscord, driver: Driver, in_process
) -> None:
    await in_process(TinyBot())
    r = await driver.slash("carol", "board")
    board = r.message
    assert board is not None
    assert board.embeds[0]["image"]["url"] == "attachment://board.png"
    assert board.attachments[0].filename == "board.png"
    assert board.attachments[0].description == "A red square"
    data = await driver.attachment_bytes(board, 0)
    assert data.startswith(b"\x89PNG")
    assert board.button_labels() == ["Count 0", "Think"]

    click = await driver.click("dave", board, label="Count 0")
    assert click.type == 7
    assert click.message is board
    assert board.content == "count is 1" and board.edited
    assert board.button_labels() == ["Count 1"]
    assert len(board.history) == 1
    # Updating with a view only keeps the old attachment (discord.py sends no attachments key).
    assert board.attachments[0].filename == "board.png"


async def test_select_answers_ephemerally(driver: Driver, in_process) -> None:
    await in_process(TinyBot())
    board = (await driver.slash("carol", "board")).message
    r = await driver.select("erin", board, ["Red", "blue"], placeholder="Pick a colour")
    assert r.ephemeral and r.content == "you picked red,blue"
    assert driver.ephemerals("erin")[-1].content == "you picked red,blue"


async def test_deferred_update_then_edit_original(driver: Driver, in_process) -> None:
    await in_process(TinyBot())
    board = (await driver.slash("carol", "board")).message
    r = await driver.click("alice", board, label="Think")
    assert r.type == 6
    await driver.wait_for(lambda: board.content == "thought about it")
    assert board.components == []


async def test_reply_then_original_response_and_edit_with_file(driver: Driver, in_process) -> None:
    await in_process(TinyBot())
    r = await driver.slash("alice", "edit")
    await driver.wait_for(lambda: r.message.edited)
    assert r.content == "second (was first)"
    assert [a.filename for a in r.message.attachments] == ["blue.png"]
    assert (await driver.attachment_bytes(r.message)).startswith(b"\x89PNG")


async def test_channel_message_post_and_edit(driver: Driver, in_process) -> None:
    await in_process(TinyBot())
    await driver.slash("alice", "post")
    msg = await driver.wait_for_message("games", lambda m: m.content == "an edited channel message")
    assert msg.edited and msg.history[0].content == "a channel message"


async def test_subcommand_with_member_option(driver: Driver, in_process) -> None:
    await in_process(TinyBot())
    r = await driver.slash("alice", "game challenge", opponent="bob")
    bob = driver.user("bob")
    assert r.content == f"{driver.user('alice').mention} challenges {bob.mention} with piles 3,4,5"
    r = await driver.slash("alice", "game challenge", opponent="bob", piles="1,2")
    assert r.content.endswith("piles 1,2")


async def test_autocomplete(driver: Driver, in_process) -> None:
    await in_process(TinyBot())
    choices = await driver.autocomplete("alice", "game move", focused="move", move="11")
    assert [c["value"] for c in choices] == ["11-15", "11-16"]
    r = await driver.slash("alice", "game move", move="11-15")
    assert r.content == "moved 11-15"


async def test_modal_open_and_submit(driver: Driver, in_process) -> None:
    await in_process(TinyBot())
    r = await driver.slash("alice", "form")
    assert r.modal is not None and r.modal["title"] == "Your name"
    r2 = await driver.submit_modal("alice", r, {"tiny:name": "Alice"})
    assert r2.ephemeral and r2.content == "hello Alice"


async def test_other_guild_channel(driver: Driver, in_process) -> None:
    await in_process(TinyBot())
    r = await driver.slash("frank", "ping", channel="Other Guild/general")
    assert r.content == "pong"
    assert driver.channel_messages("general")[0].content == "pong"
    assert driver.channel_messages("games") == []


async def test_teardown_finishes_the_handlers_begun_and_those_they_start() -> None:
    """discord.py runs each event handler and component callback as a task nothing awaits:
    teardown waits for them and for those they start (cancelling one that hangs), and leaves
    other tasks alone."""
    finished: list[str] = []
    started: list[asyncio.Task[None]] = []  # as discord.py does, nothing awaits them

    async def handler(name: str) -> None:
        await asyncio.sleep(0.01)
        finished.append(name)

    async def callback() -> None:
        await asyncio.sleep(0.01)
        started.append(
            asyncio.create_task(handler("on_table_action"), name="discord.py: on_table_action")
        )
        finished.append("button")

    started.append(asyncio.create_task(callback(), name="discord-ui-dynamic-item-Button-q:1"))
    stuck = asyncio.create_task(asyncio.Event().wait(), name="discord.py: on_message")
    other = asyncio.create_task(asyncio.Event().wait(), name="someone else's")
    await finish_client_events(timeout=0.5)
    assert finished == ["button", "on_table_action"]
    assert all(task.done() for task in started)
    assert stuck.cancelled()
    assert not other.done()
    other.cancel()
