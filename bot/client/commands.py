"""Slash commands: /game, /rules, /scoreboard, /stats and /settings, and each registered game's
own group (from its module, named in the game's spec)."""

from __future__ import annotations

import importlib

import discord
from discord import app_commands

from bot.client import daily_commands
from bot.client.common import Interaction, channel_language, host, member_of, table_command
from bot.client.picture_commands import replay_command, show_picture, with_image
from bot.client.places import SERVER_CONTEXTS, place_names, place_of
from bot.client.threads import set_threads, threads_on
from bot.tables.confirm import asking
from bot.tables.registry import specs
from bot.tables.screens import Screen
from bot.tables.service import TableService
from bot.tables.wording import Bullet, settings_text
from games.base import IllegalAction
from i18n import LANGUAGES, _, render

SERVER_LANGUAGE = "server"
NOT_MANAGER = _("Only members with the Manage Server permission can change the settings.")
THREADS = {
    True: _("New games start in their own thread: **on**."),
    False: _("New games start in their own thread: **off**."),
}
# /settings language: the server's language in Discord, or one of Parlour's, named in itself.
LANGUAGE_CHOICES = [
    app_commands.Choice(name="The server's language in Discord", value=SERVER_LANGUAGE),
    *(app_commands.Choice(name=language.name, value=language.code) for language in LANGUAGES),
]


def game_choices(service: TableService) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=c.title, value=c.kind) for c in service.controllers.values()]


def game_groups(service: TableService) -> list[app_commands.Group]:
    """The command group of each registered game the service offers (its spec's ``commands``),
    with ``replay`` where the game has a replay hook."""
    groups = []
    for kind, spec in specs().items():
        if spec.commands is None or kind not in service.controllers:
            continue
        module, _, function = spec.commands.partition(":")
        group = getattr(importlib.import_module(module), function)(service)
        if spec.replay is not None:
            replay_command(group, service, kind)
        groups.append(group)
    return groups


def game_group() -> app_commands.Group:
    group = app_commands.Group(name="game", description="The game running in this channel.")

    @group.command(name="show", description="Post the board again (the old one stops working).")
    async def show(interaction: Interaction) -> None:
        bot = host(interaction)
        reply = await bot.within_deadline(
            interaction, bot.service.show(member_of(interaction)), component=False
        )
        await bot.show_answer(interaction, reply)

    @group.command(name="resign", description="Resign the game you are playing here.")
    async def resign(interaction: Interaction) -> None:
        await table_command(interaction, asking("resign"))  # asks first, as the boards do

    @group.command(
        name="stop", description="Stop the game here without a result (the host or moderators)."
    )
    async def stop(interaction: Interaction) -> None:
        bot = host(interaction)
        reply = await bot.service.stop_question(member_of(interaction))
        await bot.show_answer(interaction, reply)

    @group.command(name="claim", description="Claim the win when your opponent stopped moving.")
    async def claim(interaction: Interaction) -> None:
        bot = host(interaction)
        reply = await bot.service.claim(member_of(interaction))
        await bot.show_answer(interaction, reply)

    return group


def install(tree: app_commands.CommandTree, service: TableService) -> None:
    """Add every command to ``tree``."""
    choices = game_choices(service)

    @tree.command(name="rules", description="How to play one of the games.")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=choices)
    async def rules(interaction: Interaction, game: app_commands.Choice[str]) -> None:
        text = host(interaction).service.controllers[game.value].rules_text
        said = render(text, str(interaction.locale))  # private: the member's language
        await interaction.response.send_message(said[:2000], ephemeral=True)

    @tree.command(
        name="scoreboard", description="The standings in a game here (in a DM, your own)."
    )
    @app_commands.describe(game="Which game", chart="Show the top ten as a bar chart")
    @app_commands.choices(game=choices)
    async def scoreboard(
        interaction: Interaction, game: app_commands.Choice[str], chart: bool = False
    ) -> None:
        service = host(interaction).service
        guild = place_of(interaction)  # this server, this chat, or the member's own record

        async def work() -> Screen:
            # posted in the channel: in the channel's language (the server's, or its setting)
            server = interaction.guild_id or 0
            lang = await service.channel_language(server, channel_language(interaction))
            screen = await service.scoreboard(guild, game.value, lang)
            if not chart:
                return screen
            return with_image(screen, await service.pictures.scoreboard(guild, game.value, lang))

        await show_picture(interaction, work())

    @tree.command(name="stats", description="A member's record in every game here.")
    @app_commands.describe(member="Whose record (default: yours)")
    async def stats(
        interaction: Interaction, member: discord.Member | discord.User | None = None
    ) -> None:
        service = host(interaction).service
        who = member or interaction.user
        guild = place_of(interaction)  # in a DM, the asker's own: never another's DMs

        async def work() -> Screen:
            server = interaction.guild_id or 0
            lang = await service.channel_language(server, channel_language(interaction))
            screen = await service.stats(guild, who.id, who.display_name, lang)
            screen = await daily_commands.with_streaks(interaction, who.id, screen, lang)
            # only this place by name: the chart must not tell where else the member plays
            servers = place_names(interaction, guild, lang)
            return await service.pictures.stats_screen(
                screen, guild, who.id, who.display_name, servers, lang
            )

        await show_picture(interaction, work())

    @tree.command(name="settings", description="Server settings for idle games.")
    @app_commands.describe(
        claim_minutes="Minutes without a move before the waiting player may claim the win",
        end_hours="Hours without a move before a game ends by itself",
        language="The language of boards and results here (default: the server's)",
        threads="Open each new game in its own thread off the channel",
        daily_channel="Where the daily puzzles are posted at midnight UTC",
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    @app_commands.allowed_contexts(**SERVER_CONTEXTS)
    @app_commands.default_permissions(manage_guild=True)
    async def settings(
        interaction: Interaction,
        claim_minutes: app_commands.Range[float, 1, 10080] | None = None,
        end_hours: app_commands.Range[float, 1, 720] | None = None,
        language: str | None = None,
        threads: bool | None = None,
        daily_channel: discord.TextChannel | None = None,
    ) -> None:
        service = host(interaction).service
        guild = interaction.guild_id or 0
        changes = {"idle_claim_minutes": claim_minutes, "idle_end_hours": end_hours}
        changes = {name: value for name, value in changes.items() if value is not None}
        # Discord's default permission can be overridden by a server: check the member's own.
        asked = changes or language is not None or threads is not None or daily_channel
        if asked and not interaction.permissions.manage_guild:
            said = render(NOT_MANAGER, str(interaction.locale))
            await interaction.response.send_message(said, ephemeral=True)
            return
        try:
            for name, value in changes.items():
                service.check_setting(name, value)  # all of them before any is stored
        except IllegalAction as exc:
            said = render(exc.phrase, str(interaction.locale))
            await interaction.response.send_message(said, ephemeral=True)
            return
        for name, value in changes.items():
            await service.set_setting(guild, name, value)
        if language is not None:
            await service.set_language(guild, "" if language == SERVER_LANGUAGE else language)
        if threads is not None:
            await set_threads(service, guild, threads)
        if daily_channel is not None:
            await daily_commands.set_daily_channel(interaction, daily_channel.id)
            return
        values = await service.settings(guild)
        in_threads = Bullet(THREADS[await threads_on(service, guild)])
        said = render(settings_text(values, list(changes), in_threads), str(interaction.locale))
        await interaction.response.send_message(said[:2000], ephemeral=True)

    tree.add_command(game_group())
    for group in game_groups(service):
        tree.add_command(group)
