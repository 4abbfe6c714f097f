"""The command group of each game (one function per game, registered here)."""

from __future__ import annotations

from discord import app_commands

from bot.client.checkers_commands import checkers_group
from bot.client.commands import quarters_group
from bot.client.hearts_commands import hearts_group
from bot.client.kabu_commands import kabu_group
from bot.client.quatorze_commands import quatorze_group
from bot.tables.service import TableService


def groups(service: TableService) -> list[app_commands.Group]:
    return [
        quarters_group(service),
        checkers_group(service),
        kabu_group(service),
        quatorze_group(service),
        hearts_group(service),
    ]
