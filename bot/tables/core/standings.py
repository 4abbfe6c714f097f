"""The scoreboard and a member's record, as screens drawn from stored standings (no I/O), in
the language of whoever reads them."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from bot.tables.controller import Controller
from bot.tables.screens import Embed, Field, Screen
from bot.tables.wording import GAME_NAMES
from i18n import Message, _, _n, _p, render
from i18n.formats import Number
from i18n.messages import Text
from storage.models import Standing

TOP = 20  # rows of the scoreboard's table
NAME_WIDTH = 16  # columns a player's name may take in it


def game_name(controller: Controller[Any, Any]) -> Message | str:
    """The game's name as each language says it."""
    return GAME_NAMES.get(controller.title, controller.title)


def width(text: str) -> int:
    """Columns ``text`` takes in a monospaced block: kana, kanji and full-width forms take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def clipped(text: str, most: int) -> str:
    """``text`` cut to at most ``most`` columns."""
    while width(text) > most:
        text = text[:-1]
    return text


def table(rows: Sequence[Sequence[str]]) -> str:
    """Rows of cells as a monospaced table, each column as wide as its widest cell."""
    widths = [max(width(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(
            cell + " " * (w - width(cell)) for cell, w in zip(row, widths, strict=True)
        ).rstrip()
        for row in rows
    )


def scoreboard(
    controller: Controller[Any, Any], standings: list[Standing], lang: str = "en"
) -> Screen:
    """The server's standings for one game, as an embed in ``lang`` (the channel's)."""

    def say(text: Text) -> str:
        return render(text, lang)

    standings = sorted(standings, key=controller.rank_key)
    title = say(_("{game} — scoreboard", game=game_name(controller)))
    if not standings:
        empty = _("No games finished yet. Be the first!")
        return Screen(embed=Embed(title=title, description=say(empty)))
    columns: tuple[Text, ...] = (
        "#",
        _p("scoreboard", "Player"),
        _p("scoreboard", "Games"),
        *controller.standing_columns(),
    )
    rows = [[say(column) for column in columns]]
    for place, standing in enumerate(standings[:TOP], start=1):
        name = standing.name or say(_("member {id}", id=str(standing.user_id)))
        values = [say(value) for value in controller.standing_values(standing)]
        rows.append(
            [say(Number(place)), clipped(name, NAME_WIDTH), say(Number(standing.games)), *values]
        )
    return Screen(
        embed=Embed(
            title=title,
            description="```\n" + table(rows) + "\n```",
            fields=(
                Field(say(_p("scoreboard", "Players")), say(Number(len(standings))), inline=True),
                Field(
                    say(_p("scoreboard", "Games")),
                    say(Number(sum(s.games for s in standings))),
                    inline=True,
                ),
            ),
        )
    )


def record(
    controllers: Mapping[str, Controller[Any, Any]],
    found: Mapping[str, Standing],
    name: str,
    lang: str = "en",
) -> Screen:
    """One member's record in every game of a server, in ``lang``."""
    fields = []
    for kind, controller in controllers.items():
        standing = found.get(kind)
        if standing is None:
            continue
        figures = [  # a heading and its figure, as in the scoreboard's columns
            f"{render(column, lang)} **{render(value, lang)}**"
            for column, value in zip(
                controller.standing_columns(), controller.standing_values(standing), strict=True
            )
        ]
        played = render(_n("{n} played", "{n} played", standing.games), lang)
        fields.append(Field(render(game_name(controller), lang), " · ".join([played, *figures])))
    title = _("{name} — Parlour record", name=name)
    empty = _("No finished games yet.")
    return Screen(
        embed=Embed(
            title=render(title, lang),
            description="" if fields else render(empty, lang),
            fields=tuple(fields),
        )
    )
