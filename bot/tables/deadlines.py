"""The deadlines a board shows, as Discord timestamps (``<t:UNIX:R>``): every client shows
them in its own time zone and counts them down ("in 9 minutes")."""

from __future__ import annotations

from typing import Any

from bot.tables.controller import TableView, channel_language
from bot.tables.seats import seat_name
from games.base import GameState
from i18n import Message, _, render
from i18n.formats import Listing
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
    the last move). None when no deadline applies. In the channel's language."""
    said = _deadline(table, state, view, claim_seconds)
    return None if said is None else f"⏳ {render(said, channel_language(table))}"


def _deadline(
    table: Table, state: GameState | None, view: TableView[Any], claim_seconds: float | None
) -> Message | None:
    if table.status is TableStatus.CHALLENGE:
        if view.expires:
            return _("This invitation lapses {when}.", when=stamp(view.expires))
        return None
    if table.status is not TableStatus.ACTIVE or state is None or view.outcome is not None:
        return None
    waiting = [s for s in state.to_act() if not table.seats[s].is_ai and s not in view.autoplay]
    if not waiting:
        return None
    names = Listing(tuple(seat_name(table.seats[s]) for s in waiting))
    if view.turn_deadline is not None:
        when = stamp(view.turn_deadline)
        return _(
            "The computer plays for {names} {when} unless they act first.", names=names, when=when
        )
    members = [s for s in table.seats if not s.is_ai]
    if claim_seconds is not None and len(table.seats) == 2 and len(members) == 2:
        (mover,) = waiting
        other = table.seats[1 - mover].name
        when = stamp(table.last_move_at + claim_seconds)
        return _(
            "If {name} has not moved {when}, {other} may claim the win (`/game claim`).",
            name=table.seats[mover].name,
            when=when,
            other=other,
        )
    return None
