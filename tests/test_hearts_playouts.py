"""The Hearts expert's compiled roll-outs (``games/hearts/_playouts.c``) against the Python
reference: the same points, the same objective values, the same searched card.

Skipped when the module was not built (no C compiler at install time); under ``CI=true`` a
missing module fails instead, since CI always has a compiler.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from games.hearts import State, choose, search
from games.hearts.cardbits import HEARTS, cards_of
from games.hearts.knowledge import Knowledge
from games.hearts.rules import MOON_POINTS, Rules, legal_mask
from games.hearts.search import objective, play_out, take_trick

if search._compiled is None and os.environ.get("CI") == "true":
    pytest.fail("the compiled Hearts roll-outs were not built; CI has a compiler", pytrace=False)
pytestmark = pytest.mark.skipif(
    search._compiled is None, reason="games.hearts._playouts is not built (no C compiler)"
)

RULES = [Rules(), Rules(two_of_clubs_leads=True, no_points_on_first_trick=True)]

# play_out's arguments: rules, hands, trick, leader, played, points, broken, first_trick.
Position = tuple[Rules, list[int], list[int], int, int, list[int], bool, bool]


def _hands_in_play(seeds: range, rules: Rules) -> list[tuple[Position, Knowledge]]:
    """Every position of one hand a seed (the standard player's passes, then random plays),
    with what the seat to play knows: every trick position, from the first card to the last."""
    found = []
    for seed in seeds:
        s = State.new(seed=seed, rules=rules)
        for seat in range(4):
            s.apply(seat, choose(s, seat, "standard", 0.0, seed=seed))
        rng = random.Random(seed)
        for _ in range(52):
            assert s.turn is not None
            played = 0
            for _, c in s.played:
                played |= 1 << c
            position = (
                rules,
                list(s.hands),
                list(s.trick),
                s.trick_leader,
                played,
                list(s.points),
                s.hearts_broken,
                s.first_trick,
            )
            found.append((position, Knowledge.from_view(s.view(s.turn))))
            s.apply(s.turn, rng.choice(s.legal_actions(s.turn)))
    return found


def _one_taker(p: Position, seat: int) -> Position:
    """The same cards with every point so far (at least 14) taken by ``seat``: the policy's
    moon shooting and moon stopping."""
    points = [0] * 4
    points[seat] = max(sum(p[5]), 14)
    return (*p[:5], points, *p[6:])


def _moon_deal(seed: int, rules: Rules) -> tuple[Position, int]:
    """A deal where one seat holds 13 of the 20 top cards (it often takes every point), a few
    random cards into the hand; and that seat."""
    rng = random.Random(seed)
    deck = sorted(range(52), key=lambda c: (-(c % 13), rng.random()))
    shooter = seed % 4
    best = deck[:20]
    rng.shuffle(best)
    rest = best[13:] + deck[20:]
    rng.shuffle(rest)
    hands = [0] * 4
    for c in best[:13]:
        hands[shooter] |= 1 << c
    others = [s for s in range(4) if s != shooter]
    for i, c in enumerate(rest):
        hands[others[i % 3]] |= 1 << c
    trick: list[int] = []
    leader, played, points, broken, first = (shooter + seed // 4) % 4, 0, [0] * 4, False, True
    for _ in range(seed % 12):
        seat = (leader + len(trick)) % 4
        lead = trick[0] // 13 if trick else None
        c = rng.choice(cards_of(legal_mask(hands[seat], lead, first, broken, rules)))
        hands[seat] &= ~(1 << c)
        trick.append(c)
        played |= 1 << c
        broken = broken or c // 13 == HEARTS
        if len(trick) == 4:
            leader = take_trick(leader, trick, points)
            trick, first = [], False
    return (rules, hands, trick, leader, played, points, broken, first), shooter


def _python_play_out(p: Position, card: int = -1, sharp: bool = False) -> list[int]:
    rules, hands, trick, leader, played, points, broken, first = p
    return play_out(
        rules, list(hands), list(trick), leader, played, list(points), broken, first, card, sharp
    )


def _compiled() -> Any:
    assert search._compiled is not None
    return search._compiled


def _mover_cards(p: Position) -> list[int]:
    return cards_of(p[1][(p[3] + len(p[2])) % 4])


@pytest.mark.parametrize("rules", RULES, ids=["seed-rules", "modern-rules"])
def test_compiled_play_outs_take_the_same_points(rules: Rules) -> None:
    moons = 0
    for n, (base, _) in enumerate(_hands_in_play(range(3), rules)):
        for p in (base, _one_taker(base, n % 4)):
            for sharp in (False, True):
                expected = _python_play_out(p, sharp=sharp)
                assert _compiled().play_out(*p, sharp=sharp) == expected, (n, sharp)
                moons += MOON_POINTS in expected
    assert moons >= 10  # the moon is counted


@pytest.mark.parametrize("rules", RULES, ids=["seed-rules", "modern-rules"])
def test_compiled_objectives_equal_the_searchs_on_sampled_deals(
    rules: Rules, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(5)
    for n, (p, k) in enumerate(_hands_in_play(range(3, 6), rules)):
        cards = cards_of(k.legal())
        for hands in (p[1], k.sample(rng)):
            expected = search.rollouts(k, hands, cards, compiled=False)
            assert search.rollouts(k, hands, cards, compiled=True) == expected, n
        if n % 10 == 0:  # another weight of the others' points, read at each call
            monkeypatch.setattr(search, "OTHERS_WEIGHT", 0.3)
            assert search.rollouts(k, hands, cards, True) == search.rollouts(k, hands, cards, False)
            monkeypatch.undo()


@pytest.mark.parametrize("sharp", [True, False], ids=["sharp", "plain"])
def test_compiled_objectives_equal_pythons_for_moon_shots_and_any_seat(
    sharp: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    shots = 0
    for n in range(40):
        p, shooter = _moon_deal(n, RULES[n % 2])
        cards = _mover_cards(p)
        for seat in (shooter, (shooter + 1 + n) % 4):
            for weight in (0.5, 0.3):
                monkeypatch.setattr(search, "OTHERS_WEIGHT", weight)
                expected = [objective(_python_play_out(p, c, sharp), seat) for c in cards]
                assert _compiled().rollouts(*p, cards, seat, weight, sharp) == expected, n
        shots += _compiled().play_out(*p, sharp=sharp)[shooter] == MOON_POINTS
    assert shots >= 10


def test_search_play_gives_the_same_card_either_way(monkeypatch: pytest.MonkeyPatch) -> None:
    positions = _hands_in_play(range(10, 11), RULES[0]) + _hands_in_play(range(11, 12), RULES[1])
    searched = 0
    for n, (_, k) in enumerate(positions[::4]):
        played = []
        for core in ("", "python"):
            monkeypatch.setenv(search.CORE_ENV, core)
            assert search.compiled_available() is (core == "")
            played.append(search.search_play(k, 0.0, random.Random(n), 12, 12))
        assert played[0] == played[1], n
        searched += len(search.candidates(k, k.legal())) > 1
    assert searched >= 10


def test_bad_input_is_refused_not_crashed_on() -> None:
    good = _hands_in_play(range(1), RULES[0])[6][0]  # the second trick, two cards down
    rules, hands, trick, leader, played, points, broken, first = good
    mover = (leader + len(trick)) % 4
    not_mine = cards_of(hands[(mover + 1) % 4])[0]
    assert _compiled().play_out(*good) == _python_play_out(good)
    for args in (
        (rules, hands[:3], trick, leader, played, points, broken, first),  # three hands
        (rules, [hands[0] | 1 << 52, *hands[1:]], trick, leader, played, points, broken, first),
        (rules, [-1, *hands[1:]], trick, leader, played, points, broken, first),
        (rules, [hands[0] | hands[1], *hands[1:]], trick, leader, played, points, broken, first),
        (rules, hands, [*trick, 5, 6], leader, played, points, broken, first),  # four cards
        (rules, hands, [trick[0], 52], leader, played, points, broken, first),
        (rules, hands, [trick[0], trick[0]], leader, played, points, broken, first),
        (rules, hands, [trick[0], not_mine], leader, played, points, broken, first),  # held
        (rules, hands, trick, 4, played, points, broken, first),
        (rules, hands, trick, leader, -1, points, broken, first),
        (rules, hands, trick, leader, played, points[:3], broken, first),
        (rules, hands, trick, leader, played, [27, 0, 0, 0], broken, first),
        (rules, [0, 0, 0, 0], trick, leader, played, points, broken, first),  # nothing to play
        (*good, not_mine),  # not the mover's card
        (*good, 52),
    ):
        with pytest.raises(ValueError):
            _compiled().play_out(*args)
    for cards, seat in (([not_mine], mover), ([52], mover), (_mover_cards(good), 4)):
        with pytest.raises(ValueError):
            _compiled().rollouts(*good, cards, seat, 0.5)
