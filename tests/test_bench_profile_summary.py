"""The profile summary tells threads waiting for work from threads working."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from bench.perf.profile_summary import is_waiting, waiting_sites


def _line_of(module: str, needle: str) -> int:
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None
    lines = Path(spec.origin).read_text().splitlines()
    return next(n for n, line in enumerate(lines, 1) if needle in line)


def test_aiosqlites_thread_waiting_for_a_query_is_idle_and_running_one_is_busy() -> None:
    sites = waiting_sites()
    waiting = _line_of("aiosqlite.core", "tx.get()")
    running = _line_of("aiosqlite.core", "result = function()")
    assert is_waiting(f"_connection_worker_thread (aiosqlite/core.py:{waiting})", sites)
    assert not is_waiting(f"_connection_worker_thread (aiosqlite/core.py:{running})", sites)


def test_a_caller_blocked_on_a_drawing_processs_pipe_is_idle() -> None:
    sites = waiting_sites()
    read = _line_of("multiprocessing.connection", "read(handle, remaining)")
    assert is_waiting(f"Connection._recv (multiprocessing/connection.py:{read})", sites)
    assert is_waiting("EpollSelector.select (selectors.py:468)", sites)
    assert not is_waiting("Connection._send (multiprocessing/connection.py:384)", sites)
