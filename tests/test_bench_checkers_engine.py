"""The bridge to outside checkers engines (CheckerBoard's interface), driven by fake engines."""

from __future__ import annotations

import ctypes
import random

import pytest

from bench.strength import checkers_engine as cb
from games.checkers import bitboard as bb
from games.checkers.board import Board
from games.checkers.state import State


def random_boards(count: int, seed: int) -> list[Board]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        board = Board()
        for _ in range(rng.randrange(0, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        out.append(board)
    return out


def board_of(cb_board: cb.CBBoard, colour: int) -> Board:
    """Our board for a CheckerBoard array and side to move (as an engine would read it)."""
    black, red, kings = cb.from_cb(cb_board)

    def side(bits: int) -> str:
        return ",".join(
            ("K" if kings >> i & 1 else "") + str(i + 1) for i in range(32) if bits >> i & 1
        )

    return Board.from_fen(f"{'B' if colour == cb.CB_BLACK else 'W'}:W{side(red)}:B{side(black)}")


def fake_engine(verdict: int = cb.CB_UNKNOWN, illegal: bool = False) -> cb.Engine:
    """An engine that plays the first legal move in notation order, answering ``verdict``."""

    @cb.GETMOVE
    def getmove(board_p, colour, _maxtime, text, playnow, info, _unused, _move_p):
        board = board_of(board_p.contents, colour)
        moves = sorted(board.legal_moves, key=str)
        board.push(moves[0])
        black, red, kings = cb.position(board)
        if illegal:
            black ^= 1 << 15  # a piece appears on square 16
        board_p.contents[:] = cb.to_cb(black & ~red, red, kings & (black | red))[:]
        return verdict

    return cb.Engine(getmove, "first-move")  # the engine keeps the callback alive


def test_squares_sit_where_checkerboard_puts_them() -> None:
    assert cb.square_xy(1) == (6, 0) and cb.square_xy(4) == (0, 0)
    assert cb.square_xy(5) == (7, 1) and cb.square_xy(32) == (1, 7)
    assert sorted(cb.XY.values()) == sorted(
        (x, y) for y in range(8) for x in range(8) if (x + y) % 2 == 0
    )


def test_every_step_joins_diagonal_neighbours() -> None:
    for board in random_boards(40, 1):
        for move in board.legal_moves:
            for a, b in zip(move.squares, move.squares[1:], strict=False):
                (xa, ya), (xb, yb) = cb.square_xy(a), cb.square_xy(b)
                step = 2 if move.is_capture else 1
                assert abs(xa - xb) == abs(ya - yb) == step


def test_positions_round_trip_through_the_board_array() -> None:
    start = cb.to_cb(bb.BLACK_START, bb.RED_START, 0)
    values = [start[x][y] for y in range(8) for x in range(8)]
    assert values.count(cb.CB_BLACK | cb.CB_MAN) == values.count(cb.CB_WHITE | cb.CB_MAN) == 12
    assert all(start[x][y] in (0, cb.CB_BLACK | cb.CB_MAN) for x in range(8) for y in range(3))
    for board in random_boards(60, 2):
        assert cb.from_cb(cb.to_cb(*cb.position(board))) == cb.position(board)


def test_a_value_that_is_no_piece_is_refused() -> None:
    board = cb.to_cb(bb.BLACK_START, bb.RED_START, 0)
    board[6][0] = 3
    with pytest.raises(ValueError):
        cb.from_cb(board)


def test_the_engines_move_is_read_back_from_its_board() -> None:
    engine = fake_engine()
    for board in random_boards(30, 3):
        if not board.legal_moves:
            continue
        after, verdict = engine.move(board, 0.01, True)
        assert verdict == cb.CB_UNKNOWN
        assert cb.played_move(board, cb.from_cb(after)) == min(map(str, board.legal_moves))
    assert engine.moves > 0


def test_an_impossible_answer_is_an_error_not_a_move() -> None:
    engine = fake_engine(illegal=True)
    board = Board()
    after, _ = engine.move(board, 0.01, True)
    with pytest.raises(ValueError):
        cb.played_move(board, cb.from_cb(after))


def test_a_short_match_plays_legal_games_to_a_score() -> None:
    results = cb.match(fake_engine(), budget=0.01, count=1, max_plies=40)
    assert len(results) == 2 and all(r in (0.0, 0.5, 1.0) for r in results)


def test_an_engine_claiming_a_draw_agrees_to_the_experts_offer() -> None:
    # Two kings each, far apart: the expert offers a draw; an engine answering "draw" takes it.
    start = "B:WK29,K32:BK1,K4"
    for verdict, agreed in ((cb.CB_DRAW, True), (cb.CB_UNKNOWN, False)):
        expert = cb.Expert()
        engine = fake_engine(verdict)
        result = cb.play(State.new(start), 0, engine, 0.01, 7, 6, expert)
        assert result == 0.5
        assert (engine.moves == 1) is agreed


def test_the_move_record_has_checkerboards_layout() -> None:
    assert ctypes.sizeof(cb.CBMove) == 3 * 4 + 2 * 8 + 2 * 12 * 8 + 12 * 4


def scoring_engine(report: bytes) -> tuple[cb.Engine, list]:
    """An engine that plays the first legal move and reports ``report`` as its search, and
    the (position, colour, info) of every call."""

    @cb.GETMOVE
    def getmove(board_p, colour, _maxtime, text, playnow, info, _unused, _move_p):
        board = board_of(board_p.contents, colour)
        seen.append((cb.position(board), colour, info))
        board.push(sorted(board.legal_moves, key=str)[0])
        board_p.contents[:] = cb.to_cb(*cb.position(board))[:]
        ctypes.memmove(text, report, len(report) + 1)
        return cb.CB_UNKNOWN

    seen: list = []
    return cb.Engine(getmove, "scorer"), seen


def test_the_engines_score_is_read_from_its_report_for_the_side_to_move() -> None:
    engine, seen = scoring_engine(b"depth 9/12/9.1  time 0.02s  value=-37  nodes 1234 pv 11-15")
    board = random_boards(1, 5)[0]
    raw = board._raw()
    assert cb.engine_score(engine, raw, 0.02) == -37
    ((position, colour, info),) = seen
    assert position == cb.position(board)
    assert colour == (cb.CB_BLACK if raw[3] else cb.CB_WHITE)
    assert info & cb.CB_RESET_MOVES  # every position is a fresh search


def test_a_report_without_a_score_gives_none() -> None:
    engine, _ = scoring_engine(b"book move: 11-15")
    assert cb.engine_score(engine, Board()._raw(), 0.02) is None
