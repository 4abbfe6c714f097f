"""Latency of the table service under many concurrent tables.

Runs Quarters games through the real service (SQLite file, real images, threads for the AI)
with 1 table (the baseline) and then N tables at once, and prints the median and 90th
percentile time of one click, and the ratio to the baseline.

    python -m bench.perf.service [--tables 50] [--moves 6]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bot.tables.ai import AiRunner
from bot.tables.registry import controllers
from bot.tables.service import Member, TableService
from storage import Database


async def play(service: TableService, channel: int, moves: int, timings: list[float]) -> None:
    who = Member(channel, f"p{channel}", 1, channel)
    reply = await service.start(who, "quarters", {"piles": "5,5,5,5"})
    table_id = reply.table_id
    for _ in range(moves):
        if reply.error or not reply.board or not reply.board.rows or table_id is None:
            return
        table = await service.db.get_table(table_id)
        assert table is not None and table.state is not None
        piles = service.controllers["quarters"].load(table.state).piles
        pile = next(i for i, n in enumerate(piles, 1) if n)
        started = time.perf_counter()
        reply = await service.act(who, table_id, reply.version, f"c={pile}.1")
        timings.append(time.perf_counter() - started)
        started = time.perf_counter()
        reply = await service.act(who, table_id, reply.version, "remove")
        timings.append(time.perf_counter() - started)
        if reply.ai_next:
            reply = await service.play_computer(table_id) or reply


async def measure(tables: int, moves: int) -> list[float]:
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(Path(tmp) / "bench.db")
        ai = AiRunner(2, threads=True)
        service = TableService(db, controllers(), ai)
        timings: list[float] = []
        await asyncio.gather(*(play(service, 10 + i, moves, timings) for i in range(tables)))
        ai.close()
        await db.close()
    return timings


def summary(name: str, timings: list[float], base: float | None) -> float:
    median = statistics.median(timings)
    p90 = statistics.quantiles(timings, n=10)[-1]
    ratio = f"  x{median / base:.1f} of baseline" if base else ""
    print(
        f"{name:<22} clicks={len(timings):5d}  median={median * 1000:7.1f} ms  "
        f"p90={p90 * 1000:7.1f} ms{ratio}"
    )
    return median


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--moves", type=int, default=6)
    args = parser.parse_args()
    base = summary("1 table (baseline)", asyncio.run(measure(1, args.moves * 4)), None)
    summary(f"{args.tables} tables at once", asyncio.run(measure(args.tables, args.moves)), base)


if __name__ == "__main__":
    main()
