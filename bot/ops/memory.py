"""Handing the C heap's free memory back to the system, so the RSS follows what the bot keeps.

Pictures (tens of KiB each) are allocated and freed by several threads (the event loop, the
table service's worker threads, the drawing pipes), each with its own glibc malloc arena.
Memory freed inside an arena stays in the process until the arena's top is free, so the RSS
keeps the high-water mark of every burst even when the live objects are flat (see
docs/reliability.md, "A week of uptime"). glibc's ``malloc_trim(0)`` returns the free pages of
every arena; elsewhere (musl, macOS) there is nothing to call and :func:`trim` does nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import gc
import logging
from collections.abc import Callable

log = logging.getLogger(__name__)

TRIM_EVERY = 600.0
"""Seconds between trims. A trim holds each malloc arena's lock while it walks the arena, so
the event loop's next allocation waits for it: with 100 busy tables a trim a minute put the
loop lag p99 at 55-65 ms against 13 ms without (docs/reliability.md, "What a trim costs").
The heap grows by a few MiB an hour, so ten minutes gives back as much for a tenth of the
stalls."""


def _malloc_trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    with contextlib.suppress(OSError, AttributeError):
        function = ctypes.CDLL(name).malloc_trim
        function.argtypes = [ctypes.c_size_t]
        function.restype = ctypes.c_int
        return function
    return None


_TRIM = _malloc_trim()


def freeze_startup() -> None:
    """Collect once, then move every object alive now (the modules, classes and functions
    of discord.py, aiohttp, Babel and the bot: some 70,000 once they are imported) out of the
    cyclic garbage collector's sight. Python's full collection walks every tracked object on
    the event loop's thread: at 500 busy tables the 17 full collections of a run took 1.51 s
    (the longest 112 ms) with them and 0.98 s (84 ms) frozen (docs/capacity.md).
    For a process's start (``python -m bot``), not for tests: what it freezes is never
    collected, even if it becomes garbage later."""
    gc.collect()
    gc.freeze()


def trim() -> bool:
    """Return the C heap's free pages to the system; whether any were (False where the C
    library has no ``malloc_trim``). Blocking for tens of milliseconds: call it off the loop."""
    return _TRIM is not None and bool(_TRIM(0))


async def trim_forever(every: float = TRIM_EVERY) -> None:
    """:func:`trim` every ``every`` seconds, in a worker thread (ctypes lets go of the
    interpreter lock for the call), for as long as the bot runs."""
    if _TRIM is None:
        return
    while True:
        await asyncio.sleep(every)
        try:
            await asyncio.to_thread(trim)
        except Exception:  # never worth stopping the bot for
            log.exception("malloc_trim failed")
