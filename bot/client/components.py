"""Screens to discord.py messages, and the dynamic components that route clicks.

Every control's custom_id is ``t:<table>:<version>:<action>`` (buttons) or
``s:<table>:<version>:<action>`` (selects); ``*`` stands for the version when any board may use
it. Clicks are routed by the custom_id alone (:func:`bot.client.guard.table_control`), so
buttons keep working after a restart.
"""

from __future__ import annotations

import functools
import io
from typing import Any

import discord

from bot.tables.screens import Button, Screen, Select, Style

_STYLES = {
    Style.PRIMARY: discord.ButtonStyle.primary,
    Style.SECONDARY: discord.ButtonStyle.secondary,
    Style.SUCCESS: discord.ButtonStyle.success,
    Style.DANGER: discord.ButtonStyle.danger,
}
MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True)


def custom_id(prefix: str, table_id: int, version: int | None, action: str) -> str:
    cid = f"{prefix}:{table_id}:{'*' if version is None else version}:{action}"
    if len(cid) > 100:
        raise ValueError(f"custom_id too long: {cid!r}")
    return cid


def table_button(table_id: int, version: int | None, button: Button) -> discord.ui.Button[Any]:
    """A button on a table's message, as discord.py's item."""
    return discord.ui.Button(
        label=button.label,
        style=_STYLES[button.style],
        disabled=button.disabled,
        emoji=button.emoji,
        custom_id=custom_id("t", table_id, None if button.any_version else version, button.action),
    )


def table_select(table_id: int, version: int | None, select: Select) -> discord.ui.Select[Any]:
    """A select menu on a table's message, as discord.py's item; the chosen values follow the
    action after ``=`` (see :func:`bot.client.guard.table_control`)."""
    return discord.ui.Select(
        custom_id=custom_id("s", table_id, None if select.any_version else version, select.action),
        placeholder=select.placeholder or None,
        min_values=select.min_values,
        max_values=select.max_values,
        disabled=select.disabled,
        options=[
            discord.SelectOption(
                label=o.label, value=o.value, description=o.description, default=o.default
            )
            for o in select.options
        ],
    )


class ControlsView(discord.ui.View):
    """A message's controls, routed by their custom_id alone (table controls by
    :func:`bot.client.guard.table_control`, the others as dynamic items): never kept
    in discord.py's view store and never timed, which would otherwise hold every board sent
    and, for each private answer with controls (a hand), a 15-minute timer task (a
    long-running bot's tasks and memory grew with them)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        return False

    @property
    def timeout(self) -> float | None:
        return None

    @timeout.setter
    def timeout(self, value: float | None) -> None:
        """Ignored: discord.py gives a private answer's view a 15-minute timer; these need
        none (their items are routed by custom_id whenever they are clicked)."""


class Controls(ControlsView):
    """A screen's controls as the components Discord is sent, without discord.py's items:
    building 25 buttons as discord.py items and laying them out cost a quarter of a
    millisecond a message, three messages a move. The parts come from discord.py's own
    components (cached per control, the custom_id set per message), so the payload is the same;
    a click on them is routed by its custom_id."""

    def __init__(self, components: list[dict[str, Any]]) -> None:
        super().__init__()
        self._components = components

    def to_components(self) -> list[dict[str, Any]]:
        return self._components  # no children: has_components_v2() says False


MAX_ROWS = MAX_IN_ROW = 5  # Discord's layout: five action rows of up to five buttons


@functools.lru_cache(maxsize=4096)
def _button_part(button: Button) -> dict[str, Any]:
    return table_button(1, 0, button).to_component_dict()  # type: ignore[return-value]


@functools.lru_cache(maxsize=1024)
def _select_part(select: Select) -> dict[str, Any]:
    return table_select(1, 0, select).to_component_dict()  # type: ignore[return-value]


def _control(
    part: dict[str, Any], prefix: str, table_id: int, version: int | None, action: str
) -> dict[str, Any]:
    return {**part, "custom_id": custom_id(prefix, table_id, version, action)}


def build_view(screen: Screen, table_id: int | None, version: int | None) -> discord.ui.View | None:
    """The screen's rows as the components Discord is sent (None when it has no controls),
    laid out as discord.py lays out its items: buttons in their row, a select menu in the first
    row still empty."""
    if not screen.rows or table_id is None:
        return None
    if len(screen.rows) > MAX_ROWS:
        raise ValueError(f"{len(screen.rows)} rows of controls: at most {MAX_ROWS}")
    rows: list[list[dict[str, Any]]] = [[] for _ in screen.rows]
    for index, row in enumerate(screen.rows):
        if isinstance(row, Select):
            at = None if row.any_version else version
            free = next(i for i, r in enumerate(rows) if not r)
            rows[free] = [_control(_select_part(row), "s", table_id, at, row.action)]
            continue
        if rows[index] or len(row) > MAX_IN_ROW:
            raise ValueError(f"row {index} of controls has no room for {len(row)} buttons")
        rows[index] = [
            _control(_button_part(b), "t", table_id, None if b.any_version else version, b.action)
            for b in row
        ]
    return Controls([{"type": 1, "components": r} for r in rows if r])


def message_kwargs(
    screen: Screen, table_id: int | None, version: int | None, *, editing: bool = False
) -> dict[str, Any]:
    """Keyword arguments for ``send`` / ``edit`` that show ``screen``.

    When editing, attachments are replaced (an empty list removes the old image) and a missing
    view removes the old controls.
    """
    files = [
        discord.File(io.BytesIO(p.png), filename=p.filename, description=p.description)
        for p in screen.pictures
    ]
    files += [
        discord.File(io.BytesIO(a.data), filename=a.filename, description=a.description or None)
        for a in screen.attachments
    ]
    files += [discord.File(io.BytesIO(f.data), filename=f.filename) for f in screen.files]
    embed = None
    if screen.embed is not None:
        e = screen.embed
        embed = discord.Embed(
            title=e.title or None, description=e.description or None, colour=e.colour
        )
        for f in e.fields:
            embed.add_field(name=f.name, value=f.value, inline=f.inline)
        if e.footer:
            embed.set_footer(text=e.footer)
        if e.image:
            embed.set_image(url=f"attachment://{e.image}")
    view = build_view(screen, table_id, version)
    kwargs: dict[str, Any] = {"content": screen.content or None, "allowed_mentions": MENTIONS}
    if editing:
        kwargs["attachments"] = files
        kwargs["embed"] = embed
        kwargs["view"] = view
        if not screen.content:
            kwargs["content"] = ""
    else:
        if files:
            kwargs["files"] = files
        if embed is not None:
            kwargs["embed"] = embed
        if view is not None:
            kwargs["view"] = view
    return kwargs
