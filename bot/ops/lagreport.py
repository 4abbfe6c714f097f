"""The bot's event-loop lag, summarised in its log: p50, p99 and max over each period.

A :class:`~bot.ops.lag.LagMonitor` samples the lag every ``interval`` seconds (each sample also
goes to the metrics); every ``period`` seconds one INFO line sums the period up, with the
figures as ``extra`` fields too (``lag_p50_ms``, ``lag_p99_ms``, ``lag_max_ms``, ``samples``),
so an operator sees it in the log and ``bench.perf.load`` reads it from there.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from bot.ops import metrics
from bot.ops.lag import LagMonitor

log = logging.getLogger("parlour.ops")
PREFIX = "event loop lag"


def percentile(samples: list[float], fraction: float) -> float:
    """The ``fraction`` quantile of ``samples`` (nearest rank; 0 for no samples)."""
    if not samples:
        return 0.0
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def summary_line(samples: list[float], period: float) -> tuple[str, dict[str, float]]:
    """The log message and its extra fields for one period's samples (seconds)."""
    fields = {
        "lag_p50_ms": percentile(samples, 0.5) * 1000,
        "lag_p99_ms": percentile(samples, 0.99) * 1000,
        "lag_max_ms": max(samples, default=0.0) * 1000,
        "samples": float(len(samples)),
    }
    text = (
        f"{PREFIX} over {period:g} s: p50 {fields['lag_p50_ms']:.1f} ms, "
        f"p99 {fields['lag_p99_ms']:.1f} ms, max {fields['lag_max_ms']:.1f} ms, "
        f"{len(samples)} samples"
    )
    return text, fields


class LagReport:
    """``report.start()`` inside the running loop; ``await report.stop()``."""

    def __init__(self, interval: float = 0.1, period: float = 10.0) -> None:
        self.period = period
        self.samples: list[float] = []
        self.monitor = LagMonitor(interval, record=self._record)
        self._task: asyncio.Task[None] | None = None

    def _record(self, lag: float) -> None:
        metrics.observe_loop_lag(lag)
        self.samples.append(lag)

    def start(self) -> None:
        self.monitor.start()
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="lag-report")

    async def stop(self) -> None:
        await self.monitor.stop()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        started = time.monotonic()
        while True:
            await asyncio.sleep(self.period - (time.monotonic() - started) % self.period)
            samples, self.samples = self.samples, []
            text, fields = summary_line(samples, self.period)
            log.info(text, extra=fields)
