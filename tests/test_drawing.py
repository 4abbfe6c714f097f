"""The drawing pool: boards drawn in worker processes of their own, never on the event loop,
the same pictures as drawn in place, a picture drawn before not sent to a worker again."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import pickle
import threading

import pytest
from support import member

from bot import drawing
from bot.tables.ai import AiRunner
from bot.tables.registry import controllers
from bot.tables.service import TableService
from games.quarters import State as Quarters
from render.quarters import render_quarters
from storage import Database

ALICE = member(1, "Alice")


@pytest.fixture
def pool():
    """A started drawing pool of one process, stopped after the test."""
    drawing.start(1)
    assert drawing.pool().wait_ready()
    yield drawing.pool()
    drawing.stop()
    assert drawing.pool() is None


def test_a_picture_is_drawn_in_another_process(pool):
    assert pool is not None and not pool.threads
    assert drawing.draw(os.getpid) != os.getpid()


def test_a_drawing_that_fails_raises_in_the_caller(pool):
    with pytest.raises(ValueError, match="invalid literal"):
        drawing.draw(int, "seven")


def test_a_drawing_process_that_dies_is_replaced_and_the_caller_draws_meanwhile(pool):
    gone = pool._all[0].process
    assert pool.pids() == [gone.pid]
    gone.kill()
    gone.join()
    assert drawing.draw(os.getpid) == os.getpid()  # drawn in place, this once
    assert pool._all[0].process is not gone and pool.wait_ready()
    assert drawing.draw(os.getppid) == os.getpid()  # the new process's parent is this one


def test_until_its_process_is_ready_a_worker_draws_in_place():
    mine, theirs = multiprocessing.Pipe()
    worker = drawing._Worker(spawn=False)
    worker.conn, worker.ready = mine, False
    job = pickle.dumps((os.getpid, (), {}))
    assert worker.draw(job, os.getpid) == os.getpid()  # nothing heard from it yet
    assert not theirs.poll(0)
    theirs.send_bytes(drawing.READY)
    theirs.send((True, 12345))  # its answer, sent ahead
    assert worker.draw(job, os.getpid) == 12345
    assert theirs.recv_bytes() == job


def test_the_pool_draws_the_same_png_as_drawing_in_place(pool):
    view = Quarters.new([3, 4, 5]).view(None)
    here = render_quarters.__wrapped__(view, {(2, 4)}, ("Ann", "Bo"))
    assert drawing.draw(render_quarters, view, {(2, 4)}, ("Ann", "Bo")) == here


def test_a_picture_drawn_before_is_not_sent_to_a_worker_again():
    pool = drawing.Drawing(1, threads=True)
    view = Quarters.new([3, 4, 5]).view(None)
    first = pool.draw(render_quarters, view, (), ("Ann", "Bo"))
    again = pool.draw(render_quarters, Quarters.new([3, 4, 5]).view(None), (), ("Ann", "Bo"))
    other = pool.draw(render_quarters, view, {(1, 3)}, ("Ann", "Bo"))
    pool.close()
    assert again is first and other != first
    assert pool.drawn == 2


def test_the_pictures_kept_are_bounded(monkeypatch):
    monkeypatch.setattr(drawing, "PICTURES_KEPT", 3)
    pool = drawing.Drawing(1, threads=True)
    for n in range(9):
        pool.draw(render_quarters, Quarters.new([n + 1, 2]).view(None))
    pool.draw(render_quarters, Quarters.new([1, 2]).view(None))  # forgotten: drawn again
    pool.draw(render_quarters, Quarters.new([9, 2]).view(None))  # kept
    pool.close()
    assert pool.drawn == 10


def test_a_pool_shut_down_draws_in_the_caller():
    pool = drawing.Drawing(1, threads=True)
    pool.close()
    assert pool.draw(threading.get_ident) == threading.get_ident()


def test_without_a_pool_or_with_no_workers_pictures_are_drawn_in_place():
    assert drawing.pool() is None
    assert drawing.draw(os.getpid) == os.getpid()
    drawing.start(0)
    try:
        assert drawing.pool() is None and drawing.draw(os.getpid) == os.getpid()
    finally:
        drawing.stop()


def test_two_bots_share_the_pool_until_the_last_one_stops():
    drawing.start(1, threads=True)
    shared = drawing.pool()
    drawing.start(2, threads=True)
    assert drawing.pool() is shared
    drawing.stop()
    assert drawing.pool() is shared
    drawing.stop()
    assert drawing.pool() is None


async def test_the_services_boards_are_drawn_by_the_pool_not_the_event_loop(
    pool, tmp_path, clock, monkeypatch
):
    loop_thread = threading.get_ident()
    on_loop = []
    original = drawing.Drawing.draw

    def watched(self, render, *args, **kwargs):
        on_loop.append(threading.get_ident() == loop_thread)
        return original(self, render, *args, **kwargs)

    monkeypatch.setattr(drawing.Drawing, "draw", watched)
    db = await Database.open(tmp_path / "parlour.db")
    ai = AiRunner(1, threads=True)
    service = TableService(db, controllers(), ai, clock=clock)
    reply = await service.start(ALICE, "quarters")
    reply = await service.act(ALICE, reply.table_id, reply.version, "c=1.1")
    ai.close()
    await db.close()
    assert reply.board.pictures[0].png.startswith(b"\x89PNG")
    assert pool.drawn == 2 and on_loop == [False, False]


async def test_a_board_is_drawn_while_the_computers_pool_is_busy_with_a_replay(
    pool, tmp_path, clock
):
    ai = AiRunner(1, threads=True)
    release = threading.Event()
    replay = asyncio.ensure_future(ai.run(release.wait, 30))  # holds the computer's only worker
    db = await Database.open(tmp_path / "parlour.db")
    service = TableService(db, controllers(), ai, clock=clock)
    try:
        reply = await asyncio.wait_for(service.start(ALICE, "quarters"), 20)
        assert reply.board.pictures[0].png.startswith(b"\x89PNG")
        assert pool.drawn == 1 and not replay.done()
    finally:
        release.set()
        await replay
        ai.close()
        await db.close()
