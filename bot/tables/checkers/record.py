"""A checkers game's record: the PDN file (the Game record button, ``/checkers record``, and
the announcement at the end), and the animated replay of a finished game (its replay hook)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from bot.tables.screens import FileData, Screen
from bot.tables.seats import seat_name
from games.base import Outcome
from games.checkers import State, write_pdn
from i18n import Message, _n, _p, render
from render.animation import Animation
from render.replay import replay_checkers
from storage.models import Table

COLOR_WORDS = (_p("checkers colour", "Black"), _p("checkers colour", "Red"))


def result_code(outcome: Outcome | None) -> str:
    """The PDN result of an outcome: ``1-0`` (Black won), ``0-1``, ``1/2-1/2`` or ``*``."""
    if outcome is None:
        return "*"
    if outcome.is_draw:
        return "1/2-1/2"
    return "1-0" if outcome.winners == (0,) else "0-1"


def table_outcome(table: Table, state: State) -> Outcome | None:
    """The game's end: the one stored on the table (the engine's, or a resignation or a
    claim), else the engine's."""
    if table.outcome is not None:
        return Outcome.from_dict(table.outcome)
    return state.outcome()


def pdn(table: Table, state: State, outcome: Outcome | None = None) -> str:
    """The game's PDN text, with the members' names and the table's date."""
    date = dt.datetime.fromtimestamp(table.created_at, dt.UTC).strftime("%Y.%m.%d")
    return write_pdn(
        state,
        black=table.seats[0].name,
        white=table.seats[1].name,
        date=date,
        result=result_code(outcome if outcome is not None else state.outcome()),
    )


def record_file(table: Table, state: State, outcome: Outcome | None) -> FileData:
    return FileData(f"checkers-{table.id}.pdn", pdn(table, state, outcome).encode())


def record_words(table: Table, state: State, outcome: Outcome | None) -> Message:
    """The game record in a sentence: the players, the moves, who won, a draw, or still being
    played."""
    black, red = (seat_name(seat) for seat in table.seats)
    moves = len(state.board.move_stack)
    if outcome is None:
        return _n(
            "📜 Game record: {black} (Black) vs {red} (Red), {n} move, still being played.",
            "📜 Game record: {black} (Black) vs {red} (Red), {n} moves, still being played.",
            moves,
            black=black,
            red=red,
        )
    if outcome.is_draw:
        return _n(
            "📜 Game record: {black} (Black) vs {red} (Red), {n} move, a draw.",
            "📜 Game record: {black} (Black) vs {red} (Red), {n} moves, a draw.",
            moves,
            black=black,
            red=red,
        )
    winner = outcome.winners[0]
    return _n(
        "📜 Game record: {black} (Black) vs {red} (Red), {n} move, {winner} ({colour}) won.",
        "📜 Game record: {black} (Black) vs {red} (Red), {n} moves, {winner} ({colour}) won.",
        moves,
        black=black,
        red=red,
        winner=seat_name(table.seats[winner]),
        colour=COLOR_WORDS[winner],
    )


def record_screen(table: Table, state: State, locale: str = "en") -> Screen:
    """The game record so far (or of the finished game) as a PDN file, in ``locale``."""
    outcome = table_outcome(table, state)
    content = render(record_words(table, state, outcome), locale)
    return Screen(content=content, files=(record_file(table, state, outcome),))


def replay(
    state: Mapping[str, Any],
    names: Sequence[str],
    outcome: Mapping[str, Any] | None,
    lang: str = "en",
) -> Animation:
    """The replay hook: every position of a finished game, from its stored state, its words
    in the language ``lang``."""
    return replay_checkers(
        state["moves"], state.get("fen"), names=names, outcome=outcome, lang=lang
    )
