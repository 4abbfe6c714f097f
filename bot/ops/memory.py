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
import logging
from collections.abc import Callable

log = logging.getLogger(__name__)

TRIM_EVERY = 60.0  # seconds between trims: a few milliseconds of a worker thread each


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


def trim() -> bool:
    """Return the C heap's free pages to the system; whether any were (False where the C
    library has no ``malloc_trim``). Blocking for a few milliseconds: call it off the loop."""
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
