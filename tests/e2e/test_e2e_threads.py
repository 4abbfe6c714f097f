"""Games in their own thread (``/settings threads:on``), in one bot's life and across its
restart: every game started, played and ended in its thread, its result line in the channel
and the thread archived; a Quarters game begun before a restart ends the same way after it.
Threads keep nothing of their own in storage (the bot knows its threads from Discord's channel
data): SQLite only. One bot for all of it, as each start costs seconds."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from test_e2e_kabu import position_button
from test_e2e_quarters import computer_answers, secret_move, take

from fakediscord import Driver, FakeDiscord, Message
from fakediscord.state import Channel

Finish = Callable[[Driver, Message], Awaitable[None]]


async def game_thread(
    fake: FakeDiscord, driver: Driver, command: str, **options: object
) -> tuple[Driver, Message]:
    """``command`` typed in #games: a driver in the thread it opened, and the opening line."""
    r = await driver.slash("alice", command, **options)
    assert r.content.endswith("the game is in the thread below."), r.content
    assert r.message is not None
    guild = fake.world.guild("Parlour Test")
    opened = r.message.id  # a thread opened off a message has the message's id
    thread: Channel = await driver.wait_for(
        lambda: next((t for t in guild.threads if t.id == opened), None)
    )
    return Driver(fake, channel=thread), r.message


async def first_message(here: Driver) -> Message:
    return await here.wait_for(lambda: (here.channel_messages() or [None])[0])


async def ended_in_the_channel(driver: Driver, here: Driver, opening: Message) -> Message:
    """The game's result line in #games after its opening line; its thread archived, without
    the result in it."""
    title = here.channel().name.split(" · ")[0]
    result = await driver.wait_for_message(
        "games", lambda m: m.content.startswith(f"🏁 **{title}**"), after=opening.id
    )
    await driver.wait_for(lambda: here.channel().archived)
    assert not any(m.content.startswith("🏁") for m in here.channel_messages())
    return result


async def resign_confirmed(here: Driver, board: Message) -> None:
    """``/game resign`` typed in the thread, and yes to its private question."""
    asked = await here.slash("alice", "game resign")
    assert asked.ephemeral and asked.message is not None, asked.text()
    await here.click("alice", asked.message, label=asked.message.button_labels()[0])


async def checkers(here: Driver, board: Message) -> None:
    await here.wait_for(lambda: " to move (Black)" in board.content, timeout=30)
    await resign_confirmed(here, board)


async def kabu(here: Driver, lobby: Message) -> None:
    board = (await here.click("alice", lobby, label="Deal")).message
    assert board is lobby
    await here.click("alice", board, label=position_button(board, 2))
    await here.wait_for(lambda: "Stand" in board.button_labels())
    await here.click("alice", board, label="Stand")


async def hearts(here: Driver, lobby: Message) -> None:
    board = (await here.click("alice", lobby, label="Start")).message
    assert board is lobby and "Your hand" in board.button_labels()
    await resign_confirmed(here, board)


GAMES: list[tuple[str, dict[str, object], Finish]] = [
    ("checkers start", {"color": "black", "level": "beginner"}, checkers),
    ("kabu start", {}, kabu),
    ("quatorze start", {"winnable": True}, resign_confirmed),
    ("hearts start", {"level": "beginner", "delay": 0}, hearts),
]


async def quarters_move(here: Driver, board: Message) -> None:
    pile, count = await secret_move(here, "alice", board)
    await take(here, "alice", board, pile, count)
    await computer_answers(here, board)


async def test_every_game_from_its_thread_to_the_archive_also_across_a_restart(
    fake: FakeDiscord, driver: Driver, start_bot
) -> None:
    bot = await start_bot()
    await driver.slash("olivia", "settings", threads=True)
    quarters, quarters_opening = await game_thread(fake, driver, "quarters start")
    board = await first_message(quarters)
    await quarters_move(quarters, board)
    for command, options, finish in GAMES:
        here, opening = await game_thread(fake, driver, command, **options)
        await finish(here, await first_message(here))
        await ended_in_the_channel(driver, here, opening)
    # After a restart the bot knows the Quarters thread again from Discord's channel data.
    await bot.restart()
    moves = 1
    while "🏆" not in board.content:
        await quarters_move(quarters, board)
        moves += 1
        assert moves < 10
    result = await ended_in_the_channel(driver, quarters, quarters_opening)
    assert "Alice" in result.content
    assert [m.id for m in quarters.channel_messages()] == [board.id]
