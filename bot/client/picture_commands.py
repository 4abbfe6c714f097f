"""Commands that answer with a picture (a replay, a chart): drawn off the event loop by the
table service, deferred when the drawing is slow, refused privately."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

from discord import app_commands

from bot.client.common import Interaction, host, send_private
from bot.client.components import message_kwargs
from bot.client.retry import show_answer
from bot.tables.screens import Attachment, Screen
from bot.tables.service import TableService
from bot.tables.showing import game_label
from games.base import IllegalAction

MAX_CHOICES = 25


async def show_picture(
    interaction: Interaction, work: Awaitable[Screen], *, ephemeral: bool = False
) -> None:
    """Answer with the :class:`Screen` ``work`` makes, deferring when it takes long; a refusal
    (IllegalAction) is shown only to the member."""
    bot = host(interaction)
    try:
        screen: Any = await bot.within_deadline(
            interaction, work, component=False, ephemeral=ephemeral
        )
    except IllegalAction as exc:
        await send_private(interaction, exc.phrase)
        return
    if interaction.response.is_done():  # the deferred message becomes the picture
        await show_answer(interaction, screen, None, None)
    else:
        await interaction.response.send_message(
            ephemeral=ephemeral, **message_kwargs(screen, None, None)
        )


def with_image(screen: Screen, picture: Attachment) -> Screen:
    """``screen`` with ``picture`` attached (shown with its alt text beside the embed)."""
    return Screen(
        screen.content, screen.embed, screen.pictures, screen.files, screen.rows, (picture,)
    )


def replay_command(group: app_commands.Group, service: TableService, kind: str) -> None:
    """``/<game> replay [game]``: the animated replay of a finished game (default: the
    channel's latest), with autocomplete of the server's recent finished games."""
    title = service.controllers[kind].title

    @group.command(name="replay", description=f"Watch a finished game of {title} again.")
    @app_commands.describe(game="Which game (default: the latest finished here)")
    async def replay(interaction: Interaction, game: int | None = None) -> None:
        async def work() -> Screen:
            table = await service.pictures.finished_game(
                interaction.guild_id or 0, interaction.channel_id or 0, kind, game
            )
            return await service.pictures.replay(table)

        await show_picture(interaction, work())

    @replay.autocomplete("game")
    async def games(interaction: Interaction, current: str) -> list[app_commands.Choice[int]]:
        found = await service.pictures.recent_games(
            interaction.guild_id or 0, kind, interaction.channel_id or 0
        )
        wanted = current.strip().lower().lstrip("#")
        return [
            app_commands.Choice(name=game_label(table), value=table.id)
            for table in found
            if wanted in game_label(table).lower()
        ][:MAX_CHOICES]
