"""The bot: start-up, command sync, and turning interactions into table-service calls."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import hashlib
import json
import logging
import signal
from typing import Any

import aiohttp
import discord
from discord import app_commands

from bot.client import commands, guard
from bot.client.components import TableButton, TableSelect, message_kwargs
from bot.config import Config
from bot.tables.ai import AiRunner
from bot.tables.registry import controllers
from bot.tables.screens import Reply
from bot.tables.service import Member, TableService
from bot.tables.trust import Origin
from storage import Database, TableStatus

log = logging.getLogger("parlour")

DEFER_AFTER = 2.0  # seconds: answer Discord within its 3 s, deferring if work takes longer
REPOST_AFTER = dt.timedelta(minutes=50)  # edits of old channel messages have their own quota
SWEEP_EVERY = 60.0


class ParlourTree(app_commands.CommandTree["ParlourBot"]):
    async def on_error(
        self, interaction: discord.Interaction[ParlourBot], error: app_commands.AppCommandError
    ) -> None:
        log.exception(
            "command %s failed", interaction.command and interaction.command.name, exc_info=error
        )
        await send_private(interaction, "Something went wrong on our side; please try again.")


class ParlourBot(discord.Client):
    """Holds the table service; everything game-specific is in ``bot.tables``."""

    def __init__(self, config: Config) -> None:
        super().__init__(intents=discord.Intents(guilds=True), **shard_options(config))
        self.config = config
        self.tree = ParlourTree(self)
        self.service: TableService
        self._computer_tasks: dict[int, asyncio.Task[None]] = {}
        self._background: set[asyncio.Task[Any]] = set()

    async def setup_hook(self) -> None:
        db = await Database.open(self.config.database, pool_size=self.config.pool_size)
        if self.config.shards is not None:  # act by ourselves only for our shards' guilds
            db.only_shards(self.config.shards.count, self.config.shards.ids)
        self.service = TableService(db, controllers(), AiRunner(self.config.ai_workers))
        self.add_dynamic_items(TableButton, TableSelect)
        commands.install(self.tree, self.service)
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

    async def close(self) -> None:
        current = asyncio.current_task()  # close() itself may run as a background task
        for task in [*self._background, *self._computer_tasks.values()]:
            if task is not current:
                task.cancel()
        await super().close()
        with contextlib.suppress(AttributeError):
            self.service.ai.close()
            await self.service.db.close()

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
        if interaction.guild_id is None:
            await send_private(interaction, "Parlour games are played in server channels.")
            return
        who = member_of(interaction)
        try:
            reply = await self.within_deadline(
                interaction,
                self.service.act(who, table_id, version, action, origin_of(interaction)),
                component=True,
            )
            await self.deliver(interaction, reply)
        except Exception:
            log.exception("action %r on table %s failed", action, table_id)
            await send_private(interaction, "Something went wrong on our side; please try again.")

    async def on_unknown_control(self, interaction: discord.Interaction) -> None:
        """A component whose custom_id (or values) no table control has: refuse it privately."""
        log.warning(
            "refused a component interaction with custom_id %r",
            str((interaction.data or {}).get("custom_id", ""))[:120],
        )
        await send_private(interaction, guard.UNKNOWN)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer the component interactions no table control will (junk custom_ids)."""
        if not guard.routed(interaction):
            await self.on_unknown_control(interaction)

    async def within_deadline(
        self,
        interaction: discord.Interaction,
        work: Any,
        *,
        component: bool,
        ephemeral: bool = False,
    ) -> Reply:
        """Run ``work``; if it takes longer than :data:`DEFER_AFTER`, defer the interaction."""
        task = asyncio.ensure_future(work)
        done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
        if not done and not interaction.response.is_done():
            if component:
                await interaction.response.defer()
            else:
                await interaction.response.defer(thinking=True, ephemeral=ephemeral)
        return await task

    async def deliver(
        self,
        interaction: discord.Interaction[ParlourBot],
        reply: Reply,
        *,
        new_board: bool = False,
    ) -> None:
        """Show a :class:`Reply`: refusals and private screens only to the member, the board
        edited in place (or posted), posts to the channel, then the computer's turns."""
        if reply.error:
            await send_private(interaction, self.refusal_text(interaction, reply))
            if reply.board is not None:  # e.g. a lapsed challenge: its message says so
                await self.edit_board(interaction.channel_id, reply)
            return
        channel = interaction.channel
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
                kwargs = message_kwargs(reply.board, reply.table_id, reply.version, editing=True)
                if interaction.response.is_done():
                    await interaction.edit_original_response(**kwargs)
                else:
                    await interaction.response.edit_message(**kwargs)
            elif reply.board_message_id is not None:
                await self.edit_board(interaction.channel_id, reply)
        if reply.private is not None:
            kwargs = message_kwargs(
                reply.private, reply.table_id, reply.version, editing=reply.update_private
            )
            clicked = interaction.message
            if reply.update_private and clicked is not None and clicked.flags.ephemeral:
                if interaction.response.is_done():
                    await interaction.edit_original_response(**kwargs)
                else:
                    await interaction.response.edit_message(**kwargs)
            else:
                kwargs.pop("attachments", None)
                await send_private(interaction, **kwargs)
        posts = list(reply.posts)
        if posts and not interaction.response.is_done():
            first = posts.pop(0)
            await interaction.response.send_message(**message_kwargs(first, None, None))
        for post in posts:
            if channel is not None:
                await channel.send(**message_kwargs(post, None, None))  # type: ignore[union-attr]
        if not interaction.response.is_done():
            await interaction.response.send_message("Done.", ephemeral=True)
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
        """Post the board as the interaction's answer and remember its message."""
        assert reply.board is not None
        kwargs = message_kwargs(reply.board, reply.table_id, reply.version)
        if interaction.response.is_done():
            message = await interaction.followup.send(wait=True, **kwargs)
        else:
            callback = await interaction.response.send_message(**kwargs)
            message = callback.resource
            if not isinstance(message, discord.InteractionMessage):
                message = await interaction.original_response()
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

    async def edit_board(self, channel_id: int | None, reply: Reply) -> None:
        """Edit the board message through the channel (or re-post it when it is old)."""
        if channel_id is None or reply.board is None or reply.board_message_id is None:
            return
        channel = self.get_partial_messageable(channel_id)
        age = discord.utils.utcnow() - discord.utils.snowflake_time(reply.board_message_id)
        if age > REPOST_AFTER and reply.board.rows:
            message = await channel.send(
                **message_kwargs(reply.board, reply.table_id, reply.version)
            )
            if reply.table_id is not None:
                await self.service.board_posted(reply.table_id, message.id)
            await self.retire(channel_id, reply.board_message_id)
            return
        kwargs = message_kwargs(reply.board, reply.table_id, reply.version, editing=True)
        try:
            await channel.get_partial_message(reply.board_message_id).edit(**kwargs)
        except discord.NotFound:
            message = await channel.send(
                **message_kwargs(reply.board, reply.table_id, reply.version)
            )
            if reply.table_id is not None:
                await self.service.board_posted(reply.table_id, message.id)

    # -- the computer's turns ---------------------------------------------------------------
    def start_computer(self, table_id: int, channel_id: int, delay: float = 0.0) -> None:
        """Let the computer play its turns at a table, ``delay`` seconds apart (and before the
        first, so a member's card stays in view for a moment)."""
        running = self._computer_tasks.get(table_id)
        if running is not None and not running.done():
            return
        task = asyncio.create_task(self._computer_loop(table_id, channel_id, delay))
        self._computer_tasks[table_id] = task
        task.add_done_callback(lambda _: self._computer_tasks.pop(table_id, None))

    async def _computer_loop(self, table_id: int, channel_id: int, delay: float = 0.0) -> None:
        channel = self.get_partial_messageable(channel_id)
        if delay:
            await asyncio.sleep(delay)
        while True:
            try:
                reply = await self.service.computer_turn(table_id)
                if reply is None or reply.error:
                    return
                await self.edit_board(channel_id, reply)
                for post in reply.posts:
                    await channel.send(**message_kwargs(post, None, None))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("computer turn on table %s failed", table_id)
                return
            if not reply.ai_next:
                return
            delay = reply.delay
            if delay:
                await asyncio.sleep(delay)

    async def _sweep_forever(self) -> None:
        await self.wait_until_ready()
        while not self.is_closed():
            try:
                for table, reply in await self.service.sweep():
                    with contextlib.suppress(discord.HTTPException):
                        await self.edit_board(table.channel_id, reply)
                        channel = self.get_partial_messageable(table.channel_id)
                        for post in reply.posts:
                            await channel.send(**message_kwargs(post, None, None))
                    if reply.ai_next and reply.table_id is not None:
                        self.start_computer(reply.table_id, table.channel_id)
            except Exception:
                log.exception("sweep failed")
            await asyncio.sleep(SWEEP_EVERY)


def origin_of(interaction: discord.Interaction) -> Origin:
    """The message a component was used on, as the table service sees it."""
    message = interaction.message
    if message is None:
        return Origin(None, private=False)
    return Origin(message.id, private=message.flags.ephemeral)


def member_of(interaction: discord.Interaction) -> Member:
    """Who acted, and where, as the table service sees it."""
    perms = interaction.permissions
    return Member(
        user_id=interaction.user.id,
        name=interaction.user.display_name,
        guild_id=interaction.guild_id or 0,
        channel_id=interaction.channel_id or 0,
        manage_messages=bool(perms and perms.manage_messages),
    )


async def send_private(
    interaction: discord.Interaction, content: str | None = None, **kwargs: Any
) -> None:
    """An ephemeral message to the member, whether or not the interaction was answered."""
    kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
    kwargs = {k: v for k, v in kwargs.items() if v is not None}
    if content is not None:
        kwargs["content"] = content[:2000]
    try:
        if interaction.response.is_done():
            await interaction.followup.send(ephemeral=True, **kwargs)
        else:
            await interaction.response.send_message(ephemeral=True, **kwargs)
    except discord.HTTPException:
        log.exception("could not answer interaction %s", interaction.id)


class ShardedParlourBot(ParlourBot, discord.AutoShardedClient):
    """The bot running the shards ``SHARD_IDS`` of ``SHARD_COUNT`` (one connection each)."""


def shard_options(config: Config) -> dict[str, Any]:
    """discord.py's shard arguments for this process (none when unsharded)."""
    if config.shards is None:
        return {}
    return {"shard_count": config.shards.count, "shard_ids": list(config.shards.ids)}


async def run(config: Config) -> None:
    """Run until the connection ends or SIGTERM/SIGINT asks the bot to stop (it then closes
    its connection and its database cleanly, as ``docker stop`` expects)."""
    kind = ParlourBot if config.shards is None else ShardedParlourBot
    async with kind(config) as bot:
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(signum, lambda: bot.spawn(bot.close()))
        await bot.start(config.token)
