"""A tiny discord.py bot exercising what Parlour's bot does, to test the fake Discord itself.

Run in-process (``TinyBot``) or as a module through the launcher:
``python -m fakediscord.launch --api-base URL -- fake_discord_tinybot``.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import re
from typing import Any

import discord
from discord import app_commands
from PIL import Image

BIG = "x" * 2001


def png_bytes(color: str = "red") -> bytes:
    """A small PNG."""
    buf = io.BytesIO()
    Image.new("RGB", (32, 24), color).save(buf, "PNG")
    return buf.getvalue()


class Counter(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tiny:count:(?P<n>\d+)"):
    """A button whose custom_id carries its count (works after a restart)."""

    def __init__(self, n: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Count {n}", custom_id=f"tiny:count:{n}", style=discord.ButtonStyle.primary
            )
        )
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(self.n + 1))
        await interaction.response.edit_message(content=f"count is {self.n + 1}", view=view)


class Pick(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"tiny:pick"):
    """A select answering ephemerally with the chosen values."""

    def __init__(self) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id="tiny:pick",
                placeholder="Pick a colour",
                min_values=1,
                max_values=2,
                options=[discord.SelectOption(label=c.title(), value=c) for c in ("red", "blue")],
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Pick:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        chosen = ",".join(interaction.data.get("values", []))  # type: ignore[union-attr]
        await interaction.response.send_message(f"you picked {chosen}", ephemeral=True)


class Think(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tiny:think"):
    """A button that defers the update, then edits the message later."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="Think", custom_id="tiny:think"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Think:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await asyncio.sleep(0.05)
        await interaction.edit_original_response(content="thought about it", view=None)


game = app_commands.Group(name="game", description="Game commands")


@game.command(name="move", description="Make a move")
@app_commands.describe(move="The move, e.g. 11-15")
async def game_move(interaction: discord.Interaction, move: str) -> None:
    await interaction.response.send_message(f"moved {move}")


@game_move.autocomplete("move")
async def move_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    moves = ["11-15", "11-16", "12-16", "9-13", "10-14"]
    return [app_commands.Choice(name=m, value=m) for m in moves if m.startswith(current)]


@game.command(name="challenge", description="Challenge someone")
async def game_challenge(
    interaction: discord.Interaction, opponent: discord.Member, piles: str = "3,4,5"
) -> None:
    view = discord.ui.View(timeout=None)
    view.add_item(Counter(0))
    await interaction.response.send_message(
        f"{interaction.user.mention} challenges {opponent.mention} with piles {piles}", view=view
    )


class TinyBot(discord.Client):
    """The tiny bot: a handful of commands covering every response kind."""

    def __init__(self, *, sync_guild: int | None = None) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.sync_guild = sync_guild
        self.tree.add_command(game)
        self._add_commands()

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Counter, Pick, Think)
        if self.sync_guild:
            guild = discord.Object(self.sync_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    def _add_commands(self) -> None:
        tree = self.tree

        @tree.command(name="ping", description="Pong")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong")

        @tree.command(name="secret", description="An ephemeral reply")
        async def secret(interaction: discord.Interaction) -> None:
            perms = interaction.permissions.manage_messages
            await interaction.response.send_message(
                f"only you see this (manage messages: {perms})", ephemeral=True
            )

        @tree.command(name="think", description="Defer, then follow up")
        @app_commands.describe(private="Answer ephemerally")
        async def think(interaction: discord.Interaction, private: bool = False) -> None:
            await interaction.response.defer(ephemeral=private, thinking=True)
            await asyncio.sleep(0.05)
            await interaction.followup.send("thought hard")
            await interaction.followup.send("and one more thing")

        @tree.command(name="board", description="A board with an image and components")
        async def board(interaction: discord.Interaction) -> None:
            view = discord.ui.View(timeout=None)
            view.add_item(Counter(0))
            view.add_item(Think())
            view.add_item(Pick())
            embed = discord.Embed(title="Board", description="A red square")
            embed.set_image(url="attachment://board.png")
            file = discord.File(io.BytesIO(png_bytes()), "board.png", description="A red square")
            await interaction.response.send_message(embed=embed, file=file, view=view)

        @tree.command(name="edit", description="Reply, then edit the reply")
        async def edit(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("first")
            original = await interaction.original_response()
            file = discord.File(io.BytesIO(png_bytes("blue")), "blue.png", description="Blue")
            await interaction.edit_original_response(
                content=f"second (was {original.content})", attachments=[file]
            )

        @tree.command(name="post", description="Post and edit a channel message")
        async def post(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("posting", ephemeral=True)
            assert interaction.channel is not None
            msg = await interaction.channel.send("a channel message")  # type: ignore[union-attr]
            await msg.edit(content="an edited channel message")

        @tree.command(name="slow", description="Answers too late")
        async def slow(interaction: discord.Interaction) -> None:
            await asyncio.sleep(float(os.environ.get("TINYBOT_SLOW", "0.8")))
            with contextlib.suppress(discord.NotFound):
                await interaction.response.send_message("too late")

        @tree.command(name="bad", description="Breaks a limit")
        async def bad(interaction: discord.Interaction) -> None:
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.send_message(BIG)

        @tree.command(name="form", description="Open a modal")
        async def form(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(NameModal())


class NameModal(discord.ui.Modal, title="Your name"):
    """A one-field modal."""

    name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Name", custom_id="tiny:name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hello {self.name.value}", ephemeral=True)


async def run() -> None:
    """Start the bot with DISCORD_TOKEN (and DISCORD_GUILD_ID for guild sync)."""
    guild = os.environ.get("DISCORD_GUILD_ID")
    async with TinyBot(sync_guild=int(guild) if guild else None) as client:
        await client.start(os.environ["DISCORD_TOKEN"])


if __name__ == "__main__":
    asyncio.run(run())
