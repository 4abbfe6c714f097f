"""Fixtures for end-to-end tests: the fake Discord, a driver acting as members, the bot process.

    async def test_something(fake, driver, start_bot):
        bot = await start_bot()                      # python -m bot via the launcher
        r = await driver.slash("alice", "quarters start", opponent="bob")
        assert "bob" in r.text()

Teardown fails the test when the fake recorded a problem (limit violation, late first response,
unknown route, protocol misuse) or when a bot process logged an error or a traceback.

The bot stores into a SQLite file in the test's ``tmp_path``. A test (or a module, through
``pytestmark``) marked ``@pytest.mark.both_backends`` runs twice, as ``[sqlite]`` and as
``[postgresql]`` (a fresh schema of the PostgreSQL test server, see ``tests/pg.py``); the
``rows`` fixture reads whichever the bot writes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import pytest
from e2e_helpers import TableRows
from pg import fresh_schema

from fakediscord import Driver, FakeDiscord
from fakediscord.launch import configure, finish_client_events

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
ERROR_MARKERS = ("Traceback (most recent call last)", "ERROR", "CRITICAL")
BACKENDS = ("sqlite", "postgresql")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "both_backends: run the test on SQLite and on PostgreSQL (a schema of its own)"
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``both_backends`` tests run once per back-end (``[sqlite]``, ``[postgresql]``)."""
    if "backend" in metafunc.fixturenames and metafunc.definition.get_closest_marker(
        "both_backends"
    ):
        metafunc.parametrize("backend", BACKENDS, indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The bot's back-end: ``sqlite`` unless the test is marked ``both_backends``."""
    return getattr(request, "param", "sqlite")


@pytest.fixture
async def database_url(backend: str, tmp_path: Path) -> AsyncIterator[str]:
    """The bot's ``DATABASE_URL``: a file in ``tmp_path``, or a fresh PostgreSQL schema
    (dropped afterwards; skipped locally, failed under CI=true, when no server answers)."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path}/parlour.db"
        return
    async with fresh_schema() as url:
        yield url


@pytest.fixture
def rows(database_url: str) -> Iterator[TableRows]:
    """The bot's game tables and results, read from its database."""
    reader = TableRows(database_url)
    yield reader
    reader.close()


def _fail_on_problems(fake: FakeDiscord) -> None:
    problems = fake.problems()
    if problems:
        pytest.fail("fake Discord recorded problems:\n  " + "\n  ".join(map(str, problems)))


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A fresh fake Discord on 127.0.0.1 (default world); fails the test on any problem."""
    async with FakeDiscord() as server:
        yield server
    _fail_on_problems(server)


@pytest.fixture
def driver(fake: FakeDiscord) -> Driver:
    """Acts as members (alice, bob, carol, dave, erin, olivia) in #games by default."""
    return Driver(fake)


class BotProcess:
    """The bot run as ``python -m fakediscord.launch --api-base URL -- <module>``."""

    def __init__(
        self, fake: FakeDiscord, module: str, args: list[str], env: dict[str, str], log: Path
    ) -> None:
        self.fake = fake
        self.module = module
        self.args = args
        self.env = env
        self.log_path = log
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0

    async def start(self, *, wait_ready: bool = True, timeout: float = 30.0) -> BotProcess:
        """Start the process; by default wait until discord.py fired ``on_ready``."""
        readies = self.fake.client_events.count("ready")
        with self.log_path.open("ab") as log:
            log.write(f"--- start #{self.starts + 1}\n".encode())
            log.flush()
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "fakediscord.launch",
                "--api-base",
                self.fake.url,
                "--",
                self.module,
                *self.args,
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
            )
        self.starts += 1
        if wait_ready:
            await self.wait_ready(readies + 1, timeout)
        return self

    async def wait_ready(self, count: int, timeout: float = 30.0) -> None:
        """Wait for the ``count``-th ready event (or fail with the bot's log)."""
        waiter = asyncio.create_task(self.fake.wait_client_event("ready", count, timeout))
        assert self.proc is not None
        exited = asyncio.create_task(self.proc.wait())
        done, _ = await asyncio.wait({waiter, exited}, return_when=asyncio.FIRST_COMPLETED)
        if exited in done and waiter not in done:
            waiter.cancel()
            pytest.fail(f"bot exited with {self.proc.returncode} before ready:\n{self.log}")
        exited.cancel()
        waiter.result()

    async def kill(self) -> None:
        """SIGKILL, as a crash or a pulled plug would."""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()

    async def stop(self, timeout: float = 10.0) -> int | None:
        """SIGTERM and wait (SIGKILL after ``timeout``); returns the exit code."""
        if self.proc is None:
            return None
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), timeout)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        return self.proc.returncode

    async def restart(self, *, kill: bool = True) -> BotProcess:
        """Kill (or stop) and start again; waits for ready."""
        await (self.kill() if kill else self.stop())
        return await self.start()

    @property
    def log(self) -> str:
        """Everything the process printed so far (stdout and stderr)."""
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def errors(self) -> list[str]:
        """Log lines that report an error or a traceback."""
        return [line for line in self.log.splitlines() if any(m in line for m in ERROR_MARKERS)]


StartBot = Callable[..., Awaitable[BotProcess]]


@pytest.fixture
async def start_bot(
    fake: FakeDiscord, tmp_path: Path, database_url: str
) -> AsyncIterator[StartBot]:
    """Factory: ``await start_bot(module="bot", *args, env={...}, wait_ready=True)``.

    The process gets DISCORD_TOKEN=fake and DATABASE_URL=``database_url`` (override with
    ``env``). At teardown it is stopped, and any error or traceback in its log fails the
    test (unless ``allow_errors=True`` was passed).
    """
    bots: list[tuple[BotProcess, bool]] = []

    async def start(
        module: str = "bot",
        *args: str,
        env: dict[str, str] | None = None,
        wait_ready: bool = True,
        allow_errors: bool = False,
    ) -> BotProcess:
        full_env = {
            **os.environ,
            "DISCORD_TOKEN": fake.world.token,
            "DATABASE_URL": database_url,
            "PYTHONPATH": os.pathsep.join([str(ROOT), str(HERE)]),
            "PYTHONUNBUFFERED": "1",
            **(env or {}),
        }
        if "DISCORD_GUILD_ID" not in (env or {}):
            full_env.pop("DISCORD_GUILD_ID", None)
        bot = BotProcess(fake, module, list(args), full_env, tmp_path / f"bot{len(bots)}.log")
        bots.append((bot, allow_errors))
        return await bot.start(wait_ready=wait_ready)

    yield start
    failures = []
    for bot, allow_errors in bots:
        await bot.stop()
        if not allow_errors and bot.errors():
            failures.append(f"{bot.module} logged errors:\n{bot.log}")
    if failures:
        pytest.fail("\n".join(failures))


class _ErrorRecords(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
async def in_process(fake: FakeDiscord) -> AsyncIterator[Callable[..., Awaitable[object]]]:
    """Factory running a discord.py client in this event loop against the fake.

    ``client = await in_process(SomeClient(...))`` starts it and waits until it is ready.
    discord.py errors logged meanwhile fail the test.
    """
    configure(fake.url)
    handler = _ErrorRecords()
    logging.getLogger("discord").addHandler(handler)
    clients: list[tuple[object, asyncio.Task[None]]] = []

    async def start(client: object) -> object:
        import discord

        assert isinstance(client, discord.Client)
        task = asyncio.create_task(client.start(fake.world.token))
        clients.append((client, task))
        ready = asyncio.create_task(client.wait_until_ready())
        done, _ = await asyncio.wait({ready, task}, timeout=20, return_when="FIRST_COMPLETED")
        if task in done:
            ready.cancel()
            task.result()
        assert ready in done, "client did not become ready"
        return client

    yield start
    # Read no more gateway events, finish the handlers begun, then close (discord.py drops its
    # loop on close, so a handler dispatching an event after it would leave a coroutine unrun).
    for _, task in clients:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    await finish_client_events()
    for client, _ in clients:
        await client.close()  # type: ignore[attr-defined]
    logging.getLogger("discord").removeHandler(handler)
    if handler.records:
        pytest.fail(
            "discord.py logged errors:\n"
            + "\n".join(
                handler.format(r) + (f"\n{r.exc_text}" if r.exc_text else "")
                for r in handler.records
            )
        )
