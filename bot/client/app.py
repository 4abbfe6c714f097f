"""The bot: start-up, command sync, and turning interactions into table-service calls."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import hashlib
import json
import logging
import signal
from dataclasses import replace
from typing import Any

import aiohttp
import discord
from discord import app_commands

from bot.client import commands, daily_commands, guard, privacy_commands
from bot.client.coalesce import BoardEdits
from bot.client.common import member_of, send_private
from bot.client.components import TableButton, TableSelect, message_kwargs
from bot.client.hands import Hands
from bot.client.operations import OpsHooks, command_names
from bot.client.retry import answer, post, show_answer, show_on_message
from bot.config import Config
from bot.ops import interactions
from bot.ops.dbtiming import instrument
from bot.ops.drain import Drain, Stopping
from bot.ops.interactions import Tracker
from bot.tables.ai import AiRunner
from bot.tables.screens import Reply
from bot.tables.service import TableService
from storage import Database, TableStatus

log = logging.getLogger("parlour")
Kind = discord.InteractionResponseType
CHANNEL = Kind.channel_message

DEFER_AFTER = 2.0  # seconds: answer Discord within its 3 s, deferring if work takes longer
REPOST_AFTER = dt.timedelta(minutes=50)  # edits of old channel messages have their own quota
SWEEP_EVERY = 60.0
BUSY = 10  # interactions in progress at once from which the bot defers each at once
FLUSH_TIMEOUT = 5.0  # seconds a closing bot waits for the boards' queued edits
BOARD_FIRST_WAIT = 0.5  # seconds a member's answer waits for a board edit that can go at once
STOPPING = "Parlour is restarting; try again in a few seconds."
# Gateway close codes after which Discord lets no client reconnect (4014 is discord.py's own
# PrivilegedIntentsRequired, with its message).
REFUSED = {
    4004: "the token is not valid",
    4010: "an invalid shard was sent",
    4011: "the bot is in too many servers for its shard count",
    4012: "an invalid gateway version was asked for",
    4013: "invalid intents were sent",
}


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
        except Stopping:
            if interaction.type is discord.InteractionType.application_command:
                await send_private(interaction, STOPPING)

    async def on_error(
        self, interaction: discord.Interaction[ParlourBot], error: app_commands.AppCommandError
    ) -> None:
        interactions.note(outcome="error")
        log.exception(
            "command %s failed", interaction.command and interaction.command.name, exc_info=error
        )
        await send_private(interaction, "Something went wrong on our side; please try again.")


async def open_service(config: Config) -> TableService:
    """The table service of ``config``: its database (migrated, scoped to this process's
    shards, its calls timed for the metrics), every registered game, and the computer's
    process pool."""
    db = instrument(await Database.open(config.database, pool_size=config.pool_size))
    if config.shards is not None:  # act by ourselves only for our shards' guilds
        db.only_shards(config.shards.count, config.shards.ids)
    return TableService(db, ai=AiRunner(config.ai_workers))


class ParlourBot(OpsHooks, discord.Client):
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
        self.tree = ParlourTree(self)
        self.service: TableService
        if service is not None:
            self.service = service
        self._computer_tasks: dict[int, asyncio.Task[None]] = {}
        self._background: set[asyncio.Task[Any]] = set()
        self.in_progress = 0  # interactions being worked on (see within_deadline)
        self.board_edits: BoardEdits[tuple[int, Reply]] = BoardEdits(self._send_board_edit)

    async def setup_hook(self) -> None:
        if not hasattr(self, "service"):
            self.service = await open_service(self.config)
        db = self.service.db
        self.hands = Hands(self.service, self.spawn)
        self.add_dynamic_items(TableButton, TableSelect, privacy_commands.PrivacyButton)
        self.add_dynamic_items(*daily_commands.ITEMS)
        commands.install(self.tree, self.service)
        privacy_commands.install(self.tree)
        daily_commands.install(self.tree)
        await self.start_ops(db)
        await self.sync_commands()
        for table in await db.open_tables():
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

    async def close(self) -> None:
        self.drain.stop()
        current = asyncio.current_task()  # close() itself may run as a background task
        for task in [*self._background, *self._computer_tasks.values()]:
            if task is not current:
                task.cancel()
        with contextlib.suppress(TimeoutError):  # the boards' last edits, queued or in flight
            await asyncio.wait_for(self.board_edits.flush(), FLUSH_TIMEOUT)
        await super().close()
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
        payload = [c.to_dict(self.tree) for c in self.tree.get_commands(guild=guild)]
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
        except Stopping:
            await send_private(interaction, STOPPING)

    async def _table_action(
        self,
        interaction: discord.Interaction[ParlourBot],
        table_id: int,
        version: int | None,
        action: str,
    ) -> None:
        if interaction.guild_id is None:
            interactions.note(outcome="refused")
            await send_private(interaction, "Parlour games are played in server channels.")
            return
        who = member_of(interaction)
        # A replay may take seconds to draw: if so, show the member a private "thinking…".
        drawing = action == "replay"
        try:
            reply = await self.within_deadline(
                interaction,
                self.service.act(who, table_id, version, action, guard.origin_of(interaction)),
                component=not drawing,
                ephemeral=drawing,
            )
            await self.deliver(interaction, reply)
        except Exception:
            interactions.note(outcome="error")
            log.exception("action %r on table %s failed", action.partition("=")[0], table_id)
            await send_private(interaction, "Something went wrong on our side; please try again.")

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
        except Stopping:
            await send_private(interaction, STOPPING)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer the component interactions no table control will (junk custom_ids)."""
        others = (privacy_commands.PrivacyButton, *daily_commands.ITEMS)
        if not guard.routed(interaction, others):
            await self.on_unknown_control(interaction)

    async def within_deadline(
        self,
        interaction: discord.Interaction,
        work: Any,
        *,
        component: bool,
        ephemeral: bool = False,
    ) -> Reply:
        """Run ``work``; if it takes longer than :data:`DEFER_AFTER`, defer the interaction.

        When the bot is busy (:data:`BUSY` interactions or more in progress), it defers at once:
        under load the event loop runs late, and a timer of 2 s could fire after Discord's 3 s.
        """
        task = asyncio.ensure_future(work)
        self.in_progress += 1
        try:
            wait = 0.0 if self.in_progress >= BUSY else DEFER_AFTER
            done, _ = await asyncio.wait({task}, timeout=wait) if wait else (set(), set())
            if not done and not task.done() and not interaction.response.is_done():
                if component:
                    await answer(
                        interaction, interaction.response.defer, Kind.deferred_message_update
                    )
                else:
                    await answer(
                        interaction,
                        lambda: interaction.response.defer(thinking=True, ephemeral=ephemeral),
                        Kind.deferred_channel_message,
                    )
            return await task
        finally:
            self.in_progress -= 1

    async def deliver(
        self,
        interaction: discord.Interaction[ParlourBot],
        reply: Reply,
        *,
        new_board: bool = False,
    ) -> None:
        """Show a :class:`Reply`: refusals and private screens only to the member, the board
        edited in place (or posted), posts to the channel, then the computer's turns."""
        interactions.note(table=reply.table_id, outcome="refused" if reply.error else "applied")
        if reply.error:
            await send_private(interaction, self.refusal_text(interaction, reply))
            if reply.board is not None:  # e.g. a lapsed challenge: its message says so
                await self.edit_board(interaction.channel_id, reply)
            return
        channel = interaction.channel
        board_edit: asyncio.Future[None] | None = None
        if reply.board is not None:
            message = interaction.message
            on_board = (
                message is not None
                and not message.flags.ephemeral
                and reply.board_message_id in (None, message.id)
            )
            if new_board or reply.repost:
                await self.post_board(interaction, reply)
            elif on_board and not reply.update_private:
                shown = replace(reply, board_message_id=message.id)
                state = (interaction.channel_id, shown) if interaction.channel_id else None
                if await show_on_message(interaction, reply.board, reply.table_id, reply.version):
                    self.board_edits.shown(message.id, reply.version, state)
                else:  # the move is made: the board is brought up to date through the channel
                    board_edit = self.edit_board(interaction.channel_id, shown)
            elif reply.board_message_id is not None and interaction.channel_id is not None:
                # Through the channel's edit bucket. When it goes out at once, the member's
                # answer waits for it (the board is current when they look); when the channel
                # is busy, the edit is queued and coalesced and the answer goes first.
                free = self.board_edits.free(interaction.channel_id, reply.board_message_id)
                board_edit = self.edit_board(interaction.channel_id, reply)
                if free:
                    await asyncio.wait({board_edit}, timeout=BOARD_FIRST_WAIT)
            if board_edit is None or board_edit.done():
                interactions.board_updated()
        if reply.private is not None and reply.hand_key is not None and reply.table_id:
            await self.hands.show(
                interaction,
                reply.private,
                reply.table_id,
                reply.hand_key,
                in_place=reply.update_private
                and interaction.message is not None
                and interaction.message.flags.ephemeral,
            )
        elif reply.private is not None:
            clicked = interaction.message
            if reply.update_private and clicked is not None and clicked.flags.ephemeral:
                await show_on_message(interaction, reply.private, reply.table_id, reply.version)
            else:
                kwargs = message_kwargs(reply.private, reply.table_id, reply.version)
                await send_private(interaction, **kwargs)
        if board_edit is not None:
            if not interaction.response.is_done() and not board_edit.done():
                # A queued edit can take longer than Discord's 3 s (a busy channel's edits are
                # paced): answer the member first (a slash command such as /game stop).
                await asyncio.wait({board_edit}, timeout=BOARD_FIRST_WAIT)
                if not board_edit.done():
                    await interaction.response.send_message("Done.", ephemeral=True)
            await board_edit  # posts (a result) follow the board they belong to
            interactions.board_updated()  # (when it was not shown before the answer)
        posts = list(reply.posts)
        if posts and not interaction.response.is_done():
            first = posts[0]
            send = interaction.response.send_message
            if await answer(
                interaction, lambda: send(**message_kwargs(first, None, None)), CHANNEL
            ):
                posts.pop(0)
        for index, screen in enumerate(posts):
            if channel is not None:
                # A table's channel is a messageable one; discord.py's union also holds
                # categories and forums, which have no send().
                await post(channel, screen, "interaction", interaction.id, index)  # type: ignore[arg-type]
        if not interaction.response.is_done():
            done = interaction.response.send_message
            await answer(interaction, lambda: done("Done.", ephemeral=True), CHANNEL)
        if reply.table_id is not None and (reply.board is not None or reply.hand_key):
            mine = interaction.user.id if reply.hand_key else None
            self.hands.refresh(reply.table_id, except_user=mine)
        if reply.ai_next and reply.table_id is not None and interaction.channel_id:
            self.start_computer(reply.table_id, interaction.channel_id, reply.delay)

    def refusal_text(self, interaction: discord.Interaction, reply: Reply) -> str:
        text = reply.error or ""
        if reply.board_message_id and interaction.guild_id and interaction.channel_id:
            text += (
                f"\nBoard: https://discord.com/channels/{interaction.guild_id}/"
                f"{interaction.channel_id}/{reply.board_message_id}"
            )
        return text

    async def post_board(self, interaction: discord.Interaction, reply: Reply) -> None:
        """Post the board as the interaction's answer and remember its message. After a defer
        the deferred message becomes the board: an edit, the same however often it is sent
        (a follow-up repeated after its answer was lost would be a second board)."""
        assert reply.board is not None
        message = await show_answer(interaction, reply.board, reply.table_id, reply.version)
        old = reply.board_message_id
        if reply.table_id is not None:
            await self.service.board_posted(reply.table_id, message.id)
        if old and old != message.id and interaction.channel_id:
            await self.retire(interaction.channel_id, old)

    async def retire(self, channel_id: int, message_id: int) -> None:
        """Take the controls off an old board message (best effort)."""
        channel = self.get_partial_messageable(channel_id)
        try:
            await channel.get_partial_message(message_id).edit(view=None)
        except (discord.HTTPException, aiohttp.ClientError, OSError) as exc:
            log.warning("could not retire board message %s: %s", message_id, exc)

    def edit_board(self, channel_id: int | None, reply: Reply) -> asyncio.Future[None]:
        """Queue an edit of the board message through the channel, coalesced with the other
        edits of that message (see :mod:`bot.client.coalesce`); await the result to wait until
        this state or a newer one is shown."""
        if channel_id is None or reply.board is None or reply.board_message_id is None:
            done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            done.set_result(None)
            return done
        return self.board_edits.submit(
            channel_id, reply.board_message_id, reply.version, (channel_id, reply)
        )

    async def _send_board_edit(self, message_id: int, item: tuple[int, Reply]) -> None:
        await self.edit_board_now(*item)  # BoardEdits tries again, or logs the failure

    async def edit_board_now(self, channel_id: int, reply: Reply) -> None:
        """Edit the board message through the channel (or re-post it when it is old)."""
        assert reply.board is not None and reply.board_message_id is not None
        channel = self.get_partial_messageable(channel_id)
        age = discord.utils.utcnow() - discord.utils.snowflake_time(reply.board_message_id)
        # a repost is named by the message it replaces, so a repeated try posts it once
        identity = ("board", reply.board_message_id, reply.version or 0)
        if age > REPOST_AFTER and reply.board.rows:
            message = await post(
                channel, reply.board, *identity, table_id=reply.table_id, version=reply.version
            )
            if reply.table_id is not None:
                await self.service.board_posted(reply.table_id, message.id)
            await self.retire(channel_id, reply.board_message_id)
            return
        kwargs = message_kwargs(reply.board, reply.table_id, reply.version, editing=True)
        try:
            await channel.get_partial_message(reply.board_message_id).edit(**kwargs)
        except discord.NotFound:
            message = await post(
                channel, reply.board, *identity, table_id=reply.table_id, version=reply.version
            )
            if reply.table_id is not None:
                await self.service.board_posted(reply.table_id, message.id)

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
        channel = self.get_partial_messageable(channel_id)

        async def show(reply: Reply) -> None:
            shown = self.edit_board(channel_id, reply)  # not waited for: coalesced
            self.hands.refresh(table_id)
            if reply.posts:
                await shown  # a result follows the board it belongs to
            for index, screen in enumerate(reply.posts):
                await post(channel, screen, "table", table_id, reply.version or 0, index)

        try:
            # each move in flight is finished and shown; a stopping bot starts no other
            await self.service.play_computer(table_id, show, delay, guard=self.drain.work)
        except Stopping:
            return
        except asyncio.CancelledError:
            raise
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
            for table, reply in await self.service.sweep():
                with contextlib.suppress(discord.HTTPException):
                    await self.edit_board(table.channel_id, reply)
                    self.hands.refresh(table.id)
                    channel = self.get_partial_messageable(table.channel_id)
                    for index, screen in enumerate(reply.posts):
                        await post(channel, screen, "table", table.id, reply.version or 0, index)
                if reply.ai_next and reply.table_id is not None:
                    self.start_computer(reply.table_id, table.channel_id)
        except Exception:
            log.exception("sweep failed")
        try:
            await self.departures.purge()
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
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(signum, lambda: bot.spawn(bot.shutdown()))
        try:
            await bot.start(config.token)
        except discord.ConnectionClosed as exc:
            if exc.code not in REFUSED:
                raise
            log.error(
                "Discord refused the bot: %s (close code %d); stopping", REFUSED[exc.code], exc.code
            )
            return 1
    return 0
