"""The Hearts lobby's message: the four seats, the table's options, and the host's selects
(the computer's level, the rules, the pace) under the shared seat lobby's buttons."""

from __future__ import annotations

from bot.tables.controller import TableView
from bot.tables.hearts.options import (
    DEFAULT_DELAY,
    DELAY_CHOICES,
    RULESET_WORDS,
    RULESETS,
    HeartsUi,
    seconds,
)
from bot.tables.lobby import SeatLobby
from bot.tables.screens import Option, Row, Screen, Select
from storage.models import Table

CLASSIC_WORDS = "Right of the dealer leads; points allowed on the first trick"


def lobby_screen(lobby: SeatLobby, table: Table, view: TableView[HeartsUi]) -> Screen:
    """Who sits where, the options, and how the table starts."""
    host = lobby.host_name(table, "the host")
    options = table.options
    lines = [f"**Hearts** — a table for four, opened by {host}."]
    for index in range(lobby.max_players):
        if index < len(table.seats):
            seat = table.seats[index]
            mark = " (host)" if seat.user_id == table.created_by else ""
            lines.append(f"{index + 1}. {seat.name}{mark}")
        else:
            lines.append(f"{index + 1}. — empty: the computer, unless someone joins —")
    lines.append(
        f"Computer: **{lobby.table_level(table)}** · "
        f"{RULESET_WORDS[options.get('rules', 'classic')]} · "
        f"{seconds(options.get('delay', DEFAULT_DELAY))} between computer cards"
    )
    closes = f" The table closes <t:{int(view.expires)}:R>." if view.expires else ""
    lines.append(
        f"Press **Join** to take a seat. {host} presses **Start** when everyone is in; "
        f"the computer takes the empty seats.{closes}"
    )
    rows: tuple[Row, ...] = (lobby.lobby_buttons(table), *option_selects(lobby, table))
    return Screen(content="\n".join(lines), rows=rows)


def option_selects(lobby: SeatLobby, table: Table) -> tuple[Select, ...]:
    """The host's three selects, each showing the table's choice."""
    level = lobby.table_level(table)
    ruleset = table.options.get("rules", "classic")
    delay = float(table.options.get("delay", DEFAULT_DELAY))
    return (
        Select(
            "level",
            tuple(
                Option(f"Computer: {name}", name, default=name == level) for name in lobby.levels
            ),
            placeholder="The computer's level",
        ),
        Select(
            "rules",
            tuple(
                Option(
                    name.title(),
                    name,
                    RULESET_WORDS[name].partition("(")[2].rstrip(")") or CLASSIC_WORDS,
                    default=name == ruleset,
                )
                for name in RULESETS
            ),
            placeholder="Rules",
        ),
        Select(
            "delay",
            tuple(
                Option(f"{seconds(d)} between computer cards", f"{d:g}", default=d == delay)
                for d in sorted({*DELAY_CHOICES, delay})
            ),
            placeholder="Delay between computer cards",
        ),
    )
