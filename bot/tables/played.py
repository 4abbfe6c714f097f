"""Who really played a seat: its member, or the computer for them (no discord import).

The rule (also in the README): every decision of a member's seat — a move, a pass, a card, a
draw or a stand — is counted as the member's own or as the computer's (when the member let
their turn time out and the computer played for them). Only games with a turn time-out (Hearts,
Kabu) count: in the others the computer never plays for a member. A seat whose decisions the
computer made more than half of counts neither as a win nor as a loss for its member, nor as a
game played: no result is written for it, and the end-of-game message says so. Leaving a game
is different: it is resigning, and counts as a loss. The counts are kept with the table
(``ui["decisions"]``, per seat ``[member's, computer's]``), saved with the results.
"""

from __future__ import annotations

from typing import Any

from i18n import Message, _
from storage.models import Result, Table

KEY = "decisions"


def counts_here(controller: Any) -> bool:
    """Whether the computer may play for a member in this game (it has a turn time-out), so
    its members' decisions are counted."""
    return getattr(controller, "turn_timeout", None) is not None


def record(table: Table, seat: int, *, by_member: bool) -> None:
    """Count one decision of ``seat``: the member's own, or the computer's for them."""
    counts = table.ui.setdefault(KEY, {})
    own, computer = counts.get(str(seat), (0, 0))
    counts[str(seat)] = [own + by_member, computer + (not by_member)]


def counts(table: Table, seat: int) -> tuple[int, int]:
    """(the member's decisions, the computer's) at ``seat``."""
    own, computer = table.ui.get(KEY, {}).get(str(seat), (0, 0))
    return own, computer


def mostly_computer(table: Table, seat: int) -> bool:
    """The computer made more than half of the seat's decisions."""
    own, computer = counts(table, seat)
    return computer > own


def absent_seats(table: Table) -> list[int]:
    """The members' seats the computer played more than half of, in seat order."""
    return [
        index
        for index, seat in enumerate(table.seats)
        if seat.user_id is not None and mostly_computer(table, index)
    ]


def counted(table: Table, results: list[Result]) -> list[Result]:
    """``results`` without those of members whose every seat here was mostly the computer's
    (a member who left, and no longer holds a seat, keeps their result: leaving is a loss)."""
    absent = set(absent_seats(table))
    kept = []
    for result in results:
        seats = table.seats_of(result.user_id)
        if seats and all(seat in absent for seat in seats):
            continue
        kept.append(result)
    return kept


def notes(table: Table) -> list[Message]:
    """One line per member seat played mostly by the computer, for the end-of-game message."""
    found = []
    for seat in absent_seats(table):
        own, computer = counts(table, seat)
        found.append(
            _(
                "🤖 The computer made {count} of {total} decisions for {name}, so this game "
                "counts neither as a win nor as a loss for {name}.",
                count=computer,
                total=own + computer,
                name=table.seats[seat].name,
            )
        )
    return found
