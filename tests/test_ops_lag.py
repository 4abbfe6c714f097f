"""The event-loop lag monitor measures a loop blocked by synchronous work."""

from __future__ import annotations

import asyncio
import logging
import threading

from bot.ops.lag import LagMonitor


async def test_a_blocked_loop_is_measured_and_logged(caplog):
    measured: list[float] = []
    ticked = asyncio.Event()

    def record(lag: float) -> None:
        measured.append(lag)
        ticked.set()

    monitor = LagMonitor(interval=0.01, warn_after=0.05, record=record)
    monitor.start()
    await ticked.wait()  # the timer runs
    released = threading.Event()
    threading.Timer(0.2, released.set).start()
    count = len(measured)
    ticked.clear()
    with caplog.at_level(logging.WARNING, logger="parlour.ops"):
        released.wait()  # the loop is blocked for at least 0.2 s
        await ticked.wait()
        await monitor.stop()
    assert max(measured[count:]) >= 0.15
    assert any("event loop lagged" in r.getMessage() for r in caplog.records)
    assert all(lag >= 0 for lag in measured)
