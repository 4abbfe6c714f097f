"""Slash commands: one group per game, plus /game, /rules, /scoreboard and /settings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.tables.screens import Screen
from bot.tables.service import TableService
from bot.tables.showing import game_label
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


async def table_command(interaction: Interaction, action: str, *, show_board: bool = False) -> None:
    """A command that acts on the channel's table like a button would.

    ``show_board``: a typed move answers with the updated board at the bottom of the channel
    (as ``/game show`` does; the old board's controls are retired), so the member sees the
    position and the computer's reply without scrolling up."""
    from bot.client.app import member_of

    bot = interaction.client
    reply = await bot.within_deadline(
        interaction,
        bot.service.channel_action(member_of(interaction), action),
        component=False,
        ephemeral=not show_board,
    )
    if show_board and reply.error is None and reply.board is not None:
        reply.repost = True
    await bot.deliver(interaction, reply)


async def show_picture(interaction: Interaction, work: Any, *, ephemeral: bool = False) -> None:
    """Answer with the :class:`Screen` ``work`` makes (a replay, a chart), deferring when it
    takes long; a refusal (IllegalAction) is shown only to the member."""
    from bot.client.app import send_private
    from bot.client.components import message_kwargs

    bot = interaction.client
    try:
        screen = await bot.within_deadline(interaction, work, component=False, ephemeral=ephemeral)
    except IllegalAction as exc:
        await send_private(interaction, str(exc))
        return
    kwargs = message_kwargs(screen, None, None)
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(ephemeral=ephemeral, **kwargs)


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
        found = await service.pictures.recent_games(interaction.guild_id or 0, kind)
        return [
            app_commands.Choice(name=game_label(table), value=table.id)
            for table in found
            if current.strip().lstrip("#") in str(table.id)
            or current.lower() in game_label(table).lower()
        ][:25]


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

    replay_command(group, service, "quarters")
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


def with_image(screen: Screen, picture: Any) -> Screen:
    """``screen`` with ``picture`` attached (shown with its alt text beside the embed)."""
    return Screen(
        screen.content, screen.embed, screen.pictures, screen.files, screen.rows, (picture,)
    )


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
    @app_commands.describe(game="Which game", chart="Show the top ten as a bar chart")
    @app_commands.choices(game=choices)
    @app_commands.guild_only()
    async def scoreboard(
        interaction: Interaction, game: app_commands.Choice[str], chart: bool = False
    ) -> None:
        service = interaction.client.service
        guild = interaction.guild_id or 0

        async def work() -> Screen:
            screen = await service.scoreboard(guild, game.value)
            if not chart:
                return screen
            picture = await service.pictures.scoreboard(guild, game.value)
            return with_image(screen, picture)

        await show_picture(interaction, work())

    @tree.command(name="stats", description="A member's record in every game on this server.")
    @app_commands.describe(member="Whose record (default: yours)")
    @app_commands.guild_only()
    async def stats(interaction: Interaction, member: discord.Member | None = None) -> None:
        service = interaction.client.service
        who = member or interaction.user
        guild = interaction.guild_id or 0
        servers = {g.id: g.name for g in interaction.client.guilds}

        async def work() -> Screen:
            screen = await service.stats(guild, who.id, who.display_name)
            picture = await service.pictures.stats(guild, who.id, who.display_name, servers)
            return with_image(screen, picture)

        await show_picture(interaction, work())

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
        if claim_minutes is not None:
            await service.set_setting(guild, "idle_claim_minutes", claim_minutes)
        if end_hours is not None:
            await service.set_setting(guild, "idle_end_hours", end_hours)
        values = await service.settings(guild)
        await interaction.response.send_message(
            f"Idle games: the waiting player may claim after **{values['idle_claim_minutes']:g} "
            f"minutes**; games end by themselves after **{values['idle_end_hours']:g} hours**.",
            ephemeral=True,
        )

    tree.add_command(game_group())
    for group in game_commands.groups(service):
        tree.add_command(group)
