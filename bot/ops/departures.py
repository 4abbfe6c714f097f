"""Servers the bot leaves: their open tables stop at once, their data goes after the retention
period (``PARLOUR_RETENTION_DAYS``) unless the bot is invited back meanwhile.

The bot calls :meth:`Departures.left` from ``on_guild_remove``, :meth:`Departures.returned`
from ``on_guild_join``, :meth:`Departures.reconcile` once it knows its servers (``on_ready``:
a server that removed the bot while it was down is noticed then), and :meth:`Departures.purge`
from its periodic sweep.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable

from storage import Database, privacy

log = logging.getLogger("parlour.ops")
DAY = 86400.0
PRIVATE = 0  # the guild id stored for the DMs and group DMs: no server the bot could leave


class Departures:
    def __init__(
        self,
        db: Database,
        retention_days: float,
        *,
        stop_tables: Callable[[list[int]], None],
        owns: Callable[[int], bool] = lambda guild_id: True,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.db = db
        self.retention = retention_days * DAY
        self.stop_tables = stop_tables
        self.owns = owns  # whether a server belongs to this process's shards
        self.clock = clock

    async def left(self, guild_id: int) -> None:
        """The bot was removed from a server (or the server was deleted). Guild 0 (DMs and
        group DMs) is no server: nothing of it stops or goes."""
        if guild_id == PRIVATE:
            return
        stopped = await privacy.mark_guild_departed(self.db, guild_id, self.clock())
        self.stop_tables(stopped)
        log.info(
            "left server %s: %d open table(s) stopped; its data is erased in %g day(s)",
            guild_id,
            len(stopped),
            self.retention / DAY,
            extra={"guild": guild_id},
        )
        await self.purge()

    async def returned(self, guild_id: int) -> None:
        """The bot is in the server (again): no purge for it."""
        if await privacy.mark_guild_returned(self.db, guild_id):
            log.info("back in server %s: its data is kept", guild_id, extra={"guild": guild_id})

    async def reconcile(self, present: Iterable[int]) -> None:
        """Compare the servers with data to those the bot is in (of this process's shards).
        The games of DMs and group DMs (:data:`PRIVATE`) belong to no server and are kept, and
        so are the results, ratings and daily attempts of their places (a chat, a member's
        own record), which :func:`storage.privacy.guilds_with_data` never lists."""
        here = set(present) | {PRIVATE}
        departed = await privacy.departed_guilds(self.db)
        for guild_id in sorted(here & set(departed)):
            await self.returned(guild_id)
        for guild_id in sorted(await privacy.guilds_with_data(self.db)):
            if guild_id not in here and guild_id not in departed and self.owns(guild_id):
                await self.left(guild_id)
        await self.purge()

    async def purge(self) -> None:
        """Erase the servers whose retention period is over, and the daily attempts made in
        direct messages by members who have not started one for as long."""
        due = await privacy.purge_departed(self.db, self.retention, self.clock())
        for guild_id, erased in due.items():
            log.info(
                "purged server %s: %d table(s), %d result(s), %d rating(s)",
                guild_id,
                erased.tables,
                erased.results,
                erased.ratings,
                extra={"guild": guild_id},
            )
        direct = await privacy.purge_direct_daily(self.db, self.retention, self.clock())
        if direct:
            log.info("purged %d daily puzzle attempt(s) started in direct messages", direct)
