"""Hearts scores: every hand's points as a fixed-width table, and the scoreboard's columns."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from bot.tables.screens import Embed, Field, Screen
from games.hearts import State
from i18n import _p
from i18n.formats import Number
from i18n.messages import Text
from storage.models import Standing, Table

COMPUTER = re.compile(r"Computer \d")  # a computer seat's name


def short_names(names: Sequence[str], width: int = 7) -> list[str]:
    """Column headings for the score table: the names cut to ``width`` (a computer seat keeps
    its whole name, "Computer 1"), or seat numbers when two would look alike.

    >>> short_names(["Alice", "Computer 1", "Computer 2", "Bob"])
    ['Alice', 'Computer 1', 'Computer 2', 'Bob']
    >>> short_names(["Alexander", "Alexandra", "Computer", "Bob"])
    ['#1', '#2', '#3', '#4']
    """
    short = [name if COMPUTER.fullmatch(name) else name[:width].strip() for name in names]
    if len(set(short)) < len(short):
        return [f"#{i + 1}" for i in range(len(names))]
    return short


def scores_screen(table: Table, state: State, title: str = "Hearts — scores") -> Screen:
    """The running scores, for anyone at the table who asks."""
    return Screen(embed=scores_embed(table, state.view(None), title))


def scores_embed(table: Table, view: Mapping[str, Any], title: str) -> Embed:
    """Every hand's points and the totals, as a fixed-width table."""
    names = short_names([seat.name for seat in table.seats])
    width = max(5, *(len(n) for n in names))
    head = "Hand  " + " ".join(n.rjust(width) for n in names)
    lines = [head]
    for h in view["history"]:
        marks = "*" if h["moon"] is not None else " "
        cells = " ".join(str(p).rjust(width) for p in h["scores"])
        lines.append(f"{h['hand'] + 1:>4}{marks} {cells}")
    if not view["over"] and any(view["cards_left"]) and view["phase"] == "play":
        cells = " ".join(str(p).rjust(width) for p in view["points_this_hand"])
        lines.append(f"{'now':>4}  {cells}")
    lines.append("-" * len(head))
    cells = " ".join(str(p).rjust(width) for p in view["totals"])
    lines.append(f"{'Total':<5} {cells}")
    moons = [f"{table.seats[s].name} ×{n}" for s, n in enumerate(view["moons"]) if n]
    footer = "The lowest total wins once someone reaches 100."
    if moons:
        footer = "* shot the moon — moons: " + ", ".join(moons) + ". " + footer
    fields: tuple[Field, ...] = ()
    if names[0].startswith("#"):
        seats = ", ".join(f"{n} {seat.name}" for n, seat in zip(names, table.seats, strict=True))
        fields = (Field("Seats", seats),)
    return Embed(
        title=title,
        description="```\n" + "\n".join(lines) + "\n```",
        fields=fields,
        footer=footer,
    )


# -- the scoreboard ---------------------------------------------------------------------------
COLUMNS: tuple[Text, ...] = (
    _p("scoreboard", "Won"),
    _p("scoreboard", "Pts/round"),
    _p("scoreboard", "Moons"),
)


def average(standing: Standing) -> float | None:
    """Points a hand, over every hand played; None before the first."""
    hands = standing.extra.get("hands", 0)
    return standing.points / hands if hands else None


def standing_values(standing: Standing) -> tuple[Text, ...]:
    points = average(standing)
    return (
        Number(standing.wins),
        "—" if points is None else Number(points, 1),
        Number(int(standing.extra.get("moons", 0))),
    )


def rank_key(standing: Standing) -> tuple[Any, ...]:
    """Most wins first, then the fewest points a hand, then the most games."""
    points = average(standing)
    return (-standing.wins, float("inf") if points is None else points, -standing.games)
