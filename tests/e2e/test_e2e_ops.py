"""The operator's view of the real bot process (``python -m bot``) against the fake Discord:
/healthz and /metrics on ``PARLOUR_HTTP``, one log line per interaction, and SIGTERM."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import sys

import aiohttp
import pytest
from e2e_helpers import TableRows
from prometheus_client.parser import text_string_to_metric_families
from test_e2e_quarters import (
    computer_answers,
    piles_on,
    secret_move,
    selected_coins,
    start_vs_computer,
    take,
)

from fakediscord import Driver

LISTENING = re.compile(r"health and metrics on http://127\.0\.0\.1:(\d+) ")
LINE = re.compile(
    r"interaction guild=(\d+) channel=(\d+) table=(\S+) action=(\S+) outcome=(\w+) "
    r"latency_ms=[\d.]+"
)


async def ops_port(bot, timeout: float = 10.0) -> int:
    """The port the bot's HTTP server bound (PARLOUR_HTTP=127.0.0.1:0 picks a free one)."""
    for _ in range(int(timeout / 0.05)):
        if m := LISTENING.search(bot.log):
            return int(m[1])
        await asyncio.sleep(0.05)
    raise AssertionError(f"the bot never said where it listens:\n{bot.log}")


async def get(port: int, path: str) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as response,
    ):
        return response.status, await response.text()


def samples(text: str) -> dict[tuple[str, frozenset], float]:
    """Every sample of the exposition, parsed by prometheus_client's own parser."""
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def value(found: dict, name: str, **labels: str) -> float:
    return found.get((name, frozenset(labels.items())), 0.0)


async def test_health_metrics_and_log_lines_follow_a_game_played_end_to_end(
    driver: Driver, start_bot, tmp_path
):
    bot = await start_bot(env={"PARLOUR_HTTP": "127.0.0.1:0"})
    port = await ops_port(bot)
    code, body = await get(port, "/healthz")
    assert code == 200, body
    assert '"shards": {"0": true}' in body and '"ok": true' in body

    code, text = await get(port, "/metrics")
    assert code == 200
    before = samples(text)

    board = await start_vs_computer(driver)
    code, text = await get(port, "/metrics")
    assert value(samples(text), "parlour_open_tables", game="quarters") == 1
    moves = 0
    while "wins!" not in board.content:
        pile, count = await secret_move(driver, "alice", board)
        await take(driver, "alice", board, pile, count)
        await computer_answers(driver, board)
        moves += 1
        assert moves < 10
    assert TableRows(tmp_path / "parlour.db").last().status == "finished"

    code, text = await get(port, "/metrics")
    after = samples(text)

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert moved("parlour_interactions_total", game="quarters", kind="command", outcome="applied")
    # coin clicks, Remove Coins and Secret: all applied, all buttons
    clicks = moved("parlour_interactions_total", game="quarters", kind="button", outcome="applied")
    assert clicks >= 3 * moves
    assert moved("parlour_first_response_seconds_count", game="quarters") >= clicks
    assert moved("parlour_board_update_seconds_count", game="quarters") >= moves
    assert moved("parlour_computer_think_seconds_count", game="quarters", level="perfect") >= 1
    assert value(after, "parlour_open_tables", game="quarters") == 0
    assert moved("parlour_db_query_seconds_count", operation="save_table") >= moves
    assert value(after, "parlour_shard_connected", shard="0") == 1
    assert ("parlour_gateway_latency_seconds", frozenset({("shard", "0")})) in after
    assert value(after, "parlour_ai_pool_queue_depth") == 0
    assert value(after, "parlour_event_loop_lag_seconds_count") > 0
    # No member, server, channel or table id became a label.
    for _, labels in after:
        assert not any(v.isdigit() and len(v) > 3 for _, v in labels)

    # One INFO line per interaction with its ids, action name and outcome.
    lines = LINE.findall(bot.log)
    actions = [line[3] for line in lines]
    assert "quarters.start" in actions and "secret" in actions
    guild = str(driver.channel().guild_id)
    assert all(line[0] == guild and line[4] == "applied" for line in lines)

    assert await bot.stop() == 0


@pytest.mark.both_backends
async def test_sigterm_stops_cleanly_and_a_restart_resumes_every_table(
    driver: Driver, start_bot, rows: TableRows
):
    bot = await start_bot()
    board = await start_vs_computer(driver)
    await take(driver, "alice", board, 1, 1)
    await computer_answers(driver, board)
    lobby = (await driver.slash("alice", "hearts start", channel="lobby", delay=0)).message
    await driver.click("bob", lobby, label="Join")
    challenge = await driver.slash("alice", "quarters start", channel="general", opponent="frank")
    assert challenge.message is not None and not challenge.ephemeral
    tables = {t.id: t.version for t in rows.all() if t.status in ("active", "challenge")}
    assert len(tables) == 3

    assert await bot.stop() == 0  # SIGTERM: drained, database closed, exit status 0
    assert "stopping: finishing" in bot.log and "database closed" in bot.log
    assert not bot.errors()
    # Nothing was lost or changed by the stop.
    assert {t.id: t.version for t in rows.all() if t.status in ("active", "challenge")} == tables

    await bot.start()
    for table_id in tables:
        assert f"resumed table {table_id} " in bot.log
    # Each table carries on from the message the members already have.
    r = await driver.click("alice", board, label="3·1")
    assert r.type == 7 and r.message is board
    r = await driver.click("alice", lobby, label="Start")
    assert not r.ephemeral, r.text()
    r = await driver.click("frank", challenge.message, label="Accept")
    assert not r.ephemeral, r.text()
    assert {t.status for t in rows.all() if t.id in tables} == {"active"}


class CuttableProxy:
    """A TCP proxy to the PostgreSQL test server that the test can cut (dropping every
    connection and refusing new ones) and restore: the database going away and coming back."""

    def __init__(self, host: str, port: int) -> None:
        self.upstream = (host, port)
        self.down = False
        self.writers: set[asyncio.StreamWriter] = set()
        self.server: asyncio.Server | None = None
        self.port = 0

    async def start(self) -> CuttableProxy:
        self.server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.down:
            writer.close()
            return
        up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        self.writers |= {writer, up_writer}

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                dst.close()
                self.writers.discard(dst)

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    def cut(self) -> None:
        self.down = True
        for writer in list(self.writers):
            writer.close()
        self.writers.clear()

    def restore(self) -> None:
        self.down = False

    async def close(self) -> None:
        self.cut()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()


async def test_healthz_follows_the_database_going_away_and_coming_back(start_bot):
    from urllib.parse import urlsplit, urlunsplit

    from pg import fresh_schema

    async with fresh_schema() as url:
        parts = urlsplit(url)
        proxy = await CuttableProxy(parts.hostname or "127.0.0.1", parts.port or 5432).start()
        netloc = f"{parts.username}@127.0.0.1:{proxy.port}" if parts.username else None
        through = urlunsplit(parts._replace(netloc=netloc or f"127.0.0.1:{proxy.port}"))
        try:
            bot = await start_bot(
                env={"PARLOUR_HTTP": "127.0.0.1:0", "DATABASE_URL": through}, allow_errors=True
            )
            port = await ops_port(bot)
            code, body = await get(port, "/healthz")
            assert code == 200, body
            proxy.cut()
            code, body = await get(port, "/healthz")
            assert code == 503 and "database" in body, body
            proxy.restore()
            for _ in range(50):  # the pool opens a fresh connection at the next check
                code, body = await get(port, "/healthz")
                if code == 200:
                    break
                await asyncio.sleep(0.1)
            assert code == 200, body
            await bot.stop()
        finally:
            await proxy.close()


async def test_a_backup_taken_while_the_bot_plays_restores_and_the_bot_resumes_on_it(
    driver: Driver, start_bot, tmp_path
):
    bot = await start_bot()
    board = await start_vs_computer(driver)
    await take(driver, "alice", board, 1, 1)
    await computer_answers(driver, board)
    at_backup = piles_on(board)
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "storage.backup",
        f"{tmp_path}/backups/",  # a directory, made by the command
        env={**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path}/parlour.db"},
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await proc.communicate()
    assert proc.returncode == 0
    copy = out.decode().strip()
    pile = next(p for p, n in enumerate(piles_on(board), 1) if n)
    await take(driver, "alice", board, pile, 1)  # the live game moves on after the backup
    assert await bot.stop() == 0

    restored = tmp_path / "restored" / "parlour.db"
    restored.parent.mkdir()
    shutil.copy(copy, restored)
    bot = await start_bot(env={"DATABASE_URL": f"sqlite:///{restored}"})
    assert "resumed table 1 (quarters, active)" in bot.log
    r = await driver.slash("alice", "game show")
    shown = r.message
    assert shown is not None and piles_on(shown) == at_backup  # the game as backed up
    r = await driver.click("alice", shown, label=f"{pile}·1")
    said = r.message.content if r.message is not None else None
    assert r.type == 7 and r.message is shown, said  # and it plays on


async def test_a_stopping_bot_answers_new_interactions_that_it_is_restarting(
    in_process, driver: Driver, tmp_path
):
    from bot.client.app import ParlourBot
    from bot.config import Config

    bot = await in_process(ParlourBot(Config(token="fake", database=tmp_path / "p.db")))
    board = await start_vs_computer(driver)
    bot.drain.stop()  # what SIGTERM does first
    for answer in (
        await driver.slash("bob", "rules", game="Quarters"),
        await driver.click("alice", board, label="1·1"),
    ):
        assert answer.ephemeral and "restarting" in answer.text()
    assert selected_coins(board) == []  # the click changed nothing
