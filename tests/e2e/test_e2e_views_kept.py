"""What a long-running bot keeps of the controls it sends: nothing. Boards and private hands
carry dynamic items, routed by their custom_id, so discord.py's view store holds no view and
no 15-minute timer task for them (the soak, ``bench.soak``, saw both grow without end)."""

from __future__ import annotations

import asyncio

from e2e_helpers import open_hand

from fakediscord import Driver


def view_timers() -> int:
    return sum(
        "timeout_task" in getattr(task.get_coro(), "__qualname__", "")
        for task in asyncio.all_tasks()
    )


async def test_boards_and_private_hands_leave_no_view_or_timer_behind(
    in_process, driver: Driver, tmp_path
):
    from bot.client.app import ParlourBot
    from bot.config import Config

    bot = await in_process(ParlourBot(Config(token="fake", database=tmp_path / "p.db")))
    lobby = (await driver.slash("alice", "hearts start", level="beginner", delay=0)).message
    assert lobby is not None
    board = (await driver.click("alice", lobby, label="Start")).message
    assert board is not None
    for _ in range(3):
        hand = await open_hand(driver, "alice", board)
        assert hand.selects() or hand.buttons()  # a private answer with controls
    store = bot._connection._view_store  # type: ignore[attr-defined]
    assert not store._views and not store._synced_message_views
    assert view_timers() == 0
    answer = await driver.click("alice", board, label="Scores")  # the controls still work
    assert answer.ephemeral
