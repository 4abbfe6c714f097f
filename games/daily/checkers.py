"""The checkers puzzle of the day: Black to move and win, with exactly one winning move.

Positions come from the endgame database (``games.checkers.egdb``): every position of up to
``PIECES`` pieces with its exact result and distance to the end. The puzzle is harder through
the week: the distance to the win (in plies, both sides' moves) lies in the band of its
weekday, short on Monday and long on Sunday. After the player's move the computer defends
perfectly: of its moves it plays the one that holds out longest (``defence``).

Puzzles use at most four pieces, so the same date gives the same position with the 4-piece
and with the 5-piece table.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from games.checkers import bitboard as bb
from games.checkers import egdb
from games.checkers.board import Move

PIECES = 4
# (shortest, longest) distance to the win in plies, Monday first.
BANDS: tuple[tuple[int, int], ...] = (
    (3, 7),
    (9, 13),
    (15, 19),
    (21, 27),
    (29, 35),
    (37, 45),
    (47, 59),
)
SAMPLES = 2_000_000  # positions drawn before giving up (never reached in practice)


@dataclass(frozen=True, slots=True)
class CheckersPuzzle:
    """A position with Black to move, its only winning move and its distance to the win."""

    fen: str
    answer: str
    distance: int


def database() -> egdb.Egdb:
    """The endgame table with at least :data:`PIECES` pieces, built and cached when missing."""
    db = egdb.load()
    if db is not None and db.max_pieces >= PIECES:
        return db
    db = egdb.load(PIECES)
    if db is None:
        db = egdb.build(PIECES)
        db.save(egdb.cache_path(PIECES))
    return db


def _value(db: egdb.Egdb, me: int, opp: int, kings: int, black: bool) -> tuple[int, int]:
    """(result, distance) for the side to move; a side with no pieces or no moves has lost."""
    if not me or not bb.gen_moves(me, opp, kings, black):
        return egdb.LOSS, 0
    found = db.probe(me, opp, kings, black)
    if found is None:
        raise ValueError("position outside the endgame database")
    return found


def scored_moves(
    db: egdb.Egdb, me: int, opp: int, kings: int, black: bool
) -> list[tuple[bb.RawMove, int, int]]:
    """Every legal move with the (result, distance) it leaves for the side that moved."""
    out = []
    for move in bb.gen_moves(me, opp, kings, black):
        me2, opp2, kings2 = bb.apply(me, opp, kings, black, move)
        result, distance = _value(db, opp2, me2, kings2, not black)
        out.append((move, -result, distance + 1))
    return out


def fen_of(black: int, red: int, kings: int, black_to_move: bool = True) -> str:
    """The PDN FEN of a raw position."""

    def side(bits: int) -> str:
        men = [str(i + 1) for i in range(32) if bits >> i & 1 and not kings >> i & 1]
        crowned = [f"K{i + 1}" for i in range(32) if bits >> i & 1 and kings >> i & 1]
        return ",".join(men + crowned)

    return f"{'B' if black_to_move else 'W'}:W{side(red)}:B{side(black)}"


def _puzzle_at(
    db: egdb.Egdb, black: int, red: int, kings: int, band: tuple[int, int]
) -> CheckersPuzzle | None:
    """The puzzle at this position (Black to move), or None when it does not qualify."""
    result, distance = _value(db, black, red, kings, True)
    if result != egdb.WIN or not band[0] <= distance <= band[1]:
        return None
    scored = scored_moves(db, black, red, kings, True)
    winning = [move for move, res, _ in scored if res == egdb.WIN]
    if len(scored) < 2 or len(winning) != 1:
        return None
    return CheckersPuzzle(fen_of(black, red, kings), str(Move.from_raw(winning[0])), distance)


def checkers_puzzle(seed: int, weekday: int, db: egdb.Egdb | None = None) -> CheckersPuzzle:
    """The first qualifying position drawn from ``seed`` in the band of ``weekday`` (0 Monday)."""
    db = db or database()
    band = BANDS[weekday]
    rng = random.Random(seed)
    sigs = [s for n in range(3, PIECES + 1) for s in egdb.signatures(n)]
    for _ in range(SAMPLES):
        sig = rng.choice(sigs)
        position = egdb.unrank(sig, rng.randrange(egdb.sig_size(sig)))
        if position is None:
            continue
        puzzle = _puzzle_at(db, *position, band)
        if puzzle is not None:
            verify_checkers(puzzle, weekday, db)
            return puzzle
    raise RuntimeError(f"no puzzle in {SAMPLES} positions")


def raw_of(fen: str) -> tuple[int, int, int, bool]:
    """(side to move's pieces, opponent's pieces, kings, black to move) of a FEN."""
    from games.checkers.board import Board

    return Board.from_fen(fen)._raw()


def verify_checkers(puzzle: CheckersPuzzle, weekday: int, db: egdb.Egdb | None = None) -> None:
    """Raise ValueError unless the side to move wins at the stored distance with exactly the
    stored move, within the weekday's band."""
    db = db or database()
    me, opp, kings, black = raw_of(puzzle.fen)
    if (me | opp).bit_count() > PIECES:
        raise ValueError("too many pieces")
    result, distance = _value(db, me, opp, kings, black)
    low, high = BANDS[weekday]
    if result != egdb.WIN or distance != puzzle.distance or not low <= distance <= high:
        raise ValueError(f"{puzzle.fen} is not a win in the weekday's band")
    winning = [
        str(Move.from_raw(m))
        for m, res, _ in scored_moves(db, me, opp, kings, black)
        if res == egdb.WIN
    ]
    if winning != [puzzle.answer]:
        raise ValueError(f"{puzzle.fen} does not have exactly one winning move")


def defence(db: egdb.Egdb, me: int, opp: int, kings: int, black: bool) -> bb.RawMove:
    """The defender's move: a win or a draw if one is left, else the loss that lasts longest
    (the first such move in generation order)."""
    scored: Sequence[tuple[bb.RawMove, int, int]] = scored_moves(db, me, opp, kings, black)
    if not scored:
        raise ValueError("no legal move")

    def key(item: tuple[bb.RawMove, int, int]) -> tuple[int, int]:
        _, result, distance = item
        return (result, -distance if result == egdb.WIN else distance)

    return max(scored, key=key)[0]
