"""Property tests: random and computer games keep the invariants of Hearts."""

from __future__ import annotations

import json
import random
import re

from example_counts import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import IllegalAction
from games.cards import full_deck
from games.hearts import Rules, State, choose, format_pass
from games.hearts.state import Phase

ALL = {str(c) for c in full_deck()}
CARD = re.compile(r"\b[2-9TJQKA][CDHS]\b")


def check_invariants(s: State, seen_history: int) -> None:
    # 52 cards conserved: hands + cards played this hand, no card twice.
    held = [str(c) for seat in range(4) for c in s.hand(seat)]
    played = [str(c) for c in _played(s)]
    assert len(held) + len(played) == 52
    assert set(held) | set(played) == ALL
    # Every finished hand gave out 26 points (or 0 + 3 x 26 for a moon).
    for h in s.history[seen_history:]:
        assert sum(h["taken"]) == 26
        assert sorted(h["scores"]) in ([0, 26, 26, 26], sorted(h["taken"])) or h["moon"] is None
        assert sum(h["scores"]) == (78 if h["moon"] is not None else 26)
    assert sum(s.totals) == sum(sum(h["scores"]) for h in s.history)
    assert State.from_dict(json.loads(json.dumps(s.to_dict()))).to_dict() == s.to_dict()


def _played(s: State):
    from games.hearts.cardbits import to_card

    return [to_card(c) for _, c in s.played]


def check_views(s: State) -> None:
    """No unplayed card of another seat appears anywhere in a seat's view (JSON scan)."""
    for seat in (None, 0, 1, 2, 3):
        v = s.view(seat)
        text = json.dumps(v)
        shown = set(CARD.findall(text))
        mine = {str(c) for c in s.hand(seat)} if seat is not None else set()
        given_away = set(v.get("my_pass") or ()) if seat is not None else set()
        for other in range(4):
            if other == seat:
                continue
            hidden = {str(c) for c in s.hand(other)} - given_away - mine
            assert not (hidden & shown), (seat, other, hidden & shown)
        if seat is None:
            assert "hand" not in v and "my_pass" not in v


def check_illegal_refused(s: State, rng: random.Random) -> None:
    if s.phase is not Phase.PLAY:
        return
    seat = s.turn
    legal = set(s.legal_actions(seat))
    bad = [str(c) for c in full_deck() if str(c) not in legal]
    before = s.to_dict()
    for action in rng.sample(bad, 3):
        try:
            s.apply(seat, action)
        except IllegalAction:
            pass
        else:  # pragma: no cover
            raise AssertionError(f"illegal {action} accepted")
        assert s.to_dict() == before
    other = (seat + 1) % 4
    for action in s.legal_actions(seat)[:1]:
        try:
            s.apply(other, action)
        except IllegalAction:
            pass
        else:  # pragma: no cover
            raise AssertionError("out of turn play accepted")
    assert s.to_dict() == before


def random_action(s: State, seat: int, rng: random.Random) -> str:
    if s.phase is Phase.PASS:
        return format_pass(rng.sample(s.hand(seat), 3))
    return rng.choice(s.legal_actions(seat))


@settings(max_examples=examples(5), deadline=None)
@given(
    seed=st.integers(0, 2**32),
    two_clubs=st.booleans(),
    no_points=st.booleans(),
)
def test_random_games_keep_the_invariants(seed: int, two_clubs: bool, no_points: bool) -> None:
    rng = random.Random(seed)
    s = State.new(seed=seed, rules=Rules(two_clubs, no_points), dealer=seed % 4)
    step = 0
    while not s.is_over():
        n = len(s.history)
        seat = rng.choice(s.to_act())
        legal = s.legal_actions(seat)
        action = random_action(s, seat, rng)
        assert action in legal
        s.apply(seat, action)
        step += 1
        check_invariants(s, n)
        if step % 7 == 0 and len(s.history) < 2:
            check_views(s)
            check_illegal_refused(s, rng)
    out = s.outcome()
    assert max(s.totals) >= 100 and out is not None
    assert set(out.winners) == {i for i, t in enumerate(s.totals) if t == min(s.totals)}
    assert out.details["hands_played"] == len(s.history) == len(out.details["points_per_hand"])


@settings(max_examples=examples(5), deadline=None)
@given(seed=st.integers(0, 2**32))
def test_views_never_show_another_seats_cards(seed: int) -> None:
    rng = random.Random(seed)
    s = State.new(seed=seed)
    while len(s.history) < 1:
        check_views(s)
        seat = rng.choice(s.to_act())
        s.apply(seat, random_action(s, seat, rng))
    check_views(s)


@settings(max_examples=examples(4), deadline=None)
@given(seed=st.integers(0, 2**32), level=st.sampled_from(["beginner", "standard"]))
def test_computer_games_play_legally_to_the_end(seed: int, level: str) -> None:
    s = State.new(seed=seed)
    while not s.is_over():
        n = len(s.history)
        for seat in s.to_act():
            action = choose(s, seat, level, 0.01, seed=seed)
            assert action in s.legal_actions(seat)
            s.apply(seat, action)
        check_invariants(s, n)
    assert s.outcome() is not None


@settings(max_examples=examples(3), deadline=None)
@given(seed=st.integers(0, 2**32))
def test_expert_plays_a_legal_hand(seed: int) -> None:
    s = State.new(seed=seed)
    levels = ["expert", "beginner", "standard", "beginner"]
    while not s.history:
        for seat in s.to_act():
            action = choose(s, seat, levels[seat], seed=seed, limit=6)
            assert action in s.legal_actions(seat)
            s.apply(seat, action)
    check_invariants(s, 0)


def _play_hand_checked(s: State, pick, rng: random.Random) -> None:
    """Play one hand to its end with ``pick``; every card played once, 26 (or 78) points."""
    hands = len(s.history)
    played: list[str] = []
    while len(s.history) == hands and not s.is_over():
        seat = rng.choice(s.to_act())
        action = pick(s, seat)
        if s.phase is Phase.PLAY:
            played.append(action)
        s.apply(seat, action)
    assert sorted(played) == sorted(ALL)  # 52 cards: none created, none lost
    h = s.history[-1]
    assert sum(h["taken"]) == 26
    assert sum(h["scores"]) == (78 if h["moon"] is not None else 26)


def test_thousands_of_random_and_computer_hands():
    """2,000 random hands and 200 computer hands, each checked card by card."""
    rng = random.Random(2026)
    random_pick = lambda s, seat: random_action(s, seat, rng)  # noqa: E731
    computer_pick = lambda s, seat: choose(s, seat, rng.choice(["beginner", "standard"]), 0.01, 7)  # noqa: E731
    for pick, count in ((random_pick, 2000), (computer_pick, 200)):
        played = 0
        seed = 0
        while played < count:
            s = State.new(seed=seed, rules=Rules(seed % 2 == 1, seed % 3 == 1), dealer=seed % 4)
            seed += 1
            while not s.is_over() and played < count:
                _play_hand_checked(s, pick, rng)
                played += 1
        assert played == count
