"""Which component interactions a table control will answer, so that every other one is
refused instead of left unanswered ("This interaction failed").

discord.py runs a :class:`~discord.ui.DynamicItem` only when the custom_id fully matches its
template *and* the clicked message carries a component of the same type with that custom_id;
otherwise it drops the interaction silently. :func:`routed` mirrors those conditions (a
button's custom_id on a select, or the reverse, reaches the item, which refuses it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

import discord

from bot.client import customid
from bot.tables.trust import Origin
from i18n import _

UNKNOWN = _("That control is not one of this game's (or it is out of date). Nothing was done.")
_PATTERN = re.compile(r"(?P<kind>[ts]):" + customid.TEMPLATE)


def _walk(components: Iterable[Any]) -> Iterator[Any]:
    for component in components:
        yield component
        yield from _walk(getattr(component, "children", ()) or ())
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield accessory


def routed(interaction: discord.Interaction, others: Iterable[type[Any]] = ()) -> bool:
    """True unless ``interaction`` is a component interaction no table control will answer
    (nor one of the ``others``, the bot's other dynamic items, such as /privacy's buttons)."""
    if interaction.type is not discord.InteractionType.component:
        return True
    # discord.py types the data as a union of payload TypedDicts; a plain dict reads any key.
    data: dict[str, Any] = dict(interaction.data or {})  # type: ignore[arg-type]
    custom_id, ctype = data.get("custom_id"), data.get("component_type")
    if not isinstance(custom_id, str):
        return False
    templates = [_PATTERN, *(item.__discord_ui_compiled_template__ for item in others)]
    if not any(t.fullmatch(custom_id) for t in templates):
        return False
    message = interaction.message
    if message is None:
        return False
    return any(
        getattr(c, "custom_id", None) == custom_id and getattr(c.type, "value", None) == ctype
        for c in _walk(message.components)
    )


def origin_of(interaction: discord.Interaction) -> Origin:
    """The message a component was used on, as the table service sees it."""
    message = interaction.message
    if message is None:
        return Origin(None, private=False)
    return Origin(message.id, private=message.flags.ephemeral)
