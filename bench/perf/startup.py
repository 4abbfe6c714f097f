"""Start-up with many stored tables: time to ready, memory, memory per idle table.

Fills a fresh SQLite file with ``--tables`` open tables (Quarters and Checkers against the
computer, each waiting for its member's move, in as many channels) and as many finished ones,
then starts the real bot against the fake Discord (as ``bench.perf.load`` does) and prints
the time from process start to ready, the bot's CPU seconds and RSS at ready and 15 s later
(when the start-up work has settled), against a run with an empty database measured in the
same process; the RSS difference divided by the open tables is the memory per idle table.

    python -m bench.perf.startup [--tables 10000]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from bench.perf.load import cpu_seconds, rss_mib, start_bot, world_for
from bot.tables.controller import table_seed
from bot.tables.registry import controllers
from fakediscord import FakeDiscord
from storage import Database, Seat, TableStatus

KINDS = ("quarters", "checkers")


async def fill(path: Path, guild_id: int, tables: int) -> None:
    """``tables`` open tables waiting for a member, and ``tables`` finished ones."""
    db = await Database.open(path)
    found = controllers()
    now = time.time()
    for i in range(2 * tables):
        kind = KINDS[i % len(KINDS)]
        controller = found[kind]
        member = Seat(f"m{i}", 500_000 + i)
        computer = Seat("Computer (beginner)", None, "beginner")
        options = {"level": "beginner"} if kind == "checkers" else {"piles": "3,5,7"}
        opts = controller.parse_options(options)
        table = await db.create_table(
            guild_id=guild_id,
            channel_id=900_000_000 + i,
            kind=kind,
            status=TableStatus.ACTIVE,
            seats=[member, computer],
            options=opts,
            state=None,
            created_by=member.user_id or 0,
            now=now - i,
        )
        assert table is not None
        table.state = controller.new_state(table, table_seed(table)).to_dict()
        if i >= tables:
            table.status = TableStatus.FINISHED
        await db.save_table(table, moved=True, now=now - i)
    await db.close()


async def measure(tables: int) -> tuple[float, float, float, float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        fake = FakeDiscord(world_for(0))
        await fake.start()
        path = Path(tmp) / "many.db"
        if tables:
            started = time.monotonic()
            await fill(path, fake.world.guilds[0].id, tables)
            print(f"  filled {2 * tables} tables in {time.monotonic() - started:.0f} s")
        started = time.monotonic()
        proc = await start_bot(fake, f"sqlite:///{path}", Path(tmp) / "bot.log", {})
        try:
            await fake.wait_client_event("ready", 1, timeout=600)
            ready = time.monotonic() - started
            cpu_ready, (rss_ready, _) = cpu_seconds(proc.pid), rss_mib(proc.pid)
            await asyncio.sleep(15)
            rss_later, _ = rss_mib(proc.pid)
            cpu_later = cpu_seconds(proc.pid)
        finally:
            proc.terminate()
            await proc.wait()
            await fake.stop()
    return ready, cpu_ready, rss_ready, rss_later, cpu_later


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=10_000)
    args = parser.parse_args()
    results = {}
    for n in (0, args.tables):
        ready, cpu_ready, rss_ready, rss_later, cpu_later = asyncio.run(measure(n))
        results[n] = rss_later
        print(
            f"{n:6d} open (+{n} finished) tables: ready after {ready:5.1f} s, "
            f"CPU {cpu_ready:5.1f} s at ready, {cpu_later:5.1f} s 15 s later; "
            f"RSS {rss_ready:5.0f} MiB at ready, {rss_later:5.0f} MiB 15 s later"
        )
    if args.tables:
        per = (results[args.tables] - results[0]) * 1024 / args.tables
        print(f"memory per idle open table: {per:.1f} KiB")


if __name__ == "__main__":
    main()
