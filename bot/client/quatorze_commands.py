"""``/quatorze``: start a game of the solitaire."""

from __future__ import annotations

from discord import app_commands

from bot.client.common import Interaction, start_game
from bot.tables.service import TableService


def quatorze_group(service: TableService) -> app_commands.Group:
    group = app_commands.Group(
        name="quatorze",
        description="Quatorze: a solitaire of pairs adding up to 14.",
    )

    @group.command(name="start", description="Deal a game of Quatorze in this channel.")
    @app_commands.describe(winnable="Deal only games that can be cleared (default: any deal)")
    async def start(interaction: Interaction, winnable: bool | None = None) -> None:
        await start_game(interaction, "quatorze", {"winnable": winnable})

    return group
