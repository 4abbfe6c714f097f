"""A week of uptime, shortened: 100 busy tables for an hour (or ``--minutes``) through the whole
stack, and the curve of what a long-running bot keeps.

Starts the fake Discord in this process and the bot (``python -m bot``, wrapped by
:mod:`bench.soak_probe`, which samples it from inside) as the load benchmark does, then keeps
``--tables`` tables busy, one member each, acting every ``--every`` seconds (Quarters, Checkers
and Hearts against the computer; a finished game is played again). Every ``--sample`` seconds
the bot writes one sample: its RSS (alone and with its AI workers), the event loop's lag over
the period (p99, max), and the sizes of its per-table structures (locks, hands, board edits,
picture cache, tasks). The curve is printed at the end, with the growth of RSS after the
warm-up (the first ``--warm-up`` minutes) and each structure's first and last size.

    python -m bench.soak                          # 100 tables, one hour
    python -m bench.soak --minutes 15 --sample 60
    python -m bench.soak --tables 2 --minutes 0.2 --sample 2   # does it work at all

Not a test: a benchmark, run by hand (``nice -n 10`` on a shared machine).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.perf.load import Figures, RecordingFake, Table, stop_bot, world_for
from fakediscord import Driver
from fakediscord.driver import DriverError

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Soak:
    """What one soak measured: the bot's samples, the members' actions, the bot's errors."""

    tables: int
    minutes: float
    warm_up: float
    samples: list[dict[str, Any]] = field(default_factory=list)
    actions: int = 0
    failed: int = 0
    errors: list[str] = field(default_factory=list)


async def start_probed_bot(
    fake: RecordingFake, db_url: str, log: Path, samples: Path, every: float
) -> asyncio.subprocess.Process:
    """The bot under :mod:`bench.soak_probe`, against ``fake``, logging to ``log``."""
    env = {
        **os.environ,
        "DISCORD_TOKEN": fake.world.token,
        "DATABASE_URL": db_url,
        "PYTHONUNBUFFERED": "1",
        "PYTHONPATH": str(ROOT),
        "LOG_FORMAT": "text",
        "SOAK_SAMPLES": str(samples),
        "SOAK_SAMPLE_EVERY": str(every),
    }
    env.pop("DISCORD_GUILD_ID", None)
    with log.open("ab") as out:
        return await asyncio.create_subprocess_exec(
            *(sys.executable, "-m", "fakediscord.launch", "--api-base", fake.url),
            *("--", "bench.soak_probe"),
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=asyncio.subprocess.STDOUT,
        )


async def keep_busy(table: Table, every: float, until: float, rng: random.Random) -> None:
    """Start the table's game, then act about every ``every`` seconds until ``until``."""
    await asyncio.sleep(rng.uniform(0, min(every, 5.0)))
    try:
        await table.begin()
    except DriverError:
        table.figures.failed += 1
    due = time.monotonic() + rng.uniform(0, every)
    while True:
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        if time.monotonic() >= until:
            return
        if table.board is None:  # its start failed: try again
            try:
                await table.begin()
            except DriverError:
                table.figures.failed += 1
        else:
            await table.step()
        table.figures.first.clear()  # only counts are kept over a long run
        table.figures.pending_boards.clear()
        due += every * rng.uniform(0.7, 1.3)


async def soak(
    tables: int,
    minutes: float,
    *,
    every: float = 3.0,
    sample_every: float = 60.0,
    warm_up: float = 10.0,
    database: str | None = None,
    keep_log: Path | None = None,
) -> Soak:
    """Run the soak and return its samples (see the module's docstring)."""
    result = Soak(tables, minutes, warm_up)
    with tempfile.TemporaryDirectory() as tmp:
        fake = RecordingFake(world_for(tables), response_deadline=3.0)
        await fake.start()
        log, samples = Path(tmp) / "bot.log", Path(tmp) / "samples.jsonl"
        db = database or f"sqlite:///{tmp}/soak.db"
        proc = await start_probed_bot(fake, db, log, samples, sample_every)
        try:
            await fake.wait_client_event("ready", 1, timeout=120)
            driver = Driver(fake, timeout=30)
            figures = Figures()
            rng = random.Random(tables)
            members = [Table(driver, i, figures) for i in range(tables)]
            until = time.monotonic() + minutes * 60
            await asyncio.gather(*(keep_busy(t, every, until, rng) for t in members))
            await asyncio.sleep(min(sample_every, 5.0) + 0.5)  # the last period's sample
            result.actions, result.failed = figures.actions, figures.failed
        finally:
            await stop_bot(proc)
            await fake.stop()
        if samples.exists():
            result.samples = [json.loads(ln) for ln in samples.read_text().splitlines() if ln]
        text = log.read_text(errors="replace")
        if keep_log is not None:
            keep_log.write_text(text)
        result.errors = [ln for ln in text.splitlines() if " ERROR " in ln or "Traceback" in ln]
    return result


def growth(result: Soak) -> tuple[float, float, float] | None:
    """RSS (MiB) at the first sample after the warm-up, at the end, and the growth in %."""
    after = [s for s in result.samples if s["t"] >= result.warm_up * 60]
    if len(after) < 2:
        return None
    first, last = after[0]["rss_mib"], after[-1]["rss_mib"]
    return first, last, (last - first) / first * 100


def trend(result: Soak, window: int = 3) -> tuple[float, float, float, float] | None:
    """RSS after the warm-up less sensitive to one noisy sample: the median of the first
    ``window`` samples, that of the last ``window``, the growth between them in %, and the
    least-squares slope over every sample after the warm-up, in MiB an hour."""
    after = [s for s in result.samples if s["t"] >= result.warm_up * 60]
    if len(after) < 2 * window:
        return None
    first = statistics.median(s["rss_mib"] for s in after[:window])
    last = statistics.median(s["rss_mib"] for s in after[-window:])
    slope = statistics.linear_regression(
        [s["t"] / 3600 for s in after], [s["rss_mib"] for s in after]
    ).slope
    return first, last, (last - first) / first * 100, slope


def peaks(result: Soak) -> dict[str, tuple[int, int, int, float]]:
    """Each structure's first, last and largest size, and the minute it was first largest."""
    found = {}
    for name in result.samples[0]["sizes"] if result.samples else ():
        known = [
            (s["t"], s["sizes"][name]) for s in result.samples if s["sizes"].get(name) is not None
        ]
        if known:
            top = max(v for _, v in known)
            when = next(t for t, v in known if v == top)
            found[name] = (known[0][1], known[-1][1], top, when / 60)
    return found


def report(result: Soak) -> None:
    """Print the curve, the RSS growth after the warm-up and each structure's first/last/max."""
    load = os.getloadavg()
    print(
        f"soak: {result.tables} tables, {result.minutes:g} min, {result.actions} actions "
        f"({result.failed} failed), load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    if not result.samples:
        print("no sample: the bot wrote none (see its log)")
        return
    names = list(result.samples[0]["sizes"])
    print(" min   RSS MiB  +workers  lag p99/max ms  gc objects  " + " | ".join(names))
    for s in result.samples:
        sizes = " | ".join(f"{s['sizes'].get(n)}" for n in names)
        print(
            f"{s['t'] / 60:5.1f} {s['rss_mib']:8.1f} {s['rss_workers_mib']:9.1f} "
            f"{s['lag_p99_ms']:7.1f}/{s['lag_max_ms']:<7.1f} {s['gc_objects']:10d}  {sizes}"
        )
    grew = growth(result)
    if grew is not None:
        print(
            f"RSS after the {result.warm_up:g}-minute warm-up: {grew[0]:.1f} -> {grew[1]:.1f} MiB "
            f"({grew[2]:+.1f}%; the goal is under +5%)"
        )
    steady = trend(result)
    if steady is not None:
        print(
            f"RSS after the warm-up, median of the first 3 samples -> of the last 3: "
            f"{steady[0]:.1f} -> {steady[1]:.1f} MiB ({steady[2]:+.1f}%); "
            f"slope {steady[3]:+.2f} MiB an hour"
        )
    for name, (first, last, top, when) in peaks(result).items():
        print(f"  {name}: first {first}, last {last}, max {top} (first at minute {when:.1f})")
    tasks = result.samples[-1].get("tasks_by_name")
    if tasks:
        print(
            "  the most numerous asyncio tasks at the end: "
            + ", ".join(f"{name} x{count}" for name, count in tasks.items())
        )
    if len(result.samples) > 1 and "objects_by_type" in result.samples[-1]:
        first, last = result.samples[0]["objects_by_type"], result.samples[-1]["objects_by_type"]
        print(
            "  objects by type, first -> last: "
            + ", ".join(f"{name} {first.get(name, 0)} -> {count}" for name, count in last.items())
        )
    for line in result.errors[:5]:
        print("  bot error:", line[:200])


def main() -> None:
    logging.getLogger("fakediscord.server").setLevel(logging.ERROR)  # counted, not printed
    parser = argparse.ArgumentParser(
        description="Many busy tables for a long time: the bot's memory, loop lag and "
        "per-table structures over time."
    )
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--minutes", type=float, default=60.0, help="how long (default 60)")
    parser.add_argument("--every", type=float, default=3.0, help="seconds between actions")
    parser.add_argument("--sample", type=float, default=60.0, help="seconds between samples")
    parser.add_argument(
        "--warm-up",
        type=float,
        default=10.0,
        help="minutes before RSS growth is measured (default 10: see docs/reliability.md)",
    )
    parser.add_argument("--database", help="DATABASE_URL (default: a fresh SQLite file)")
    parser.add_argument("--keep-log", type=Path, help="keep the bot's log in this file")
    args = parser.parse_args()
    result = asyncio.run(
        soak(
            args.tables,
            args.minutes,
            every=args.every,
            sample_every=args.sample,
            warm_up=args.warm_up,
            database=args.database,
            keep_log=args.keep_log,
        )
    )
    report(result)


if __name__ == "__main__":
    main()
