"""``/checkers``: start a game, type a move (with autocomplete of the legal moves), the record."""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands

from bot.client.common import Interaction, send_private, start_game, table_command
from bot.client.components import message_kwargs
from bot.tables.checkers import CheckersController, matching_moves
from bot.tables.service import TableService
from i18n import _

MAX_CHOICES = 25
NOT_RUNNING = _("No game of checkers is running in this channel. Start one with `/checkers start`.")
NOT_ACCEPTED = _("The checkers challenge here has not been accepted yet.")
NOT_PLAYED = _("No game of checkers has been played in this channel yet.")
NOT_STARTED = _("This game of checkers has not started yet.")


def checkers_group(service: TableService) -> app_commands.Group:
    controller = service.controllers["checkers"]
    assert isinstance(controller, CheckersController)
    group = app_commands.Group(name="checkers", description="Checkers (English draughts) for two.")
    levels = [app_commands.Choice(name=level, value=level) for level in controller.levels]
    colors = [
        app_commands.Choice(name="Black (moves first)", value="black"),
        app_commands.Choice(name="Red", value="red"),
        app_commands.Choice(name="Random", value="random"),
    ]

    @group.command(name="start", description="Start a game of checkers in this channel.")
    @app_commands.describe(
        opponent="A member to challenge (leave empty to play the computer)",
        color="Your colour; Black moves first (default: random)",
        level="The computer's strength (default: expert)",
        position="A PDN FEN to start from, e.g. B:W18,24,27,K10:B12,16,K22",
    )
    @app_commands.choices(color=colors, level=levels)
    async def start(
        interaction: Interaction,
        opponent: discord.Member | discord.User | None = None,
        color: app_commands.Choice[str] | None = None,
        level: app_commands.Choice[str] | None = None,
        position: app_commands.Range[str, 3, 200] | None = None,
    ) -> None:
        options = {
            "color": color and color.value,
            "level": level and level.value,
            "position": position,
        }
        await start_game(interaction, "checkers", options, opponent)

    @group.command(name="move", description="Play a move typed like 11-15, 11 15, 22x15 or 9x27.")
    @app_commands.describe(move="Your move: squares 1-32, e.g. 11-15, 22x15, 9x18x27 or 9x27")
    async def move(interaction: Interaction, move: app_commands.Range[str, 1, 60]) -> None:
        table = await service.channel_table(interaction.channel_id or 0)
        if table is None or table.kind != "checkers":
            await send_private(interaction, NOT_RUNNING)
            return
        if table.state is None:
            await send_private(interaction, NOT_ACCEPTED)
            return
        await table_command(interaction, f"m={move.strip()}", show_board=True)

    @move.autocomplete("move")
    async def move_choices(
        interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        table = await service.channel_table(interaction.channel_id or 0)
        if table is None or table.kind != "checkers" or table.state is None:
            return []
        state = controller.load(table.state)
        legal = [a for seat in state.to_act() for a in state.legal_actions(seat) if a[0].isdigit()]
        return [
            app_commands.Choice(name=m, value=m)
            for m in matching_moves(legal, current)[:MAX_CHOICES]
        ]

    @group.command(
        name="record", description="The game record (PDN file) of this channel's checkers game."
    )
    async def record(interaction: Interaction) -> None:
        table = await service.db.last_table_in_channel(interaction.channel_id or 0, "checkers")
        if table is None or table.guild_id != interaction.guild_id:
            text = NOT_PLAYED
        elif table.state is None:
            text = NOT_STARTED
        else:
            state, locale = controller.load(table.state), str(interaction.locale)
            screen = await asyncio.to_thread(controller.record, table, state, locale)
            kwargs = message_kwargs(screen, None, None)
            await interaction.response.send_message(ephemeral=True, **kwargs)
            return
        await send_private(interaction, text)

    return group
