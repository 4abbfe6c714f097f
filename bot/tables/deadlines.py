"""The deadlines a board shows, as Discord timestamps (``<t:UNIX:R>``): every client shows
them in its own time zone and counts them down ("in 9 minutes")."""

from __future__ import annotations

from typing import Any

from bot.tables.controller import TableView
from games.base import GameState
from storage import Table, TableStatus


def stamp(moment: float) -> str:
    """``<t:1764625200:R>``: a moment as a relative Discord timestamp."""
    return f"<t:{int(moment)}:R>"


def deadline_line(
    table: Table, state: GameState | None, view: TableView[Any], *, claim_seconds: float | None
) -> str | None:
    """The board's line about what happens when: a lobby or challenge lapsing
    (``view.expires``), the computer taking over a member's turn (``view.turn_deadline``), or
    the waiting player of a two-member game becoming able to claim it (``claim_seconds`` after
    the last move). None when no deadline applies."""
    if table.status is TableStatus.CHALLENGE:
        return f"⏳ This invitation lapses {stamp(view.expires)}." if view.expires else None
    if table.status is not TableStatus.ACTIVE or state is None or view.outcome is not None:
        return None
    waiting = [s for s in state.to_act() if not table.seats[s].is_ai and s not in view.autoplay]
    if not waiting:
        return None
    names = " and ".join(table.seats[s].name for s in waiting)
    if view.turn_deadline is not None:
        when = stamp(view.turn_deadline)
        return f"⏳ The computer plays for {names} {when} unless they act first."
    members = [s for s in table.seats if not s.is_ai]
    if claim_seconds is not None and len(table.seats) == 2 and len(members) == 2:
        (mover,) = waiting
        other = table.seats[1 - mover].name
        when = stamp(table.last_move_at + claim_seconds)
        return f"⏳ If {names} has not moved {when}, {other} may claim the win (`/game claim`)."
    return None
