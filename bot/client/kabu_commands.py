"""``/kabu``: open a table against the computer dealer."""

from __future__ import annotations

from discord import app_commands

from bot.client.common import Interaction, start_game
from bot.tables.service import TableService


def kabu_group(service: TableService) -> app_commands.Group:
    group = app_commands.Group(
        name="kabu", description="Kabu: a Japanese card game against the dealer."
    )

    @group.command(
        name="start", description="Open a Kabu table here: up to five players join, then deal."
    )
    @app_commands.describe(
        arashi="Three cards of one rank (Arashi) beat plain hands (default: on)",
    )
    async def start(interaction: Interaction, arashi: bool | None = None) -> None:
        await start_game(interaction, "kabu", {"arashi": arashi})

    return group
