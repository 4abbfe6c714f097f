"""Playing a daily puzzle: the game behind an attempt, a move and the computer's answer.

An attempt's ``state`` holds only the moves played (``{"moves": [...]}``, plus ``hints`` for
Quatorze); the game is rebuilt from the day's puzzle and those moves, so a stored attempt is
re-checked on every click and resumes exactly after a restart.

- Quarters: the first move must be the only winning one; then every move must keep the win
  against the perfect computer. A move that gives the win away ends the attempt.
- Checkers: every move must keep the win in the endgame database; the computer defends as
  long as it can. A move that lets the win slip ends the attempt.
- Quatorze: take pairs until the grid is cleared (solved) or no pair is left (failed); a hint
  shows a pair the stock-knowing solver still clears the deal with.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from games.base import IllegalAction
from games.checkers import egdb
from games.checkers.board import Board, Move
from games.checkers.state import State as CheckersState
from games.daily import CHECKERS, QUARTERS, QUATORZE, Puzzles
from games.daily.checkers import database, defence, scored_moves
from games.quarters.ai import choose as quarters_choice
from games.quarters.state import State as QuartersState
from games.quarters.strategy import is_winning
from games.quatorze.solver import moves as solver_moves
from games.quatorze.solver import solve
from games.quatorze.state import State as QuatorzeState
from games.quatorze.state import format_move as quatorze_move
from i18n import Message, _, message_of
from storage.daily import Attempt, AttemptStatus

HINT = "hint"
GIVE_UP = "give-up"


@dataclass(frozen=True, slots=True)
class Played:
    """What a move did: the player's note (why it ended, or the computer's answer)."""

    note: Message | None = None


def initial_state() -> dict[str, Any]:
    return {"moves": [], "hints": 0}


# -- Quarters --------------------------------------------------------------------------------
def quarters_game(puzzles: Puzzles, attempt: Attempt) -> QuartersState:
    state = QuartersState.new(puzzles.quarters.piles)
    for i, move in enumerate(attempt.state["moves"]):
        state.apply(i % 2, move)
    return state


def _play_quarters(puzzles: Puzzles, attempt: Attempt, action: str) -> Played:
    state = quarters_game(puzzles, attempt)
    state.apply(0, action)
    attempt.state["moves"].append(action)
    attempt.moves += 1
    if state.is_over():
        outcome = state.outcome()
        won = outcome is not None and outcome.winners == (0,)
        attempt.status = AttemptStatus.SOLVED if won else AttemptStatus.FAILED
        return Played()
    if is_winning(state.piles):  # the computer to move can win: the puzzle is lost
        attempt.status = AttemptStatus.FAILED
        return Played(_("That move lets the computer win: the puzzle is over."))
    reply = quarters_choice(state, 1, "perfect")
    state.apply(1, reply)
    attempt.state["moves"].append(reply)
    if state.is_over():
        attempt.status = AttemptStatus.SOLVED
    return Played(_("The computer took {move}.", move=reply))


# -- Checkers --------------------------------------------------------------------------------
def checkers_game(puzzles: Puzzles, attempt: Attempt) -> CheckersState:
    state = CheckersState.new(puzzles.checkers.fen)
    for i, move in enumerate(attempt.state["moves"]):
        state.apply(i % 2, move)
    return state


def _play_checkers(puzzles: Puzzles, attempt: Attempt, action: str) -> Played:
    state = checkers_game(puzzles, attempt)
    state.apply(0, action)
    board = Board.from_fen(state.view(None)["fen"])
    attempt.state["moves"].append(state.view(None)["moves"][-1])
    attempt.moves += 1
    if state.is_over():
        attempt.status = AttemptStatus.SOLVED
        return Played()
    db = database()
    me, opp, kings, black = board._raw()
    if any(result != egdb.LOSS for _m, result, _d in scored_moves(db, me, opp, kings, black)):
        attempt.status = AttemptStatus.FAILED
        return Played(_("That move lets the win slip away: the puzzle is over."))
    reply = str(Move.from_raw(defence(db, me, opp, kings, black)))
    state.apply(1, reply)
    attempt.state["moves"].append(state.view(None)["moves"][-1])
    if state.is_over():  # the defender's move cannot end a won game, but check anyway
        attempt.status = AttemptStatus.FAILED
    return Played(_("The computer played {move}.", move=reply))


# -- Quatorze --------------------------------------------------------------------------------
def quatorze_game(puzzles: Puzzles, attempt: Attempt) -> QuatorzeState:
    state = QuatorzeState.from_deck(list(puzzles.quatorze.deck))
    for move in attempt.state["moves"]:
        state.apply(0, move)
    return state


def quatorze_hint(state: QuatorzeState) -> str | None:
    """A pair (as a move) after which the stock-knowing solver still clears the grid, or the
    first legal pair when no clearing line is left."""
    values = state.values()
    stock = [int(c.rank) for c in state.stock]
    for a, b in solver_moves(values, len(stock)):
        trial = QuatorzeState.from_deck(list(state.deck))
        for move in state.moves:
            trial.apply(0, move)
        trial.apply(0, quatorze_move(a, b))
        rest = [int(c.rank) for c in trial.stock]
        if trial.is_over() or solve(trial.values(), rest).won:
            return quatorze_move(a, b)
    legal = [m for m in state.legal_actions(0) if m != GIVE_UP]
    return legal[0] if legal else None


def _play_quatorze(puzzles: Puzzles, attempt: Attempt, action: str) -> Played:
    state = quatorze_game(puzzles, attempt)
    if action == HINT:
        hint = quatorze_hint(state)
        attempt.hints += 1
        attempt.state["hints"] = attempt.hints
        if hint is None:
            return Played(_("No pair is left."))
        first, second = hint.split("-")
        return Played(_("Try cells {first} and {second}.", first=first, second=second))
    state.apply(0, action)
    attempt.state["moves"].append(action)
    attempt.moves += 0 if action == GIVE_UP else 1
    attempt.score = state.score // 2
    if state.is_over():
        attempt.status = AttemptStatus.SOLVED if state.view(0)["won"] else AttemptStatus.FAILED
    return Played()


_PLAYERS = {QUARTERS: _play_quarters, CHECKERS: _play_checkers, QUATORZE: _play_quatorze}


class Refused(Exception):
    """A move the puzzle does not take; ``message`` says why, in the player's words."""

    def __init__(self, message: Message) -> None:
        super().__init__(str(message))
        self.message = message


def play(puzzles: Puzzles, attempt: Attempt, action: str) -> Played:
    """Apply the player's ``action`` (and the computer's answer) to ``attempt`` in memory;
    raises :class:`Refused` and leaves the attempt as it was when the move is not allowed."""
    if attempt.over:
        raise Refused(_("You have already played this puzzle today."))
    saved = (copy.deepcopy(attempt.state), attempt.moves, attempt.hints, attempt.score)
    try:
        return _PLAYERS[attempt.puzzle](puzzles, attempt, action)
    except IllegalAction as exc:
        attempt.state, attempt.moves, attempt.hints, attempt.score = saved
        attempt.status = AttemptStatus.PLAYING
        raise Refused(message_of(exc.phrase)) from exc
