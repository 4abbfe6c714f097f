"""``/privacy``: what Parlour stores about a member (``show``), forgetting them (``forget``),
and a server admin's erasure of the server's data (``erase-server``).

Every answer is private. The confirmation buttons are dynamic items
(``p:<action>:<member or server id>``), so they also work after a restart; a click checks
again that it comes from that member (or from someone who may manage that server).
"""

from __future__ import annotations

import io
import re

import discord
from discord import app_commands

from bot.client import outage
from bot.client.components import ControlsView
from bot.client.places import place_of
from bot.ops import interactions
from bot.ops import privacy as words
from bot.ops.drain import Stopping
from storage import privacy

Interaction = discord.Interaction["ParlourBot"]
NO_MANAGE = "Only a member who may **Manage Server** can erase the server's data."


def _button(label: str, action: str, target: int, style: discord.ButtonStyle) -> discord.ui.Item:
    return PrivacyButton(action, target, label, style)


def _view(*items: discord.ui.Item) -> discord.ui.View:
    view = ControlsView()
    for item in items:
        view.add_item(item)
    return view


class PrivacyButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"p:(?P<action>json|forget|erase|cancel):(?P<target>[0-9]{1,20})",
):
    """Download JSON, Forget me, Erase everything, or Cancel."""

    def __init__(
        self,
        action: str,
        target: int,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label or action, style=style, custom_id=f"p:{action}:{target}")
        )
        self.action, self.target = action, target

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> PrivacyButton:
        return cls(match["action"], int(match["target"]), item.label or "")

    async def callback(self, interaction: Interaction) -> None:
        bot = interaction.client
        try:
            async with bot.tracker.track(interaction):
                interactions.note(action=f"privacy.{self.action}")
                await clicked(interaction, self.action, self.target)
        except Stopping:
            await interaction.response.send_message(
                "Parlour is restarting; try again in a few seconds.", ephemeral=True
            )
        except Exception as exc:  # the store away, or a defect: answered privately either way
            await outage.answer_failure(interaction, exc, f"privacy button {self.action}")


async def clicked(interaction: Interaction, action: str, target: int) -> None:
    """A privacy button: only its member (or, to erase, a server manager) may press it."""
    bot = interaction.client
    guild = interaction.guild_id
    place = place_of(interaction)  # this server, this chat, or (in the DM) all outside servers
    locale = str(interaction.locale)
    if action == "erase":
        if guild is None:
            await interaction.response.send_message("That works in a server.", ephemeral=True)
            return
        perms = interaction.permissions
        if target != guild or not (perms and perms.manage_guild):
            interactions.note(outcome="refused")
            await interaction.response.send_message(NO_MANAGE, ephemeral=True)
            return
    elif target != interaction.user.id:
        interactions.note(outcome="refused")
        await interaction.response.send_message(
            "That button is someone else's. Use `/privacy show` for your own data.",
            ephemeral=True,
        )
        return
    db = bot.service.db
    if action == "cancel":
        await interaction.response.edit_message(content="Nothing was erased.", view=None)
    elif action == "json":
        data = await privacy.member_data(db, place, target)
        file = discord.File(io.BytesIO(words.export_file(data)), filename="parlour-my-data.json")
        await interaction.response.send_message(
            words.export_heading(data, locale), file=file, ephemeral=True
        )
    elif action == "forget":
        try:
            done = await privacy.forget_member(db, place, target)
        except privacy.StillPlaying as exc:
            interactions.note(outcome="refused")
            await interaction.response.edit_message(content=str(exc)[:2000], view=None)
            return
        await interaction.response.edit_message(
            content=words.forgotten(
                done.results, done.ratings, done.tables, place.kind.value, locale
            ),
            view=None,
        )
    elif guild is not None:
        erased = await privacy.erase_guild(db, guild)
        bot.stop_tables(erased.open_tables)
        await interaction.response.edit_message(
            content=words.erased(erased.tables, erased.results, erased.ratings), view=None
        )


def privacy_group() -> app_commands.Group:
    group = app_commands.Group(
        name="privacy",
        description="What Parlour stores about you, and erasing it.",
    )

    @group.command(name="show", description="See (privately) what Parlour stores about you here.")
    async def show(interaction: Interaction) -> None:
        db = interaction.client.service.db
        data = await privacy.member_data(db, place_of(interaction), interaction.user.id)
        view = _view(
            _button("Download JSON", "json", interaction.user.id, discord.ButtonStyle.primary)
        )
        said = words.summary(data, str(interaction.locale))
        await interaction.response.send_message(said, view=view, ephemeral=True)

    @group.command(name="forget", description="Erase your results and ratings here.")
    async def forget(interaction: Interaction) -> None:
        db = interaction.client.service.db
        data = await privacy.member_data(db, place_of(interaction), interaction.user.id)
        user = interaction.user.id
        view = _view(
            _button("Forget me", "forget", user, discord.ButtonStyle.danger),
            _button("Cancel", "cancel", user, discord.ButtonStyle.secondary),
        )
        await interaction.response.send_message(
            words.forget_question(data, str(interaction.locale)), view=view, ephemeral=True
        )

    @group.command(
        name="erase-server", description="Erase all of Parlour's data on this server (admins)."
    )
    async def erase_server(interaction: Interaction) -> None:
        if interaction.guild_id is None:  # chats and DMs are no server: nothing of theirs goes
            await interaction.response.send_message("That works in a server.", ephemeral=True)
            return
        perms = interaction.permissions
        if not (perms and perms.manage_guild):
            interactions.note(outcome="refused")
            await interaction.response.send_message(NO_MANAGE, ephemeral=True)
            return
        guild = interaction.guild_id or 0
        view = _view(
            _button("Erase everything", "erase", guild, discord.ButtonStyle.danger),
            _button("Cancel", "cancel", interaction.user.id, discord.ButtonStyle.secondary),
        )
        await interaction.response.send_message(words.ERASE_QUESTION, view=view, ephemeral=True)

    return group


def install(tree: app_commands.CommandTree) -> None:
    tree.add_command(privacy_group())
