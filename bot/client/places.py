"""Where Parlour's commands may be used, and where its bot is a member.

Every command declares both installation types (a server adds Parlour, or a member adds it to
their own account) and, unless it is about one server, all three contexts: a server channel,
the DM with Parlour, and a private channel such as a group DM. Results count in a *place*
(:func:`place_of`): the server, the group DM (its own scoreboard), or in the DM with Parlour
the member's own record. Where the bot is not a member
(a group DM, a server that did not add it) Discord lets it answer only through the
interaction: :mod:`bot.client.outside` does that.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from i18n import _, render
from storage import Place, PlaceKind

#: The tree's default: every command in servers, in the DM with Parlour and in group DMs.
EVERYWHERE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
#: Both installation types: added to a server, or to a member's own account.
BOTH_INSTALLS = app_commands.AppInstallationType(guild=True, user=True)
#: Commands about one server (its settings), as ``app_commands.allowed_contexts`` takes it.
SERVER_CONTEXTS = {"guilds": True, "dms": False, "private_channels": False}


def tree_defaults() -> dict[str, Any]:
    """The command tree's keyword arguments declaring where its commands are offered."""
    return {"allowed_contexts": EVERYWHERE, "allowed_installs": BOTH_INSTALLS}


def bot_is_member(interaction: discord.Interaction[Any]) -> bool:
    """Whether Parlour's bot is where the interaction happened (the DM with it, or a server
    that added it); elsewhere only the interaction's own routes work.

    In a server, Discord says so in ``authorizing_integration_owners``: the server's install
    names it. (``interaction.guild`` is no test: discord.py makes a stand-in for a server it
    does not know.)"""
    if interaction.context.private_channel:
        return False
    if interaction.guild_id is None:
        return True
    return interaction.is_guild_integration()


def user_installed_server(interaction: discord.Interaction[Any]) -> int | None:
    """The server's id when the interaction comes from a server that did not add Parlour (a
    member's own install reached it there); else None."""
    if interaction.guild_id is None or bot_is_member(interaction):
        return None
    return interaction.guild_id


async def tree_check(_tree: Any, interaction: discord.Interaction[Any], /) -> bool:
    """The command tree's ``interaction_check``: remembers interactions from places where the
    bot is not a member (their tokens are how it answers there), marks the servers reached
    only through members' installs (see :meth:`bot.ops.departures.Departures.reached`), and
    lets every one through."""
    client = interaction.client
    tokens = getattr(client, "outside_tokens", None)
    if tokens is not None:
        tokens.note(interaction)
    server = user_installed_server(interaction)
    departures = getattr(client, "departures", None)
    if server is not None and departures is not None:
        await departures.reached(server)
    return True


def place_kind(interaction: discord.Interaction[Any]) -> PlaceKind:
    """Where the interaction's results count: its server, its chat outside servers (a group
    DM), or in the DM with Parlour the member's own record."""
    if interaction.guild_id is not None:
        return PlaceKind.SERVER
    return PlaceKind.CHAT if interaction.context.private_channel else PlaceKind.DM


def place_of(interaction: discord.Interaction[Any]) -> Place:
    """The place whose scoreboard, daily board and stored data an interaction is about."""
    kind = place_kind(interaction)
    if kind is PlaceKind.SERVER:
        return Place.server(interaction.guild_id or 0)
    if kind is PlaceKind.CHAT:
        return Place.chat(interaction.channel_id or 0)
    return Place.dm(interaction.user.id)


THIS_CHAT = _("This chat")
YOUR_DMS = _("Your DMs with Parlour")


def place_names(interaction: discord.Interaction[Any], place: Place, lang: str) -> dict[int, str]:
    """The name a chart gives the interaction's own place (by its id, in ``lang``), and no
    other: a chart never tells where else a member plays."""
    if place.kind is PlaceKind.SERVER:
        guild = interaction.guild
        return {place.id: guild.name} if guild is not None else {}
    words = THIS_CHAT if place.kind is PlaceKind.CHAT else YOUR_DMS
    return {place.id: render(words, lang)}
