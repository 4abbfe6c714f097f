"""One Quarters click through the table service, as the bot runs it: the CPU and the queries.

A SQLite file, the drawing pool of one process and the computer's pool of one process, as
``python -m bot`` starts them; games against the computer from 5-5-5-5, each move a coin picked
and **Remove Coins** (two clicks) and the computer's reply. Prints, per click, the CPU of this
process (the event loop and its threads) and of the drawing and computer processes, and the
repository calls and SQL statements of one move. No Discord: what the table service itself
costs, apart from discord.py and aiohttp (``bench.perf.load`` measures the whole stack).

    python -m bench.perf.click [--games 40]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import tempfile
import time
from collections import Counter
from pathlib import Path

from bot import drawing
from bot.ops.dbtiming import instrument
from bot.tables.ai import AiRunner
from bot.tables.core.events import Answer
from bot.tables.registry import controllers
from bot.tables.service import Member, TableService
from storage import Database
from storage.backends import SqliteBackend

CLK = os.sysconf("SC_CLK_TCK")


def children() -> list[int]:
    """This process's child processes (the pools' workers), from /proc."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid():
                found.append(int(entry))
    return found


def cpu_of(pids: list[int]) -> float:
    """CPU seconds used so far by the processes ``pids``."""
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / CLK
    return total


async def warm_up(
    service: TableService, who: Member, table_id: int, pile: int, version: int | None
) -> Answer:
    """One move of the first game, not measured."""
    reply = await service.act(who, table_id, version, f"c={pile}.1")
    reply = await service.act(who, table_id, reply.version, "remove")
    if reply.ai_next:
        reply = await service.play_computer(table_id) or reply
    return reply


async def measure(games: int) -> None:
    drawing.start(1)
    pool = drawing.pool()
    assert pool is not None and pool.wait_ready()
    ai = AiRunner(1)
    calls: Counter[str] = Counter()
    statements: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        db = instrument(await Database.open(Path(tmp) / "click.db"), lambda n, _: calls.update([n]))
        assert isinstance(db.backend, SqliteBackend)
        await db.backend.conn.set_trace_callback(lambda sql: statements.update([sql.split()[0]]))
        service = TableService(db, controllers(), ai)
        clicks, cpu, workers, first = 0, 0.0, 0.0, True
        pids: list[int] = []
        for game in range(games):
            who = Member(100 + game, f"p{game}", 1, 100 + game)
            reply = await service.start(who, "quarters", {"piles": "5,5,5,5"})
            table_id = reply.table_id
            assert table_id is not None
            if game == 1:  # after a first game, unmeasured: both pools' processes have started
                pids = children()
            while reply.board is not None and reply.board.rows and reply.error is None:
                table = await db.get_table(table_id)
                assert table is not None and table.state is not None
                piles = service.controllers["quarters"].load(table.state).piles
                if not any(piles):
                    break
                pile = next(i for i, n in enumerate(piles, 1) if n)
                calls.clear()
                statements.clear()
                if game == 0:
                    reply = await warm_up(service, who, table_id, pile, reply.version)
                    continue
                workers0 = cpu_of(pids)
                cpu0 = time.process_time()
                reply = await service.act(who, table_id, reply.version, f"c={pile}.1")
                reply = await service.act(who, table_id, reply.version, "remove")
                if reply.ai_next:
                    reply = await service.play_computer(table_id) or reply
                cpu += time.process_time() - cpu0
                workers += cpu_of(pids) - workers0
                clicks += 2
                if first:
                    print(
                        f"one move (two clicks and the computer's reply): calls {dict(calls)}, "
                        f"statements {dict(statements)}"
                    )
                    first = False
        await db.close()
    ai.close()
    drawing.stop()
    print(
        f"{clicks} clicks: CPU per click {1000 * cpu / clicks:.2f} ms in this process, "
        f"{1000 * workers / clicks:.2f} ms in the drawing and computer processes"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    asyncio.run(measure(parser.parse_args().games))


if __name__ == "__main__":
    main()
