"""What the operator's instrumentation costs: the per-interaction tracker (its log line and
metrics) and the timing of repository calls, against the same work without them.

- ``interaction``: an empty handler run bare, then inside ``Tracker.track`` with a note, a
  board update and the INFO line (written to a null handler, as a real one would format it);
- ``get_meta``: a repository read on a SQLite file, bare, then through ``instrument``.

Every case runs ``--rounds`` times in this process; the medians are printed in microseconds,
with the ratio to the bare run (the baseline).

    python -m bench.perf.ops [--n 5000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

from bot.ops import interactions
from bot.ops.dbtiming import instrument
from bot.ops.interactions import Tracker
from storage import Database


def fake_interaction(iid: int) -> SimpleNamespace:
    return SimpleNamespace(id=iid, type=3, data={"component_type": 2}, guild_id=1, channel_id=2)


async def bare(n: int) -> float:
    start = time.perf_counter()
    for _ in range(n):
        await asyncio.sleep(0)
    return (time.perf_counter() - start) / n


async def tracked(n: int, tracker: Tracker) -> float:
    start = time.perf_counter()
    for i in range(n):
        async with tracker.track(fake_interaction(i)):
            interactions.note(game="quarters", table=5, action="m=1-2")
            await asyncio.sleep(0)
            interactions.board_updated()
    return (time.perf_counter() - start) / n


async def reads(n: int, db: Database) -> float:
    start = time.perf_counter()
    for _ in range(n):
        await db.get_meta("bench")
    return (time.perf_counter() - start) / n


def row(name: str, seconds: float, base: float) -> str:
    return f"{name:<28} {seconds * 1e6:9.1f} us   x{seconds / base:5.2f}"


async def main(n: int, rounds: int) -> None:
    logger = logging.getLogger("parlour.interactions")
    logger.propagate = False
    logger.addHandler(logging.StreamHandler(open("/dev/null", "w")))  # noqa: SIM115
    logger.setLevel(logging.INFO)
    tracker = Tracker()
    print(f"{n} interactions / reads, median of {rounds} rounds")
    base = statistics.median([await bare(n) for _ in range(rounds)])
    cost = statistics.median([await tracked(n, tracker) for _ in range(rounds)])
    print(row("interaction, bare", base, base))
    print(row("interaction, tracked", cost, base))
    print(f"{'  tracker cost':<28} {(cost - base) * 1e6:9.1f} us per interaction")
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(Path(tmp) / "bench.db")
        try:
            await db.set_meta("bench", "1")
            raw = statistics.median([await reads(n, db) for _ in range(rounds)])
            instrument(db)
            timed = statistics.median([await reads(n, db) for _ in range(rounds)])
        finally:
            await db.close()
    print(row("get_meta, bare", raw, raw))
    print(row("get_meta, timed", timed, raw))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    asyncio.run(main(args.n, args.rounds))
