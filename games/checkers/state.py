"""The checkers game as the bot plays it: seats, actions, draw offers, JSON and views.

Seat 0 is Black (moves first), seat 1 is Red. Actions are moves in long standard notation
(``11-15``, ``9x18x27``) plus ``offer-draw``, ``accept-draw`` and ``decline-draw``.

>>> state = State.new()
>>> state.to_act()
(0,)
>>> state.apply(0, "11 15")
>>> state.view(None)["moves"]
['11-15']
"""

from __future__ import annotations

from typing import Any, TypedDict

from games.base import N_, IllegalAction, Outcome, OutcomeDict
from games.checkers.board import Board, Color, Move, Termination

SCHEMA = 1
OFFER_DRAW = "offer-draw"
ACCEPT_DRAW = "accept-draw"
DECLINE_DRAW = "decline-draw"


# :func:`move_view`: a move as plain JSON (the functional form, as ``from`` is a keyword): its
# first and last squares, the squares it lands on after the first, the squares it captures.
MoveView = TypedDict(
    "MoveView", {"from": int, "to": int, "path": list[int], "captured": list[int], "notation": str}
)


class CheckersView(TypedDict):
    """:meth:`State.view`: checkers hides nothing, so every seat and spectator sees this."""

    game: str  # "checkers"
    seat: int | None  # whose view (None: the channel's)
    squares: list[str | None]  # squares 1-32: "b", "B" (Black's man, king), "r", "R", or None
    turn: int  # 0 Black, 1 Red
    turn_name: str  # "Black" or "Red"
    last_move: MoveView | None
    legal_moves: list[str]  # empty once over
    moves: list[str]  # every move so far, in notation
    fen: str
    start_fen: str | None  # a game set up from a position: that position (else None)
    halfmove_clock: int  # plies since the last capture or man move
    outcome: OutcomeDict | None
    draw_offer: int | None  # the seat whose draw offer stands


def move_view(move: Move) -> MoveView:
    """A move as plain JSON: from, to, the landing path, captured squares and notation."""
    return {
        "from": move.start,
        "to": move.end,
        "path": list(move.path),
        "captured": list(move.captured),
        "notation": str(move),
    }


class State:
    """A game of checkers between seat 0 (Black) and seat 1 (Red)."""

    seats = 2

    def __init__(self, board: Board, start_fen: str | None) -> None:
        self._board = board
        self._start_fen = start_fen
        self._draw_offer: int | None = None  # the seat whose offer stands
        self._declined: int | None = None  # the seat whose offer the last action declined
        self._agreed = False

    @classmethod
    def new(cls, fen: str | None = None) -> State:
        """A new game from the start position, or from a PDN FEN position."""
        board = Board() if fen is None else Board.from_fen(fen)
        return cls(board, None if fen is None else board.fen())

    # -- JSON --------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "fen": self._start_fen,
            "moves": [str(m) for m in self._board.move_stack],
            "draw_offer": self._draw_offer,
            "agreed": self._agreed,
        } | ({} if self._declined is None else {"declined": self._declined})

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> State:
        if data.get("schema") != SCHEMA:
            raise ValueError(f"unknown checkers schema {data.get('schema')!r}")
        state = cls.new(data.get("fen"))
        for text in data["moves"]:
            state._board.push_text(text)
        state._draw_offer = data.get("draw_offer")
        state._agreed = bool(data.get("agreed", False))
        state._declined = data.get("declined")
        return state

    def copy(self) -> State:
        other = State(self._board.copy(), self._start_fen)
        other._draw_offer, other._agreed = self._draw_offer, self._agreed
        other._declined = self._declined
        return other

    # -- reading -----------------------------------------------------------------------------
    @property
    def board(self) -> Board:
        """A copy of the board (changing it does not change the game)."""
        return self._board.copy()

    @property
    def start_fen(self) -> str | None:
        return self._start_fen

    @property
    def draw_offer(self) -> int | None:
        return self._draw_offer

    @property
    def declined(self) -> int | None:
        """The seat whose draw offer the last action declined (a Decline, or a move)."""
        return self._declined

    def to_act(self) -> tuple[int, ...]:
        return () if self.is_over() else (int(self._board.turn),)

    def legal_actions(self, seat: int) -> list[str]:
        if seat not in self.to_act():
            return []
        actions = [str(m) for m in self._board.legal_moves]
        if self._draw_offer is None:
            actions.append(OFFER_DRAW)
        elif self._draw_offer != seat:
            actions += [ACCEPT_DRAW, DECLINE_DRAW]
        return actions

    def is_over(self) -> bool:
        return self.outcome() is not None

    def outcome(self) -> Outcome | None:
        if self._agreed:
            return Outcome((), Termination.AGREEMENT)
        return self._board.outcome()

    # -- acting ------------------------------------------------------------------------------
    def apply(self, seat: int, action: str) -> None:
        """Play ``action`` for ``seat``: a move (any form ``parse_move`` takes) or a draw action."""
        if self.is_over():
            raise IllegalAction(N_("The game is over."))
        if seat != self._board.turn:
            raise IllegalAction(
                N_("It is Black's turn.") if seat == Color.RED else N_("It is Red's turn.")
            )
        declined = None
        if action == OFFER_DRAW:
            if self._draw_offer is not None:
                raise IllegalAction(N_("A draw offer is already on the table."))
            self._draw_offer = seat
        elif action in (ACCEPT_DRAW, DECLINE_DRAW):
            if self._draw_offer is None or self._draw_offer == seat:
                raise IllegalAction(N_("There is no draw offer from your opponent."))
            declined = None if action == ACCEPT_DRAW else self._draw_offer
            self._draw_offer = None
            self._agreed = action == ACCEPT_DRAW
        else:
            move = self._board.parse_move(action)
            self._board.push(move)
            if self._draw_offer is not None and self._draw_offer != seat:
                declined = self._draw_offer
                self._draw_offer = None  # moving on declines the opponent's offer
        self._declined = declined

    # -- views -------------------------------------------------------------------------------
    def view(self, seat: int | None = None) -> CheckersView:
        """Everything a seat or a spectator sees (checkers hides nothing)."""
        board = self._board
        stack = board.move_stack
        outcome = self.outcome()
        return {
            "game": "checkers",
            "seat": seat,
            "squares": [board.piece_at(sq) for sq in range(1, 33)],
            "turn": int(board.turn),
            "turn_name": board.turn.name.title(),
            "last_move": move_view(stack[-1]) if stack else None,
            "legal_moves": [] if outcome else [str(m) for m in board.legal_moves],
            "moves": [str(m) for m in stack],
            "fen": board.fen(),
            "start_fen": self._start_fen,
            "halfmove_clock": board.halfmove_clock,
            "outcome": outcome.to_dict() if outcome else None,
            "draw_offer": self._draw_offer,
        }
