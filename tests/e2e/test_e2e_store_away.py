"""The database goes away under the running bot (in this process, against the fake Discord):
members' clicks get a short private "the game store is restarting" answer, never "something
went wrong"; the game plays on once the store answers; a computer turn due meanwhile is
played then, once. PostgreSQL goes away through a proxy dropped and restored (a server
restart); SQLite's file refuses writes (as a read-only file or a full disk does)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable

import aiohttp
import pytest
from pgproxy import proxied
from test_e2e_quarters import COMPUTER, computer_answers, selected_coins, start_vs_computer

from bot.client import outage
from fakediscord import Driver

pytestmark = pytest.mark.both_backends

RESTARTING = "The game store is restarting; try again in a moment."

Switch = Callable[[], Awaitable[None]]


@contextlib.asynccontextmanager
async def outage_of(
    backend: str, database_url: str, in_process
) -> AsyncIterator[tuple[object, Switch, Switch]]:
    """The bot running on ``database_url``, and how to take its store away and bring it back."""
    from bot.client.app import ParlourBot
    from bot.config import Config

    if backend == "postgresql":
        async with proxied(database_url) as (proxy, through):
            config = Config(token="fake", database=through, http=("127.0.0.1", 0))
            bot = await in_process(ParlourBot(config))
            yield bot, proxy.drop, proxy.restore
        return
    bot = await in_process(ParlourBot(Config(token="fake", database=database_url)))
    conn = bot.service.db.backend.conn  # type: ignore[attr-defined]

    async def read_only() -> None:
        await conn.execute("PRAGMA query_only=ON")

    async def writable() -> None:
        await conn.execute("PRAGMA query_only=OFF")

    yield bot, read_only, writable


async def healthz(bot) -> int:
    """The status ``/healthz`` of the bot's operator endpoint answers."""
    url = f"http://127.0.0.1:{bot.ops.server.port}/healthz"
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status


async def test_clicks_while_the_store_is_away_are_told_it_is_restarting_and_play_on_after(
    backend, database_url, in_process, driver: Driver
):
    async with outage_of(backend, database_url, in_process) as (bot, away, back):
        board = await start_vs_computer(driver)
        await away()
        answer = await driver.click("alice", board, label="1·1")
        assert answer.ephemeral and answer.text() == RESTARTING
        assert selected_coins(board) == []
        if backend == "postgresql":  # a command reading the store meets it away too
            answer = await driver.slash("alice", "game show")
            assert answer.ephemeral and answer.text() == RESTARTING
            assert await healthz(bot) == 503
        await back()
        if backend == "postgresql":
            assert await healthz(bot) == 200
        answer = await driver.click("alice", board, label="1·1")
        assert answer.type == 7 and answer.message is board
        assert selected_coins(board) == ["1·1"]


async def test_a_computer_turn_due_while_the_store_is_away_is_played_once_it_is_back(
    backend, database_url, in_process, driver: Driver, monkeypatch
):
    monkeypatch.setattr(outage, "RETRY_EVERY", 0.02)
    async with outage_of(backend, database_url, in_process) as (bot, away, back):
        start = bot.start_computer  # type: ignore[attr-defined]
        failed_once = asyncio.Event()
        tasks: list[asyncio.Task[None]] = []

        def start_after_the_store_went_away(table_id: int, channel_id: int, delay=0.0) -> None:
            bot.start_computer = start  # type: ignore[attr-defined]

            async def go() -> None:
                await away()
                start(table_id, channel_id, delay)
                while not any(  # the computer's turn failed: its retry waits for the store
                    task.get_coro().__name__ == "when_store_back"
                    for task in bot._background  # type: ignore[attr-defined]
                ):
                    await asyncio.sleep(0.01)
                failed_once.set()

            tasks.append(asyncio.ensure_future(go()))

        bot.start_computer = start_after_the_store_went_away  # type: ignore[attr-defined]
        board = await start_vs_computer(driver)
        answer = await driver.click("alice", board, label="Computer Start")
        assert answer.type == 7
        await asyncio.wait_for(failed_once.wait(), 10)
        assert COMPUTER + " took" not in board.content  # not played while away
        await back()
        await computer_answers(driver, board)
        assert board.content.count(COMPUTER + " took") == 1
