"""Checkers move generation, notation and FEN: perft, tricky captures, parse/format pairs."""

from __future__ import annotations

import pytest

from games.base import IllegalAction
from games.checkers import BLACK, RED, Board, Move, perft

START_PERFT = (7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564)


def moves(board: Board) -> list[str]:
    return [str(m) for m in board.legal_moves]


@pytest.mark.parametrize("depth", range(1, 7))
def test_perft_from_the_start_position(depth: int) -> None:
    assert perft(Board(), depth) == START_PERFT[depth - 1]


def test_perft_matches_playing_every_move() -> None:
    """Bulk counting agrees with pushing and popping real moves."""

    def slow(board: Board, depth: int) -> int:
        if depth == 0:
            return 1
        total = 0
        for move in board.legal_moves:
            board.push(move)
            total += slow(board, depth - 1)
            board.pop()
        return total

    board = Board.from_fen("B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29")
    for depth in range(1, 5):
        assert slow(board, depth) == perft(board, depth)


def test_black_moves_first_from_1_to_12_downwards() -> None:
    board = Board()
    assert board.turn == BLACK
    assert board.pieces() == {**{s: "b" for s in range(1, 13)}, **{s: "r" for s in range(21, 33)}}
    assert moves(board) == ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]


def test_red_moves_up() -> None:
    board = Board()
    board.push_text("11-15")
    assert board.turn == RED
    assert moves(board) == ["21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"]


def test_kings_move_one_square_in_any_direction() -> None:
    assert moves(Board.from_fen("B:W32:BK15")) == ["15-10", "15-11", "15-18", "15-19"]


def test_captures_are_compulsory() -> None:
    board = Board.from_fen("B:W18:B14,1")
    assert moves(board) == ["14x23"]
    with pytest.raises(IllegalAction, match="compulsory"):
        board.parse_move("1-6")


def test_any_capture_may_be_chosen_not_only_the_longest() -> None:
    board = Board.from_fen("B:W9,10,18,19:B6")
    assert moves(board) == ["6x13", "6x15x22", "6x15x24"]


def test_a_capturing_piece_must_keep_jumping() -> None:
    board = Board.from_fen("B:W10,18:B6")
    assert moves(board) == ["6x15x22"]
    with pytest.raises(IllegalAction):
        board.parse_move("6x15")


def test_crowning_ends_a_capture() -> None:
    # The man lands on 31, is crowned, and may not jump on over 27 although a king could.
    assert moves(Board.from_fen("B:W26,27:B22")) == ["22x31"]
    assert moves(Board.from_fen("B:W26,27:BK22")) == ["22x31x24"]
    board = Board.from_fen("B:W26,27:B22")
    board.push_text("22x31")
    assert board.piece_at(31) == "B"


def test_a_man_reaching_the_king_row_is_crowned() -> None:
    board = Board.from_fen("W:W5:B20")
    board.push_text("5-1")
    assert board.piece_at(1) == "R"


def test_kings_capture_backwards() -> None:
    assert moves(Board.from_fen("B:W14:BK18")) == ["18x9"]


def test_men_cannot_capture_backwards() -> None:
    assert moves(Board.from_fen("B:W14:B18")) == ["18-22", "18-23"]


def test_captures_taking_the_same_pieces_in_another_order_are_different_moves() -> None:
    board = Board.from_fen("B:W14,15,22,23:BK10")
    assert moves(board) == ["10x17x26x19x10", "10x19x26x17x10"]
    assert perft(board, 1) == 2
    first, second = board.legal_moves
    assert set(first.captured) == set(second.captured) == {14, 15, 22, 23}


def test_a_side_that_cannot_move_loses() -> None:
    blocked = Board.from_fen("W:W5:B1")
    assert moves(blocked) == []
    outcome = blocked.outcome()
    assert outcome is not None
    assert outcome.winners == (0,) and outcome.termination == "no-moves"
    no_pieces = Board.from_fen("W:W:B1")
    assert no_pieces.outcome() is not None and no_pieces.outcome().winners == (0,)


def test_third_repetition_with_the_same_side_to_move_is_a_draw() -> None:
    board = Board.from_fen("B:WK32:BK1")
    cycle = ["1-6", "32-27", "6-1", "27-32"]
    for text in cycle:
        board.push_text(text)
    assert board.outcome() is None  # second occurrence
    for text in cycle[:-1]:
        board.push_text(text)
    assert board.outcome() is None
    board.push_text(cycle[-1])
    outcome = board.outcome()
    assert outcome is not None and outcome.is_draw and outcome.termination == "repetition"


def _quiet_walk(board: Board, plies: int) -> None:
    """Play ``plies`` quiet king moves: no capture made or allowed, nothing seen thrice."""
    seen: dict[str, int] = {board.fen(): 1}

    def extend(left: int) -> bool:
        if left == 0:
            return True
        for move in board.legal_moves:
            if move.captured:
                return False
            board.push(move)
            key = board.fen()
            quiet = not any(m.captured for m in board.legal_moves)
            if quiet and seen.get(key, 0) < 2:
                seen[key] = seen.get(key, 0) + 1
                if extend(left - 1):
                    return True
                seen[key] -= 1
            board.pop()
        return False

    assert extend(plies)


def test_eighty_plies_without_capture_or_man_move_is_a_draw() -> None:
    board = Board.from_fen("B:WK29,K30,K31,K32:BK1,K2,K3,K4")
    _quiet_walk(board, 79)
    assert board.halfmove_clock == 79
    assert board.outcome() is None
    _quiet_walk(board, 1)
    outcome = board.outcome()
    assert outcome is not None and outcome.is_draw and outcome.termination == "forty-moves"


def test_a_man_move_or_a_capture_resets_the_draw_count() -> None:
    board = Board.from_fen("B:WK32,20:BK1,9")
    board.push_text("1-6")
    board.push_text("32-27")
    assert board.halfmove_clock == 2
    board.push_text("9-13")
    assert board.halfmove_clock == 0


# -- notation --------------------------------------------------------------------------------
def test_moves_are_written_in_standard_notation() -> None:
    assert str(Move(11, (15,))) == "11-15"
    assert str(Move(22, (15,), (18,))) == "22x15"
    assert str(Move(9, (18, 27), (14, 23))) == "9x18x27"


@pytest.mark.parametrize("text", ["11-15", "11 15", "11x15", " 11 - 15 ", "11X15"])
def test_typed_moves_are_accepted_in_every_form(text: str) -> None:
    assert Board().parse_move(text) == Move(11, (15,))


def test_a_short_capture_naming_first_and_last_square_is_accepted() -> None:
    board = Board.from_fen("B:W10,18:B6")
    assert str(board.parse_move("6x22")) == "6x15x22"
    assert str(board.parse_move("6x15x22")) == "6x15x22"


def test_an_ambiguous_short_capture_lists_both_paths() -> None:
    board = Board.from_fen("B:W9,10,17,18:B6")
    with pytest.raises(IllegalAction, match="ambiguous") as info:
        board.parse_move("6x22")
    assert "6x13x22" in str(info.value) and "6x15x22" in str(info.value)


def test_an_illegal_move_lists_the_legal_ones() -> None:
    with pytest.raises(IllegalAction) as info:
        Board().parse_move("11-14")
    assert "9-13" in str(info.value) and "12-16" in str(info.value)
    with pytest.raises(IllegalAction, match="not a move"):
        Board().parse_move("hello")
    with pytest.raises(IllegalAction):
        Board().parse_move("11-40")


def test_every_legal_move_parses_back_from_its_text() -> None:
    board = Board.from_fen("B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29")
    for move in board.legal_moves:
        assert board.parse_move(str(move)) == move


# -- FEN ---------------------------------------------------------------------------------------
def test_the_fen_example_round_trips() -> None:
    fen = "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"
    board = Board.from_fen(fen)
    assert board.fen() == fen
    assert board.turn == BLACK
    assert board.piece_at(10) == "R" and board.piece_at(18) == "r"
    assert board.piece_at(22) == "B" and board.piece_at(12) == "b"


def test_fen_accepts_ranges_and_red_to_move() -> None:
    board = Board.from_fen("W:W21-32:B1-12")
    assert board.turn == RED
    assert board.pieces() == Board().pieces()


@pytest.mark.parametrize("fen", ["", "B:W1", "X:W1:B2", "B:W1,1:B2", "B:W40:B2", "B:Wfoo:B2"])
def test_a_bad_fen_is_refused(fen: str) -> None:
    with pytest.raises(IllegalAction):
        Board.from_fen(fen)


def test_push_and_pop_restore_the_position() -> None:
    board = Board()
    fens = [board.fen()]
    for text in ["11-15", "23-19", "8-11", "22-17", "15-18"]:
        board.push_text(text)
        fens.append(board.fen())
    while board.move_stack:
        fens.pop()
        board.pop()
        assert board.fen() == fens[-1]


def test_legal_moves_support_in_iteration_and_count() -> None:
    legal = Board().legal_moves
    assert legal.count() == len(list(legal)) == 7
    assert Move(11, (15,)) in legal
    assert Move(11, (14,)) not in legal
    assert bool(legal)
