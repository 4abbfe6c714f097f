"""The public Hearts table: the header, the last card played, whose turn it is, the picture
seen from above (no hand in it), and the buttons every player uses."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.drawing import draw
from bot.tables.cards import codes_label
from bot.tables.confirm import asking
from bot.tables.controller import TableView, channel_language
from bot.tables.hearts.leaving import result_text
from bot.tables.hearts.options import HeartsUi
from bot.tables.screens import Button, Row, Screen, Style
from bot.tables.seats import mention, seat_names
from games.hearts import Phase, State
from i18n import Message, _, _n, _p, lines, render
from i18n.formats import Listing
from i18n.messages import Text
from render.hearts import render_hearts_table
from storage.models import Table


def names(table: Table, lang: str = "en") -> dict[int, str]:
    """The players' names by seat, in ``lang`` (a computer seat's)."""
    return dict(enumerate(seat_names(table.seats, lang)))


def bottom_seat(table: Table) -> int:
    """The seat drawn at the bottom: the first member's."""
    return next((i for i, seat in enumerate(table.seats) if not seat.is_ai), 0)


def board_screen(
    table: Table, state: State | None, seen: TableView[HeartsUi], again: Button
) -> Screen:
    """The board in the channel's language; ``again`` is the button under a finished game."""
    lang = channel_language(table)
    if state is None:  # a lobby closed by its host
        closed = (
            _("{name} closed the Hearts table.", name=seen.ui.closed_by)
            if seen.ui.closed_by
            else _("The host closed the Hearts table.")
        )
        return Screen(content=render(closed, lang))
    view = state.view(None)
    outcome = seen.outcome
    seated = names(table, lang)
    said: list[Text | None] = [header(view, table.options.get("rules", "classic"))]
    if outcome is None:
        said.append(last_play(view, seated))
        said.extend(play_lines(table, state, seen, seated))
    else:
        said.append(f"🏆 {render(result_text(table, outcome), lang)}")
    picture = draw(render_hearts_table, view, seated, bottom=bottom_seat(table), lang=lang)
    if outcome is not None:
        rows: tuple[Row, ...] = ((again,),)
    else:

        def say(text: Text) -> str:
            return render(text, lang)

        rows = (
            (
                Button(
                    say(_p("button", "Your hand")),
                    "hand",
                    Style.PRIMARY,
                    emoji="🃏",
                    any_version=True,
                ),
                Button(say(_p("button", "Scores")), "scores", emoji="📋", any_version=True),
                Button(say(_p("button", "Leave game")), asking("resign"), Style.DANGER),
            ),
        )
    return Screen(content=render(lines(*said), lang), pictures=(picture,), rows=rows)


def header(view: Mapping[str, Any], rules: str) -> Message:
    """``**Hearts** — round 2 · pass to the right · classic rules``: phrases a dot apart."""
    passing = PASSING.get(view["pass_direction"], PASSING["hold"])
    ruleset = _("modern rules") if rules == "modern" else _("classic rules")
    return _(
        "**Hearts** — round {number} · {passing} · {rules}",
        number=view["hand_number"] + 1,
        passing=passing,
        rules=ruleset,
    )


def play_lines(
    table: Table, state: State, seen: TableView[HeartsUi], seated: Mapping[int, str]
) -> list[Message]:
    """Whose turn it is, the seats the computer plays for members away, and who left."""
    autoplay = set(seen.autoplay)
    found = [turn_line(table, state, autoplay, seated)]
    for seat in sorted(autoplay):
        if not table.seats[seat].is_ai:
            found.append(
                _(
                    "🤖 The computer is playing for {name} until they come back (press "
                    "**Your hand**).",
                    name=seated[seat],
                )
            )
    for left in seen.ui.left:
        found.append(_("{name} left the game; the computer plays their seat.", name=left["name"]))
    return found


def last_play(view: Mapping[str, Any], names: Mapping[int, str]) -> Message | None:
    """The card just played, or the trick just taken; None at the start of a round."""
    if view["trick"]:
        play = view["trick"][-1]
        return _(
            "{name} played {card}.", name=names[play["seat"]], card=codes_label([play["card"]])
        )
    last = view.get("last_trick")
    if not last:
        return None
    said = {"name": names[last["winner"]], "cards": codes_label(last["cards"])}
    if last["points"]:
        return _n(
            "{name} took the trick {cards} ({n} point).",
            "{name} took the trick {cards} ({n} points).",
            last["points"],
            **said,
        )
    return _("{name} took the trick {cards}.", **said)


def turn_line(table: Table, state: State, autoplay: set[int], seated: Mapping[int, str]) -> Message:
    """Who is choosing cards to pass, or whose card it is."""
    if state.phase is Phase.PASS:
        waiting = [s for s in state.to_act() if not table.seats[s].is_ai and s not in autoplay]
        direction = PASS_WORDS[state.pass_direction.value]
        if not waiting:
            return _("The computer is choosing cards to pass {direction}…", direction=direction)
        who = Listing(tuple(f"<@{table.seats[s].user_id}>" for s in waiting))
        return _(
            "Choosing three cards to pass {direction}: {mentions} — press **Your hand** to choose.",
            direction=direction,
            mentions=who,
        )
    turn = state.turn
    assert turn is not None
    seat = table.seats[turn]
    if seat.is_ai:
        return _("🤔 {name} is playing…", name=seated[turn])
    if turn in autoplay:
        return _("🤔 {name}'s turn: the computer plays for them…", name=seated[turn])
    return _(
        "{mention} to play — tap a card in your hand (**Your hand** opens it).",
        mention=mention(seat),
    )


# The round's passing, as a phrase of the board's first line.
PASSING = {
    "left": _("pass to the left"),
    "right": _("pass to the right"),
    "across": _("pass across"),
    "hold": _("no passing"),
}
# The directions of passing, inside sentences ("… to pass {direction}").
PASS_WORDS = {
    "left": _p("hearts pass", "to the left"),
    "right": _p("hearts pass", "to the right"),
    "across": _p("hearts pass", "across"),
}
