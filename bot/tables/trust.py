"""Where a click came from, and what it may do there (no discord import).

A member's client can send any custom_id against any message it can see, so the service checks,
besides the member and the turn:

- the table belongs to the channel the click came from;
- a control of a private message (a hand, a hint: its answer replaces that message) acts only
  when the clicked message is private, and a private message's controls do nothing else that
  changes the table;
- a board control acts only on the table's current board message, and anything that changes
  the table carries the board version it was drawn for (``*`` is for controls that only show
  something, such as the scores or a member's hand).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.tables.controller import Intent
from games.base import N_, IllegalAction
from i18n import _p
from storage import Table

NOT_HERE = N_("This game is played in another channel; its controls work only there.")
NOT_THE_BOARD = N_(
    "This board is out of date (or not this game's board): the current board is the latest "
    "message of this game."
)
PRIVATE_ONLY = N_(
    "That control works only on your private message (press **{button}** for one).",
    button=_p("button", "Your hand"),
)
BOARD_ONLY = N_("That control works only on the game's board.")
OUT_OF_DATE = N_(
    "This board is out of date: the game has moved on. The current board is "
    "the latest message of this game."
)


@dataclass(frozen=True, slots=True)
class Origin:
    """The message a control was clicked on: its id, and whether it is private (ephemeral)."""

    message_id: int | None
    private: bool = False


def check_place(table: Table, channel_id: int, origin: Origin | None) -> None:
    """Before acting: the click came from the table's channel and, on a public message, from
    its current board. ``origin`` None: a slash command, which has no message."""
    if table.channel_id != channel_id:
        raise IllegalAction(NOT_HERE)
    if origin is None or origin.private:
        return
    board = table.board_message_id
    if board is not None and origin.message_id != board:
        raise IllegalAction(NOT_THE_BOARD)


def check_intent(origin: Origin | None, version: int | None, intent: Intent) -> None:
    """After the controller decided, before anything is saved or shown: the answer fits the
    message that was clicked."""
    if origin is None:
        return
    if origin.private:
        if intent.saves and not intent.update_private:
            raise IllegalAction(BOARD_ONLY)
        return
    if intent.update_private:
        raise IllegalAction(PRIVATE_ONLY)
    if version is None and intent.saves:  # ``*`` on the board: it may show, not change
        raise IllegalAction(OUT_OF_DATE)
