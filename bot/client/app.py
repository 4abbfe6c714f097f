"""The bot: start-up, command sync, and turning interactions into table-service calls."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import json
import logging
import signal
from typing import Any

import discord
from discord import app_commands

from bot.client import (
    answers,
    commands,
    daily_commands,
    guard,
    outage,
    places,
    privacy_commands,
)
from bot.client.boards import BoardMessages
from bot.client.common import member_of, send_private
from bot.client.hands import Hands
from bot.client.operations import OpsHooks, command_names
from bot.client.outside import OutsidePlaces, Tokens
from bot.client.retry import answer, post
from bot.client.translator import CatalogueTranslator
from bot.config import Config
from bot.ops import interactions, memory
from bot.ops.dbtiming import instrument
from bot.ops.drain import Drain, Stopping
from bot.ops.interactions import Tracker
from bot.tables.ai import AiRunner
from bot.tables.core.events import Answer
from bot.tables.service import TableService
from i18n.translations import preload
from storage import Database, PlaceKind, StoreUnavailable, TableStatus

log = logging.getLogger("parlour")

DEFER_AFTER = 2.0  # seconds: answer Discord within its 3 s, deferring if work takes longer
SWEEP_EVERY = 60.0
BUSY = 10  # interactions in progress at once from which the bot defers each at once
FLUSH_TIMEOUT = 5.0  # seconds a closing bot waits for the boards' queued edits
ACCEPT_WAIT = 0.5  # seconds a slow click may wait more to be accepted before it is deferred
# Gateway close codes after which Discord lets no client reconnect (4014 is discord.py's own
# PrivilegedIntentsRequired, with its message).
REFUSED = {
    4004: "the token is not valid",
    4010: "an invalid shard was sent",
    4011: "the bot is in too many servers for its shard count",
    4012: "an invalid gateway version was asked for",
    4013: "invalid intents were sent",
}


class Acceptance:
    """Told by the table service once a click passed its checks, and whether its answer is
    private (see :meth:`bot.tables.service.TableService.act`)."""

    def __init__(self) -> None:
        self.event = asyncio.Event()
        self.private = False

    def __call__(self, private: bool) -> None:
        self.private = private
        self.event.set()


class ParlourTree(app_commands.CommandTree["ParlourBot"]):
    async def _call(self, interaction: discord.Interaction[ParlourBot]) -> None:
        """Every slash command and autocomplete, tracked for the logs, metrics and drain."""
        bot = interaction.client
        try:
            async with bot.tracker.track(interaction):
                name, action = command_names(interaction)
                interactions.note(
                    game=name if name in bot.service.controllers else None, action=action
                )
                await super()._call(interaction)
        except Stopping as refused:
            if interaction.type is discord.InteractionType.application_command:
                await send_private(interaction, refused.text)

    interaction_check = places.tree_check

    async def on_error(
        self, interaction: discord.Interaction[ParlourBot], error: app_commands.AppCommandError
    ) -> None:
        name = interaction.command and interaction.command.name
        await outage.answer_failure(interaction, error, f"command {name}")


async def open_service(config: Config) -> TableService:
    """The table service of ``config``: its database (migrated, scoped to this process's
    shards, its calls timed for the metrics), every registered game, and the computer's
    process pool."""
    db = instrument(await Database.open(config.database, pool_size=config.pool_size))
    if config.shards is not None:  # act by ourselves only for our shards' guilds
        db.only_shards(config.shards.count, config.shards.ids)
    return TableService(db, ai=AiRunner(config.ai_workers))


class ParlourBot(OutsidePlaces, OpsHooks, BoardMessages, discord.Client):
    """Holds the table service; everything game-specific is in ``bot.tables``.

    :func:`run` opens the service and hands it in; without one (the playground builds the bot
    before its event loop runs) the bot opens its own at start-up. Either way the bot closes it.
    """

    def __init__(self, config: Config, service: TableService | None = None) -> None:
        self.drain = Drain()
        self.tracker = Tracker(self.drain, lookup=self._table_kind)
        super().__init__(
            intents=discord.Intents(guilds=True),
            http_trace=self.tracker.trace_config(),
            **shard_options(config),
        )
        self.config = config
        self.outside_tokens = Tokens()
        self.game_threads: dict[int, int] = {}  # a game's thread -> its channel
        self.tree = ParlourTree(self, **places.tree_defaults())
        self.service: TableService
        if service is not None:
            self.service = service
        self._computer_tasks: dict[int, asyncio.Task[None]] = {}
        self._background: set[asyncio.Task[Any]] = set()
        self.connection: asyncio.Task[None] | None = None  # the task running start(), see run()
        self.in_progress = 0  # interactions being worked on (see within_deadline)
        self.init_boards()

    async def setup_hook(self) -> None:
        if not hasattr(self, "service"):
            self.service = await open_service(self.config)
        db = self.service.db
        self.hands = Hands(self.service, self.spawn)
        self.add_dynamic_items(privacy_commands.PrivacyButton)
        self.add_dynamic_items(*daily_commands.ITEMS)
        await asyncio.to_thread(preload)  # read the catalogues off the event loop
        await self.tree.set_translator(CatalogueTranslator())
        commands.install(self.tree, self.service)
        privacy_commands.install(self.tree)
        daily_commands.install(self.tree)
        await self.start_ops(db)
        await self.sync_commands()
        installs: dict[int, bool] = {}  # server -> reached only by members' installs
        for table in await db.open_tables():
            if table.guild_id not in installs:
                installs[table.guild_id] = await self.departures.user_installed(table.guild_id)
            # a group DM, or a server reached only by members' installs: the bot is no member
            # there, so only interactions reach it, as before the restart
            if installs[table.guild_id] or table.place is PlaceKind.CHAT:
                self.outside_tokens.outside.add(table.channel_id)
            log.info(
                "resumed table %s (%s, %s) in channel %s",
                table.id,
                table.kind,
                table.status.value,
                table.channel_id,
            )
            if table.status is TableStatus.ACTIVE:
                self.start_computer(table.id, table.channel_id)
        self.spawn(self._sweep_forever())
        self.spawn(daily_commands.post_forever(self))
        self.spawn(memory.trim_forever())

    async def close(self) -> None:
        self.drain.stop()
        current = asyncio.current_task()  # close() itself may run as a background task
        for task in [*self._background, *self._computer_tasks.values()]:
            if task is not current:
                task.cancel()
        with contextlib.suppress(TimeoutError):  # the boards' last edits, queued or in flight
            await asyncio.wait_for(self.board_edits.flush(), FLUSH_TIMEOUT)
        await super().close()
        # discord.py's connection loop sees the close only at its next try to reach Discord:
        # while Discord is away it sleeps in its backoff (minutes after a long outage) or waits
        # up to 60 s on a gateway that does not answer. Closed, the bot has nothing to wait for.
        if self.connection is not None and self.connection is not current:
            self.connection.cancel()
        await self.drain.idle(FLUSH_TIMEOUT)  # work in flight (on_ready's) still has the database
        await self.stop_ops()
        with contextlib.suppress(AttributeError):
            await asyncio.to_thread(self.service.ai.close)
            await self.service.db.close()
            log.info("database closed")

    def spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    # -- commands ---------------------------------------------------------------------------
    async def sync_commands(self) -> None:
        """Sync the command tree only when it changed since the last sync (a hash in the db).

        Of several processes, only the one running shard 0 syncs."""
        if self.config.shards is not None and not self.config.shards.syncs_commands:
            log.info("commands are synced by the process of shard 0")
            return
        guild = discord.Object(self.config.guild_id) if self.config.guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        translator = self.tree.translator
        payload = [  # what Discord gets, localizations included: a changed translation syncs
            await c.get_translated_payload(self.tree, translator)
            if translator
            else c.to_dict(self.tree)
            for c in self.tree.get_commands(guild=guild)
        ]
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        key = f"command-hash:{self.config.guild_id or 'global'}"
        if await self.service.db.get_meta(key) == digest:
            log.info("commands unchanged; not syncing")
            return
        await self.tree.sync(guild=guild)
        await self.service.db.set_meta(key, digest)
        log.info(
            "synced %d commands%s",
            len(payload),
            f" to guild {self.config.guild_id}" if guild else "",
        )

    # -- interactions -----------------------------------------------------------------------
    async def on_table_action(
        self,
        interaction: discord.Interaction[ParlourBot],
        table_id: int,
        version: int | None,
        action: str,
    ) -> None:
        """A click or a choice on a table's message."""
        try:
            async with self.tracker.track(interaction):
                interactions.note(table=table_id, action=action)
                await self._table_action(interaction, table_id, version, action)
        except Stopping as refused:
            await send_private(interaction, refused.text)

    async def _table_action(
        self,
        interaction: discord.Interaction[ParlourBot],
        table_id: int,
        version: int | None,
        action: str,
    ) -> None:
        self.outside_tokens.note(interaction)
        who = member_of(interaction)
        accepted = Acceptance()  # a slow click is deferred once it passed the table's checks
        origin = guard.origin_of(interaction)
        try:
            answer = await self.within_deadline(
                interaction,
                self.service.act(who, table_id, version, action, origin, accepted),
                component=True,
                accepted=accepted,
            )
            await self.show_answer(interaction, answer)
        except Exception as exc:
            what = f"action {action.partition('=')[0]!r} on table {table_id}"
            await outage.answer_failure(interaction, exc, what)

    async def on_unknown_control(self, interaction: discord.Interaction) -> None:
        """A component whose custom_id (or values) no table control has: refuse it privately."""
        log.warning(
            "refused a component interaction with custom_id %r",
            str((interaction.data or {}).get("custom_id", ""))[:120],
        )
        try:
            async with self.tracker.track(interaction):
                interactions.note(outcome="refused")
                await send_private(interaction, guard.UNKNOWN)
        except Stopping as refused:
            await send_private(interaction, refused.text)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Route a click on a table's control; refuse one no control answers (junk custom_ids)."""
        others = (privacy_commands.PrivacyButton, *daily_commands.ITEMS)
        control = guard.table_control(interaction, others)
        if control == guard.REFUSE:
            await self.on_unknown_control(interaction)
        elif isinstance(control, guard.Control):
            await self.on_table_action(
                interaction, control.table_id, control.version, control.action
            )

    async def within_deadline(
        self,
        interaction: discord.Interaction,
        work: Any,
        *,
        component: bool,
        ephemeral: bool = False,
        accepted: Acceptance | None = None,
    ) -> Answer:
        """Run ``work``; if the interaction is still unanswered :data:`DEFER_AFTER` after it
        arrived (what ran before ``work``, a read of the settings, counts), defer it.

        When the bot is busy (:data:`BUSY` interactions or more in progress), it defers at once:
        under load the event loop runs late, and a timer of 2 s could fire after Discord's 3 s.
        A click with ``accepted`` is deferred only once the table accepted it (or
        :data:`ACCEPT_WAIT` later): a refusal is answered privately, never by an update of the
        message; an action that answers privately (a hint) is deferred privately.
        """
        task = asyncio.ensure_future(work)
        self.in_progress += 1
        try:
            wait = 0.0 if self.in_progress >= BUSY else max(0.0, DEFER_AFTER - interactions.age())
            done, _ = await asyncio.wait({task}, timeout=wait) if wait else (set(), set())
            if not done and accepted is not None and not accepted.event.is_set():
                waiter = asyncio.ensure_future(accepted.event.wait())
                await asyncio.wait(
                    {task, waiter}, timeout=ACCEPT_WAIT, return_when=asyncio.FIRST_COMPLETED
                )
                waiter.cancel()
            private = accepted is not None and accepted.private
            if not task.done() and not interaction.response.is_done():
                kind = discord.InteractionResponseType
                if component and not private:
                    defer = interaction.response.defer
                    await answer(interaction, defer, kind.deferred_message_update)
                else:
                    await answer(
                        interaction,
                        lambda: interaction.response.defer(
                            thinking=True, ephemeral=ephemeral or private
                        ),
                        kind.deferred_channel_message,
                    )
            return await task
        finally:
            self.in_progress -= 1

    async def show_answer(
        self,
        interaction: discord.Interaction[ParlourBot],
        answer: Answer,
        *,
        new_board: bool = False,
    ) -> None:
        """Show a table's answer to the member and the channel (see :mod:`bot.client.answers`)."""
        await answers.show(self, interaction, answer, new_board=new_board)

    # -- the computer's turns ---------------------------------------------------------------
    def start_computer(self, table_id: int, channel_id: int, delay: float = 0.0) -> None:
        """Let the computer play its turns at a table, ``delay`` seconds apart (and before the
        first, so a member's card stays in view for a moment). Not once the bot is stopping:
        the next start resumes the table."""
        if not self.drain.accepting:
            return
        running = self._computer_tasks.get(table_id)
        if running is not None and not running.done():
            return
        task = asyncio.create_task(self._computer_loop(table_id, channel_id, delay))
        self._computer_tasks[table_id] = task
        task.add_done_callback(lambda _: self._computer_tasks.pop(table_id, None))

    async def _computer_loop(self, table_id: int, channel_id: int, delay: float = 0.0) -> None:
        async def show(answer: Answer) -> None:
            shown = self.edit_board(channel_id, answer)  # not waited for: coalesced
            self.hands.refresh(table_id)
            if answer.posts:
                await shown  # a result follows the board it belongs to
            # asked now: a table resumed at start-up knows its thread once the gateway told it
            channel = self.get_partial_messageable(channel_id)
            for index, screen in enumerate(answer.posts):
                await post(channel, screen, "table", table_id, answer.version or 0, index)

        try:
            # each move in flight is finished and shown; a stopping bot starts no other
            await self.service.play_computer(table_id, show, delay, guard=self.drain.work)
        except Stopping:
            return
        except asyncio.CancelledError:
            raise
        except StoreUnavailable:  # played once the database is back
            retry = functools.partial(self.start_computer, table_id, channel_id)
            self.spawn(outage.when_store_back(self.service.db.schema_version, retry))
        except Exception:
            log.exception("computer turn on table %s failed", table_id)

    async def _sweep_forever(self) -> None:
        await self.wait_until_ready()
        while not self.is_closed():
            try:
                async with self.drain.work():  # a stopping bot finishes a sweep, starts none
                    await self._sweep_once()
            except Stopping:
                return
            await asyncio.sleep(SWEEP_EVERY)

    async def _sweep_once(self) -> None:
        try:
            for table, answer in await self.service.sweep():
                with contextlib.suppress(discord.HTTPException):
                    await self.edit_board(table.channel_id, answer)
                    self.hands.refresh(table.id)
                    channel = self.get_partial_messageable(table.channel_id)
                    for index, screen in enumerate(answer.posts):
                        await post(channel, screen, "table", table.id, answer.version or 0, index)
                if answer.ai_next and answer.table_id is not None:
                    self.start_computer(answer.table_id, table.channel_id)
        except StoreUnavailable as exc:  # the next sweep does it
            log.warning("sweep skipped: the database is away (%s)", exc)
        except Exception:
            log.exception("sweep failed")
        try:
            await self.departures.purge()
        except StoreUnavailable as exc:  # the next sweep does it
            log.warning("purge skipped: the database is away (%s)", exc)
        except Exception:
            log.exception("purge of departed servers failed")


class ShardedParlourBot(ParlourBot, discord.AutoShardedClient):
    """The bot running the shards ``SHARD_IDS`` of ``SHARD_COUNT`` (one connection each)."""


def shard_options(config: Config) -> dict[str, Any]:
    """discord.py's shard arguments for this process (none when unsharded)."""
    if config.shards is None:
        return {}
    return {"shard_count": config.shards.count, "shard_ids": list(config.shards.ids)}


async def run(config: Config) -> int:
    """Run until the connection ends or SIGTERM/SIGINT asks the bot to stop (it then closes
    its connection and its database cleanly, as ``docker stop`` expects); the exit status."""
    kind = ParlourBot if config.shards is None else ShardedParlourBot
    service = await open_service(config)
    async with kind(config, service) as bot:
        stopping: list[asyncio.Task[None]] = []

        def stop() -> None:  # the first signal stops the bot; another changes nothing
            if not stopping:
                stopping.append(asyncio.create_task(bot.shutdown()))

        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(signum, stop)
        memory.freeze_startup()  # the process's modules, classes and functions, loaded now
        bot.connection = asyncio.create_task(bot.start(config.token))
        await asyncio.wait({bot.connection})  # close() cancels it: a stop, not a failure
        if stopping:  # the stop goes on after the connection: the drain, the database
            await stopping[0]
        try:
            if not bot.connection.cancelled():
                bot.connection.result()
        except discord.ConnectionClosed as exc:
            if exc.code not in REFUSED:
                raise
            log.error(
                "Discord refused the bot: %s (close code %d); stopping", REFUSED[exc.code], exc.code
            )
            return 1
    return 0
