"""The expert's playouts follow the engine's rules: the same cards played by the same policy
give the same trick winners, points and hand scores in the search as in ``State``."""

from __future__ import annotations

import random

import pytest

from games.hearts import State, choose, search
from games.hearts.actions import format_play
from games.hearts.cardbits import QUEEN_OF_SPADES, to_card
from games.hearts.knowledge import Knowledge
from games.hearts.policy import pick
from games.hearts.rules import Rules, hand_scores
from games.hearts.search import (
    objective,
    past_decisions,
    plausibility,
    play_out,
)


def _in_play(seed: int, plays: int, rules: Rules) -> State:
    """A hand ``plays`` cards into play, after the standard player's passes."""
    s = State.new(seed=seed, rules=rules)
    for seat in range(4):
        s.apply(seat, choose(s, seat, "standard", 0.0, seed=seed))
    rng = random.Random(seed)
    for _ in range(plays):
        s.apply(s.turn, rng.choice(s.legal_actions(s.turn)))
    return s


def _played_mask(s: State) -> int:
    mask = 0
    for _, c in s.played:
        mask |= 1 << c
    return mask


def _engine_play_out(s: State, sharp: bool) -> list[int]:
    """Finish the hand in the engine, every seat playing the policy's card."""
    hand_number = s.hand_number
    while s.hand_number == hand_number and not s.is_over():
        seat = s.turn
        card = pick(
            seat,
            s.hands[seat],
            s.legal_mask(seat),
            list(s.trick),
            s.trick_leader,
            _played_mask(s),
            list(s.points),
            True,
            sharp,
        )
        s.apply(seat, format_play(to_card(card)))
    return list(s.history[-1]["taken"])


SEEDS = 25
RULES = [Rules(), Rules(two_of_clubs_leads=True, no_points_on_first_trick=True)]


@pytest.mark.parametrize("sharp", [True, False], ids=["sharp", "plain"])
@pytest.mark.parametrize("rules", RULES, ids=["seed-rules", "modern-rules"])
def test_search_playouts_match_the_engine(rules: Rules, sharp: bool) -> None:
    compared = 0
    for seed in range(SEEDS):
        for plays in (0, 1, 5, 14, 27, 41):
            s = _in_play(seed, plays, rules)
            searched = play_out(
                rules,
                list(s.hands),
                list(s.trick),
                s.trick_leader,
                _played_mask(s),
                list(s.points),
                s.hearts_broken,
                s.first_trick,
                sharp=sharp,
            )
            engine = _engine_play_out(s, sharp)
            assert searched == engine, (seed, plays)
            scores, moon = hand_scores(engine)
            assert s.history[-1]["scores"] == scores and s.history[-1]["moon"] == moon
            # the search's objective reads a moon the way the engine scores it
            for seat in range(4):
                if moon is not None:
                    assert (objective(searched, seat) < 0) == (seat == moon)
            compared += 1
    assert compared == SEEDS * 6


def _discard_with_queen_out() -> tuple[State, int, int]:
    """A hold hand (standard play) just after a seat discarded off-suit while the queen of
    spades was still out; the seat to move next and the seat that discarded."""
    for seed in range(50):
        s = State.new(seed=seed)
        s.hand_number = 3
        s._deal()
        while not s.history:
            seat = s.turn
            lead = s.trick[0] // 13 if s.trick else None
            queen_out = not any(c == QUEEN_OF_SPADES for _, c in s.played)
            s.apply(seat, choose(s, seat, "standard", seed=seed))
            _, card = s.played[-1]
            discarded = lead is not None and card // 13 != lead
            mine = s.hands[s.turn] >> QUEEN_OF_SPADES & 1
            if discarded and queen_out and card != QUEEN_OF_SPADES and s.turn != seat and not mine:
                return s, s.turn, seat
    raise AssertionError("no such position in 50 deals")


@pytest.mark.parametrize("queen_only", [False, True])
def test_samples_where_a_seat_kept_the_queen_over_a_discard_weigh_less(
    monkeypatch: pytest.MonkeyPatch, queen_only: bool
) -> None:
    monkeypatch.setattr(search, "MISMATCH_WEIGHT", 0.5)
    monkeypatch.setattr(search, "QUEEN_ONLY", queen_only)
    monkeypatch.setattr(search, "SHARP", True)  # the standard level's player made the plays
    s, me, discarder = _discard_with_queen_out()
    k = Knowledge.from_view(s.view(me))
    past = past_decisions(k)
    assert past and all(seat != me and trick for seat, _, _, trick, *_ in past)
    rng = random.Random(1)
    weights: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(300):
        hands = k.sample(rng)
        holds = bool(hands[discarder] >> QUEEN_OF_SPADES & 1)
        weights[holds].append(plausibility(k, hands, past))
    assert weights[True] and weights[False]
    # the rule-based player dumps the queen when it discards: holding it contradicts the play
    assert max(weights[True]) <= 0.5 * max(weights[False])
    # the real deal fits the standard players' plays perfectly
    assert plausibility(k, list(s.hands), past) == 1.0
