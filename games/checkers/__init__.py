"""English draughts (checkers): bitboard engine, notation, PDN, game state and computer player.

Modules: ``bitboard`` (raw move generation), ``board`` (Board, Move, perft), ``state`` (the
game as the bot plays it), ``pdn`` (game records), ``evaluation`` and ``ai`` (the computer).

>>> from games.checkers import Board, perft
>>> perft(Board(), 4)
1469
"""

from __future__ import annotations

from games.base import Engine
from games.checkers.ai import LEVELS, choose
from games.checkers.board import (
    BLACK,
    KING_ROWS,
    RED,
    Board,
    Color,
    LegalMoves,
    Move,
    Termination,
    crowns,
    perft,
    square_coords,
)
from games.checkers.pdn import read_pdn, write_pdn
from games.checkers.state import CheckersView, State

ENGINE: Engine[State] = Engine("checkers", State, choose, LEVELS)

__all__ = [
    "BLACK",
    "ENGINE",
    "KING_ROWS",
    "LEVELS",
    "RED",
    "Board",
    "CheckersView",
    "Color",
    "LegalMoves",
    "Move",
    "State",
    "Termination",
    "choose",
    "crowns",
    "perft",
    "read_pdn",
    "square_coords",
    "write_pdn",
]
