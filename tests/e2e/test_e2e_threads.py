"""Games in their own thread (``/settings threads:on``): every game started, played and ended
there, its result line in the channel and the thread archived; and a thread's game across a
restart of the bot. Threads keep nothing of their own in storage: SQLite only."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from test_e2e_kabu import position_button
from test_e2e_quarters import computer_answers, secret_move, take

from fakediscord import Driver, FakeDiscord, Message
from fakediscord.state import Channel

Finish = Callable[[Driver, Message], Awaitable[None]]


async def game_thread(fake: FakeDiscord, driver: Driver, command: str, **options: object) -> Driver:
    """Threads on, ``command`` typed in #games: the thread it opened, as a driver's channel."""
    await driver.slash("olivia", "settings", threads=True)
    r = await driver.slash("alice", command, **options)
    assert r.content.endswith("the game is in the thread below."), r.content
    guild = fake.world.guild("Parlour Test")
    thread: Channel = await driver.wait_for(lambda: next(iter(guild.threads), None))
    return Driver(fake, channel=thread)


async def first_message(here: Driver) -> Message:
    return await here.wait_for(lambda: (here.channel_messages() or [None])[0])


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


GAMES: dict[str, tuple[str, dict[str, object], Finish]] = {
    "checkers": ("checkers start", {"color": "black", "level": "beginner"}, checkers),
    "kabu": ("kabu start", {}, kabu),
    "quatorze": ("quatorze start", {"winnable": True}, resign_confirmed),
    "hearts": ("hearts start", {"level": "beginner", "delay": 0}, hearts),
}


@pytest.mark.parametrize("game", list(GAMES))
async def test_each_game_from_its_thread_to_the_archive(
    fake: FakeDiscord, driver: Driver, start_bot, game: str
) -> None:
    await start_bot()
    command, options, finish = GAMES[game]
    here = await game_thread(fake, driver, command, **options)
    board = await first_message(here)
    await finish(here, board)
    result = await driver.wait_for_message("games", lambda m: m.content.startswith("🏁"))
    assert here.channel().name.split(" · ")[0].lower() in result.content.lower()
    await driver.wait_for(lambda: here.channel().archived)
    assert not any(m.content.startswith("🏁") for m in here.channel_messages())


async def test_a_thread_game_across_a_restart_still_ends_in_the_channel(
    fake: FakeDiscord, driver: Driver, start_bot
) -> None:
    """The bot knows its game threads again from Discord's channel data after a restart."""
    bot = await start_bot()
    here = await game_thread(fake, driver, "quarters start")
    board = await first_message(here)
    pile, count = await secret_move(here, "alice", board)
    await take(here, "alice", board, pile, count)
    await computer_answers(here, board)
    await bot.restart()
    moves = 1
    while "🏆" not in board.content:
        pile, count = await secret_move(here, "alice", board)
        await take(here, "alice", board, pile, count)
        await computer_answers(here, board)
        moves += 1
        assert moves < 10
    result = await driver.wait_for_message("games", lambda m: m.content.startswith("🏁"))
    assert "Alice" in result.content
    await driver.wait_for(lambda: here.channel().archived)
    assert [m.id for m in here.channel_messages()] == [board.id]
