"""``python -m bench.soak`` keeps working: a few seconds with two tables give a curve."""

from __future__ import annotations

from bench.soak import growth, report, soak
from bench.soak_probe import RENDER_CACHES, STRUCTURES


async def test_a_short_soak_samples_the_bots_memory_lag_and_per_table_structures(capsys):
    result = await soak(2, 0.15, every=1.0, sample_every=2.0, warm_up=0.0)
    assert result.actions > 0 and not result.errors
    assert len(result.samples) >= 3
    first = result.samples[0]
    assert first["rss_mib"] > 0 and first["rss_workers_mib"] >= first["rss_mib"]
    assert set(first["sizes"]) == {name for name, _ in STRUCTURES} | {
        "asyncio tasks",
        *RENDER_CACHES,
    }
    assert first["sizes"]["table locks"] is not None  # the probe finds the service's locks
    assert growth(result) is not None
    report(result)
    out = capsys.readouterr().out
    assert "RSS after the 0-minute warm-up" in out and "table locks: first" in out
