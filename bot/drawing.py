"""Board pictures drawn off the event loop's interpreter, in a pool of processes of their own.

Every board picture (the checkers board, the Hearts table and hand, Quarters piles, the Kabu
table, the Quatorze grid) is drawn through :func:`draw`. Once :func:`start` has run (the bot
does at start-up), pictures are drawn in the drawing pool's worker processes, apart from the
computer's pool (:mod:`bot.tables.ai`, which also draws replays and charts): the computer's
thinking and a long replay never queue in front of a board. The caller is a worker thread of the
table service; it waits for the picture without holding the interpreter lock, so the event loop
only ever awaits that thread. Before :func:`start` (tests, tools), with 0 workers, or while a
drawing process is still starting, a picture is drawn in the calling thread, as it was before
the pool.

A picture drawn before for the same arguments is handed back without asking a worker: the
latest :data:`PICTURES_KEPT`, keyed by a digest of the renderer and its arguments pickled (the
view, the selection, the names, the language).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import logging
import multiprocessing
import os
import pickle
import pkgutil
import queue
import signal
import threading
from collections import OrderedDict
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, ParamSpec, TypeVar

import render as renderers
from render.compose import Kind

log = logging.getLogger(__name__)

PICTURES_KEPT = 256  # finished pictures kept for reuse: a few KiB each
P = ParamSpec("P")
R = TypeVar("R")


def default_workers() -> int:
    """Drawing processes when none are configured: half the cores, 1 to 4 (a board is about a
    millisecond of CPU: one process draws hundreds a second)."""
    return min(4, max(1, (os.cpu_count() or 2) // 2))


def _warm() -> None:
    """Import the renderers and build each kind's palette (its first picture's cost: 20-150 ms
    of CPU, paid here before the process says it is ready, not by a waiting board)."""
    for info in pkgutil.iter_modules(renderers.__path__):  # every game's renderer, by its Kinds
        module = importlib.import_module(f"render.{info.name}")
        for value in vars(module).values():
            if isinstance(value, Kind):
                value.palette  # noqa: B018 (a cached property: built now)


def _serve(conn: Connection) -> None:
    """A drawing process: say it is ready, then draw what comes down ``conn`` and send back
    the picture (or the exception), until the bot closes its end or goes away (``recv`` then
    fails)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C stops the bot, which closes the pipe
    _warm()
    with contextlib.suppress(EOFError, OSError):  # the bot is gone: end quietly
        conn.send_bytes(READY)
        while job := conn.recv_bytes():
            try:
                render, args, kwargs = pickle.loads(job)
                answer: tuple[bool, Any] = (True, render(*args, **kwargs))
            except Exception as exc:  # the caller raises it, as if it had drawn it itself
                answer = (False, exc)
            conn.send(answer)


READY = b"ready"  # what a drawing process sends once it has imported the renderers


class _Worker:
    """One drawing process and the bot's end of its pipe (``None``: no process, the caller
    draws). Until the process says it is ready (it starts in a second or two, longer on a busy
    machine), its callers draw in place: a bot that just started does not keep its first
    boards waiting."""

    def __init__(self, spawn: bool) -> None:
        self.process: BaseProcess | None = None
        self.conn: Connection | None = None
        self.ready = not spawn
        if spawn:
            context = multiprocessing.get_context("spawn")
            mine, theirs = context.Pipe()
            self.process = context.Process(target=_serve, args=(theirs,), name="draw", daemon=True)
            self.process.start()
            theirs.close()
            self.conn = mine

    def draw(self, job: bytes, render: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """What ``render(*args, **kwargs)`` draws; ``job`` is the call pickled."""
        if self.conn is None or not self.started(0):
            return render(*args, **kwargs)
        self.conn.send_bytes(job)
        ok, value = self.conn.recv()  # waits without the interpreter lock
        if not ok:
            raise value
        return value

    def started(self, timeout: float | None) -> bool:
        """Whether the process is ready, waiting up to ``timeout`` seconds to hear it."""
        if not self.ready and self.conn is not None and self.conn.poll(timeout):
            if self.conn.recv_bytes() != READY:
                raise OSError("a drawing process spoke out of turn")
            self.ready = True
        return self.ready

    def close(self, timeout: float = 5.0) -> None:
        if self.conn is None or self.process is None:
            return
        with contextlib.suppress(OSError):
            self.conn.send_bytes(b"")
        self.process.join(timeout)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(timeout)
        self.conn.close()


class Drawing:
    """``workers`` drawing processes, one pipe each (``threads=True``: none, the callers draw,
    ``workers`` at a time: for tests that want no child processes), and the pictures drawn
    last.

    A caller pickles the renderer and its arguments (a digest of those bytes keys the
    pictures kept), takes a free worker, sends them and waits for the picture: one message
    each way, no thread in between (a process pool's feeder and manager threads cost the bot
    about 0.2 ms of CPU a picture).
    """

    def __init__(self, workers: int | None = None, *, threads: bool = False) -> None:
        self.workers = max(1, default_workers() if workers is None else workers)
        self.threads = threads
        self._lock = threading.Lock()
        self._kept: OrderedDict[bytes, Any] = OrderedDict()
        self._free: queue.SimpleQueue[_Worker] = queue.SimpleQueue()
        self._all = [_Worker(not threads) for _ in range(self.workers)]
        for worker in self._all:
            self._free.put(worker)
        self._closed = False
        self.drawn = 0  # pictures drawn by the pool (the rest were reused)

    def draw(self, render: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """``render(*args, **kwargs)`` drawn by a worker (``render`` is a top-level function
        and its arguments plain data, so that they travel to it); blocking."""
        job = pickle.dumps((render, args, kwargs), pickle.HIGHEST_PROTOCOL)
        key = hashlib.blake2b(job, digest_size=16).digest()
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
                return found
        if self._closed:
            return render(*args, **kwargs)
        worker = self._free.get()
        try:
            picture = worker.draw(job, render, *args, **kwargs)
        except (EOFError, OSError):
            # The worker died (or the pool is closing): draw here rather than fail a click.
            log.warning("a drawing process is gone; drawing %s in the caller", render.__name__)
            worker = self._replaced(worker)
            return render(*args, **kwargs)
        finally:
            self._free.put(worker)
        with self._lock:
            self.drawn += 1
            self._kept[key] = picture
            while len(self._kept) > PICTURES_KEPT:
                self._kept.popitem(last=False)
        return picture

    def wait_ready(self, timeout: float = 60.0) -> bool:
        """Wait until every drawing process is ready (tests, benchmarks); whether they are."""
        taken = [self._free.get() for _ in self._all]
        try:
            return all([worker.started(timeout) for worker in taken])
        finally:
            for worker in taken:
                self._free.put(worker)

    def pids(self) -> list[int]:
        """The drawing processes' ids (none with ``threads=True``)."""
        return [w.process.pid for w in self._all if w.process and w.process.pid is not None]

    def _replaced(self, worker: _Worker) -> _Worker:
        """A new worker in place of ``worker``, whose process is gone (none when closing)."""
        worker.close(timeout=0.1)
        fresh = _Worker(not self.threads and not self._closed)
        with self._lock:
            self._all[self._all.index(worker)] = fresh
        return fresh

    def close(self) -> None:
        """Let each worker finish its picture and exit (blocking: from a thread when a loop
        runs). Pictures asked for later are drawn by their callers."""
        self._closed = True
        for _ in range(len(self._all)):
            try:
                worker = self._free.get(timeout=5.0)
            except queue.Empty:
                break
            worker.close()
        for worker in list(self._all):
            worker.close(timeout=1.0)  # any still busy: their callers draw in place


_current: Drawing | None = None
_users = 0
_guard = threading.Lock()


def start(workers: int | None = None, *, threads: bool = False) -> None:
    """Draw in a pool from now on (``workers`` 0: in the calling thread). Each :func:`start`
    needs its :func:`stop`: two bots in one process share the pool the first one started."""
    global _current, _users
    with _guard:
        _users += 1
        if _current is None and workers != 0:
            _current = Drawing(workers, threads=threads)


def stop() -> None:
    """The last user gone, shut the pool down (blocking: call it from a thread in a loop)."""
    global _current, _users
    with _guard:
        _users = max(0, _users - 1)
        pool = _current if _users == 0 else None
        if pool is not None:
            _current = None
    if pool is not None:
        pool.close()


def pool() -> Drawing | None:
    """The pool pictures are drawn in, if one is started."""
    return _current


def draw(render: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """``render(*args, **kwargs)``: in the drawing pool if one is started, else right here.

    Not for the event loop's thread: the table service calls the controllers (which call
    this) in worker threads.
    """
    current = _current
    if current is None:
        return render(*args, **kwargs)
    return current.draw(render, *args, **kwargs)
