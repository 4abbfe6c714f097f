"""The database goes away under the table service and comes back: PostgreSQL's connections
terminated, its server restarted (a proxy in front of it dropped and restored) or away for a
minute; SQLite's file full or read-only. Every case raises one clear ``StoreUnavailable``,
loses no acknowledged move, applies none twice, and works again as soon as the store answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time

import asyncpg
import pytest
from pg import SERVER, fresh_schema
from pgproxy import proxied
from support import Clock, member

from bot.client import outage
from bot.ops.health import Health, ShardState
from bot.tables.ai import AiRunner
from bot.tables.registry import controllers
from bot.tables.service import TableService
from storage import Database, StoreUnavailable, backends

ALICE = member(1, "Alice")
RECONNECT_WITHIN = 5.0  # seconds, after the database answers again (issue 43)


async def open_service(target) -> tuple[TableService, AiRunner]:
    ai = AiRunner(1, threads=True)
    return TableService(await Database.open(target), controllers(), ai, clock=Clock()), ai


async def close_service(service: TableService, ai: AiRunner) -> None:
    ai.close()
    await service.db.close()


def piles(service: TableService, state: dict) -> list[int]:
    return list(service.controllers["quarters"].load(state).piles)


async def first_answer_after(ping) -> float:
    """Seconds until ``ping()`` succeeds (tried every 10 ms, for at most 10 s)."""
    start = time.monotonic()
    while time.monotonic() - start < 10:
        try:
            await ping()
        except StoreUnavailable:
            await asyncio.sleep(0.01)
            continue
        return time.monotonic() - start
    raise AssertionError("the store did not come back within 10 s")


# -- PostgreSQL -----------------------------------------------------------------------------
async def test_a_terminated_connection_raises_store_unavailable_and_the_pool_reconnects():
    async with fresh_schema() as url:
        db = await Database.open(url)
        admin = await asyncpg.connect(SERVER)
        try:

            async def long_query() -> None:
                async with db.backend.session() as s:
                    await s.execute("SELECT pg_sleep(10)")

            query = asyncio.create_task(long_query())
            pids: list[int] = []
            for _ in range(500):  # until the query runs on the server
                pids = [
                    r[0]
                    for r in await admin.fetch(
                        "SELECT pid FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(10)'"
                    )
                ]
                if pids:
                    break
                await asyncio.sleep(0.01)
            assert pids
            await admin.execute("SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) pid", pids)
            with pytest.raises(StoreUnavailable, match=r"terminat|closed|Shutdown"):
                await query
            assert await first_answer_after(db.schema_version) < RECONNECT_WITHIN
        finally:
            await admin.close()
            await db.close()


async def test_a_server_restart_refuses_clearly_loses_no_acknowledged_move_and_applies_none_twice():
    async with fresh_schema() as url, proxied(url) as (proxy, through):
        service, ai = await open_service(through)
        health = Health(list, service.db.schema_version, timeout=2.0)
        try:
            reply = await service.start(ALICE, "quarters")
            reply = await service.act(ALICE, reply.table_id, reply.version, "c=1.1")
            assert reply.error is None  # acknowledged: one coin of pile 1 selected
            selected = reply.version

            await proxy.drop()
            with pytest.raises(StoreUnavailable):
                await service.act(ALICE, reply.table_id, selected, "remove")
            verdict = await health.check()
            assert not verdict.healthy and verdict.body["database"] == {"ok": False}

            await proxy.restore()
            assert await first_answer_after(service.db.schema_version) < RECONNECT_WITHIN
            assert (await health.check()).body["database"]["ok"]
            table = await service.db.get_table(reply.table_id)
            assert table is not None and table.ui["selected"] == [[1, 1]]  # not lost
            assert piles(service, table.state) == [3, 4, 5]  # the refused move did not apply

            removed = await service.act(ALICE, reply.table_id, selected, "remove")
            assert removed.error is None
            again = await service.act(ALICE, reply.table_id, selected, "remove")
            assert again.error  # the same click twice: refused as out of date
            table = await service.db.get_table(reply.table_id)
            assert table is not None and piles(service, table.state) == [2, 4, 5]  # applied once
        finally:
            await close_service(service, ai)


async def test_a_server_that_never_answers_is_away_after_the_query_timeout(monkeypatch):
    """A server that takes connections and queries and answers nothing: each query gives up
    after the query timeout with StoreUnavailable (the health check says 503), and the store
    answers again once the server does."""
    monkeypatch.setattr(backends, "QUERY_TIMEOUT", 0.3)
    monkeypatch.setattr(backends, "CONNECT_TIMEOUT", 0.3)
    async with fresh_schema() as url, proxied(url) as (proxy, through):
        db = await Database.open(through)
        health = Health(lambda: [ShardState(0, True)], db.ping, timeout=5.0)
        try:
            await db.set_meta("before", "1")
            proxy.stall()
            for _ in range(2):
                with pytest.raises(StoreUnavailable):
                    await asyncio.wait_for(db.get_meta("before"), 10)  # never hangs
            verdict = await asyncio.wait_for(health.check(), 10)
            assert not verdict.healthy and verdict.body["database"] == {"ok": False}
            proxy.unstall()
            await first_answer_after(db.schema_version)  # raises after 10 s without an answer
            assert await db.get_meta("before") == "1"
            assert (await health.check()).healthy
        finally:
            await db.close()


async def test_after_a_minute_away_the_retry_runs_on_the_first_try_the_store_answers(
    monkeypatch,
):
    """A minute of outage at the real retry interval (1 s) is 60 refused retries: the test
    tunes the interval instead of sleeping a minute."""
    monkeypatch.setattr(outage, "RETRY_EVERY", 0.005)
    async with fresh_schema() as url, proxied(url) as (proxy, through):
        db = await Database.open(through)
        tries = 0
        resumed: list[int] = []

        async def ping() -> object:
            nonlocal tries
            tries += 1
            if tries == 60:
                await proxy.restore()
            return await db.schema_version()

        try:
            await proxy.drop()
            with pytest.raises(StoreUnavailable):
                await db.schema_version()
            await asyncio.wait_for(outage.when_store_back(ping, lambda: resumed.append(tries)), 10)
            assert resumed == [60]  # the first try after the store came back
        finally:
            await db.close()


# -- SQLite ---------------------------------------------------------------------------------
def integrity(path) -> str:
    with sqlite3.connect(path) as conn:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])


async def test_a_full_disk_refuses_clearly_and_leaves_the_file_intact(tmp_path):
    """... and the health check says so (503) while writes fail, though reads still answer,
    and 200 once there is space again, before any move was made."""
    path = tmp_path / "parlour.db"
    service, ai = await open_service(path)
    conn = service.db.backend.conn  # type: ignore[attr-defined]
    health = Health(lambda: [ShardState(0, True)], service.db.ping)
    try:
        assert (await health.check()).healthy
        async with conn.execute("PRAGMA page_count") as cur:
            (pages,) = await cur.fetchone()
        await conn.execute(f"PRAGMA max_page_count={pages}")  # the disk holds no more
        started = []
        with pytest.raises(StoreUnavailable, match="full"):
            for channel in range(1, 400):
                reply = await service.start(member(1, "Alice", channel=channel), "quarters")
                started.append(reply.table_id)
        assert integrity(path) == "ok"
        assert len(await service.db.open_tables()) == len(started)  # every acknowledged game
        for _ in range(2):  # the check itself writes nothing that would free space
            verdict = await health.check()
            assert not verdict.healthy and "full" in verdict.body["reason"]

        await conn.execute(f"PRAGMA max_page_count={pages * 100}")  # space again
        assert (await health.check()).healthy
        reply = await service.start(member(1, "Alice", channel=999), "quarters")
        assert reply.error is None and integrity(path) == "ok"
    finally:
        await close_service(service, ai)


async def test_a_read_only_file_refuses_moves_clearly_until_it_is_writable(tmp_path):
    path = tmp_path / "parlour.db"
    service, ai = await open_service(path)
    conn = service.db.backend.conn  # type: ignore[attr-defined]
    try:
        reply = await service.start(ALICE, "quarters")
        await conn.execute("PRAGMA query_only=ON")  # writes refused as on a read-only file
        with pytest.raises(StoreUnavailable, match="readonly"):
            await service.act(ALICE, reply.table_id, reply.version, "c=1.1")
        assert integrity(path) == "ok"
        with pytest.raises(StoreUnavailable, match="readonly"):  # the health check's write
            await service.db.ping()
        await conn.execute("PRAGMA query_only=OFF")
        await service.db.ping()
        selected = await service.act(ALICE, reply.table_id, reply.version, "c=1.1")
        assert selected.error is None
        assert (await service.db.get_table(reply.table_id)).ui["selected"] == [[1, 1]]
    finally:
        await close_service(service, ai)


async def _transaction(backend) -> None:
    async with backend.session(transaction=True) as s:
        await s.execute("INSERT INTO meta (name, value) VALUES ('t', '1') ON CONFLICT DO NOTHING")


async def test_sqlite_reads_do_not_wait_for_writes_and_no_transaction_is_left_open(tmp_path):
    """Reads go to a connection of their own, so a read answers while a write waits for the
    file another process holds; a transaction left open on the writing connection (a BEGIN
    whose caller was cancelled) is rolled back before the next write, never joined by it."""
    path = tmp_path / "parlour.db"
    db = await Database.open(path)
    backend = db.backend
    try:
        await db.set_meta("a", "1")
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another process holds the file
        writing = asyncio.ensure_future(db.set_meta("a", "2"))
        assert await asyncio.wait_for(db.get_meta("a"), 3) == "1"  # not behind it (5 s)
        holder.rollback()
        holder.close()
        await asyncio.wait_for(writing, 10)
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        begun = asyncio.ensure_future(_transaction(backend))  # its BEGIN waits for the file
        await asyncio.sleep(0.2)
        begun.cancel()  # ... and still runs once the file is free: it is rolled back after
        holder.rollback()
        holder.close()
        with contextlib.suppress(asyncio.CancelledError):
            await begun
        await _transaction(backend)  # no "cannot start a transaction within a transaction"
        await backend.conn.execute("BEGIN")  # type: ignore[attr-defined]
        await db.set_meta("b", "3")
        with sqlite3.connect(path) as other:  # committed, not held in the orphan transaction
            assert other.execute("SELECT value FROM meta WHERE name = 'b'").fetchone() == ("3",)
    finally:
        await db.close()
