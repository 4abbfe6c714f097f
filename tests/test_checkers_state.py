"""The checkers game state: seats, draw offers, outcomes, JSON round-trips, views, PDN."""

from __future__ import annotations

import json
import random

import pytest
from example_counts import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import IllegalAction
from games.checkers.pdn import read_pdn, result_code, state_from_pdn, write_pdn
from games.checkers.state import State


def test_black_moves_first_and_seats_are_colours() -> None:
    state = State.new()
    assert state.seats == 2
    assert state.to_act() == (0,)
    state.apply(0, "11-15")
    assert state.to_act() == (1,)


def test_only_the_side_to_move_may_act() -> None:
    state = State.new()
    with pytest.raises(IllegalAction, match="Black's turn"):
        state.apply(1, "22-18")
    assert state.legal_actions(1) == []


def test_actions_are_long_form_moves_and_typed_forms_are_accepted() -> None:
    state = State.new("B:W10,18:B6")
    assert state.legal_actions(0) == ["6x15x22", "offer-draw"]
    state.apply(0, "6x22")
    assert state.to_dict()["moves"] == ["6x15x22"]


def test_an_illegal_action_leaves_the_state_unchanged_and_lists_legal_moves() -> None:
    state = State.new()
    before = state.to_dict()
    with pytest.raises(IllegalAction) as info:
        state.apply(0, "11-14")
    assert "11-15" in str(info.value)
    assert len(str(info.value)) < 1500
    assert state.to_dict() == before


def test_draw_by_agreement() -> None:
    state = State.new()
    state.apply(0, "offer-draw")
    assert state.draw_offer == 0
    state.apply(0, "11-15")
    assert "accept-draw" in state.legal_actions(1)
    state.apply(1, "accept-draw")
    outcome = state.outcome()
    assert outcome is not None and outcome.is_draw and outcome.termination == "agreement"
    assert state.to_act() == ()
    assert result_code(state) == "1/2-1/2"


def test_a_draw_offer_lapses_when_the_opponent_moves() -> None:
    state = State.new()
    state.apply(0, "offer-draw")
    state.apply(0, "11-15")
    state.apply(1, "23-19")
    assert state.draw_offer is None
    assert "accept-draw" not in state.legal_actions(0)


def test_a_draw_offer_can_be_declined() -> None:
    state = State.new()
    state.apply(0, "offer-draw")
    with pytest.raises(IllegalAction):
        state.apply(0, "accept-draw")
    state.apply(0, "11-15")
    state.apply(1, "decline-draw")
    assert state.draw_offer is None and not state.is_over()
    with pytest.raises(IllegalAction):
        state.apply(1, "accept-draw")


def test_a_blocked_side_loses_the_game() -> None:
    state = State.new("B:W5:BK6")
    state.apply(0, "6-1")  # Red's last man, on 5, is now blocked

    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.termination == "no-moves"
    assert result_code(state) == "1-0"
    with pytest.raises(IllegalAction, match="over"):
        state.apply(1, "5-1")


def test_view_shows_the_board_last_move_and_legal_moves() -> None:
    state = State.new("B:W14,23:B9")
    state.apply(0, "9x18x27")
    view = state.view(None)
    json.dumps(view)
    assert view["squares"][26] == "b" and view["squares"][13] is None
    assert view["last_move"] == {
        "from": 9,
        "to": 27,
        "path": [18, 27],
        "captured": [14, 23],
        "notation": "9x18x27",
    }
    assert view["turn"] == 1
    assert view["outcome"]["winners"] == [0]
    assert view["legal_moves"] == []


def test_from_a_fen_position_round_trips() -> None:
    state = State.new("B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29")
    state.apply(0, "16-19")
    again = State.from_dict(json.loads(json.dumps(state.to_dict())))
    assert again.to_dict() == state.to_dict()
    assert again.view(0) == state.view(0)


def _random_game(seed: int, max_plies: int = 400) -> State:
    rng = random.Random(seed)
    state = State.new()
    for _ in range(max_plies):
        if state.is_over():
            break
        seat = state.to_act()[0]
        actions = state.legal_actions(seat)
        state.apply(seat, rng.choice(actions))
    return state


@settings(max_examples=examples(25), deadline=None)
@given(st.integers(0, 2**32))
def test_random_games_keep_their_invariants_and_round_trip(seed: int) -> None:
    rng = random.Random(seed)
    state = State.new()
    for _ in range(300):
        if state.is_over():
            assert state.to_act() == () and state.outcome() is not None
            break
        data = state.to_dict()
        assert State.from_dict(json.loads(json.dumps(data))).to_dict() == data
        view = state.view(None)
        squares = view["squares"]
        assert sum(p in ("b", "B") for p in squares) <= 12
        assert sum(p in ("r", "R") for p in squares) <= 12
        assert squares[28:].count("b") == 0 and squares[:4].count("r") == 0  # crowned
        seat = state.to_act()[0]
        actions = state.legal_actions(seat)
        moves = [a for a in actions if a[0].isdigit()]
        assert moves == view["legal_moves"] and moves
        if any("x" in m for m in moves):
            assert all("x" in m for m in moves)  # captures are compulsory
        state.apply(seat, rng.choice(actions))


def test_a_finished_game_reads_back_from_pdn_to_the_same_position() -> None:
    for seed in range(6):
        state = _random_game(seed)
        text = write_pdn(state, black="Ann", white="Bob", date="2024.05.01")
        assert '[GameType "21"]' in text and '[Black "Ann"]' in text and '[White "Bob"]' in text
        assert f'[Result "{result_code(state)}"]' in text
        game = read_pdn(text)
        assert game.board().fen() == state.board.fen()
        assert list(game.moves) == state.to_dict()["moves"]
        assert state_from_pdn(text).to_dict()["moves"] == state.to_dict()["moves"]


def test_pdn_numbers_moves_with_blacks_first() -> None:
    state = State.new()
    for seat, move in enumerate(["11-15", "23-19", "8-11"]):
        state.apply(seat % 2, move)
    text = write_pdn(state)
    assert "1. 11-15 23-19 2. 8-11 *" in text


def test_pdn_from_a_position_carries_setup_and_fen() -> None:
    fen = "W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"
    state = State.new(fen)
    state.apply(1, "18-14")
    text = write_pdn(state)
    assert '[SetUp "1"]' in text and f'[FEN "{fen}"]' in text
    assert "1... 18-14" in text
    assert read_pdn(text).board().fen() == state.board.fen()


def test_pdn_reader_skips_comments_and_move_numbers() -> None:
    text = '[Event "x"]\n\n1. 11-15 {good} 23-19 2.8-11 (2. 9-14) 22-17 1-0\n'
    game = read_pdn(text)
    assert game.moves == ("11-15", "23-19", "8-11", "22-17")
    assert game.tags["Event"] == "x"
