"""What the client and every command module share: who acted, private answers, and the bodies
of the commands that start a game or act on the channel's table.

It imports nothing else of ``bot.client`` but :mod:`bot.client.retry`,
:mod:`bot.client.places` and :mod:`bot.client.threads` (which import no command module), so
command modules and the client import it and never each other.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any, Protocol, cast

import discord

from bot.client.places import place_kind
from bot.client.retry import CHANNEL, answer, rewound
from bot.client.threads import NO_PERMISSION, start_in_thread
from bot.tables.core.events import Answer
from bot.tables.service import Member, TableService
from i18n import _, render, resolve
from i18n.messages import Text

log = logging.getLogger("parlour")
NO_BOTS = _("Bots cannot play. Leave `opponent` empty to play the computer.")

Interaction = discord.Interaction[Any]


class Host(Protocol):
    """The client as the commands use it (:class:`bot.client.app.ParlourBot`)."""

    service: TableService

    async def within_deadline(
        self, interaction: Interaction, work: Any, *, component: bool, ephemeral: bool = False
    ) -> Answer: ...

    async def show_answer(
        self, interaction: Interaction, answer: Answer, *, new_board: bool = False
    ) -> None: ...


def host(interaction: Interaction) -> Host:
    """The bot that received ``interaction``."""
    return cast(Host, interaction.client)


def jump_url(guild_id: int | None, channel_id: int, message_id: int) -> str:
    """The link Discord shows as a jump to a message (``@me`` outside a server)."""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


def member_of(interaction: discord.Interaction[Any]) -> Member:
    """Who acted, and where, as the table service sees it."""
    perms = interaction.permissions
    return Member(
        user_id=interaction.user.id,
        name=interaction.user.display_name,
        guild_id=interaction.guild_id or 0,
        channel_id=interaction.channel_id or 0,
        manage_messages=bool(perms and perms.manage_messages),
        channel_lang=channel_language(interaction),
        locale=str(interaction.locale),
        place=place_kind(interaction),
    )


def channel_language(interaction: discord.Interaction[Any]) -> str:
    """The language of what the channel sees (boards, results): the server's, in a DM the
    member's; a language Parlour lacks is English."""
    locale = interaction.guild_locale if interaction.guild_id else interaction.locale
    return resolve(str(locale or "en-US")).language.code


async def send_private(
    interaction: discord.Interaction[Any], content: Text | None = None, **kwargs: Any
) -> None:
    """An ephemeral message to the member, whether or not the interaction was answered; a
    message (or a ``Said``) is said in the member's language."""
    kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
    kwargs = {k: v for k, v in kwargs.items() if v is not None}
    if content is not None:
        kwargs["content"] = render(content, str(interaction.locale))[:2000]
    if not interaction.response.is_done():  # checked, not blindly repeated (a warning if lost)
        send = interaction.response.send_message
        await answer(interaction, lambda: send(ephemeral=True, **rewound(kwargs)), CHANNEL)
        return
    try:
        await interaction.followup.send(ephemeral=True, **kwargs)
    except discord.HTTPException:
        log.exception("could not answer interaction %s", interaction.id)


async def start_game(
    interaction: Interaction,
    kind: str,
    options: dict[str, Any],
    opponent: discord.Member | discord.User | None = None,
) -> None:
    """The shared body of every ``/<game> start``."""
    bot = host(interaction)
    who = member_of(interaction)
    chosen = await bot.service.channel_language(who.guild_id, who.channel_lang)
    who = dataclasses.replace(who, channel_lang=chosen)
    other = None
    if opponent is not None:
        if opponent.bot:
            await send_private(interaction, NO_BOTS)
            return
        other = Member(opponent.id, opponent.display_name, who.guild_id, who.channel_id)
    in_thread = await start_in_thread(bot, interaction, who, kind, options, other)
    if in_thread:
        return
    reply = await bot.within_deadline(
        interaction, bot.service.start(who, kind, options, other), component=False
    )
    await bot.show_answer(interaction, reply, new_board=True)
    if in_thread is False:  # the server wants threads, but Parlour may not open one here
        await send_private(interaction, render(NO_PERMISSION, str(interaction.locale)))


async def table_command(interaction: Interaction, action: str, *, show_board: bool = False) -> None:
    """A command that acts on the channel's table like a button would.

    ``show_board``: a typed move answers with the updated board at the bottom of the channel
    (as ``/game show`` does; the old board's controls are retired), so the member sees the
    position and the computer's reply without scrolling up."""
    bot = host(interaction)
    reply = await bot.within_deadline(
        interaction,
        bot.service.channel_action(member_of(interaction), action),
        component=False,
        ephemeral=not show_board,
    )
    if show_board and reply.error is None and reply.board is not None:
        reply = reply.reposted()
    await bot.show_answer(interaction, reply)


async def ask_game(interaction: Interaction, kind: str, action: str) -> None:
    """A public action of a game (``/quarters secret``): on the channel's table of that kind,
    or on its own where none is running."""
    bot = host(interaction)
    reply = await bot.service.ask(member_of(interaction), kind, action)
    await bot.show_answer(interaction, reply)
