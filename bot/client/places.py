"""Where Parlour's commands may be used, and where its bot is a member.

Every command declares both installation types (a server adds Parlour, or a member adds it to
their own account) and, unless it is about one server, all three contexts: a server channel,
the DM with Parlour, and a private channel such as a group DM. Where the bot is not a member
(a group DM, a server that did not add it) Discord lets it answer only through the
interaction; games do not run there yet, so a member who starts one is told in one sentence
where to play instead.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from i18n import _, render

#: The tree's default: every command in servers, in the DM with Parlour and in group DMs.
EVERYWHERE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
#: Both installation types: added to a server, or to a member's own account.
BOTH_INSTALLS = app_commands.AppInstallationType(guild=True, user=True)
#: Commands about one server (its scoreboard, its settings, its stored data).
SERVER_ONLY = app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False)

#: The same, as ``app_commands.allowed_contexts`` takes it.
SERVER_CONTEXTS = {"guilds": True, "dms": False, "private_channels": False}

#: Commands that answer only privately and work wherever Discord offers them.
ANYWHERE_COMMANDS = frozenset({"rules"})

PLAY_ELSEWHERE = _(
    "Parlour can't run games in a group chat or in a server that hasn't added it yet. "
    "Start the game in your DM with Parlour, or in a server that added it."
)


def tree_defaults() -> dict[str, Any]:
    """The command tree's keyword arguments declaring where its commands are offered."""
    return {"allowed_contexts": EVERYWHERE, "allowed_installs": BOTH_INSTALLS}


def bot_is_member(interaction: discord.Interaction[Any]) -> bool:
    """Whether Parlour's bot is where the interaction happened (the DM with it, or a server
    that added it); elsewhere only the interaction's own routes work."""
    if interaction.context.private_channel:
        return False
    return interaction.guild_id is None or interaction.guild is not None


async def playable_here(interaction: discord.Interaction[Any]) -> bool:
    """Let the interaction through where games run; elsewhere tell the member, privately and
    in one sentence, where to play instead (autocomplete and ``/rules`` always pass)."""
    if bot_is_member(interaction):
        return True
    if interaction.type is discord.InteractionType.autocomplete:
        return True
    command = interaction.command
    if command is not None and command.root_parent is None and command.name in ANYWHERE_COMMANDS:
        return True
    await interaction.response.send_message(
        render(PLAY_ELSEWHERE, str(interaction.locale)), ephemeral=True
    )
    return False


async def tree_check(_tree: Any, interaction: discord.Interaction[Any], /) -> bool:
    """The command tree's ``interaction_check``: :func:`playable_here`."""
    return await playable_here(interaction)
