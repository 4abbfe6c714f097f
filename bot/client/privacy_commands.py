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
from i18n import _, _p, render
from i18n.messages import Text
from storage import privacy

Interaction = discord.Interaction["ParlourBot"]
NO_MANAGE = _("Only a member who may **Manage Server** can erase the server's data.")
IN_SERVERS = _("That works in a server.")
NOT_YOURS = _("That button is someone else's. Use `/privacy show` for your own data.")
CANCELLED = _("Nothing was erased.")
YOUR_FILE = _("Everything Parlour stores about you on this server:")
LABELS = {
    "json": _p("button", "Download JSON"),
    "forget": _p("button", "Forget me"),
    "erase": _p("button", "Erase everything"),
    "cancel": _p("button", "Cancel"),
}


def said(text: Text, interaction: discord.Interaction) -> str:
    """``text`` in the member's language (every /privacy answer is private)."""
    return render(text, str(interaction.locale))[:2000]


def _button(
    action: str, target: int, style: discord.ButtonStyle, interaction: discord.Interaction
) -> discord.ui.Item:
    return PrivacyButton(action, target, said(LABELS[action], interaction), style)


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
        except Stopping as refused:
            await interaction.response.send_message(said(refused.text, interaction), ephemeral=True)
        except Exception as exc:  # the store away, or a defect: answered privately either way
            await outage.answer_failure(interaction, exc, f"privacy button {self.action}")


async def clicked(interaction: Interaction, action: str, target: int) -> None:
    """A privacy button: only its member (or, to erase, a server manager) may press it."""
    bot = interaction.client
    guild = interaction.guild_id
    place = place_of(interaction)  # this server, this chat, or (in the DM) all outside servers
    if action == "erase":
        if guild is None:  # chats and DMs are no server
            await interaction.response.send_message(said(IN_SERVERS, interaction), ephemeral=True)
            return
        perms = interaction.permissions
        if target != guild or not (perms and perms.manage_guild):
            interactions.note(outcome="refused")
            await interaction.response.send_message(said(NO_MANAGE, interaction), ephemeral=True)
            return
    elif target != interaction.user.id:
        interactions.note(outcome="refused")
        await interaction.response.send_message(said(NOT_YOURS, interaction), ephemeral=True)
        return
    db = bot.service.db
    if action == "cancel":
        await interaction.response.edit_message(content=said(CANCELLED, interaction), view=None)
    elif action == "json":
        data = await privacy.member_data(db, place, target)
        file = discord.File(io.BytesIO(words.export_file(data)), filename="parlour-my-data.json")
        await interaction.response.send_message(
            said(YOUR_FILE if guild is not None else words.heading(data), interaction),
            file=file,
            ephemeral=True,
        )
    elif action == "forget":
        try:
            done = await privacy.forget_member(db, place, target)
        except privacy.StillPlaying as exc:
            interactions.note(outcome="refused")
            refusal = words.still_playing([channel for _table, channel in exc.tables])
            await interaction.response.edit_message(content=said(refusal, interaction), view=None)
            return
        await interaction.response.edit_message(
            content=said(
                words.forgotten(done.results, done.ratings, done.tables, place.kind.value),
                interaction,
            ),
            view=None,
        )
    elif guild is not None:
        erased = await privacy.erase_guild(db, guild)
        bot.stop_tables(erased.open_tables)
        await interaction.response.edit_message(
            content=said(words.erased(erased.tables, erased.results, erased.ratings), interaction),
            view=None,
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
        view = _view(_button("json", interaction.user.id, discord.ButtonStyle.primary, interaction))
        await interaction.response.send_message(
            said(words.summary(data), interaction), view=view, ephemeral=True
        )

    @group.command(name="forget", description="Erase your results and ratings here.")
    async def forget(interaction: Interaction) -> None:
        db = interaction.client.service.db
        data = await privacy.member_data(db, place_of(interaction), interaction.user.id)
        user = interaction.user.id
        view = _view(
            _button("forget", user, discord.ButtonStyle.danger, interaction),
            _button("cancel", user, discord.ButtonStyle.secondary, interaction),
        )
        await interaction.response.send_message(
            said(words.forget_question(data), interaction), view=view, ephemeral=True
        )

    @group.command(
        name="erase-server", description="Erase all of Parlour's data on this server (admins)."
    )
    async def erase_server(interaction: Interaction) -> None:
        if interaction.guild_id is None:  # chats and DMs are no server: nothing of theirs goes
            await interaction.response.send_message(said(IN_SERVERS, interaction), ephemeral=True)
            return
        perms = interaction.permissions
        if not (perms and perms.manage_guild):
            interactions.note(outcome="refused")
            await interaction.response.send_message(said(NO_MANAGE, interaction), ephemeral=True)
            return
        guild = interaction.guild_id or 0
        view = _view(
            _button("erase", guild, discord.ButtonStyle.danger, interaction),
            _button("cancel", interaction.user.id, discord.ButtonStyle.secondary, interaction),
        )
        await interaction.response.send_message(
            said(words.ERASE_QUESTION, interaction), view=view, ephemeral=True
        )

    return group


def install(tree: app_commands.CommandTree) -> None:
    tree.add_command(privacy_group())
