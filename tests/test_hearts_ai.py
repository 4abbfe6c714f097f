"""The Hearts computer: legal, fair (it sees only its view), and sensible."""

from __future__ import annotations

import random

import pytest

from games.cards import Card, Suit, cards_from_text, full_deck
from games.hearts import LEVELS, State, choose, choose_from_view
from games.hearts.cardbits import from_card, mask_of
from games.hearts.knowledge import Knowledge
from games.hearts.policy import pass_cards

SAMPLES = 40  # deals a searched decision looks at in these tests (fixed: no clock)


def _deal_of(hands: list[str]) -> list[Card]:
    cards = [cards_from_text(h) for h in hands]
    return [cards[(1 + j) % 4][i] for i in range(13) for j in range(4)]


def _playing(hands: list[str], leader: int, **extra) -> State:
    d = State.new(seed=0).to_dict()
    d.update(phase="play", turn=leader, trick_leader=leader, passes=[None] * 4, hands=hands)
    d.update(extra)
    return State.from_dict(d)


def _late(hands: list[str], leader: int, points_to: tuple[int, ...] = (2,)) -> State:
    """A consistent late position: every other card already played, its points to the seats
    ``points_to`` (one point to each but the last, the rest to the last)."""
    held = {c for h in hands for c in cards_from_text(h)}
    rest = [c for c in full_deck() if c not in held]
    played = [[(leader + i) % 4, str(c)] for i, c in enumerate(rest)]
    pts = sum(1 for c in rest if c.suit is Suit.HEARTS) + (13 if Card.parse("QS") in rest else 0)
    hearts = any(c.suit is Suit.HEARTS for c in rest)
    points = [0, 0, 0, 0]
    for seat in points_to[:-1]:
        points[seat] += 1
    points[points_to[-1]] += pts - len(points_to) + 1
    return _playing(hands, leader, played=played, points=points, hearts_broken=hearts)


def _advance(seed: int, plays: int) -> State:
    s = State.new(seed=seed)
    for seat in range(4):
        s.apply(seat, choose(s, seat, "standard", 0.01, seed=seed))
    for _ in range(plays):
        s.apply(s.turn, choose(s, s.turn, "standard", 0.01, seed=seed))
    return s


def test_levels_weakest_first_expert_last() -> None:
    assert LEVELS == ("beginner", "standard", "expert")
    with pytest.raises(ValueError):
        choose(State.new(seed=1), 0, "grandmaster", 0.1, seed=0)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_always_returns_a_legal_action(level: str) -> None:
    for seed in range(3):
        s = _advance(seed, plays=seed * 9 + 2)
        seat = s.turn
        assert choose(s, seat, level, seed=seed, limit=6) in s.legal_actions(seat)
        fresh = State.new(seed=seed)
        assert choose(fresh, 1, level, seed=seed, limit=6) in fresh.legal_actions(1)


def _reshuffle_hidden(s: State, seat: int, rng: random.Random) -> State:
    """Another state with the same view for ``seat``: the other seats' unknown cards redealt."""
    v = s.view(seat)
    k = Knowledge.from_view(v)
    d = s.to_dict()
    hands = k.sample(rng)
    from games.hearts.state import _text

    d["hands"] = [_text(h) for h in hands]
    other = State.from_dict(d)
    assert other.view(seat) == v
    return other


@pytest.mark.parametrize("level", LEVELS)
def test_the_choice_does_not_depend_on_hidden_cards(level: str) -> None:
    rng = random.Random(5)
    for plays in (0, 6, 17, 30):
        s = _advance(11, plays)
        seat = s.turn
        first = choose_from_view(s.view(seat), level, 0.0, seed=3, samples=6)
        for _ in range(2):
            other = _reshuffle_hidden(s, seat, rng)
            assert other.to_dict()["hands"] != s.to_dict()["hands"] or plays > 40
            assert choose_from_view(other.view(seat), level, 0.0, seed=3, samples=6) == first


def test_choose_reads_only_the_view() -> None:
    s = _advance(4, 5)

    class OnlyView:
        def view(self, seat: int):
            return s.view(seat)

    for level in LEVELS:
        assert choose(OnlyView(), s.turn, level, seed=1, limit=6) in s.legal_actions(s.turn)


def test_the_sampled_deals_respect_shown_voids_and_my_pass() -> None:
    s = _advance(8, 24)
    seat = s.turn
    k = Knowledge.from_view(s.view(seat))
    rng = random.Random(0)
    for _ in range(30):
        hands = k.sample(rng)
        assert hands[seat] == k.hand
        for other in range(4):
            assert hands[other].bit_count() == k.cards_left[other]
            assert hands[other] & k.known[other] == k.known[other]
            for suit in range(4):
                if k.voids[other] >> suit & 1:
                    assert not hands[other] >> (13 * suit) & 0x1FFF


def _decide(s: State, seat: int, level: str, seed: int = 0) -> str:
    """A decision with a fixed number of sampled deals: the same on any machine, at any load."""
    return choose_from_view(s.view(seat), level, seed=seed, samples=SAMPLES)


def test_computer_dumps_the_queen_of_spades_when_void() -> None:
    # Seat 1 is void in clubs and holds the queen with two winning diamonds that would later
    # force it to lead into the queen. Points are already split, so no one can shoot the moon:
    # giving the queen away now is strictly best.
    hands = ["2C 3C 4C", "QS AD KD", "6C 3S 8D", "8C 9D TD"]
    s = _late(hands, leader=0, points_to=(0, 2))
    s.apply(0, "2C")
    for level in LEVELS:
        for seed in range(3):
            assert _decide(s, 1, level, seed) == "QS"


def test_computer_ducks_under_the_winning_card() -> None:
    s = _late(["TC 3D 4D", "2C JC 5D", "6D 7D 8D", "8H 9D TD"], leader=0)
    s.apply(0, "TC")
    for level in LEVELS:
        for seed in range(3):
            assert _decide(s, 1, level, seed) == "2C"


def test_computer_passes_the_queen_and_high_spades_when_short() -> None:
    hand = mask_of(cards_from_text("QS AS 3S 2C 4C 6C 8D 9D TD 2H 3H 4H 5H"))
    passed = pass_cards(hand, smart=True)
    assert passed == mask_of(cards_from_text("QS AS TD")) or passed & (
        1 << from_card(Card.parse("QS"))
    )
    assert passed.bit_count() == 3


def test_expert_shoots_the_moon_with_a_dominating_hand() -> None:
    hands = [
        "AH KH QH JH TH 9H 8H AS KS QS AC KC AD",
        "2C 3C 4C 5C 6C 7C 2D 3D 4D 5D 2S 3S 4S",
        "8C 9C TC JC QC 6D 7D 8D 9D 5S 6S 7S 2H",
        "TD JD QD KD 8S 9S TS JS 3H 4H 5H 6H 7H",
    ]
    s = State.new(seed=0, deal=_deal_of(hands))
    d = s.to_dict()
    d.update(hand_number=3, first_dealer=1, phase="play", turn=0, trick_leader=0)
    s = State.from_dict(d)  # a hold hand led by the strong seat
    assert s.pass_direction.value == "hold"
    levels = ["expert", "standard", "standard", "standard"]
    while not s.history:
        s.apply(s.turn, choose(s, s.turn, levels[s.turn], seed=2, limit=SAMPLES))
    assert s.history[0]["moon"] == 0
    assert s.totals == [0, 26, 26, 26]


def test_the_expert_repeats_itself_for_a_fixed_seed_and_limit() -> None:
    # a hold hand played through: every decision legal, and the same again from the same view
    s = State.new(seed=21)
    s.hand_number = 3
    s._deal()
    while not s.history:
        seat = s.turn
        action = choose(s, seat, "expert", seed=4, limit=4)
        assert action in s.legal_actions(seat)
        if len(s.played) % 7 == 0:
            assert choose(s, seat, "expert", seed=4, limit=4) == action
        s.apply(seat, action)
