"""A thread for each game: the server setting ``/settings threads:on`` (Manage Server).

With it on, a game started in a server's text channel opens a public thread off the starting
message, named for the game and its players ("Checkers · Alice vs Bob"); the board lives in
the thread, the result line still goes to the channel, and the thread is archived when the
game ends. Without the permission to create threads (or to post in them) the game starts in
the channel and the starter is told why.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

import discord

from bot.client.components import message_kwargs
from bot.client.places import bot_is_member
from bot.tables.core.events import Answer
from bot.tables.service import Member, TableService
from i18n import _, render

log = logging.getLogger(__name__)

SETTING = "threads"
NO_PERMISSION = _(
    "Games here open in their own thread, but Parlour may not create threads in this channel "
    "(it needs Create Public Threads and Send Messages in Threads), so this game starts here."
)


async def threads_on(service: TableService, guild_id: int | None) -> bool:
    """Whether the server turned games-in-threads on."""
    if not guild_id:
        return False
    return await service.db.guild_setting(guild_id, SETTING) == "1"


async def set_threads(service: TableService, guild_id: int, on: bool) -> None:
    """Turn games-in-threads on or off for a server."""
    await service.db.set_guild_setting(guild_id, SETTING, "1" if on else "0")


def thread_name(title: str, names: list[str]) -> str:
    """ "Checkers · Alice vs Bob" (Discord allows 100 characters).

    >>> thread_name("Checkers", ["Alice", "Bob"])
    'Checkers · Alice vs Bob'
    """
    return f"{title} · {' vs '.join(names)}"[:100]


async def start_in_thread(
    bot: Any,
    interaction: discord.Interaction[Any],
    who: Member,
    kind: str,
    options: dict[str, Any],
    other: Member | None,
) -> bool | None:
    """Start the game in a new thread if the server wants it. True: started there (or refused
    by the table); False: the server wants threads but Parlour may not open one here (the
    caller starts the game in the channel, then tells the starter why); None: no thread."""
    channel = interaction.channel
    if not isinstance(channel, discord.TextChannel) or not bot_is_member(interaction):
        return None  # a server that never added the bot: no thread of its own there
    if not await threads_on(bot.service, interaction.guild_id):
        return None
    perms = interaction.app_permissions
    if not (perms.create_public_threads and perms.send_messages_in_threads):
        return False
    title = bot.service.controllers[kind].title
    name = thread_name(title, [who.name] + ([other.name] if other is not None else []))
    await interaction.response.send_message(
        render(_("{title}: the game is in the thread below.", title=name), str(interaction.locale))
    )
    opening = await interaction.original_response()
    thread = await opening.create_thread(name=name)
    bot.game_threads[thread.id] = channel.id
    there = replace(who, channel_id=thread.id)
    if other is not None:
        other = replace(other, channel_id=thread.id)
    reply: Answer = await bot.service.start(there, kind, options, other)
    if reply.error or reply.board is None:
        await interaction.followup.send(reply.error or "", ephemeral=True)
        await end_thread(bot, thread.id)
        return True
    sent = await thread.send(**message_kwargs(reply.board, reply.table_id, reply.version))
    if reply.table_id is not None:
        await bot.service.board_posted(reply.table_id, sent.id)
        if reply.ai_next:
            bot.start_computer(reply.table_id, thread.id, reply.delay)
    return True


def game_thread_parent(bot: Any, channel_id: int) -> int | None:
    """The channel of a game's own thread, None for any other channel.

    The bot notes its game threads as it opens them; after a restart it knows them from
    Discord's channel data (the gateway sends a server's active threads): a thread the bot
    opened is a game's, since it opens threads for nothing else."""
    threads: dict[int, int] = bot.__dict__.setdefault("game_threads", {})
    parent = threads.get(channel_id)
    if parent is not None:
        return parent
    user = getattr(bot, "user", None)
    found = bot.get_channel(channel_id) if user is not None else None
    if isinstance(found, discord.Thread) and found.owner_id == user.id and found.parent_id:
        threads[channel_id] = found.parent_id
        return found.parent_id
    return None


async def end_thread(bot: Any, thread_id: int) -> None:
    """Archive a game's thread (best effort)."""
    bot.game_threads.pop(thread_id, None)
    try:
        await bot.http.edit_channel(thread_id, archived=True)
    except discord.HTTPException as exc:
        log.warning("could not archive thread %s: %s", thread_id, exc)


class ThreadPosts:
    """A game's thread as the bot's channel code sees it: the board edited in the thread,
    posts (the result line) sent to the parent channel, and the thread archived once the
    game is over."""

    def __init__(self, bot: Any, thread: Any, parent: Any) -> None:
        self.bot = bot
        self.thread = thread
        self.parent = parent
        self.id = thread.id

    def get_partial_message(self, message_id: int) -> Any:
        """A message of the thread (the board)."""
        return self.thread.get_partial_message(message_id)

    async def send(self, **kwargs: Any) -> Any:
        """Post to the parent channel; archive the thread if its game is over."""
        sent = await self.parent.send(**kwargs)
        if await self.bot.service.channel_table(self.id) is None:
            await end_thread(self.bot, self.id)
        return sent
