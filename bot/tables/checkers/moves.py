"""Choosing a checkers move: the menus of legal moves (one menu, or a piece and then its moves
when there are more than 25), and the moves that fit what a member has typed so far."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.tables.controller import UiState
from bot.tables.screens import Option, Row, Select
from games import checkers
from games.checkers import Board, Move, State
from i18n import Message, _, _n, render
from i18n.messages import Text

MAX_OPTIONS = 25


@dataclass(slots=True)
class CheckersUi(UiState):
    """The piece chosen in the first of two menus, and the ply it was chosen at."""

    piece: int | None = None
    ply: int | None = None


def matching_moves(legal: list[str], typed: str) -> list[str]:
    """The legal moves that fit what a member has typed so far (``11``, ``11 1``, ``9x27``).

    >>> matching_moves(["9-13", "9-14", "10-14", "11-15"], "9 1")
    ['9-13', '9-14']
    """
    tokens = re.findall(r"[0-9]+", typed)  # ASCII digits only, as everywhere
    if not tokens:
        return list(legal)
    partial = not re.search(r"[\s\-xX]$", typed)  # the last number may still be growing
    found = []
    for move in legal:
        squares = [int(s) for s in re.split(r"[-x]", move)]
        if _fits(tokens, partial, squares):
            found.append(move)
    return found


def _fits(tokens: list[str], partial: bool, squares: list[int]) -> bool:
    def same(token: str, square: int, last: bool) -> bool:
        return str(square).startswith(token) if last and partial else int(token) == square

    if not same(tokens[0], squares[0], len(tokens) == 1):
        return False
    rest = iter(squares[1:])
    return all(
        any(same(token, square, i == len(tokens) - 1) for square in rest)
        for i, token in enumerate(tokens[1:], start=1)
    )


def describe_move(board: Board, move: Move) -> Message | None:
    """A few words under a move in the menu: what it captures, whether it crowns."""
    taken = ", ".join(map(str, move.captured))
    crowns = checkers.crowns(board.piece_at(move.start), move.end)
    if taken and crowns:
        return _("Captures {squares}; crowns a king", squares=taken)
    if taken:
        return _("Captures {squares}", squares=taken)
    return _("Crowns a king") if crowns else None


def hangs(board: Board, move: Move) -> bool:
    """Whether the piece ``move`` lands with can be captured at once."""
    after = board.copy()
    after.push(move)
    return any(move.end in m.captured for m in after.legal_moves)


def likely_order(board: Board, moves: list[Move]) -> list[Move]:
    """``moves`` with the likely ones first, so that a phone's menu shows them without
    scrolling: the longest captures, then moves that crown, then moves that leave the piece
    safe, then moves of the piece the player moved last; otherwise by square.

    >>> board = Board.from_fen("B:W18:B9,26")
    >>> [str(m) for m in likely_order(board, list(board.legal_moves))]
    ['26-30', '26-31', '9-13', '9-14']
    """
    stack = board.move_stack
    last = stack[-2].end if len(stack) >= 2 else None  # the player's own previous move

    def key(move: Move) -> tuple[int, bool, bool, bool, int, tuple[int, ...]]:
        crowns = checkers.crowns(board.piece_at(move.start), move.end)
        return (
            -len(move.captured),
            not crowns,
            hangs(board, move),
            move.start != last,
            move.start,
            tuple(move.path),
        )

    return sorted(moves, key=key)


def move_selects(ui: CheckersUi, state: State, colour: Text, lang: str = "en") -> list[Row]:
    """One menu of every legal move, or, past 25, a menu of pieces and the chosen one's moves;
    the likely moves and pieces first (:func:`likely_order`); in the board's ``lang``."""
    board = state.board
    moves = likely_order(board, list(board.legal_moves))
    if len(moves) <= MAX_OPTIONS:
        return [
            move_select(
                board, moves, render(_("Choose {colour}'s move", colour=colour), lang), lang
            )
        ]
    chosen = chosen_piece(ui, state)
    starts = list(dict.fromkeys(m.start for m in moves))
    first = _n(
        "{n} move: choose a piece of {colour}'s first",
        "{n} moves: choose a piece of {colour}'s first",
        len(moves),
        colour=colour,
    )
    pieces = Select(
        "from",
        tuple(
            Option(
                render(_("Piece on {square}", square=square), lang),
                str(square),
                description=render(_piece_words(board, moves, square), lang),
                default=square == chosen,
            )
            for square in starts
        ),
        placeholder=render(first, lang),
    )
    if chosen is None:
        return [pieces]
    own = [m for m in moves if m.start == chosen]
    placeholder = render(_("Move the piece on {square}", square=chosen), lang)
    return [pieces, move_select(board, own, placeholder, lang)]


def _piece_words(board: Board, moves: list[Move], square: int) -> Message:
    count = sum(m.start == square for m in moves)
    if (board.piece_at(square) or "").isupper():
        return _n("A king; {n} move", "A king; {n} moves", count)
    return _n("A man; {n} move", "A man; {n} moves", count)


def move_select(board: Board, moves: list[Move], placeholder: str, lang: str = "en") -> Select:
    """A menu of ``moves`` (the first 25)."""
    # A single piece with more than 25 ways to jump is possible only in theory; the rest
    # can still be typed with /checkers move.
    options = []
    for m in moves[:MAX_OPTIONS]:
        words = describe_move(board, m)
        options.append(Option(str(m), str(m), None if words is None else render(words, lang)))
    return Select("m", tuple(options), placeholder=placeholder)


def chosen_piece(ui: CheckersUi, state: State) -> int | None:
    """The piece chosen in the first of two selects, if chosen at this very position."""
    if ui.piece is None or ui.ply != len(state.board.move_stack):
        return None
    square = ui.piece
    return square if any(m.start == square for m in state.board.legal_moves) else None
