"""The Hearts lobby's message: the four seats, the table's options, and the host's selects
(the computer's level, the rules, the pace) under the shared seat lobby's buttons."""

from __future__ import annotations

from bot.tables.controller import TableView, channel_language
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
from bot.tables.seats import level_name, seat_names, timestamp
from i18n import _, _p, lines, render, sentences
from i18n.messages import Text
from storage.models import Table


def lobby_screen(lobby: SeatLobby, table: Table, view: TableView[HeartsUi]) -> Screen:
    """Who sits where, the options, and how the table starts, in the channel's language."""
    lang = channel_language(table)
    seated = seat_names(table.seats, lang)
    host = lobby.host_name(table, "")
    options = table.options
    said: list[Text] = [
        _("**Hearts** — a table for four, opened by {name}.", name=host)
        if host
        else _("**Hearts** — a table for four.")
    ]
    for index in range(lobby.max_players):
        if index >= len(table.seats):
            said.append(
                _("{number}. — empty: the computer, unless someone joins —", number=index + 1)
            )
        elif table.seats[index].user_id == table.created_by:
            said.append(_("{number}. {name} (host)", number=index + 1, name=seated[index]))
        else:
            said.append(f"{index + 1}. {seated[index]}")
    said.append(
        _(
            "Computer: **{level}** · {rules} · {delay} between computer cards",
            level=level_name(lobby.table_level(table)),
            rules=RULESET_WORDS[options.get("rules", "classic")][0],
            delay=seconds(options.get("delay", DEFAULT_DELAY)),
        )
    )
    said.append(
        sentences(
            _("Press **Join** to take a seat."),
            _(
                "{name} presses **Start** when everyone is in; the computer takes the empty seats.",
                name=host,
            )
            if host
            else _(
                "The host presses **Start** when everyone is in; the computer takes the "
                "empty seats."
            ),
            _("The table closes {when}.", when=timestamp(view.expires)) if view.expires else None,
        )
    )
    rows: tuple[Row, ...] = (lobby.lobby_buttons(table, lang), *option_selects(lobby, table, lang))
    return Screen(content=render(lines(*said), lang), rows=rows)


def option_selects(lobby: SeatLobby, table: Table, lang: str = "en") -> tuple[Select, ...]:
    """The host's three selects, each showing the table's choice, in ``lang``."""

    def say(text: Text) -> str:
        return render(text, lang)

    level = lobby.table_level(table)
    ruleset = table.options.get("rules", "classic")
    delay = float(table.options.get("delay", DEFAULT_DELAY))
    return (
        Select(
            "level",
            tuple(
                Option(
                    say(_("Computer: {level}", level=level_name(name))),
                    name,
                    default=name == level,
                )
                for name in lobby.levels
            ),
            placeholder=say(_("The computer's level")),
        ),
        Select(
            "rules",
            tuple(
                Option(
                    say(RULESET_WORDS[name][0]),
                    name,
                    say(RULESET_WORDS[name][1]),
                    default=name == ruleset,
                )
                for name in RULESETS
            ),
            placeholder=say(_p("hearts", "Rules")),
        ),
        Select(
            "delay",
            tuple(
                Option(
                    say(_("{delay} between computer cards", delay=seconds(d))),
                    f"{d:g}",
                    default=d == delay,
                )
                for d in sorted({*DELAY_CHOICES, delay})
            ),
            placeholder=say(_("Delay between computer cards")),
        ),
    )
