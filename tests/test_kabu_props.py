"""Kabu property tests: random rounds to the end, invariants, JSON round trips, AI legality."""

from __future__ import annotations

import json

from example_counts import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from games.kabu import LEVELS, Rules, State, choose


@settings(max_examples=examples(60), deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(1, 3),
    arashi=st.booleans(),
    picks=st.randoms(use_true_random=False),
)
def test_random_rounds_keep_the_invariants(seed, players, arashi, picks):
    s = State.new(players=players, seed=seed, rules=Rules(arashi=arashi))
    while not s.is_over():
        assert State.from_dict(json.loads(json.dumps(s.to_dict()))).to_dict() == s.to_dict()
        (seat,) = s.to_act()
        s.apply(seat, picks.choice(s.legal_actions(seat)))
        # cards are conserved and dealt from the stored order
        dealt = s.face_up()
        assert len(set(dealt)) == len(dealt) == s.next_card
        assert set(dealt) == set(s.deck[: s.next_card])
    assert State.from_dict(s.to_dict()).to_dict() == s.to_dict()
    o = s.outcome()
    assert o is not None and len(o.details["results"]) == players
    assert all(2 <= len(p) <= 3 for p in s.positions) and 2 <= len(s.dealer) <= 3
    assert len(set(s.picks)) == players
    json.dumps(s.view(None))
    assert s.to_act() == ()


@settings(max_examples=examples(25), deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(1, 2), level=st.sampled_from(LEVELS))
def test_ai_always_returns_a_legal_action(seed, players, level):
    s = State.new(players=players, seed=seed)
    while not s.is_over():
        (seat,) = s.to_act()
        action = choose(s, seat, level, 1.0, seed)
        assert action in s.legal_actions(seat)
        s.apply(seat, action)
