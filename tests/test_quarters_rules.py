"""Quarters (misère Nim) as RULES.md states it, one test per rule."""

from __future__ import annotations

import itertools
from functools import cache

import pytest
from example_counts import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import IllegalAction
from games.quarters import LEVELS, State, choose, is_winning, nim_sum, winning_moves


def test_default_setup_is_three_piles_of_three_four_and_five():
    assert State.new().piles == (3, 4, 5)


@pytest.mark.parametrize("piles", [(), (1, 2, 3, 4, 5, 6), (0, 3), (10,), (1,)])
def test_other_setups_are_one_to_five_piles_of_one_to_nine(piles):
    with pytest.raises(IllegalAction):
        State.new(piles)


def test_a_move_takes_coins_from_exactly_one_pile_all_allowed():
    state = State.new((3, 4, 5))
    state.apply(0, "3-5")
    assert state.piles == (3, 4, 0)
    with pytest.raises(IllegalAction):
        state.apply(1, "3-1")  # the pile is empty
    with pytest.raises(IllegalAction):
        state.apply(1, "1-4")  # more than the pile holds
    with pytest.raises(IllegalAction):
        state.apply(1, "1-0")


def test_players_alternate():
    state = State.new()
    state.apply(0, "1-1")
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(0, "1-1")
    state.apply(1, "1-1")
    assert state.turn == 0


def test_game_ends_when_one_coin_is_left_and_the_player_to_take_it_loses():
    state = State.new((1, 2))
    state.apply(0, "2-2")  # leaves one coin for seat 1
    assert state.is_over()
    assert state.outcome().winners == (0,)
    assert state.legal_actions(1) == []


def test_taking_every_remaining_coin_takes_the_last_coin_and_loses():
    state = State.new((3,))
    state.apply(0, "1-3")
    assert state.outcome().winners == (1,)
    assert state.outcome().termination == "took-last-coin"


def test_refused_move_leaves_the_state_unchanged():
    state = State.new()
    before = state.to_dict()
    with pytest.raises(IllegalAction):
        state.apply(0, "9-1")
    assert state.to_dict() == before


def test_from_three_four_five_the_only_winning_first_move_is_two_from_the_pile_of_three():
    assert winning_moves((3, 4, 5)) == ["1-2"]
    assert nim_sum((1, 4, 5)) == 0


def test_the_secret_leaves_an_odd_number_of_single_coins():
    # One big pile and two singles: reduce the big pile to 1 (three singles left).
    assert winning_moves((1, 1, 5)) == ["3-4"]
    # One big pile and one single: take the big pile entirely (one single left).
    assert winning_moves((1, 5)) == ["2-5"]


@cache
def _brute_force_wins(piles: tuple[int, ...]) -> bool:
    """True when the player to move wins, by trying every move (no theory)."""
    if sum(piles) == 0:
        return True  # the opponent took the last coin
    if sum(piles) == 1:
        return False  # must take the last coin
    for i, size in enumerate(piles):
        for take in range(1, size + 1):
            after = tuple(sorted((*piles[:i], size - take, *piles[i + 1 :])))
            if not _brute_force_wins(after):
                return True
    return False


def test_perfect_ai_agrees_with_brute_force_on_every_position_up_to_five_piles_of_five():
    checked = 0
    for n in range(1, 6):
        for piles in itertools.product(range(6), repeat=n):
            if sum(piles) < 2:
                continue
            wins = _brute_force_wins(tuple(sorted(piles)))
            assert is_winning(piles) == wins, piles
            state = State(start=piles, piles=piles)
            move = choose(state, 0, "perfect", seed=1)
            pile, take = (int(x) for x in move.split("-"))
            after = list(piles)
            after[pile - 1] -= take
            if wins:
                assert not _brute_force_wins(tuple(sorted(after))), (piles, move)
            checked += 1
    assert checked > 9000


def test_computer_moving_first_from_three_four_five_always_wins():
    for seed in range(20):
        state = State.new((3, 4, 5))
        rng_seed = seed
        while not state.is_over():
            seat = state.turn
            level = "perfect" if seat == 0 else "beginner"
            state.apply(seat, choose(state, seat, level, seed=rng_seed))
            rng_seed += 1
        assert state.outcome().winners == (0,)


def test_lower_levels_make_mistakes_on_purpose():
    state = State.new((3, 4, 5))
    moves = {choose(state, 0, "beginner", seed=s) for s in range(50)}
    assert len(moves) > 1
    assert LEVELS[-1] == "perfect"


@settings(max_examples=examples(200), deadline=None)
@given(
    piles=st.lists(st.integers(1, 9), min_size=1, max_size=5).filter(lambda p: sum(p) >= 2),
    seeds=st.lists(st.integers(0, 10**6), min_size=60, max_size=60),
)
def test_random_games_end_and_round_trip_through_json(piles, seeds):
    state = State.new(piles)
    for seed in seeds:
        if state.is_over():
            break
        assert State.from_dict(state.to_dict()).to_dict() == state.to_dict()
        state.apply(state.turn, choose(state, state.turn, "beginner", seed=seed))
    assert state.is_over()
    assert len(state.outcome().winners) == 1
    assert State.from_dict(state.to_dict()).outcome() == state.outcome()
