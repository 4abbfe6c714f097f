"""The daily puzzles: chosen from the date alone, verified, harder through the week; a year of
them generates and verifies (the endgame table of four pieces is built once and cached)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from games.checkers import bitboard as bb
from games.checkers import egdb
from games.checkers.board import Board, Move
from games.daily import puzzles_for, seed_for, verify
from games.daily.checkers import (
    BANDS,
    CheckersPuzzle,
    checkers_puzzle,
    database,
    defence,
    raw_of,
    verify_checkers,
)
from games.daily.quarters import QuartersPuzzle, quarters_puzzle, verify_quarters
from games.daily.quatorze import QuatorzeDeal, clears, quatorze_deal
from games.quarters.state import State as QuartersState

START = date(2026, 12, 7)


@pytest.fixture(scope="module")
def db() -> egdb.Egdb:
    return database()


def test_the_same_date_gives_the_same_puzzles_and_another_date_others():
    puzzles_for.cache_clear()
    first = puzzles_for(START)
    puzzles_for.cache_clear()
    assert puzzles_for(START) == first
    other = puzzles_for(START + timedelta(1))
    assert other.quarters != first.quarters and other.checkers != first.checkers
    assert other.quatorze != first.quatorze


def _misere_wins(piles: tuple[int, ...], memo: dict[tuple[int, ...], bool]) -> bool:
    """Brute force: the player to move wins (misère: whoever takes the last coin loses)."""
    key = tuple(sorted(piles))
    if key not in memo:
        if sum(key) == 0:
            memo[key] = True
        else:
            memo[key] = any(
                not _misere_wins((*key[:i], key[i] - t, *key[i + 1 :]), memo)
                for i in range(len(key))
                for t in range(1, key[i] + 1)
            )
    return memo[key]


def test_quarters_puzzles_have_one_winning_move_by_brute_force_too():
    memo: dict[tuple[int, ...], bool] = {}
    for n in range(30):
        puzzle = quarters_puzzle(seed_for(START + timedelta(n), "quarters"))
        state = QuartersState.new(puzzle.piles)
        winners = []
        for move in state.legal_actions(0):
            after = QuartersState.new(puzzle.piles)
            after.apply(0, move)
            if after.is_over():
                won = after.outcome().winners == (0,)
            else:
                won = not _misere_wins(after.piles, memo)
            if won:
                winners.append(move)
        assert winners == [puzzle.answer], puzzle


def test_a_quarters_position_with_two_winning_moves_is_refused():
    with pytest.raises(ValueError, match="exactly one"):
        verify_quarters(QuartersPuzzle((1, 1, 1, 2), "4-1"))


def test_checkers_puzzles_grow_longer_through_the_week(db):
    week = [checkers_puzzle(seed_for(START + timedelta(n), "checkers"), n, db) for n in range(7)]
    distances = [p.distance for p in week]
    assert distances == sorted(distances)
    assert all(low <= d <= high for d, (low, high) in zip(distances, BANDS, strict=True))


def test_a_checkers_puzzle_is_won_by_its_move_against_perfect_defence(db):
    puzzle = checkers_puzzle(seed_for(START, "checkers"), 2, db)
    board = Board.from_fen(puzzle.fen)
    board.push_text(puzzle.answer)
    plies = 1
    while board.outcome() is None:
        me, opp, kings, black = board._raw()
        if black:  # the winner hurries: the move that keeps the shortest win
            from games.daily.checkers import scored_moves

            move = min(
                (m for m in scored_moves(db, me, opp, kings, black) if m[1] == egdb.WIN),
                key=lambda m: m[2],
            )[0]
        else:
            move = defence(db, me, opp, kings, black)
        board.push(Move.from_raw(move))
        plies += 1
    assert board.outcome().winners == (0,) and plies == puzzle.distance


def test_a_checkers_puzzle_with_another_answer_is_refused(db):
    puzzle = checkers_puzzle(seed_for(START, "checkers"), 0, db)
    me, opp, kings, black = raw_of(puzzle.fen)
    other = next(
        str(Move.from_raw(m))
        for m in bb.gen_moves(me, opp, kings, black)
        if str(Move.from_raw(m)) != puzzle.answer
    )
    with pytest.raises(ValueError, match="exactly one"):
        verify_checkers(CheckersPuzzle(puzzle.fen, other, puzzle.distance), 0, db)


def test_a_quatorze_deal_is_cleared_by_the_solver_and_survives_its_text_form():
    deal = quatorze_deal(seed_for(START, "quatorze"))
    assert clears(deal.deck)
    assert QuatorzeDeal.from_text(deal.to_text()) == deal


def test_the_next_365_days_generate_and_verify_and_rarely_repeat(db):
    seen: dict[str, set[object]] = {"quarters": set(), "checkers": set(), "quatorze": set()}
    for day in (START + timedelta(n) for n in range(365)):
        puzzles = puzzles_for(day)
        verify(puzzles)
        seen["quarters"].add(puzzles.quarters.piles)
        seen["checkers"].add(puzzles.checkers.fen)
        seen["quatorze"].add(puzzles.quatorze)
    assert len(seen["quatorze"]) == 365
    assert len(seen["checkers"]) > 350 and len(seen["quarters"]) > 300


def test_the_week_builder_draws_a_sheet_per_day_without_the_answers(tmp_path):
    from bench.builders.daily_week import main

    main(["--start", START.isoformat(), "--days", "2", "--out", str(tmp_path)])
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "2026-12-07.png",
        "2026-12-08.png",
        "README.md",
    ]
    notes = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert puzzles_for(START).checkers.fen in notes
    assert f"`{puzzles_for(START).checkers.answer}`" not in notes
