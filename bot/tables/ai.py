"""Running the computer's choices off the event loop, in a process pool."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from bot.ops import metrics
from games.base import Engine


def choose_action(
    engine: Engine[Any], state: dict[str, Any], seat: int, level: str, budget: float, seed: int
) -> str:
    """Rebuild the state and ask the game's AI. Top-level, so a process pool can pickle it
    (the engine travels by reference to its game package, which the worker imports)."""
    return engine.decide(state, seat, level, budget, seed)


def _exit_with_parent() -> None:
    """Pool initializer: end this worker when the bot process dies, even by SIGKILL.

    A pool worker blocks on its call queue, which it holds both ends of, so it would never see
    the bot go away and would live on as an orphan. The parent's sentinel closes when it dies.
    """
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        parent.join()
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


class AiRunner:
    """Runs :func:`choose_action` in a pool of worker processes (``workers`` of them).

    ``threads=True`` uses threads instead: for tests that want no child processes.
    """

    def __init__(self, workers: int | None = None, *, threads: bool = False) -> None:
        workers = workers or max(1, min(4, (os.cpu_count() or 2)))
        self._executor: Executor
        if threads:
            self._executor = ThreadPoolExecutor(workers, thread_name_prefix="ai")
        else:
            self._executor = ProcessPoolExecutor(
                workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_exit_with_parent,
            )

    async def choose(
        self,
        engine: Engine[Any],
        state: dict[str, Any],
        seat: int,
        level: str,
        budget: float,
        seed: int,
    ) -> str:
        """The computer's action; its think time (queueing included) and the pool's queue
        depth go to the metrics. An instant engine's choice is made at once, here."""
        loop = asyncio.get_running_loop()
        start = time.perf_counter()
        if engine.instant:
            action = choose_action(engine, state, seat, level, budget, seed)
            metrics.observe_computer_think(engine.kind, level, time.perf_counter() - start)
            return action
        with metrics.ai_task():
            action = await loop.run_in_executor(
                self._executor, choose_action, engine, state, seat, level, budget, seed
            )
        metrics.observe_computer_think(engine.kind, level, time.perf_counter() - start)
        return action

    async def run(self, fn: Any, *args: Any) -> Any:
        """Run ``fn(*args)`` in the pool (a top-level function: a replay, a chart)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, fn, *args)

    def run_blocking(self, fn: Any, *args: Any) -> Any:
        """Run ``fn(*args)`` in the pool and wait for it: for code already in a worker thread."""
        return self._executor.submit(fn, *args).result()

    def close(self) -> None:
        """Drop the queued work and wait for the workers to finish what they run and exit.

        Blocking (a worker may be in the middle of a search): call it from a thread when a loop
        runs. Waiting matters: on Python 3.11, a pool shut down without waiting can race its
        own exit hook (``Bad file descriptor`` on a closed wake-up pipe as the process ends).
        """
        self._executor.shutdown(wait=True, cancel_futures=True)
