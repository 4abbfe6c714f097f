"""``/hearts``: open a table for four, see your hand, and the running scores."""

from __future__ import annotations

from discord import app_commands

from bot.client.common import Interaction, send_private, start_game, table_command
from bot.client.picture_commands import show_picture
from bot.tables.hearts.replay import hand_replay
from bot.tables.service import TableService
from i18n import _

NOT_RUNNING = _("No game of Hearts is running in this channel. Open one with `/hearts start`.")


def hearts_group(service: TableService) -> app_commands.Group:
    controller = service.controllers["hearts"]
    group = app_commands.Group(
        name="hearts",
        description="Hearts for four: dodge the hearts and the queen of spades.",
    )
    levels = [app_commands.Choice(name=level, value=level) for level in controller.levels]
    rulesets = [
        app_commands.Choice(
            name="Classic (right of the dealer leads; points allowed on the first trick)",
            value="classic",
        ),
        app_commands.Choice(
            name="Modern (two of clubs leads; no points on the first trick)", value="modern"
        ),
    ]

    @group.command(name="start", description="Open a Hearts table here; up to four people join.")
    @app_commands.describe(
        level="The computer's strength in the empty seats (default: expert)",
        ruleset="Classic or modern first-trick rules (default: classic)",
        delay="Seconds between the computer's cards, 0-5 (default: 1)",
    )
    @app_commands.choices(level=levels, ruleset=rulesets)
    async def start(
        interaction: Interaction,
        level: app_commands.Choice[str] | None = None,
        ruleset: app_commands.Choice[str] | None = None,
        delay: app_commands.Range[float, 0, 5] | None = None,
    ) -> None:
        options = {
            "level": level and level.value,
            "ruleset": ruleset and ruleset.value,
            "delay": delay,
        }
        await start_game(interaction, "hearts", options)

    async def on_hearts_table(interaction: Interaction, action: str) -> None:
        table = await service.channel_table(interaction.channel_id or 0)
        if table is None or table.kind != "hearts":
            await send_private(interaction, NOT_RUNNING)
            return
        await table_command(interaction, action)

    @group.command(name="hand", description="See your cards privately, and pass or play.")
    async def hand(interaction: Interaction) -> None:
        await on_hearts_table(interaction, "hand")

    @group.command(name="scores", description="Every hand's points and the totals so far.")
    async def scores(interaction: Interaction) -> None:
        await on_hearts_table(interaction, "scores")

    @group.command(name="replay", description="A hand of the latest game here, face up.")
    @app_commands.describe(hand="Which hand (1 is the first)")
    async def replay(interaction: Interaction, hand: app_commands.Range[int, 1, 99]) -> None:
        work = hand_replay(
            service.pictures, interaction.guild_id or 0, interaction.channel_id or 0, hand
        )
        await show_picture(interaction, work)

    return group
