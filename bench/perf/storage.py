"""Saves per second and their latency, SQLite against PostgreSQL, 1 and 50 concurrent writers.

Each writer owns one table and saves it over and over the way a click does: a version-checked
``save_table`` of a game state of realistic size (a checkers position with its move list). One
writer is the latency floor; fifty show how each back-end takes concurrent clicks (SQLite has one
connection and one writer at a time; PostgreSQL a pool of ``--pool`` connections). Every case is
measured ``--rounds`` times in this process and the medians are printed, with ratios against
SQLite with one writer (the baseline).

    python -m bench.perf.storage [--saves 2000] [--rounds 3] [--pool 10] [--postgres URL]

PostgreSQL defaults to the local test server (``PARLOUR_TEST_POSTGRES`` or
postgresql://postgres@127.0.0.1:5432/test) and works in a scratch schema dropped at the end.
The figures are wall-clock: on a shared machine they move with the other load.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from urllib.parse import urlencode

import asyncpg

from storage import Database, Seat, Table, TableStatus

DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"


def game_state(n: int) -> dict:
    """About 1.5 kB of JSON, like a checkers game twenty moves in."""
    return {
        "board": "b.b.b.b..b.b.b.bb.b.b.b..........w.w.w.w..w.w.w.ww.w.w.w." + str(n),
        "moves": [f"{9 + i % 20}-{13 + i % 20}" for i in range(n % 40 + 20)],
        "turn": n % 2,
        "seed": 1234567 + n,
        "history": [[i, i * 3 % 32] for i in range(60)],
    }


async def new_table(db: Database, channel: int) -> Table:
    table = await db.create_table(
        guild_id=1 << 40,
        channel_id=channel,
        kind="checkers",
        status=TableStatus.ACTIVE,
        seats=[Seat("Alice", 1), Seat("Bob", 2)],
        options={"level": "hard"},
        state=game_state(0),
        created_by=1,
    )
    assert table is not None
    return table


async def writer(db: Database, table: Table, saves: int, timings: list[float]) -> None:
    for n in range(saves):
        table.state = game_state(n)
        started = time.perf_counter()
        saved = await db.save_table(table, moved=True)
        timings.append(time.perf_counter() - started)
        assert saved, "a writer's own table changed under it"


async def run_case(
    db: Database, writers: int, saves: int, channel_base: int
) -> tuple[float, float]:
    """(saves per second, p99 latency in seconds) of ``saves`` saves by ``writers`` writers."""
    tables = [await new_table(db, channel_base + i) for i in range(writers)]
    timings: list[float] = []
    each = max(1, saves // writers)
    started = time.perf_counter()
    await asyncio.gather(*(writer(db, t, each, timings) for t in tables))
    elapsed = time.perf_counter() - started
    for table in tables:  # free the channels for the next round
        table.status = TableStatus.FINISHED
        await db.save_table(table)
    return len(timings) / elapsed, statistics.quantiles(timings, n=100)[98]


@asynccontextmanager
async def sqlite_db(pool: int) -> AsyncIterator[Database]:
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(Path(tmp) / "bench.db")
        try:
            yield db
        finally:
            await db.close()


def postgres_db(server: str) -> Callable[[int], AbstractAsyncContextManager[Database]]:
    @asynccontextmanager
    async def opened(pool: int) -> AsyncIterator[Database]:
        schema = f"bench_{uuid.uuid4().hex[:12]}"
        admin = await asyncpg.connect(server)
        await admin.execute(f"CREATE SCHEMA {schema}")
        sep = "&" if "?" in server else "?"
        db = await Database.open(
            f"{server}{sep}{urlencode({'search_path': schema})}", pool_size=pool
        )
        try:
            yield db
        finally:
            await db.close()
            await admin.execute(f"DROP SCHEMA {schema} CASCADE")
            await admin.close()

    return opened


async def main_async(args: argparse.Namespace) -> None:
    backends = [("SQLite", sqlite_db), ("PostgreSQL", postgres_db(args.postgres))]
    print(
        f"{args.saves} saves per case, {args.rounds} rounds, PostgreSQL pool {args.pool}; "
        f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs"
    )
    results: dict[tuple[str, int], tuple[list[float], list[float]]] = {}
    channel = 1
    for _ in range(args.rounds):  # interleaved, so load changes hit every case alike
        for name, opener in backends:
            async with opener(args.pool) as db:
                for writers in (1, 50):
                    rate, p99 = await run_case(db, writers, args.saves, channel)
                    channel += writers
                    rates, p99s = results.setdefault((name, writers), ([], []))
                    rates.append(rate)
                    p99s.append(p99)
    base_rate = statistics.median(results[("SQLite", 1)][0])
    print(f"{'back-end':<11} {'writers':>7} {'saves/s':>9} {'p99 ms':>8} {'x SQLite/1':>11}")
    for (name, writers), (rates, p99s) in results.items():
        rate = statistics.median(rates)
        print(
            f"{name:<11} {writers:>7} {rate:>9.0f} {statistics.median(p99s) * 1000:>8.2f} "
            f"{rate / base_rate:>11.2f}"
        )
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.perf.storage", description=__doc__)
    parser.add_argument("--saves", type=int, default=2000, help="saves per case and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pool", type=int, default=10, help="PostgreSQL connections")
    parser.add_argument(
        "--postgres", default=os.environ.get("PARLOUR_TEST_POSTGRES", DEFAULT_POSTGRES)
    )
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
