"""``/quarters``: start a game, and learn the Secret."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.client.common import Interaction, ask_game, start_game
from bot.tables.service import TableService


def quarters_group(service: TableService) -> app_commands.Group:
    controller = service.controllers["quarters"]
    group = app_commands.Group(name="quarters", description="Quarters: misère Nim with coins.")
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
        opponent: discord.Member | discord.User | None = None,
        piles: app_commands.Range[str, 1, 30] | None = None,
        level: app_commands.Choice[str] | None = None,
    ) -> None:
        await start_game(
            interaction, "quarters", {"piles": piles, "level": level and level.value}, opponent
        )

    @group.command(name="secret", description="Learn the Secret: how to win at Quarters.")
    async def secret(interaction: Interaction) -> None:
        await ask_game(interaction, "quarters", "secret")

    return group
