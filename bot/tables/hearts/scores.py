"""Hearts scores: every hand's points as a fixed-width table, and the scoreboard's columns."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from bot.tables.screens import Embed, Field, Screen
from bot.tables.seats import seat_names
from games.hearts import State
from i18n import _, _p, render, sentences
from i18n.formats import Listing, Number
from i18n.messages import Text
from storage.models import Standing, Table

_NUMBERED = re.compile(r"Computer \d")  # a computer seat's name as stored


def short_names(names: Sequence[str], width: int = 7, keep: Sequence[bool] = ()) -> list[str]:
    """Column headings for the score table: the names cut to ``width`` (a computer seat,
    ``keep``, keeps its whole name, "Computer 1"), or seat numbers when two would look alike.

    >>> short_names(["Alice", "Computer 1", "Computer 2", "Bob"], keep=[False, True, True, False])
    ['Alice', 'Computer 1', 'Computer 2', 'Bob']
    >>> short_names(["Alexander", "Alexandra", "Computer", "Bob"])
    ['#1', '#2', '#3', '#4']
    """
    kept = list(keep) + [False] * (len(names) - len(keep))
    short = [name if k else name[:width].strip() for name, k in zip(names, kept, strict=False)]
    if len(set(short)) < len(short):
        return [f"#{i + 1}" for i in range(len(names))]
    return short


def columns(text: str) -> int:
    """The columns ``text`` takes in a fixed-width font: two for a wide character (kana, kanji).

    >>> columns("Total"), columns("合計")
    (5, 4)
    """
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def pad(text: str, width: int, *, left: bool = False) -> str:
    """``text`` padded with spaces to ``width`` columns, on the right (``left``) or the left."""
    space = " " * max(0, width - columns(text))
    return text + space if left else space + text


def scores_screen(table: Table, state: State, locale: str = "en") -> Screen:
    """The running scores, for anyone at the table who asks, in their ``locale``."""
    return Screen(embed=scores_embed(table, state.view(None), _("Hearts — scores"), locale))


def scores_embed(table: Table, view: Mapping[str, Any], title: Text, lang: str) -> Embed:
    """Every round's points and the totals, as a fixed-width table, in ``lang``."""

    def say(text: Text) -> str:
        return render(text, lang)

    full = seat_names(table.seats, lang)
    names = short_names(full, keep=[bool(_NUMBERED.fullmatch(s.name)) for s in table.seats])
    round_word, now_word, total_word = say(_("Round")), say(_("now")), say(_("Total"))
    first = max(5, *(columns(w) for w in (round_word, now_word, total_word)))
    width = max(5, *(columns(n) for n in names))
    head = pad(round_word, first, left=True) + " " + " ".join(pad(n, width) for n in names)
    lines = [head]
    for h in view["history"]:
        marks = "*" if h["moon"] is not None else " "
        cells = " ".join(str(p).rjust(width) for p in h["scores"])
        lines.append(f"{h['hand'] + 1:>{first - 1}}{marks} {cells}")
    if not view["over"] and any(view["cards_left"]) and view["phase"] == "play":
        cells = " ".join(str(p).rjust(width) for p in view["points_this_hand"])
        lines.append(f"{pad(now_word, first)} {cells}")
    lines.append("-" * columns(head))
    cells = " ".join(str(p).rjust(width) for p in view["totals"])
    lines.append(f"{pad(total_word, first, left=True)} {cells}")
    moons = [f"{full[s]} ×{n}" for s, n in enumerate(view["moons"]) if n]  # a name, a count
    footer: Text = _("The lowest total wins once someone reaches 100.")
    if moons:
        footer = sentences(
            _("* shot the moon — moons: {moons}.", moons=Listing(tuple(moons))), footer
        )
    fields: tuple[Field, ...] = ()
    if names[0].startswith("#"):
        seats = Listing(tuple(f"{n} {name}" for n, name in zip(names, full, strict=True)))
        fields = (Field(say(_("Seats")), say(seats)),)
    return Embed(
        title=say(title),
        description="```\n" + "\n".join(lines) + "\n```",
        fields=fields,
        footer=say(footer),
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
