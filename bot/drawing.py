"""Board pictures drawn off the event loop's interpreter, in a pool of processes of their own.

Every board picture (the checkers board, the Hearts table and hand, Quarters piles, the Kabu
table, the Quatorze grid) is drawn through :func:`draw`. Once :func:`start` has run (the bot
does at start-up), pictures are drawn in the drawing pool's worker processes, apart from the
computer's pool (:mod:`bot.tables.ai`, which also draws replays and charts): the computer's
thinking and a long replay never queue in front of a board. The caller is a worker thread of the
table service; it waits for the picture without holding the interpreter lock, so the event loop
only ever awaits that thread. Before :func:`start` (tests, tools), or with 0 workers, a picture
is drawn in the calling thread, as it was before the pool.

A picture drawn before for the same arguments is handed back without asking a worker: the
latest :data:`PICTURES_KEPT`, keyed by the renderer and its arguments (the view, the selection,
the names, the language).
"""

from __future__ import annotations

import importlib
import logging
import multiprocessing
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import CancelledError, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, ParamSpec, TypeVar

from bot.tables.ai import exit_with_parent
from render.compose import frozen

log = logging.getLogger(__name__)

PICTURES_KEPT = 256  # finished pictures kept for reuse: a few KiB each
P = ParamSpec("P")
R = TypeVar("R")


def default_workers() -> int:
    """Drawing processes when none are configured: half the cores, 1 to 4 (a board is about a
    millisecond of CPU: one process draws hundreds a second)."""
    return min(4, max(1, (os.cpu_count() or 2) // 2))


def _warm() -> None:
    """Pool initializer: end with the bot, and import the renderers before the first board."""
    exit_with_parent()
    for name in ("checkers", "hearts", "kabu", "quarters", "quatorze"):
        importlib.import_module(f"render.{name}")


class Drawing:
    """A pool of ``workers`` drawing processes (``threads=True``: threads, for tests that want
    no child processes), and the pictures it drew last."""

    def __init__(self, workers: int | None = None, *, threads: bool = False) -> None:
        self.workers = default_workers() if workers is None else workers
        self.threads = threads
        self._lock = threading.Lock()
        self._kept: OrderedDict[Hashable, Any] = OrderedDict()
        self._executor: Executor = self._pool()
        self.drawn = 0  # pictures drawn by the pool (the rest were reused)

    def _pool(self) -> Executor:
        if self.threads:
            return ThreadPoolExecutor(self.workers, thread_name_prefix="draw")
        return ProcessPoolExecutor(
            self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=_warm
        )

    def draw(self, render: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """``render(*args, **kwargs)`` drawn by the pool (``render`` is a top-level function
        and its arguments plain data, so that they travel to a worker); blocking."""
        key = (render.__module__, render.__qualname__, frozen(args), frozen(kwargs))
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
                return found
        try:
            picture = self._executor.submit(render, *args, **kwargs).result()
        except (BrokenProcessPool, CancelledError, RuntimeError):
            # A worker died, or the pool is shutting down: draw here rather than fail a click.
            log.warning("drawing pool unavailable; drawing %s in the caller", render.__name__)
            return render(*args, **kwargs)
        with self._lock:
            self.drawn += 1
            self._kept[key] = picture
            while len(self._kept) > PICTURES_KEPT:
                self._kept.popitem(last=False)
        return picture

    def close(self) -> None:
        """Drop queued work and wait for the workers to exit (blocking: from a thread when a
        loop runs; see :meth:`bot.tables.ai.AiRunner.close` for why it waits)."""
        self._executor.shutdown(wait=True, cancel_futures=True)


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
