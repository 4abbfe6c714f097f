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
from games.hearts import Phase, State
from render.hearts import render_hearts_table
from storage.models import Table

PASS_WORDS = {"left": "to the left", "right": "to the right", "across": "across"}


def names(table: Table) -> dict[int, str]:
    """The players' names by seat."""
    return {index: seat.name for index, seat in enumerate(table.seats)}


def bottom_seat(table: Table) -> int:
    """The seat drawn at the bottom: the first member's."""
    return next((i for i, seat in enumerate(table.seats) if not seat.is_ai), 0)


def board_screen(
    table: Table, state: State | None, seen: TableView[HeartsUi], again: Button
) -> Screen:
    """The board; ``again`` is the button under a finished game."""
    if state is None:  # a lobby closed by its host
        who = seen.ui.closed_by or "The host"
        return Screen(content=f"{who} closed the Hearts table.")
    view = state.view(None)
    outcome = seen.outcome
    lines = [header(view, table.options.get("rules", "classic"))]
    last = last_play(view, names(table))
    if last and outcome is None:
        lines.append(last)
    if outcome is not None:
        lines.append(f"🏆 {result_text(table, outcome)}")
    else:
        lines.extend(play_lines(table, state, seen))
    picture = draw(
        render_hearts_table,
        view,
        names(table),
        bottom=bottom_seat(table),
        lang=channel_language(table),
    )
    if outcome is not None:
        rows: tuple[Row, ...] = ((again,),)
    else:
        rows = (
            (
                Button("Your hand", "hand", Style.PRIMARY, emoji="🃏", any_version=True),
                Button("Scores", "scores", emoji="📋", any_version=True),
                Button("Leave game", asking("resign"), Style.DANGER),
            ),
        )
    return Screen(content="\n".join(lines), pictures=(picture,), rows=rows)


def header(view: Mapping[str, Any], rules: str) -> str:
    """``**Hearts** — hand 2 · pass to the right · classic rules``."""
    text = f"**Hearts** — hand {view['hand_number'] + 1}"
    if view["pass_direction"] != "hold":
        text += f" · pass {PASS_WORDS[view['pass_direction']]}"
    else:
        text += " · no passing"
    return text + f" · {'modern' if rules == 'modern' else 'classic'} rules"


def play_lines(table: Table, state: State, seen: TableView[HeartsUi]) -> list[str]:
    """Whose turn it is, the seats the computer plays for members away, and who left."""
    autoplay = set(seen.autoplay)
    lines = [turn_line(table, state, autoplay)]
    for seat in sorted(autoplay):
        if not table.seats[seat].is_ai:
            lines.append(
                f"🤖 The computer is playing for {table.seats[seat].name} until they "
                "come back (press **Your hand**)."
            )
    for left in seen.ui.left:
        lines.append(f"{left['name']} left the game; the computer plays their seat.")
    return lines


def last_play(view: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """The card just played, or the trick just taken; empty at the start of a hand."""
    if view["trick"]:
        play = view["trick"][-1]
        return f"{names[play['seat']]} played {codes_label([play['card']])}."
    last = view.get("last_trick")
    if last:
        cards = last["cards"]
        points = last["points"]
        taken = f" ({points} point{'s' if points != 1 else ''})" if points else ""
        return f"{names[last['winner']]} took the trick {codes_label(cards)}{taken}."
    return ""


def turn_line(table: Table, state: State, autoplay: set[int]) -> str:
    """Who is choosing cards to pass, or whose card it is."""
    if state.phase is Phase.PASS:
        waiting = [s for s in state.to_act() if not table.seats[s].is_ai and s not in autoplay]
        direction = PASS_WORDS[state.pass_direction.value]
        if not waiting:
            return f"The computer is choosing cards to pass {direction}…"
        who = ", ".join(f"<@{table.seats[s].user_id}>" for s in waiting)
        return f"Choosing three cards to pass {direction}: {who} — press **Your hand** to choose."
    turn = state.turn
    assert turn is not None
    seat = table.seats[turn]
    if seat.is_ai:
        return f"🤔 {seat.name} is playing…"
    if turn in autoplay:
        return f"🤔 {seat.name}'s turn: the computer plays for them…"
    return f"<@{seat.user_id}> to play — tap a card in your hand (**Your hand** opens it)."
