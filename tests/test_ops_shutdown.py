"""The bot's graceful stop: work in flight finishes, nothing new starts, then it closes."""

from __future__ import annotations

import asyncio

import pytest

from bot.client.app import ParlourBot
from bot.config import Config
from bot.ops.drain import Stopping


async def test_shutdown_finishes_work_in_flight_then_refuses_and_starts_no_computer_turn(
    tmp_path,
):
    bot = ParlourBot(Config(token="x", database=tmp_path / "parlour.db"))
    events: list[str] = []
    entered = asyncio.Event()

    async def interaction() -> None:
        async with bot.drain.work():
            entered.set()
            await asyncio.sleep(0.05)
            events.append("interaction finished")

    task = asyncio.create_task(interaction())
    await entered.wait()
    closing = asyncio.create_task(bot.shutdown(timeout=5))
    await asyncio.sleep(0)
    with pytest.raises(Stopping):
        async with bot.drain.work():
            pass
    bot.start_computer(1, 2)
    assert bot._computer_tasks == {}
    await closing
    events.append("closed")
    await task
    assert events == ["interaction finished", "closed"]
    assert bot.is_closed()
