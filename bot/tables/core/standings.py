"""The scoreboard and a member's record, as screens drawn from stored standings (no I/O)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.tables.controller import Controller
from bot.tables.screens import Embed, Field, Screen
from storage.models import Standing


def scoreboard(controller: Controller[Any, Any], standings: list[Standing]) -> Screen:
    """The server's standings for one game, as an embed."""
    standings = sorted(standings, key=controller.rank_key)
    title = f"{controller.title} — scoreboard"
    if not standings:
        return Screen(embed=Embed(title=title, description="No games finished yet. Be the first!"))
    columns = ("#", "Player", "Games", *controller.standing_columns())
    rows = []
    for place, standing in enumerate(standings[:20], start=1):
        name = standing.name or f"user {standing.user_id}"
        rows.append(
            (str(place), name[:16], str(standing.games), *controller.standing_values(standing))
        )
    widths = [max(len(str(r[i])) for r in [columns, *rows]) for i in range(len(columns))]
    lines = [
        "  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True))
        for row in [columns, *rows]
    ]
    return Screen(
        embed=Embed(
            title=title,
            description="```\n" + "\n".join(lines) + "\n```",
            fields=(
                Field("Players", str(len(standings)), inline=True),
                Field("Games", str(sum(s.games for s in standings)), inline=True),
            ),
        )
    )


def record(
    controllers: Mapping[str, Controller[Any, Any]], found: Mapping[str, Standing], name: str
) -> Screen:
    """One member's record in every game of a server."""
    fields = []
    for kind, controller in controllers.items():
        standing = found.get(kind)
        if standing is None:
            continue
        values = zip(
            controller.standing_columns(), controller.standing_values(standing), strict=True
        )
        text = " · ".join(f"{column} **{value}**" for column, value in values)
        fields.append(Field(controller.title, f"{standing.games} played · {text}"))
    return Screen(
        embed=Embed(
            title=f"{name} — Parlour record",
            description="" if fields else "No finished games yet.",
            fields=tuple(fields),
        )
    )
