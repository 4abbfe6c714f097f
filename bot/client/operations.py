"""The bot's hooks for operators: the ops runtime and the drawing pool started and stopped
with the bot, the graceful stop, servers joined and left, and the gauges read at scrape time.

:class:`OpsHooks` is mixed into :class:`~bot.client.app.ParlourBot`; the logic lives in
:mod:`bot.ops` (runtime, drain, departures, metrics), this is the Discord side of it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot import drawing
from bot.ops import metrics
from bot.ops.departures import Departures
from bot.ops.drain import Stopping
from bot.ops.probes import discord_shards
from bot.ops.runtime import Ops, start_ops

if TYPE_CHECKING:
    from bot.config import Config
    from bot.ops.drain import Drain
    from bot.tables.service import TableService
    from storage import Database

log = logging.getLogger("parlour")

DRAIN_TIMEOUT = 20.0  # seconds a stopping bot waits for the work in flight


class OpsHooks:
    """Needs the bot's ``config``, ``service``, ``drain``, ``_computer_tasks`` and ``close``."""

    config: Config
    service: TableService
    drain: Drain
    _computer_tasks: dict[int, Any]
    ops: Ops | None = None
    drawing: bool = False  # whether this bot started the drawing pool (see bot.drawing)
    departures: Departures

    async def start_ops(self, db: Database) -> None:
        """At start-up: the drawing pool (``PARLOUR_DRAW_WORKERS``), the lag monitor, /healthz
        and /metrics (``PARLOUR_HTTP``), and the departed servers' bookkeeping."""
        if not self.drawing:
            drawing.start(self.config.draw_workers)
            self.drawing = True
        self.departures = Departures(
            db, self.config.retention_days, stop_tables=self.stop_tables, owns=self.owns_guild
        )
        self.ops = await start_ops(
            self.config.http,
            shards=lambda: discord_shards(self),
            ping=db.ping,
            refresh=self.refresh_metrics,
        )

    async def stop_ops(self) -> None:
        if self.ops is not None:
            await self.ops.stop()
            self.ops = None
        if self.drawing:
            self.drawing = False
            await asyncio.to_thread(drawing.stop)

    async def shutdown(self, timeout: float = DRAIN_TIMEOUT) -> None:
        """A graceful stop (SIGTERM): take no new interactions and start no computer turn,
        let the interactions and computer moves in flight finish, then close."""
        log.info(
            "stopping: finishing %d interaction(s), computer move(s) or sweep(s) in flight",
            self.drain.in_flight,
        )
        self.drain.stop()
        if not await self.drain.idle(timeout):
            log.warning("stopping with %d piece(s) of work unfinished", self.drain.in_flight)
        # A mixin: discord.Client, beside it in ParlourBot, supplies close() and guilds.
        await self.close()  # type: ignore[attr-defined]

    def owns_guild(self, guild_id: int) -> bool:
        """Whether a server belongs to this process's shards."""
        return self.config.shards is None or self.config.shards.owns(guild_id)

    def stop_tables(self, table_ids: list[int]) -> None:
        """Tables stopped behind the service's back (a server left or erased): no more
        computer turns there."""
        for table_id in table_ids:
            task = self._computer_tasks.pop(table_id, None)
            if task is not None:
                task.cancel()

    async def on_ready(self) -> None:
        try:
            async with self.drain.work():  # a stop waits for it; the database stays open
                await self.departures.reconcile(g.id for g in self.guilds)  # type: ignore[attr-defined]
        except Stopping:
            return
        except Exception:
            log.exception("could not compare the servers with data to the bot's servers")

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        try:
            async with self.drain.work():  # a stop waits for it; the database stays open
                await self.departures.left(guild.id)
        except Stopping:
            return
        except Exception:
            log.exception("could not close the tables of server %s", guild.id)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        try:
            async with self.drain.work():  # a stop waits for it; the database stays open
                await self.departures.joined(guild.id)
        except Stopping:
            return
        except Exception:
            log.exception("could not keep the data of server %s", guild.id)

    async def refresh_metrics(self) -> None:
        """Set the gauges read at scrape time: open tables by game."""
        counts = await self.service.db.open_table_counts()
        metrics.set_open_tables(counts, self.service.controllers)

    async def _table_kind(self, table_id: int) -> str | None:
        table = await self.service.db.get_table(table_id)
        return table.kind if table is not None else None


def command_names(interaction: discord.Interaction) -> tuple[str, str]:
    """A command interaction's top-level name and its full name as an action word
    (``quarters.start``), subcommands included, options left out."""
    data: Any = interaction.data or {}
    names = [str(data.get("name", "unknown"))]
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):  # a subcommand (group)
        names.append(str(options[0].get("name")))
        options = options[0].get("options") or []
    return names[0], ".".join(names)
