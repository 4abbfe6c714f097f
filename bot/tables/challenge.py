"""A challenge between two members, as the channel reads it: who challenges whom, Accept and
Decline (the actions the same in every language). No discord import."""

from __future__ import annotations

from bot.tables.screens import Button, Screen, Style
from bot.tables.seats import seat_names
from bot.tables.wording import game_name
from i18n import _, _p, render
from storage.models import Table


def challenge_screen(table: Table, title: str, lang: str) -> Screen:
    """The challenge's message in the channel's ``lang``."""
    challenger, challenged = seat_names(table.seats, lang)
    if table.seats[1].user_id == table.created_by:
        challenger, challenged = challenged, challenger
    said = _(
        "**{game}** — {challenger} challenges {challenged}. {challenged}, do you accept?",
        game=game_name(title),
        challenger=challenger,
        challenged=challenged,
    )
    accept, decline = _p("button", "Accept"), _p("button", "Decline")
    return Screen(
        content=render(said, lang),
        rows=(
            (
                Button(render(accept, lang), "accept", Style.SUCCESS),
                Button(render(decline, lang), "decline", Style.DANGER),
            ),
        ),
    )
