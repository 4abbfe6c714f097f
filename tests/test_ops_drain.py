"""Graceful stop: work in flight finishes, new work is refused."""

from __future__ import annotations

import asyncio

import pytest

from bot.ops.drain import Drain, Stopping


async def test_stop_waits_for_work_in_flight_and_refuses_new_work():
    drain = Drain()
    entered, release = asyncio.Event(), asyncio.Event()
    finished: list[str] = []

    async def interaction() -> None:
        async with drain.work():
            entered.set()
            await release.wait()
            finished.append("answered")

    task = asyncio.create_task(interaction())
    await entered.wait()
    drain.stop()
    with pytest.raises(Stopping):
        async with drain.work():
            finished.append("a new computer turn")
    waiting = asyncio.create_task(drain.idle())
    await asyncio.sleep(0)
    assert not waiting.done() and drain.in_flight == 1
    release.set()
    assert await waiting is True
    await task
    assert finished == ["answered"] and drain.in_flight == 0


async def test_idle_reports_a_timeout_when_work_hangs():
    drain = Drain()
    never = asyncio.Event()

    async def stuck() -> None:
        async with drain.work():
            await never.wait()

    task = asyncio.create_task(stuck())
    await asyncio.sleep(0)
    assert await drain.idle(timeout=0.01) is False
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await drain.idle(timeout=0) is True


async def test_an_idle_drain_stops_at_once():
    drain = Drain()
    drain.stop()
    assert await drain.idle(timeout=0) is True and not drain.accepting
