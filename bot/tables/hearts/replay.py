"""A hand of the channel's latest finished game of Hearts, replayed face up trick by trick
(``/hearts replay``): for a finished game only, so no card still in play is shown."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.tables.controller import channel_language
from bot.tables.hearts.board import bottom_seat
from bot.tables.screens import Attachment, Screen
from bot.tables.seats import seat_names
from bot.tables.showing import Pictures
from games.base import N_, IllegalAction
from i18n import _, render
from render.hearts_replay import hands_played, replay_hearts_hand

KIND = "hearts"


def draw_hand(
    state: Mapping[str, Any], number: int, names: Sequence[str], bottom: int, lang: str = "en"
) -> Attachment:
    """Round ``number`` (from 1) of a finished game, face up, its words in the language
    ``lang``; top-level for the process pool."""
    return Attachment.of(replay_hearts_hand(state, number, names, bottom=bottom, lang=lang))


async def hand_replay(pictures: Pictures, guild_id: int, channel_id: int, hand: int) -> Screen:
    """Hand ``hand`` (from 1) of the channel's latest game, once it is finished."""
    table = await pictures.last_finished(guild_id, channel_id, KIND)
    assert table.state is not None  # last_finished checked it
    played = hands_played(table.state)
    if not 1 <= hand <= played:
        raise IllegalAction(N_("That game had rounds 1 to {last}.", last=played))
    lang = channel_language(table)  # posted in the channel
    picture = await pictures.draw(
        ("hearts-hand", table.id, table.version, hand, lang),
        draw_hand,
        table.state,
        hand,
        seat_names(table.seats, lang),
        bottom_seat(table),
        lang,
    )
    said = _(
        "🎞️ **Hearts** game #{id}, round {number} of {count}, trick by trick.",
        id=str(table.id),
        number=hand,
        count=played,
    )
    return Screen(content=render(said, lang), attachments=(picture,))
