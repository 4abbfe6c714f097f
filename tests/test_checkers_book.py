"""The opening book: every line legal, every 3-move opening covered."""

from __future__ import annotations

import pytest

from bench.builders import checkers_book as builder
from games.checkers import bitboard as bb
from games.checkers.board import Board, Move
from games.checkers.book import load_book, moves_for, parse_book
from games.checkers.state import State


def test_every_book_line_is_legal() -> None:
    # parse_book replays each line's moves and parses each reply (an illegal one raises);
    # check the parsed book again straight against the move generator.
    book = load_book()
    assert len(book) >= 273  # every distinct position of the first three plies
    for (black, red, kings, turn), replies in book.items():
        me, opp = (black, red) if turn == 0 else (red, black)
        legal = {str(Move.from_raw(m)) for m in bb.gen_moves(me, opp, kings, turn == 0)}
        assert replies and len(set(replies)) == len(replies)
        assert set(replies) <= legal


def test_an_illegal_book_line_is_refused() -> None:
    with pytest.raises(ValueError, match="line 2"):
        parse_book("11-15 : 23-19\n11-15 : 11-16\n")
    with pytest.raises(ValueError, match="line 1"):
        parse_book("11-15 15-19 : 23-19\n")


def test_the_book_covers_every_three_move_opening() -> None:
    board = Board()
    missing = []
    for a in list(board.legal_moves):
        board.push(a)
        for b in list(board.legal_moves):
            board.push(b)
            for c in list(board.legal_moves):
                board.push(c)
                if not moves_for(board):
                    missing.append(f"{a} {b} {c}")
                board.pop()
            board.pop()
        board.pop()
    assert not missing


def test_book_replies_are_legal_actions_of_the_game() -> None:
    state = State.new()
    for text in ("11-15", "23-19", "8-11"):
        state.apply(state.to_act()[0], text)
    replies = moves_for(state.board)
    assert replies and set(replies) <= set(state.legal_actions(1))


def test_the_builder_writes_a_book_of_the_best_replies_within_the_margin(tmp_path, monkeypatch):
    lines = builder.positions(1)
    assert lines[0] == [] and len(lines) == 1 + len(list(Board().legal_moves))
    scored = builder.rate([], nodes=2000)
    assert sorted(m for _, m in scored) == sorted(str(m) for m in Board().legal_moves)
    assert [s for s, _ in scored] == sorted((s for s, _ in scored), reverse=True)
    assert builder._entry(["11-15"], [(12, "24-19"), (8, "22-18"), (3, "23-19")], 5) == (
        "11-15 : 24-19 22-18  # +12"
    )
    out = tmp_path / "book.txt"
    argv = ["checkers_book", "--plies", "1", "--nodes", "500", "--workers", "2"]
    monkeypatch.setattr("sys.argv", [*argv, "--out", str(out)])
    builder.main()
    book = parse_book(out.read_text())
    assert len(book) == len(builder.positions(1))
    assert "each move searched 500 nodes" in out.read_text()
