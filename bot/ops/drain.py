"""Graceful stop: count the interactions in flight, refuse new work once stopping, and wait
for the work in flight to end.

    drain = Drain()
    async with drain.work():          # around an interaction (or a computer turn)
        ...
    drain.stop()                       # on SIGTERM: drain.accepting is False from now on
    await drain.idle(timeout=20)       # then close the client and the database
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from i18n import Message, _

RESTARTING = _("Parlour is restarting; try again in a few seconds.")
BUSY = _("Parlour is very busy right now, so nothing was done. Try again in a few seconds.")


class Stopping(Exception):
    """New work was refused because the bot is stopping; ``text`` tells the member so."""

    text: Message = RESTARTING


class Overloaded(Stopping):
    """New work was refused because the bot already has as much in hand as it can finish in
    time: answered at once rather than seconds late."""

    text = BUSY


class Drain:
    def __init__(self) -> None:
        self.accepting = True
        self.in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()

    @asynccontextmanager
    async def work(self) -> AsyncIterator[None]:
        """Count the block as work in flight; raise :class:`Stopping` once :meth:`stop` ran."""
        if not self.accepting:
            raise Stopping
        self.in_flight += 1
        self._idle.clear()
        try:
            yield
        finally:
            self.in_flight -= 1
            if self.in_flight == 0:
                self._idle.set()

    def stop(self) -> None:
        """Accept no new work from now on."""
        self.accepting = False

    async def idle(self, timeout: float | None = None) -> bool:
        """Wait until no work is in flight; False when ``timeout`` ran out first."""
        if self._idle.is_set():
            return True
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        return True
