"""The expert's playouts follow the engine's rules: the same cards played by the same policy
give the same trick winners, points and hand scores in the search as in ``State``."""

from __future__ import annotations

import random

import pytest

from games.hearts import State, choose
from games.hearts.actions import format_play
from games.hearts.cardbits import to_card
from games.hearts.policy import pick
from games.hearts.rules import Rules, hand_scores
from games.hearts.search import objective, play_out


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
