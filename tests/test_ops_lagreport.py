"""The loop-lag summary the bot logs (and bench.perf.load reads)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.ops.lagreport import LagReport, percentile, summary_line


def test_percentiles_and_the_summary_line() -> None:
    samples = [i / 1000 for i in range(1, 101)]  # 1..100 ms
    assert percentile(samples, 0.5) == pytest.approx(0.051)
    assert percentile(samples, 0.99) == pytest.approx(0.1)
    assert percentile([], 0.99) == 0.0
    text, fields = summary_line(samples, 10)
    assert text == "event loop lag over 10 s: p50 51.0 ms, p99 100.0 ms, max 100.0 ms, 100 samples"
    assert fields["samples"] == 100


async def test_the_report_logs_one_line_per_period(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="parlour.ops")
    report = LagReport(interval=0.01, period=0.2)
    report.start()
    await asyncio.sleep(0.5)
    await report.stop()
    lines = [r for r in caplog.records if r.getMessage().startswith("event loop lag over")]
    assert len(lines) >= 1
    assert lines[0].samples > 0  # type: ignore[attr-defined]
