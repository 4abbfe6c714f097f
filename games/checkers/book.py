"""The opening book: positions after up to a few plies with the moves our deep searches chose.

The data lives in ``book.txt`` beside this module, one line a position::

    11-15 23-19 8-11 : 22-17 24-20  # +4

the moves from the start that reach it, a colon, then the sound replies (the best first, then
any within a small margin of it), and as a comment the search's score for the side to move.
Every 3-move opening (so every ballot) has a line. ``python -m bench.builders.checkers_book``
regenerates it from our own searches.

The computer picks among a position's replies with the game's seed, so two games from one
ballot need not follow one line, and a line that lost once is not bound to be replayed; the
book ends at the 4th ply, after which the search decides.

>>> moves_for(Board())[0] in [str(m) for m in Board().legal_moves]
True
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from games.checkers.board import Board

Key = tuple[int, int, int, int]


def parse_book(text: str) -> dict[Key, tuple[str, ...]]:
    """Book lines -> {position key: replies}; a line that is not legal raises ValueError."""
    book: dict[Key, tuple[str, ...]] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        path, _, replies = line.partition(":")
        board = Board()
        try:
            for text_move in path.split():
                board.push_text(text_move)
            moves = tuple(str(board.parse_move(r)) for r in replies.split())
        except ValueError as error:
            raise ValueError(f"book line {number}: {error}") from error
        if not moves:
            raise ValueError(f"book line {number}: no replies")
        book[board._key()] = moves
    return book


@cache
def load_book() -> dict[Key, tuple[str, ...]]:
    """The packaged book (parsed once per process)."""
    return parse_book(resources.files(__package__).joinpath("book.txt").read_text())


def moves_for(board: Board) -> tuple[str, ...]:
    """The book's replies on ``board`` (long notation), or () when out of book."""
    return load_book().get(board._key(), ())
