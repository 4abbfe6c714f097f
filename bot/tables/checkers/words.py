"""Checkers at a table in words: the moves just played, a standing draw offer and the result,
as messages the board renders in the channel's language."""

from __future__ import annotations

from typing import Any

from bot.tables.checkers.record import COLOR_WORDS
from games.base import Outcome
from i18n import Message, _, _n
from i18n.messages import Text

DRAWS = {
    "repetition": _("**The game is drawn** — the same position came up a third time."),
    "forty-moves": _("**The game is drawn** — 40 moves each without a capture or a man moved."),
    "agreement": _("**The game is drawn** — agreed by both players."),
}


def won(outcome: Outcome, winner: Text, loser: Text) -> Message:
    """The result of a game someone won, by how it ended."""
    colour = COLOR_WORDS[outcome.winners[0]]
    match outcome.termination:
        case "no-moves":
            return _(
                "**{winner} wins** ({colour}) — {loser} cannot move.",
                winner=winner,
                colour=colour,
                loser=loser,
            )
        case "resign":
            return _(
                "**{winner} wins** ({colour}) — {loser} resigned.",
                winner=winner,
                colour=colour,
                loser=loser,
            )
        case "timeout":
            return _(
                "**{winner} wins** ({colour}) — {loser} stopped moving.",
                winner=winner,
                colour=colour,
                loser=loser,
            )
    return _(
        "**{winner} wins** ({colour}) — {loser} lost.", winner=winner, colour=colour, loser=loser
    )


def take_back(board: Any) -> tuple[Any, bool]:
    """The board's last move, taken back, and whether it crowned its piece."""
    after = board.copy()
    move = board.pop()
    crowned = (board.piece_at(move.start) or "").islower() and (
        after.piece_at(move.end) or ""
    ).isupper()
    return move, crowned


def move_words(name: str, move: Any, crowned: bool, *, replied: bool) -> Message:
    """``"Alice played **11-15**, capturing 1 piece."``; ``replied``: the computer's answer."""
    n, move_text = len(move.captured), str(move)
    if replied:
        if n and crowned:
            return _n(
                "{name} replied **{move}**, capturing {n} piece, and was crowned.",
                "{name} replied **{move}**, capturing {n} pieces, and was crowned.",
                n,
                name=name,
                move=move_text,
            )
        if n:
            return _n(
                "{name} replied **{move}**, capturing {n} piece.",
                "{name} replied **{move}**, capturing {n} pieces.",
                n,
                name=name,
                move=move_text,
            )
        if crowned:
            return _("{name} replied **{move}** and was crowned.", name=name, move=move_text)
        return _("{name} replied **{move}**.", name=name, move=move_text)
    if n and crowned:
        return _n(
            "{name} played **{move}**, capturing {n} piece, and was crowned.",
            "{name} played **{move}**, capturing {n} pieces, and was crowned.",
            n,
            name=name,
            move=move_text,
        )
    if n:
        return _n(
            "{name} played **{move}**, capturing {n} piece.",
            "{name} played **{move}**, capturing {n} pieces.",
            n,
            name=name,
            move=move_text,
        )
    if crowned:
        return _("{name} played **{move}** and was crowned.", name=name, move=move_text)
    return _("{name} played **{move}**.", name=name, move=move_text)


def offer_line(names: list[str], offer: int | None, seat: int) -> Message | None:
    """The draw offer standing, if any: the offerer waits, or the other may answer now."""
    if offer is None:
        return None
    if offer == seat:
        return _(
            "🤝 {name} offers a draw; {other} may accept it on their turn.",
            name=names[offer],
            other=names[1 - offer],
        )
    return _(
        "🤝 {name} offers a draw: accept, decline, or play a move (moving on declines).",
        name=names[offer],
    )
