"""Load through the whole stack: the fake Discord, the real bot process, N busy tables.

Starts the fake Discord in this process and the bot as ``python -m bot`` (through the fake's
launcher, exactly as the end-to-end tests do), then drives N tables, one channel and one member
each, over the gateway and REST: Quarters and Checkers against the computer and Hearts with three
computer seats, in turn. Each table acts once every ``--every`` seconds (±30 % jitter, open loop:
the schedule does not wait for the bot) for ``--seconds``. Per N it prints actions, the bot's
CPU per action (the bot process and its AI and drawing workers, from /proc; and the bot process
alone: its event loop and its threads), p50/p99/max of the first
response (INTERACTION_CREATE to the callback, timed by the fake) and of the board update (to
the first edit of the table's public board after the action), the loop lag the bot logged,
the bot's RSS, 429s and limit problems, and the ratio to the 1-table run.

    python -m bench.perf.load [--tables 1,50,200] [--seconds 60] [--every 3]
    python -m bench.perf.load --tables 500 --rate-limits      # Discord's rate limits on
    python -m bench.perf.load --tables 100 --games quarters    # only Quarters tables
    python -m bench.perf.load --tables 400 --shards 2 --servers 8 \
        --database postgresql://user@host/db                   # two bot processes

With ``--shards 2`` the tables are spread over ``--servers`` servers, half of them on each
shard, and one bot process runs each shard; both share the database, which must then be
PostgreSQL (each run gets a fresh schema in it, dropped afterwards). CPU, RSS and the loop lag
are summed (CPU, RSS) or the worst (lag) over the processes.

Not a test: a benchmark, run by hand (``nice -n 10`` on a shared machine).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import logging
import os
import random
import re
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fakediscord import Driver, FakeDiscord
from fakediscord.driver import DriverError
from fakediscord.state import (
    EVERYONE_PERMISSIONS,
    Channel,
    Guild,
    Member,
    Message,
    Role,
    User,
    World,
)

ROOT = Path(__file__).resolve().parents[2]  # the checkout whose bot is measured
GAMES = ("quarters", "checkers", "hearts")
COIN = re.compile(r"^(\d+)·(\d+)$")
SUCCESS = 3
LAG = re.compile(r"event loop lag over [\d.]+ s: p50 ([\d.]+) ms, p99 ([\d.]+) ms, max ([\d.]+) ms")
CLK = os.sysconf("SC_CLK_TCK")


# -- the world ---------------------------------------------------------------------------


def world_for(tables: int, servers: int = 1, shards: int = 1) -> World:
    """The default world plus one channel and one member per table, the tables dealt in turn
    over ``servers`` servers (the default world's two, then new ones with the bot in them);
    with ``shards`` > 1, server ``i`` is on shard ``i % shards``."""
    world = World.default()
    ids = itertools.count(300_000_000_000_000_001)
    first = world.guilds[0]
    bot = world.bot_user
    while len(world.guilds) < servers:
        gid = next(ids)
        guild = Guild(
            gid,
            f"load{len(world.guilds)}",
            first.owner_id,
            [Role(gid, "@everyone", EVERYONE_PERMISSIONS)],
        )
        guild.members.append(Member(bot, gid))
        world.guilds.append(guild)
    used = world.guilds[: max(1, servers)]
    for i in range(tables):
        guild = used[i % len(used)]
        guild.channels.append(Channel(next(ids), guild.id, f"t{i}", position=10 + i))
        guild.members.append(Member(User(next(ids), f"m{i}"), guild.id))
    if shards > 1:
        world.spread_over_shards(shards)
    return world


@asynccontextmanager
async def database_for(url: str | None, tmp: str) -> AsyncIterator[str]:
    """The run's DATABASE_URL: a fresh SQLite file, or a fresh schema in the PostgreSQL
    database ``url`` names (dropped afterwards)."""
    if url is None or not url.startswith(("postgres://", "postgresql://")):
        yield url or f"sqlite:///{tmp}/load.db"
        return
    import asyncpg  # only for PostgreSQL runs

    schema = f"load_{uuid.uuid4().hex[:12]}"
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
        yield f"{url}{'&' if '?' in url else '?'}search_path={schema}"
    finally:
        await conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await conn.close()


# -- the bot process ---------------------------------------------------------------------


def descendants(pid: int) -> list[int]:
    """``pid`` and every live process below it."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        todo.extend(children.get(p, []))
    return found


def cpu_seconds(pid: int, *, tree: bool = True) -> float:
    """CPU time of the process tree under ``pid`` (live processes, and reaped children);
    ``tree=False``: of ``pid`` alone, its threads included."""
    total = 0.0
    for p in descendants(pid) if tree else [pid]:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        times = fields[11:15] if tree else fields[11:13]  # utime stime (cutime cstime)
        total += sum(int(v) for v in times) / CLK
    return total


def rss_mib(pid: int) -> tuple[float, float]:
    """RSS of the bot process, and of it with its workers, in MiB."""
    sizes = []
    for p in descendants(pid):
        try:
            status = Path(f"/proc/{p}/status").read_text()
        except OSError:
            continue
        m = re.search(r"VmRSS:\s+(\d+) kB", status)
        sizes.append(int(m[1]) / 1024 if m else 0.0)
    return (sizes[0] if sizes else 0.0), sum(sizes)


async def stop_bot(proc: asyncio.subprocess.Process) -> None:
    """Ask the bot's process to stop; kill it if it has not within 15 s."""
    proc.terminate()
    try:
        await asyncio.wait_for(proc.wait(), 15)
    except TimeoutError:
        proc.kill()
        await proc.wait()


async def start_bot(fake: FakeDiscord, db_url: str, log: Path, env: dict[str, str]) -> Any:
    full = {
        **os.environ,
        "DISCORD_TOKEN": fake.world.token,
        "DATABASE_URL": db_url,
        "PYTHONUNBUFFERED": "1",
        "PYTHONPATH": str(ROOT),
        **env,
    }
    full.pop("DISCORD_GUILD_ID", None)
    with log.open("ab") as out:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "fakediscord.launch",
            "--api-base",
            fake.url,
            "--",
            "bot",
            cwd=ROOT,
            env=full,
            stdout=out,
            stderr=asyncio.subprocess.STDOUT,
        )
    return proc


# -- the members -------------------------------------------------------------------------


@dataclass
class Figures:
    """What one run measured."""

    actions: int = 0
    refused: int = 0
    failed: int = 0
    first: list[float] = field(default_factory=list)
    board: list[float] = field(default_factory=list)
    pending_boards: list[tuple[int, float]] = field(default_factory=list)


class Table:
    """One channel, one member, one game at a time; picks its next click from what it sees."""

    def __init__(
        self, driver: Driver, index: int, figures: Figures, games: tuple[str, ...] = GAMES
    ) -> None:
        self.driver = driver
        self.game = games[index % len(games)]
        self.channel = f"t{index}"
        self.member = f"m{index}"
        self.mention = driver.user(self.member).mention
        self.figures = figures
        self.board: Message | None = None
        self.hand: Message | None = None

    async def begin(self) -> None:
        options: dict[str, Any] = {}
        if self.game == "checkers":
            options = {"level": "beginner"}
        elif self.game == "hearts":
            options = {"level": "beginner", "delay": 0}
        r = await self.driver.slash(
            self.member, f"{self.game} start", channel=self.channel, **options
        )
        self.board = r.message

    def _play_again(self) -> bool:
        return self.board is not None and "Play again" in self.board.button_labels()

    async def step(self) -> bool:
        """One action, if there is one to take now; True when one was sent."""
        board = self.board
        if board is None:
            return False
        if self._play_again():
            r = await self._send(lambda: self.driver.click(self.member, board, "Play again"))
            if r is not None and r.message is not None and not r.message.ephemeral:
                self.board, self.hand = r.message, None
            return r is not None
        if self.game == "quarters":
            return await self._quarters(board)
        if self.game == "checkers":
            return await self._checkers(board)
        return await self._hearts(board)

    async def _quarters(self, board: Message) -> bool:
        if f"{self.mention} to move" not in board.content:
            return False
        buttons = board.buttons()
        if any(b.get("style") == SUCCESS and COIN.match(b.get("label") or "") for b in buttons):
            label = "Remove Coins"
        else:
            coin = next(
                (b for b in buttons if COIN.match(b.get("label") or "") and not b.get("disabled")),
                None,
            )
            if coin is None:
                return False
            label = coin["label"]
        return await self._send(lambda: self.driver.click(self.member, board, label)) is not None

    async def _checkers(self, board: Message) -> bool:
        if f"{self.mention} to move" not in board.content:
            return False
        selects = [s for s in board.selects() if not s.get("disabled")]
        if not selects or not selects[0].get("options"):
            return False
        move = selects[0]["options"][0]["value"]
        return await self._send(lambda: self.driver.select(self.member, board, [move])) is not None

    async def _hearts(self, board: Message) -> bool:
        labels = board.button_labels()
        if "Start" in labels:
            start = await self._send(lambda: self.driver.click(self.member, board, "Start"))
            return start is not None
        if "Your hand" not in labels:
            return False
        hand = self.hand
        usable = (
            hand is not None
            and not hand.deleted
            and any(not s.get("disabled") and s.get("options") for s in hand.selects())
        )
        if not usable:
            turn = f"{self.mention} to play" in board.content or "to pass" in board.content
            if not turn:
                return False
            r = await self._send(
                lambda: self.driver.click(self.member, board, "Your hand"), on_board=False
            )
            if r is not None and r.message is not None:
                self.hand = r.message
            return r is not None
        assert hand is not None
        select = next(s for s in hand.selects() if not s.get("disabled"))
        values = [o["value"] for o in select["options"]][: select.get("min_values", 1)]
        sent = await self._send(
            lambda: self.driver.select(self.member, hand, values), hand_play=True
        )
        self.hand = None
        return sent is not None

    async def _send(self, act: Any, *, on_board: bool = True, hand_play: bool = False) -> Any:
        """Send one action; ``on_board``: it should change the public board."""
        board = self.board
        started = time.monotonic()
        try:
            r = await act()
        except DriverError:
            self.figures.failed += 1
            return None
        self.figures.actions += 1
        if r.latency is not None:
            self.figures.first.append(r.latency)
        if r.ephemeral and r.message is not None and refusal(r.message):
            self.figures.refused += 1
        elif board is not None and on_board and (hand_play or not r.ephemeral):
            self.figures.pending_boards.append((board.id, r.interaction.sent_at or started))
        return r


def refusal(message: Any) -> bool:
    """Whether a private answer refused the action: a text alone (a Hearts hand shown while
    the computer still plays has its picture and no menu; that is not a refusal)."""
    return not message.selects() and not message.attachments


async def run_table(
    table: Table, every: float, until: float, rng: random.Random, stagger: float
) -> None:
    await asyncio.sleep(rng.uniform(0, stagger))  # members do not all start at once
    try:
        await table.begin()
    except DriverError:
        table.figures.failed += 1
        return
    due = time.monotonic() + rng.uniform(0, every)
    while True:
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        if time.monotonic() >= until:
            return
        await table.step()
        due += every * rng.uniform(0.7, 1.3)


# -- one run -----------------------------------------------------------------------------


class RecordingFake(FakeDiscord):
    """The fake Discord noting when each message was edited (and forgetting old versions)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.edited: dict[int, list[float]] = {}

    def _apply_edit(self, message: Message, payload: dict[str, Any], attachments: Any) -> None:
        super()._apply_edit(message, payload, attachments)
        message.history.clear()  # a long run would keep every image of every board
        self.edited.setdefault(message.id, []).append(time.monotonic())
        for old in list(self.attachments):
            if len(self.attachments) < 2000:
                break
            del self.attachments[old]


def board_updates(fake: RecordingFake, pending: list[tuple[int, float]]) -> list[float]:
    """For each action, seconds to the first edit of its board at or after the action."""
    found = []
    for mid, sent in pending:
        later = [t for t in fake.edited.get(mid, []) if t >= sent]
        if later:
            found.append(later[0] - sent)
    return found


def lag_lines(log: Path, since: int) -> list[tuple[float, float, float]]:
    text = log.read_bytes()[since:].decode(errors="replace")
    return [(float(a), float(b), float(c)) for a, b, c in LAG.findall(text)]


@dataclass
class Run:
    tables: int
    seconds: float
    figures: Figures
    cpu: float
    loop_cpu: float  # the bot process alone: its event loop and its threads
    rss: tuple[float, float]
    lag: list[tuple[float, float, float]]
    boards: list[float]
    status_429: int
    problems: int
    late: int
    hits: dict[str, int]
    load: tuple[float, float, float]
    startup: float
    driver_cpu: float
    routes: dict[str, int] = field(default_factory=dict)
    clients: dict[str, int] = field(default_factory=dict)  # requests per bot process (shards)


def shard_env(shards: int, index: int) -> dict[str, str]:
    """The environment of the bot process running shard ``index`` (nothing when unsharded)."""
    if shards <= 1:
        return {}
    return {
        "SHARD_COUNT": str(shards),
        "SHARD_IDS": str(index),
        "FAKEDISCORD_CLIENT_NAME": f"shard{index}",
    }


def tree_cpu(pids: list[int], *, tree: bool = True) -> float:
    return sum(cpu_seconds(pid, tree=tree) for pid in pids)


async def measure(tables: int, seconds: float, every: float, args: argparse.Namespace) -> Run:
    shards = max(1, args.shards)
    with tempfile.TemporaryDirectory() as tmp:
        world = world_for(tables, max(args.servers, shards if shards > 1 else 1), shards)
        fake = RecordingFake(world, response_deadline=3.0)
        if args.rate_limits:
            fake.enable_rate_limits()
        await fake.start()
        logs = [Path(tmp) / f"bot{i}.log" for i in range(shards)]
        started = time.monotonic()
        procs: list[Any] = []
        async with database_for(args.database, tmp) as db:
            try:
                for i, log in enumerate(logs):
                    env = {"LOG_FORMAT": "text", **shard_env(shards, i)}
                    procs.append(await start_bot(fake, db, log, env))
                    if i == 0 and shards > 1:  # shard 0 creates the schema and syncs first
                        await fake.wait_client_event("ready", 1, timeout=120)
                await fake.wait_client_event("ready", shards, timeout=120)
                startup = time.monotonic() - started
                measured = await drive(fake, tables, seconds, every, args, procs, logs)
            finally:
                for proc in procs:
                    await stop_bot(proc)
                await fake.stop()
        figures, cpu, loop_cpu, rss, lag, load, own, first_request = measured
        for i, log in enumerate(logs):
            text = log.read_text(errors="replace")
            if args.keep_log:
                Path(f"{args.keep_log}.{tables}{f'.{i}' if shards > 1 else ''}").write_text(text)
            errors = [ln for ln in text.splitlines() if " ERROR " in ln]
            for line in errors[:5]:
                print("  bot error:", line[:200])
    return Run(
        tables,
        seconds,
        figures,
        cpu,
        loop_cpu,
        rss,
        lag,
        board_updates(fake, figures.pending_boards),
        sum(1 for _, _, s in fake.requests if s == 429),
        len([p for p in fake.problems() if p.kind != "late-response"]),
        len([p for p in fake.problems() if p.kind == "late-response"]),
        limited(fake),
        load,
        startup,
        own,
        by_route(fake.requests[first_request:]),
        {f"shard{i}": len(fake.requests_from(f"shard{i}")) for i in range(shards) if shards > 1},
    )


async def drive(
    fake: RecordingFake,
    tables: int,
    seconds: float,
    every: float,
    args: argparse.Namespace,
    procs: list[Any],
    logs: list[Path],
) -> tuple[Figures, float, float, tuple[float, float], list[Any], Any, float, int]:
    """Warm up, then act for ``seconds``; what the bot processes used meanwhile."""
    driver = Driver(fake, timeout=30)
    figures = Figures()
    rng = random.Random(tables)
    games = tuple(args.games.split(","))
    members = [Table(driver, i, figures, games) for i in range(tables)]
    stagger = max(1.0, tables / 40)  # at most about 40 new games a second
    warm_until = time.monotonic() + stagger + 8.0
    # Warm-up: every table starts its game and plays a few seconds (not counted).
    await asyncio.gather(*(run_table(t, every, warm_until, rng, stagger) for t in members))
    await asyncio.sleep(1.0)
    figures.actions = figures.refused = figures.failed = 0
    figures.first.clear()
    figures.pending_boards.clear()
    profiler = None
    pids = [proc.pid for proc in procs]
    if args.profile:
        profiler = await asyncio.create_subprocess_exec(
            *("py-spy", "record", "--pid", str(pids[0]), "--subprocesses"),
            *("--duration", str(int(seconds)), "--rate", "200", "--nonblocking"),
            *("--format", "raw", "--output", args.profile),
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
    cpu0, own0 = tree_cpu(pids), time.process_time()
    loop0 = tree_cpu(pids, tree=False)
    marks = [log.stat().st_size for log in logs]
    first_request = len(fake.requests)
    until = time.monotonic() + seconds

    async def keep_going(t: Table) -> None:
        due = time.monotonic() + rng.uniform(0, every)
        while True:
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            if time.monotonic() >= until:
                return
            await t.step()
            due += every * rng.uniform(0.7, 1.3)

    await asyncio.gather(*(keep_going(t) for t in members))
    await asyncio.sleep(2.0)  # the last board edits
    if profiler is not None:
        await profiler.wait()
    cpu, own = tree_cpu(pids) - cpu0, time.process_time() - own0
    loop_cpu = tree_cpu(pids, tree=False) - loop0
    sizes = [rss_mib(pid) for pid in pids]
    rss = (sum(a for a, _ in sizes), sum(b for _, b in sizes))
    await asyncio.sleep(11.0)  # the lag line of the last period
    lag = [line for log, mark in zip(logs, marks, strict=True) for line in lag_lines(log, mark)]
    return figures, cpu, loop_cpu, rss, lag, os.getloadavg(), own, first_request


def by_route(requests: list[tuple[str, str, int]]) -> dict[str, int]:
    """Requests by method, route (ids left out) and status."""
    found: dict[str, int] = {}
    for method, path, status in requests:
        route = re.sub(r"/\d+|/tok-[^/]+", "/:id", path)
        key = f"{method} {route} {status}"
        found[key] = found.get(key, 0) + 1
    return found


def limited(fake: FakeDiscord) -> dict[str, int]:
    """429s by scope and route (ids left out)."""
    found: dict[str, int] = {}
    for hit in fake.rate_limits.hits if fake.rate_limits else []:
        route = re.sub(r"/\d+|/tok-[^/]+", "/:id", hit.path)
        key = f"{hit.scope} {hit.method} {route}"
        found[key] = found.get(key, 0) + 1
    return found


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(run: Run, base: Run | None) -> None:
    f = run.figures
    per_action = run.cpu / f.actions * 1000 if f.actions else float("nan")
    ms = 1000
    lag_p99 = max((p99 for _, p99, _ in run.lag), default=float("nan"))
    lag_max = max((m for _, _, m in run.lag), default=float("nan"))
    print(
        f"N={run.tables:<4} actions={f.actions:6d} ({f.actions / run.seconds:5.1f}/s) "
        f"refused={f.refused} failed={f.failed}  bot CPU {per_action:5.2f} ms/action "
        f"({run.cpu / run.seconds * 100:4.0f}% of a core; the fake Discord and the members "
        f"{run.driver_cpu / run.seconds * 100:3.0f}%)"
    )
    loop = run.loop_cpu / f.actions * 1000 if f.actions else float("nan")
    print(
        f"       of which the bot process (its event loop and threads) {loop:5.2f} ms/action, "
        f"its workers (the computer, the drawing) {per_action - loop:5.2f} ms/action"
    )
    print(
        f"       first response p50 {statistics.median(f.first or [0]) * ms:6.1f} "
        f"p99 {pct(f.first, 0.99) * ms:6.1f} max {max(f.first or [0]) * ms:6.1f} ms | "
        f"board update p50 {statistics.median(run.boards or [0]) * ms:6.1f} "
        f"p99 {pct(run.boards, 0.99) * ms:6.1f} max {max(run.boards or [0]) * ms:6.1f} ms"
    )
    print(
        f"       loop lag p99 {lag_p99:5.1f} max {lag_max:5.1f} ms (worst 10 s period) | "
        f"RSS bot {run.rss[0]:5.0f} MiB, with AI workers {run.rss[1]:5.0f} MiB | "
        f"429s {run.status_429} late (>3 s) {run.late} other problems {run.problems} | "
        f"start-up {run.startup:4.1f} s | "
        f"load {run.load[0]:.2f} {run.load[1]:.2f}"
    )
    if run.routes and f.actions:
        print(
            "       requests per action: "
            + ", ".join(
                f"{k} {v / f.actions:.2f}"
                for k, v in sorted(run.routes.items(), key=lambda kv: -kv[1])
            )
        )
    if run.clients:
        print(
            "       requests by process: " + ", ".join(f"{k} {v}" for k, v in run.clients.items())
        )
    if run.hits:
        print("       429s: " + ", ".join(f"{k} x{v}" for k, v in sorted(run.hits.items())))
    if base is not None and base.figures.first and f.first:
        b_first = statistics.median(base.figures.first)
        b_cpu = base.cpu / max(1, base.figures.actions)
        print(
            f"       vs N=1: first response p50 x{statistics.median(f.first) / b_first:.1f}, "
            f"CPU/action x{run.cpu / max(1, f.actions) / b_cpu:.2f}"
        )


def main() -> None:
    logging.getLogger("fakediscord.server").setLevel(logging.ERROR)  # counted, not printed
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", default="1,50,200,500", help="comma-separated N values")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--every", type=float, default=3.0, help="seconds between actions")
    parser.add_argument("--rate-limits", action="store_true", help="Discord's rate limits on")
    parser.add_argument(
        "--games", default=",".join(GAMES), help="the tables' games in turn (comma-separated)"
    )
    parser.add_argument(
        "--database",
        help="DATABASE_URL (default: a fresh SQLite file; PostgreSQL: a fresh schema in it)",
    )
    parser.add_argument("--shards", type=int, default=1, help="bot processes, one shard each")
    parser.add_argument("--servers", type=int, default=1, help="servers the tables are dealt over")
    parser.add_argument("--keep-log", help="keep the bot's log as KEEP_LOG.<N>")
    parser.add_argument(
        "--profile", help="record the bot with py-spy (collapsed stacks) into this file"
    )
    args = parser.parse_args()
    if args.shards > 1 and not (args.database or "").startswith(("postgres://", "postgresql://")):
        parser.error("--shards 2 needs --database postgresql://... (several processes, one store)")
    base: Run | None = None
    for n in [int(x) for x in args.tables.split(",")]:
        run = asyncio.run(measure(n, args.seconds, args.every, args))
        report(run, base if n != 1 else None)
        if n == 1:
            base = run


if __name__ == "__main__":
    main()
