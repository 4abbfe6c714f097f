"""Quatorze property tests: random games to the end, invariants, JSON round trips, the AI."""

from __future__ import annotations

import json

from example_counts import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from games.cards import full_deck
from games.quatorze import LEVELS, State, Status, choose
from games.quatorze.board import play


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 2**32), rng=st.randoms(use_true_random=False))
def test_random_games_keep_the_invariants(seed, rng):
    s = State.new(seed=seed)
    while not s.is_over():
        assert State.from_dict(json.loads(json.dumps(s.to_dict()))).to_dict() == s.to_dict()
        pair_moves = [a for a in s.legal_actions(0) if a != "give-up"]
        assert pair_moves  # a game in play always has a pair
        action = rng.choice(pair_moves)
        grid, stock = s.values(), tuple(int(c.rank) for c in s.stock)
        first, second = (int(x) - 1 for x in action.split("-"))
        expected = play(grid, stock, 0, first, second)[0]
        s.apply(0, action)
        assert s.values() == expected
        # cards are conserved; empty cells only once the stock is gone, and then at the end
        cards = [c for c in s.grid if c is not None] + s.stock + s.removed
        assert sorted(cards) == sorted(full_deck())
        if s.stock:
            assert None not in s.grid
        else:
            filled = sum(c is not None for c in s.grid)
            assert all(c is not None for c in s.grid[:filled])
        assert s.score == 52 - len(s.stock) - filled_count(s)
    assert State.from_dict(s.to_dict()).to_dict() == s.to_dict()
    o = s.outcome()
    assert o.termination in ("won", "no-moves")
    assert (o.winners == (0,)) == (s.status is Status.WON) == (s.score == 52)
    json.dumps(s.view(0))


def filled_count(s: State) -> int:
    return sum(c is not None for c in s.grid)


@settings(max_examples=examples(6), deadline=None)
@given(seed=st.integers(0, 2**32), level=st.sampled_from(LEVELS))
def test_ai_always_returns_a_legal_action(seed, level):
    s = State.new(seed=seed)
    moves = 0
    while not s.is_over() and moves < 30:
        action = choose(s, 0, level, seed=seed, limit=2)
        assert action in s.legal_actions(0) and action != "give-up"
        s.apply(0, action)
        moves += 1


def test_the_hint_policy_beats_random_play_on_a_few_deals():
    hint_wins = random_wins = 0
    for seed in range(12):
        for level in LEVELS:
            s = State.new(seed=seed)
            while not s.is_over():
                s.apply(0, choose(s, 0, level, seed=seed + len(s.moves), limit=4))
            if level == "best":
                hint_wins += s.status is Status.WON
            else:
                random_wins += s.status is Status.WON
    assert hint_wins >= random_wins
