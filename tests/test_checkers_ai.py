"""The checkers computer player: always legal, sees simple tactics, levels behave."""

from __future__ import annotations

import pickle
import random

import pytest
from example_counts import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from games.checkers import ai
from games.checkers import egdb as egdb_module
from games.checkers.ai import LEVELS, best_move, choose, evaluate, zobrist
from games.checkers.board import Board
from games.checkers.book import load_book
from games.checkers.state import State


def test_levels_go_from_weakest_to_strongest() -> None:
    assert LEVELS == ("beginner", "easy", "medium", "hard", "expert")


def test_choose_is_picklable_for_the_process_pool() -> None:
    assert pickle.loads(pickle.dumps(choose)) is choose
    state = State.new()
    assert pickle.loads(pickle.dumps(state)).to_dict() == state.to_dict()


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_answers_with_a_legal_move_even_with_no_time(level: str) -> None:
    state = State.new()
    state.apply(0, "11-15")
    state.apply(1, "23-19")
    assert choose(state, 0, level, 0.0, seed=3) in state.legal_actions(0)


@settings(max_examples=examples(15), deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(LEVELS), st.integers(0, 60))
def test_the_computer_always_returns_a_legal_action(seed: int, level: str, plies: int) -> None:
    rng = random.Random(seed)
    state = State.new()
    for _ in range(plies):
        if state.is_over():
            return
        seat = state.to_act()[0]
        state.apply(seat, rng.choice([a for a in state.legal_actions(seat) if a[0].isdigit()]))
    if state.is_over():
        return
    seat = state.to_act()[0]
    assert choose(state, seat, level, seed=seed, limit=300) in state.legal_actions(seat)


def test_the_strongest_level_takes_a_free_double_jump(monkeypatch) -> None:
    # 9x18x27 wins two men; Black must capture anyway, but only one capture exists: take it.
    # (Red's man takes one back at once and the endgame database calls that a draw, so with a
    # built database the computer would first offer a draw: the test plays without one.)
    monkeypatch.setattr(egdb_module, "load", lambda *a: None)
    state = State.new("B:W14,23,31:B9,1")
    assert choose(state, 0, "expert", seed=0, limit=2000) == "9x18x27"


def test_the_strongest_level_finds_a_winning_king_ending_move() -> None:
    # Black's two kings against one: any move keeps the win; the search must see a forced loss
    # for Red once Red's king is trapped in a single corner.
    move, score, _depth = best_move(Board.from_fen("B:WK4:BK10,K11"), None, limit=20000)
    assert move in Board.from_fen("B:WK4:BK10,K11").legal_moves
    assert score > 0


def test_the_computer_avoids_giving_away_a_man() -> None:
    # Black to move: 15-19 would hand Red 24x15; 10-14 etc. do not.
    state = State.new("B:W24,28:B15,10")
    assert choose(state, 0, "expert", seed=0, limit=5000) != "15-19"


def test_the_computer_accepts_a_draw_only_when_the_position_is_dead_drawn() -> None:
    state = State.new("W:WK32:BK1,K2,K3,9")
    state.apply(1, "offer-draw")
    state.apply(1, "32-27")
    assert "accept-draw" in state.legal_actions(0)
    assert choose(state, 0, "expert", seed=0, limit=3000) != "accept-draw"  # Black is winning
    losing = State.new("W:WK22,K23,K24,21:BK1")
    losing.apply(1, "offer-draw")
    losing.apply(1, "21-17")
    # Lost, but not drawn: a draw offer is no excuse to give up hope of a blunder.
    assert choose(losing, 0, "expert", seed=0, limit=3000) != "accept-draw"
    level = State.new("W:WK22,K23:BK1,K3")
    level.apply(1, "offer-draw")
    level.apply(1, "22-18")
    assert choose(level, 0, "expert", seed=0, limit=3000) == "accept-draw"


def test_the_computer_offers_a_draw_in_a_dead_drawn_ending() -> None:
    state = State.new("B:WK32:BK1")
    assert choose(state, 0, "expert", seed=0, limit=2000) == "offer-draw"


def test_a_node_limit_makes_the_strongest_level_repeatable() -> None:
    state = State.new()
    for text in ("11-15", "23-19", "8-11", "22-17"):
        state.apply(state.to_act()[0], text)
    answers = {choose(state, 0, "expert", 9.0, seed=s, limit=4000) for s in range(3)}
    assert len(answers) == 1


def test_low_levels_with_a_fixed_seed_are_repeatable() -> None:
    state = State.new()
    state.apply(0, "11-15")
    answers = {choose(state, 1, "easy", seed=7, limit=2000) for _ in range(3)}
    assert len(answers) == 1


def test_the_book_holds_only_legal_moves() -> None:
    book = load_book()
    start = Board()
    assert all(start.parse_move(m) for m in book[start._key()])
    assert len(book) >= 6


def test_evaluation_is_symmetric_at_the_start() -> None:
    # The same for either colour to move (the patterns give having the move a value of its own).
    me, opp, kings, black = Board()._raw()
    assert evaluate(me, opp, kings, black) == evaluate(opp, me, kings, not black)
    assert zobrist(1, 2, 0, True) != zobrist(1, 2, 0, False)


def test_the_clock_starts_after_the_database_and_the_book_are_read(monkeypatch) -> None:
    # Reading them (the first call in a process) must not use up a short budget.
    events: list[str] = []

    class Clock:
        @staticmethod
        def perf_counter() -> float:
            events.append("clock")
            return 0.0

    monkeypatch.setattr(ai, "time", Clock)
    monkeypatch.setattr(egdb_module, "load", lambda *a: events.append("load"))
    monkeypatch.setattr(ai, "load_book", lambda: events.append("book"))
    state = State.new()
    for text in ("11-15", "23-19", "8-11", "22-17"):
        state.apply(int(state.board.turn), text)
    ai.decide(state, 0, "expert", 0.5, limit=2_000)
    assert events[:2] == ["load", "book"] and "clock" in events
