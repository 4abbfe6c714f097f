"""Slash commands: one group per game, plus /game, /rules, /scoreboard and /settings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.tables.screens import Screen
from bot.tables.service import TableService
from games.base import IllegalAction

if TYPE_CHECKING:
    pass

Interaction = discord.Interaction["ParlourBot"]


def game_choices(service: TableService) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=c.title, value=c.kind) for c in service.controllers.values()]


async def start_game(
    interaction: Interaction,
    kind: str,
    options: dict[str, Any],
    opponent: discord.Member | discord.User | None = None,
) -> None:
    """The shared body of every ``/<game> start``."""
    from bot.client.app import member_of

    bot = interaction.client
    who = member_of(interaction)
    other = None
    if opponent is not None:
        if opponent.bot:
            await interaction.response.send_message(
                "Bots cannot play. Leave `opponent` empty to play the computer.", ephemeral=True
            )
            return
        other = type(who)(opponent.id, opponent.display_name, who.guild_id, who.channel_id)
    reply = await bot.within_deadline(
        interaction, bot.service.start(who, kind, options, other), component=False
    )
    await bot.deliver(interaction, reply, new_board=True)


async def table_command(interaction: Interaction, action: str) -> None:
    """A command that acts on the channel's table like a button would."""
    from bot.client.app import member_of

    bot = interaction.client
    reply = await bot.within_deadline(
        interaction,
        bot.service.channel_action(member_of(interaction), action),
        component=False,
        ephemeral=True,
    )
    await bot.deliver(interaction, reply)


def quarters_group(service: TableService) -> app_commands.Group:
    controller = service.controllers["quarters"]
    group = app_commands.Group(
        name="quarters", description="Quarters: misère Nim with coins.", guild_only=True
    )
    levels = [app_commands.Choice(name=level, value=level) for level in controller.levels]

    @group.command(name="start", description="Start a game of Quarters in this channel.")
    @app_commands.describe(
        opponent="A member to challenge (leave empty to play the computer)",
        piles="Coins per pile, e.g. 3,4,5 (1-5 piles of 1-9 coins)",
        level="The computer's strength (default: perfect)",
    )
    @app_commands.choices(level=levels)
    async def start(
        interaction: Interaction,
        opponent: discord.Member | None = None,
        piles: app_commands.Range[str, 1, 30] | None = None,
        level: app_commands.Choice[str] | None = None,
    ) -> None:
        await start_game(
            interaction, "quarters", {"piles": piles, "level": level and level.value}, opponent
        )

    @group.command(name="secret", description="Learn the Secret: how to win at Quarters.")
    async def secret(interaction: Interaction) -> None:
        table = await interaction.client.service.channel_table(interaction.channel_id or 0)
        if table is not None and table.kind == "quarters" and table.state is not None:
            screen = controller.secret(controller.load(table.state))
        else:
            from bot.tables.quarters import SECRET

            screen = Screen(content=SECRET)
        await interaction.response.send_message(screen.content, ephemeral=True)

    return group


def game_group() -> app_commands.Group:
    group = app_commands.Group(
        name="game", description="The game running in this channel.", guild_only=True
    )

    @group.command(name="show", description="Post the board again (the old one stops working).")
    async def show(interaction: Interaction) -> None:
        from bot.client.app import member_of

        bot = interaction.client
        reply = await bot.within_deadline(
            interaction, bot.service.show(member_of(interaction)), component=False
        )
        await bot.deliver(interaction, reply)

    @group.command(name="resign", description="Resign the game you are playing here.")
    async def resign(interaction: Interaction) -> None:
        await table_command(interaction, "resign")

    @group.command(
        name="stop", description="Stop the game here without a result (starter or moderators)."
    )
    async def stop(interaction: Interaction) -> None:
        from bot.client.app import member_of

        bot = interaction.client
        reply = await bot.service.stop(member_of(interaction))
        await bot.deliver(interaction, reply)

    @group.command(name="claim", description="Claim the win when your opponent stopped moving.")
    async def claim(interaction: Interaction) -> None:
        from bot.client.app import member_of

        bot = interaction.client
        reply = await bot.service.claim(member_of(interaction))
        await bot.deliver(interaction, reply)

    return group


def install(tree: app_commands.CommandTree, service: TableService) -> None:
    """Add every command to ``tree``."""
    from bot.client import game_commands

    choices = game_choices(service)

    @tree.command(name="rules", description="How to play one of the games.")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=choices)
    async def rules(interaction: Interaction, game: app_commands.Choice[str]) -> None:
        text = interaction.client.service.controllers[game.value].rules_text
        await interaction.response.send_message(text[:2000], ephemeral=True)

    @tree.command(name="scoreboard", description="This server's standings in a game.")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=choices)
    @app_commands.guild_only()
    async def scoreboard(interaction: Interaction, game: app_commands.Choice[str]) -> None:
        from bot.client.components import message_kwargs

        screen = await interaction.client.service.scoreboard(interaction.guild_id or 0, game.value)
        await interaction.response.send_message(**message_kwargs(screen, None, None))

    @tree.command(name="stats", description="A member's record in every game on this server.")
    @app_commands.describe(member="Whose record (default: yours)")
    @app_commands.guild_only()
    async def stats(interaction: Interaction, member: discord.Member | None = None) -> None:
        from bot.client.components import message_kwargs

        who = member or interaction.user
        screen = await interaction.client.service.stats(
            interaction.guild_id or 0, who.id, who.display_name
        )
        await interaction.response.send_message(**message_kwargs(screen, None, None))

    @tree.command(name="settings", description="Server settings for idle games.")
    @app_commands.describe(
        claim_minutes="Minutes without a move before the waiting player may claim the win",
        end_hours="Hours without a move before a game ends by itself",
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def settings(
        interaction: Interaction,
        claim_minutes: app_commands.Range[float, 1, 10080] | None = None,
        end_hours: app_commands.Range[float, 1, 720] | None = None,
    ) -> None:
        service = interaction.client.service
        guild = interaction.guild_id or 0
        changes = {"idle_claim_minutes": claim_minutes, "idle_end_hours": end_hours}
        changes = {name: value for name, value in changes.items() if value is not None}
        # Discord's default permission can be overridden by a server: check the member's own.
        if changes and not interaction.permissions.manage_guild:
            await interaction.response.send_message(
                "Only members with the Manage Server permission can change the settings.",
                ephemeral=True,
            )
            return
        try:
            for name, value in changes.items():
                service.check_setting(name, value)  # all of them before any is stored
        except IllegalAction as exc:
            await interaction.response.send_message(str(exc), ephemeral=True)
            return
        for name, value in changes.items():
            await service.set_setting(guild, name, value)
        values = await service.settings(guild)
        await interaction.response.send_message(
            f"Idle games: the waiting player may claim after **{values['idle_claim_minutes']:g} "
            f"minutes**; games end by themselves after **{values['idle_end_hours']:g} hours**.",
            ephemeral=True,
        )

    tree.add_command(game_group())
    for group in game_commands.groups(service):
        tree.add_command(group)
