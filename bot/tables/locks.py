"""One lock a table, kept only while someone holds it or waits for it.

A lock a table ever acted on, kept forever, grows with every game a long-running bot sees
(issue 43's week of uptime); this registry forgets a table's lock when its last holder leaves.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator


class TableLocks:
    """``async with locks.hold(table_id):`` runs one holder a table at a time, in order."""

    def __init__(self) -> None:
        self._locks: dict[int, tuple[asyncio.Lock, list[int]]] = {}

    def __len__(self) -> int:
        """The tables with a holder or a waiter now."""
        return len(self._locks)

    @contextlib.asynccontextmanager
    async def hold(self, table_id: int) -> AsyncIterator[None]:
        lock, users = self._locks.setdefault(table_id, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if not users[0]:
                del self._locks[table_id]
