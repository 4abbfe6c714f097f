"""Per-table locks that exist only while someone holds or waits for them."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class TableLocks:
    """One :class:`asyncio.Lock` a table, dropped when its last holder or waiter leaves, so a
    bot that saw a million tables keeps no million locks."""

    def __init__(self) -> None:
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}

    def __len__(self) -> int:
        return len(self._locks)

    @asynccontextmanager
    async def hold(self, table_id: int) -> AsyncIterator[None]:
        lock, users = self._locks.get(table_id, (None, 0))
        if lock is None:
            lock = asyncio.Lock()
        self._locks[table_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[table_id]
            if users == 1:
                del self._locks[table_id]
            else:
                self._locks[table_id] = (lock, users - 1)
