"""``/daily today`` and ``/daily board``, the private boards' controls, and the daily post.

A daily control's custom_id is ``d:<attempt>:<version>:<action>`` (a button) or
``ds:<attempt>:<version>:<action>`` (a select of moves); ``*`` for the version where any board
may use it (Share), and attempt ``0`` for the controls of ``/daily today`` and of the daily post
(``open=<puzzle>``, ``overview``). They are dynamic items, so they work after a restart; the
service checks on every click that the board is the member's own and current.

Discord does not allow a command ``/daily`` beside sub-commands of it, so today's puzzles are
``/daily today``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import re
from typing import Any

import discord
from discord import app_commands

from bot.client import customid, outage
from bot.client.common import channel_language, host, send_private
from bot.client.components import custom_id, message_kwargs
from bot.client.places import place_of
from bot.client.retry import FAILURES, post_nonce, retrying
from bot.ops import interactions
from bot.ops.drain import Stopping
from bot.tables.daily.service import CHANNEL_SETTING, SHARE, Answer, DailyService
from bot.tables.screens import Screen, Select, Style
from i18n import _, render, resolve

log = logging.getLogger(__name__)
POST_EVERY = 60.0  # seconds between checks for a due daily post
_STYLES = {
    Style.PRIMARY: discord.ButtonStyle.primary,
    Style.SECONDARY: discord.ButtonStyle.secondary,
    Style.SUCCESS: discord.ButtonStyle.success,
    Style.DANGER: discord.ButtonStyle.danger,
}
_TEMPLATE = (
    r"(?P<table>0|[1-9][0-9]{0,18}):(?P<version>0|[1-9][0-9]{0,18}|\*):(?P<action>[!-~]{1,90})"
)


def service_of(client: discord.Client) -> DailyService:
    """The bot's daily service (made on first use, on the table service's database and clock)."""
    daily = getattr(client, "daily", None)
    if daily is None:
        table_service = client.service  # type: ignore[attr-defined]
        daily = DailyService(table_service.db, table_service.clock)
        client.daily = daily  # type: ignore[attr-defined]
    return daily


def _parts(match: re.Match[str]) -> tuple[int, int | None, str]:
    version = None if match["version"] == "*" else int(match["version"])
    return int(match["table"]), version, match["action"]


class DailyButton(discord.ui.DynamicItem[discord.ui.Button], template="d:" + _TEMPLATE):
    """A button of a daily board, of ``/daily today`` or of the daily post."""

    def __init__(
        self,
        attempt: int,
        version: int | None,
        action: str,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or action,
                style=style,
                disabled=disabled,
                custom_id=custom_id("d", attempt, version, action),
            )
        )
        self.attempt, self.version, self.action = attempt, version, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> DailyButton:
        return cls(*_parts(match), label=getattr(item, "label", None) or "")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await clicked(interaction, self.attempt, self.version, self.action)


class DailySelect(discord.ui.DynamicItem[discord.ui.Select], template="ds:" + _TEMPLATE):
    """The moves of a daily board; the chosen move follows the action after ``=``."""

    def __init__(self, attempt: int, version: int | None, select: Select) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id("ds", attempt, version, select.action),
                placeholder=select.placeholder or None,
                options=[
                    discord.SelectOption(label=o.label, value=o.value) for o in select.options
                ],
            )
        )
        self.attempt, self.version, self.action = attempt, version, select.action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> DailySelect:
        attempt, version, action = _parts(match)
        return cls(attempt, version, Select(action, ()))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        data: Any = interaction.data or {}
        values = customid.select_values(data.get("values"))
        if values is None or len(values) != 1:
            text = render(_("That choice is not a move."), str(interaction.locale))
            await interaction.response.send_message(text, ephemeral=True)
            return
        await clicked(interaction, self.attempt, self.version, f"{self.action}={values[0]}")


ITEMS = (DailyButton, DailySelect)  # the dynamic items the bot registers


def _view(screen: Screen, attempt: int, version: int | None) -> discord.ui.View | None:
    if not screen.rows:
        return None
    view = discord.ui.View(timeout=None)
    for index, row in enumerate(screen.rows):
        if isinstance(row, Select):
            item: discord.ui.Item[Any] = DailySelect(attempt, version, row)
            item.row = index
            view.add_item(item)
            continue
        for button in row:
            any_version = button.action in ("share", "overview") or button.action.startswith(
                "open="
            )
            item = DailyButton(
                attempt,
                None if any_version else version,
                button.action,
                button.label,
                _STYLES[button.style],
                button.disabled,
            )
            item.row = index
            view.add_item(item)
    return view


def _kwargs(
    screen: Screen, attempt: int = 0, version: int | None = None, *, editing: bool = False
) -> dict[str, Any]:
    kwargs = message_kwargs(screen, None, None, editing=editing)
    view = _view(screen, attempt, version)
    if view is not None or editing:
        kwargs["view"] = view
    return kwargs


async def _within(interaction: discord.Interaction[Any], work: Any, *, new: bool) -> Any:
    """``work``'s result, the interaction deferred if it takes long (a busy or loaded bot):
    privately for a new message, as an update of the clicked board otherwise."""
    return await host(interaction).within_deadline(
        interaction, work, component=not new, ephemeral=True
    )


async def _send(
    interaction: discord.Interaction[Any],
    screen: Screen | None,
    attempt: int = 0,
    version: int | None = None,
    *,
    content: str | None = None,
    ephemeral: bool = True,
) -> None:
    """A new message (``screen``, or a refusal's ``content``), or the deferred "thinking…"
    message made into it."""
    if interaction.response.is_done():

        def edited() -> dict[str, Any]:
            if screen is None:
                return {"content": content}
            return _kwargs(screen, attempt, version, editing=True)

        await retrying(lambda: interaction.edit_original_response(**edited()))
    elif screen is None:
        await interaction.response.send_message(content, ephemeral=ephemeral)
    else:
        await interaction.response.send_message(
            ephemeral=ephemeral, **_kwargs(screen, attempt, version)
        )


async def _show(interaction: discord.Interaction[Any], answer: Answer, *, new: bool) -> None:
    """Show a daily board privately: a new message, or the clicked one edited (after a
    defer, the deferred message is edited; a refusal or a share comes as a follow-up)."""
    deferred = interaction.response.is_done()
    if answer.error is not None:
        if deferred and not new:
            await send_private(interaction, answer.error)
        else:
            await _send(interaction, None, content=answer.error)
        return
    if answer.post is not None:  # a share: one line for everyone in the channel
        mentions = discord.AllowedMentions.none()
        if deferred:
            await interaction.followup.send(answer.post, allowed_mentions=mentions)
        else:
            await interaction.response.send_message(answer.post, allowed_mentions=mentions)
        return
    assert answer.screen is not None
    if new:
        await _send(interaction, answer.screen, answer.attempt, answer.version)
    elif deferred:
        kwargs = _kwargs(answer.screen, answer.attempt, answer.version, editing=True)
        await retrying(lambda: interaction.edit_original_response(**kwargs))
    else:
        await interaction.response.edit_message(
            **_kwargs(answer.screen, answer.attempt, answer.version, editing=True)
        )


async def clicked(
    interaction: discord.Interaction[Any], attempt: int, version: int | None, action: str
) -> None:
    """Any daily control, tracked as every interaction is (logs, metrics, the drain)."""
    try:
        async with interaction.client.tracker.track(interaction):
            interactions.note(action=f"daily.{action.partition('=')[0]}")
            await _clicked(interaction, attempt, version, action)
    except Stopping as refused:
        await send_private(interaction, refused.text)
    except Exception as exc:  # the store away, or a defect: answered privately either way
        await outage.answer_failure(interaction, exc, f"daily control {action!r}")


async def _clicked(
    interaction: discord.Interaction[Any], attempt: int, version: int | None, action: str
) -> None:
    daily = service_of(interaction.client)
    locale = str(interaction.locale)
    user = interaction.user
    if action == "overview":
        screen = await _within(interaction, daily.overview(user.id, locale), new=True)
        await _send(interaction, screen)
        return
    if action.startswith("open="):
        opened = daily.open(
            action.partition("=")[2], user.id, user.display_name, place_of(interaction), locale
        )
        await _show(interaction, await _within(interaction, opened, new=True), new=True)
        return
    channel_locale = None
    if action == SHARE:  # the shared line is read by the channel: in the channel's language
        channel_locale = await interaction.client.service.channel_language(  # type: ignore[attr-defined]
            interaction.guild_id or 0, channel_language(interaction)
        )
    acted = daily.act(attempt, version, user.id, action, locale, channel_locale)
    await _show(interaction, await _within(interaction, acted, new=False), new=False)


def daily_group() -> app_commands.Group:
    group = app_commands.Group(
        name="daily", description="The daily puzzles: the same for everyone."
    )

    @group.command(name="today", description="Today's three puzzles and when the next come.")
    async def today(interaction: discord.Interaction[Any]) -> None:
        work = service_of(interaction.client).overview(interaction.user.id, str(interaction.locale))
        screen = await _within(interaction, work, new=True)
        await _send(interaction, screen)

    @group.command(name="board", description="Today's solvers here and the longest streaks.")
    async def board(interaction: discord.Interaction[Any]) -> None:
        # posted for the channel: in the channel's language
        lang = await host(interaction).service.channel_language(
            interaction.guild_id or 0, channel_language(interaction)
        )
        work = service_of(interaction.client).board(place_of(interaction), lang)  # here
        screen = await host(interaction).within_deadline(interaction, work, component=False)
        await _send(interaction, screen, ephemeral=False)

    return group


def install(tree: app_commands.CommandTree[Any]) -> None:
    tree.add_command(daily_group())


async def post_due(client: discord.Client) -> int:
    """Send the daily post, in the server's language, to every server whose daily channel has
    not had today's; the number sent. Each is marked posted once it went: one that failed is
    tried again at the next check, and its nonce (the server, channel and day) makes a post
    sent again after a lost answer appear once."""
    daily = service_of(client)
    languages = {g.id: resolve(str(g.preferred_locale)).language.code for g in client.guilds}
    sent = 0
    async with daily.posting:
        today = daily.today()
        for guild_id, channel_id, screen in await daily.posts_due(languages):
            channel = client.get_partial_messageable(channel_id)
            nonce = post_nonce("daily", guild_id, channel_id, today.isoformat())
            try:
                await retrying(lambda c=channel, s=screen, n=nonce: c.send(nonce=n, **_kwargs(s)))
            except FAILURES as exc:
                log.warning("could not send the daily post to channel %s: %r", channel_id, exc)
                continue
            await daily.mark_posted(guild_id, today)
            sent += 1
    return sent


async def post_forever(client: discord.Client) -> None:
    """Check for a due daily post every :data:`POST_EVERY` seconds (so a post missed while the
    bot was down goes out once it is back)."""
    await client.wait_until_ready()
    while not client.is_closed():
        try:
            await post_due(client)
        except Exception:
            log.exception("daily post failed")
        await asyncio.sleep(POST_EVERY)


async def with_streaks(
    interaction: discord.Interaction[Any], user_id: int, screen: Screen, lang: str
) -> Screen:
    """``/stats`` with the member's daily streaks added as a field, in ``lang`` (the
    channel's, where /stats is posted)."""
    field = await service_of(interaction.client).streak_field(user_id, lang)
    if field is None or screen.embed is None:
        return screen
    embed = dataclasses.replace(screen.embed, fields=(*screen.embed.fields, field))
    return dataclasses.replace(screen, embed=embed)


async def set_daily_channel(interaction: discord.Interaction[Any], channel_id: int) -> None:
    """``/settings daily_channel:``: store it and say when the first post comes."""
    daily = service_of(interaction.client)
    await daily.db.set_guild_setting(interaction.guild_id or 0, CHANNEL_SETTING, str(channel_id))
    where = f"<#{channel_id}>"  # a channel mention
    text = render(
        _(
            "The daily puzzles will be posted in {channel} every day at midnight UTC, "
            "starting now.",
            channel=where,
        ),
        str(interaction.locale),
    )
    await interaction.response.send_message(text, ephemeral=True)
    await post_due(interaction.client)
