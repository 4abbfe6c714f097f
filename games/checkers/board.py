"""The checkers board: moves, legal-move lists, push/pop, notation, FEN and the game's end.

>>> board = Board()
>>> board.legal_moves.count()
7
>>> move = board.parse_move("11-15")
>>> board.push(move)
>>> str(board.pop())
'11-15'
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import IntEnum, StrEnum

from games.base import IllegalAction, Outcome
from games.checkers import bitboard as bb
from games.digits import is_number, problem

DRAW_PLIES = 80  # 40 moves by each side with no capture and no man moved
MAX_LISTED = 1200  # characters of legal moves quoted in an error message


class Color(IntEnum):
    """The two sides; the value is also the seat number. Black moves first."""

    BLACK = 0
    RED = 1

    @property
    def other(self) -> Color:
        return Color(1 - self)

    @property
    def letter(self) -> str:
        """The seed's letter for a man of this colour (``b`` / ``r``)."""
        return "br"[self]


BLACK, RED = Color.BLACK, Color.RED


class Termination(StrEnum):
    """Why a game ended (the ``termination`` of its :class:`games.base.Outcome`)."""

    NO_MOVES = "no-moves"
    REPETITION = "repetition"
    FORTY_MOVES = "forty-moves"
    AGREEMENT = "agreement"


KING_ROWS = {"b": frozenset({29, 30, 31, 32}), "r": frozenset({1, 2, 3, 4})}  # where men crown


def square_coords(square: int) -> tuple[int, int]:
    """Row and column (0-7, from the top left, Black's side) of a square 1-32.

    >>> square_coords(1), square_coords(5), square_coords(32)
    ((0, 1), (1, 0), (7, 6))
    """
    return bb.coords(square - 1)


def crowns(piece: str | None, end: int) -> bool:
    """Whether a man (``"b"`` or ``"r"``; kings are upper case) reaching ``end`` is crowned.

    >>> crowns("b", 30), crowns("r", 30), crowns("B", 30)
    (True, False, False)
    """
    return piece in KING_ROWS and end in KING_ROWS[piece]


def _between(a: int, b: int) -> int:
    """The square (1-32) jumped when going from square ``a`` to square ``b``."""
    (ra, ca), (rb, cb) = bb.coords(a - 1), bb.coords(b - 1)
    index = bb.index_at((ra + rb) // 2, (ca + cb) // 2)
    assert index is not None
    return index + 1


@dataclass(frozen=True, slots=True)
class Move:
    """A move: the start square, the landing squares (one per step or jump) and what it took.

    Squares are 1-32. ``str(move)`` is standard notation in the long form.

    >>> str(Move(9, (18, 27), (14, 23)))
    '9x18x27'
    """

    start: int
    path: tuple[int, ...]
    captured: tuple[int, ...] = ()

    @property
    def end(self) -> int:
        return self.path[-1]

    @property
    def is_capture(self) -> bool:
        return bool(self.captured)

    @property
    def squares(self) -> tuple[int, ...]:
        """Start square then every landing square."""
        return (self.start, *self.path)

    def short(self) -> str:
        """The short form: start and end only (``9x27``); may be ambiguous."""
        return f"{self.start}{'x' if self.captured else '-'}{self.end}"

    def __str__(self) -> str:
        return ("x" if self.captured else "-").join(map(str, self.squares))

    @classmethod
    def from_raw(cls, raw: bb.RawMove) -> Move:
        path = tuple(i + 1 for i in raw[3])
        if raw[2]:
            captured = tuple(_between(a, b) for a, b in itertools.pairwise(path))
        else:
            captured = ()
        return cls(path[0], path[1:], captured)

    def to_raw(self) -> bb.RawMove:
        cap = 0
        for sq in self.captured:
            cap |= 1 << (sq - 1)
        squares = tuple(s - 1 for s in self.squares)
        return (1 << squares[0], 1 << squares[-1], cap, squares)


class LegalMoves:
    """The legal moves of a position: cheap to make, supports ``in``, iteration and ``count()``."""

    __slots__ = ("_board", "_moves")

    def __init__(self, board: Board) -> None:
        self._board = board
        self._moves: list[Move] | None = None

    def _list(self) -> list[Move]:
        if self._moves is None:
            raw = bb.gen_moves(*self._board._raw())
            self._moves = sorted((Move.from_raw(m) for m in raw), key=lambda m: m.squares)
        return self._moves

    def __iter__(self) -> Iterator[Move]:
        return iter(self._list())

    def __contains__(self, move: object) -> bool:
        return move in self._list()

    def __len__(self) -> int:
        return len(self._list())

    def __bool__(self) -> bool:
        if self._moves is not None:
            return bool(self._moves)
        return bb.count_moves(*self._board._raw()) > 0

    def count(self) -> int:
        if self._moves is not None:
            return len(self._moves)
        return bb.count_moves(*self._board._raw())

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(map(str, self))})>"


_SEPARATORS = re.compile(r"\s*[-x\s]\s*")
_FEN_SQUARE = re.compile(r"^(K?)([0-9]{1,2})(?:-([0-9]{1,2}))?$")  # ASCII digits only


def _parse_fen(fen: str) -> tuple[int, int, int, Color]:
    parts = [p.strip() for p in fen.strip().rstrip(".").upper().split(":")]
    if len(parts) != 3 or parts[0] not in ("B", "W"):
        raise IllegalAction(f"`{fen}` is not a PDN FEN (like `B:W21-32:B1-12`).")
    turn = BLACK if parts[0] == "B" else RED
    boards = {"B": 0, "W": 0}
    kings = 0
    seen = set()
    for part in parts[1:]:
        if not part or part[0] not in boards or part[0] in seen:
            raise IllegalAction(f"`{fen}` is not a PDN FEN (like `B:W21-32:B1-12`).")
        seen.add(part[0])
        for item in filter(None, (s.strip() for s in part[1:].split(","))):
            match = _FEN_SQUARE.match(item)
            if not match:
                raise IllegalAction(f"`{item}` in the FEN is not a square.")
            lo = int(match[2])
            hi = int(match[3]) if match[3] else lo
            for sq in range(lo, hi + 1):
                if not 1 <= sq <= 32:
                    raise IllegalAction(f"Square {sq} in the FEN is not on the board (1-32).")
                bit = 1 << (sq - 1)
                if (boards["B"] | boards["W"]) & bit:
                    raise IllegalAction(f"Square {sq} appears twice in the FEN.")
                boards[part[0]] |= bit
                if match[1]:
                    kings |= bit
    black, red = boards["B"], boards["W"]
    # A man on its own king row cannot exist: it would have been crowned.
    kings |= (black & bb.BOTTOM_ROW) | (red & bb.TOP_ROW)
    return black, red, kings, turn


def _squares(bits: int) -> list[int]:
    return [i + 1 for i in range(32) if bits >> i & 1]


class Board:
    """A position with its history: ``push``/``pop`` moves, list legal moves, see the outcome.

    ``Board()`` is the start position; ``Board.from_fen(...)`` any other.

    >>> board = Board.from_fen("B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29")
    >>> [str(m) for m in board.legal_moves]
    ['16-19', '22-17', '22-26', '25-21', '25-30']
    """

    def __init__(self, fen: str | None = None) -> None:
        if fen is None:
            self._black, self._red, self._kings, self._turn = bb.BLACK_START, bb.RED_START, 0, BLACK
        else:
            self._black, self._red, self._kings, self._turn = _parse_fen(fen)
        self._clock = 0
        self._stack: list[tuple[Move, int, int, int, int]] = []
        self._seen: dict[tuple[int, int, int, int], int] = {self._key(): 1}

    @classmethod
    def from_fen(cls, fen: str) -> Board:
        """A board set up from a PDN FEN such as ``B:W18,24,27,28,K10,K15:B12,16,20,K22``."""
        return cls(fen)

    # -- reading -----------------------------------------------------------------------------
    @property
    def turn(self) -> Color:
        return self._turn

    @property
    def halfmove_clock(self) -> int:
        """Plies since the last capture or man move (the draw comes at 80)."""
        return self._clock

    @property
    def move_stack(self) -> list[Move]:
        return [entry[0] for entry in self._stack]

    @property
    def legal_moves(self) -> LegalMoves:
        return LegalMoves(self)

    def _key(self) -> tuple[int, int, int, int]:
        return (self._black, self._red, self._kings, int(self._turn))

    def _raw(self) -> tuple[int, int, int, bool]:
        """(side to move's pieces, opponent's pieces, kings, black to move)."""
        if self._turn == BLACK:
            return self._black, self._red, self._kings, True
        return self._red, self._black, self._kings, False

    def piece_at(self, square: int) -> str | None:
        """The seed's letter for the piece on ``square``: ``b``, ``B``, ``r``, ``R`` or None."""
        bit = 1 << (square - 1)
        king = bool(self._kings & bit)
        if self._black & bit:
            return "B" if king else "b"
        if self._red & bit:
            return "R" if king else "r"
        return None

    def pieces(self) -> dict[int, str]:
        """Every occupied square and its piece letter."""
        return {sq: p for sq in range(1, 33) if (p := self.piece_at(sq))}

    def fen(self) -> str:
        """The PDN FEN of the position (Red is ``W``); men first, then kings, each ascending."""

        def side(bits: int) -> str:
            men = [str(s) for s in _squares(bits & ~self._kings)]
            kings = [f"K{s}" for s in _squares(bits & self._kings)]
            return ",".join(men + kings)

        return f"{'BW'[self._turn]}:W{side(self._red)}:B{side(self._black)}"

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other._black, other._red, other._kings = self._black, self._red, self._kings
        other._turn = self._turn
        other._clock = self._clock
        other._stack = list(self._stack)
        other._seen = dict(self._seen)
        return other

    def __eq__(self, other: object) -> bool:
        """Boards are equal when the position and side to move are (history aside)."""
        return isinstance(other, Board) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __str__(self) -> str:
        rows = []
        for row in range(8):
            cells = []
            for col in range(8):
                index = bb.index_at(row, col)
                cells.append(" " if index is None else (self.piece_at(index + 1) or "."))
            rows.append(" ".join(cells))
        return "\n".join(rows)

    def __repr__(self) -> str:
        return f"Board({self.fen()!r})"

    # -- moving ------------------------------------------------------------------------------
    def push(self, move: Move) -> None:
        """Play ``move`` (not checked: use ``parse_move`` or ``legal_moves`` for that)."""
        fb, tb, cap, _ = move.to_raw()
        man = not (self._kings & fb)
        self._stack.append((move, self._black, self._red, self._kings, self._clock))
        black = self._turn == BLACK
        me, opp, kings = bb.apply(*self._raw()[:3], black, (fb, tb, cap, ()))
        if black:
            self._black, self._red = me, opp
        else:
            self._red, self._black = me, opp
        self._kings = kings
        self._turn = self._turn.other
        self._clock = 0 if (cap or man) else self._clock + 1
        key = self._key()
        self._seen[key] = self._seen.get(key, 0) + 1

    def pop(self) -> Move:
        """Take back the last move and return it."""
        key = self._key()
        count = self._seen[key] - 1
        if count:
            self._seen[key] = count
        else:
            del self._seen[key]
        move, self._black, self._red, self._kings, self._clock = self._stack.pop()
        self._turn = self._turn.other
        return move

    def parse_move(self, text: str) -> Move:
        """The legal move meant by ``text``: ``11-15``, ``11 15``, ``22x15``, ``9x18x27``, ``9x27``.

        Raises :class:`IllegalAction` for bad syntax, an illegal move (listing the legal ones) or
        a short capture that fits two paths (listing both).

        >>> Board().parse_move("11 15")
        Move(start=11, path=(15,), captured=())
        """
        cleaned = text.strip().lower()
        tokens = _SEPARATORS.split(cleaned)
        odd = next((t for t in tokens if not is_number(t, 2)), None)
        if odd is not None and any(c.isdigit() and not "0" <= c <= "9" for c in odd):
            raise IllegalAction(problem(odd, "A square"))  # ASCII digits only: name the digit
        squares = [int(t) for t in tokens] if odd is None else []
        if len(squares) < 2 or not all(1 <= s <= 32 for s in squares):
            raise IllegalAction(
                f"`{text.strip()[:40]}` is not a move: write it like `11-15` or `22x15`."
            )
        legal = list(self.legal_moves)
        exact = [m for m in legal if list(m.squares) == squares]
        if exact:
            return exact[0]
        matches = [m for m in legal if _is_subsequence(squares, m.squares)]
        if len(matches) == 1:
            return matches[0]
        shown = "-".join(map(str, squares)) if not any(m.captured for m in legal) else cleaned
        if len(matches) > 1:
            options = " or ".join(f"`{m}`" for m in matches)
            raise IllegalAction(f"`{shown}` is ambiguous: it could be {options}.")
        raise IllegalAction(f"`{text.strip()[:40]}` is not legal here. {_legal_list(legal)}")

    def push_text(self, text: str) -> Move:
        """Parse ``text`` as a move, play it and return it (the checked way to move)."""
        move = self.parse_move(text)
        self.push(move)
        return move

    # -- the end -----------------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on (agreement is the game state's job)."""
        if not self.legal_moves:
            return Outcome((int(self._turn.other),), Termination.NO_MOVES)
        if self._seen.get(self._key(), 0) >= 3:
            return Outcome((), Termination.REPETITION)
        if self._clock >= DRAW_PLIES:
            return Outcome((), Termination.FORTY_MOVES)
        return None


def _is_subsequence(short: list[int], full: tuple[int, ...]) -> bool:
    if short[0] != full[0] or short[-1] != full[-1]:
        return False
    it = iter(full)
    return all(s in it for s in short)


def _legal_list(legal: list[Move]) -> str:
    if not legal:
        return "There are no legal moves."
    text = ", ".join(map(str, legal))
    if len(text) > MAX_LISTED:
        text = text[: MAX_LISTED - 5].rsplit(",", 1)[0] + ", ..."
    kind = "captures (capturing is compulsory)" if legal[0].captured else "moves"
    return f"Legal {kind}: {text}."


def perft(board: Board, depth: int) -> int:
    """The number of move sequences of ``depth`` plies from ``board`` (a move-generator check).

    >>> perft(Board(), 3)
    302
    """
    return bb.perft_raw(*board._raw(), depth)
