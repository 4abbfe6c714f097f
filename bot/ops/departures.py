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
INSTALL = "install"  # a server setting: "user" where members reach Parlour by their own install
USER, SERVER = "user", "server"


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
        self._reached: set[int] = set()  # servers marked in this process (one write each)

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

    async def joined(self, guild_id: int) -> None:
        """The server added the bot: from now on it is one of the bot's servers."""
        self._reached.discard(guild_id)
        if await self.user_installed(guild_id):
            await self.db.set_guild_setting(guild_id, INSTALL, SERVER)
        await self.returned(guild_id)

    async def reached(self, guild_id: int) -> None:
        """Members use Parlour in a server that did not add the bot (their own install)."""
        if guild_id in self._reached:
            return
        if not await self.user_installed(guild_id):
            await self.db.set_guild_setting(guild_id, INSTALL, USER)
            log.info("server %s reached through members' installs", guild_id)
        self._reached.add(guild_id)

    async def user_installed(self, guild_id: int) -> bool:
        """Whether the bot's games in the server run through members' own installs."""
        return await self.db.guild_setting(guild_id, INSTALL) == USER

    async def reconcile(self, present: Iterable[int]) -> None:
        """Compare the servers with data to those the bot is in (of this process's shards).
        The games of DMs and group DMs (:data:`PRIVATE`) belong to no server and are kept, and
        so are the results, ratings and daily attempts of their places (a chat, a member's
        own record), which :func:`storage.privacy.guilds_with_data` never lists, and those of
        servers reached only through members' installs (the bot was never there to leave)."""
        here = set(present) | {PRIVATE}
        departed = await privacy.departed_guilds(self.db)
        for guild_id in sorted(here & set(departed)):
            await self.returned(guild_id)
        for guild_id in sorted(await privacy.guilds_with_data(self.db)):
            if guild_id in here or guild_id in departed or not self.owns(guild_id):
                continue
            if await self.user_installed(guild_id):
                continue
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
