"""Which component interactions a table control answers, so that every other one is refused
instead of left unanswered ("This interaction failed").

A click counts only when its custom_id fully matches a control's template *and* the clicked
message carries a component of the same type with that custom_id (the conditions discord.py
puts on a :class:`~discord.ui.DynamicItem`). Table controls are routed here, by
:func:`table_control`, without rebuilding the clicked message's view as discord.py does for a
dynamic item (0.14 ms a Quarters board); the bot's other controls (/privacy's, the daily
puzzles') stay dynamic items.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import discord

from bot.client import customid
from bot.tables.trust import Origin
from i18n import _

UNKNOWN = _("That control is not one of this game's (or it is out of date). Nothing was done.")
_PATTERN = re.compile(r"(?P<kind>[ts]):" + customid.TEMPLATE)
_TYPES = {
    "t": discord.ComponentType.button.value,
    "s": discord.ComponentType.string_select.value,
}


def _walk(components: Iterable[Any]) -> Iterator[Any]:
    for component in components:
        yield component
        yield from _walk(getattr(component, "children", ()) or ())
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield accessory


def _on_message(interaction: discord.Interaction, custom_id: str, ctype: object) -> bool:
    """Whether the clicked message carries a component of type ``ctype`` with ``custom_id``."""
    message = interaction.message
    return message is not None and any(
        getattr(c, "custom_id", None) == custom_id and getattr(c.type, "value", None) == ctype
        for c in _walk(message.components)
    )


@dataclass(frozen=True, slots=True)
class Control:
    """A table control's click or choice: the action with a select's values after ``=``."""

    table_id: int
    version: int | None
    action: str


REFUSE = "refuse"  # a component interaction no control answers


def table_control(
    interaction: discord.Interaction, others: Iterable[type[Any]] = ()
) -> Control | str | None:
    """The table control ``interaction`` used; :data:`REFUSE` when no control answers it;
    None when it is not a component interaction, or one of the ``others`` (the bot's other
    dynamic items, such as /privacy's buttons, which discord.py routes)."""
    if interaction.type is not discord.InteractionType.component:
        return None
    # discord.py types the data as a union of payload TypedDicts; a plain dict reads any key.
    data: dict[str, Any] = dict(interaction.data or {})  # type: ignore[arg-type]
    custom_id, ctype = data.get("custom_id"), data.get("component_type")
    if not isinstance(custom_id, str) or not _on_message(interaction, custom_id, ctype):
        return REFUSE
    match = _PATTERN.fullmatch(custom_id)
    if match is None:
        theirs = any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in others)
        return None if theirs else REFUSE
    kind = match["kind"]
    parsed = customid.from_parts(kind, match["table"], match["version"], match["action"])
    if parsed is None or ctype != _TYPES[kind]:
        return REFUSE
    if kind == "t":
        return Control(parsed.table_id, parsed.version, parsed.action)
    values = customid.select_values(data.get("values"))
    if values is None:
        return REFUSE
    return Control(parsed.table_id, parsed.version, f"{parsed.action}={','.join(values)}")


def origin_of(interaction: discord.Interaction) -> Origin:
    """The message a component was used on, as the table service sees it."""
    message = interaction.message
    if message is None:
        return Origin(None, private=False)
    return Origin(message.id, private=message.flags.ephemeral)
