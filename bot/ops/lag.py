"""The event-loop lag monitor: how late a periodic timer fires.

A coroutine sleeps ``interval`` seconds and measures how much longer than that it actually
slept: the time the loop was busy with something else (a long render, a blocking call). Each
measure goes to the metrics; lags of ``warn_after`` seconds or more are also logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from bot.ops import metrics

log = logging.getLogger("parlour.ops")


class LagMonitor:
    """``monitor.start()`` inside a running loop; ``await monitor.stop()``."""

    def __init__(
        self,
        interval: float = 0.5,
        warn_after: float = 0.25,
        *,
        record: Callable[[float], None] = metrics.observe_loop_lag,
    ) -> None:
        self.interval = interval
        self.warn_after = warn_after
        self.record = record
        self.last: float | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="loop-lag")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(self.interval)
            lag = max(0.0, loop.time() - before - self.interval)
            self.last = lag
            self.record(lag)
            if lag >= self.warn_after:
                log.warning("event loop lagged %.0f ms", lag * 1000, extra={"lag_ms": lag * 1000})
