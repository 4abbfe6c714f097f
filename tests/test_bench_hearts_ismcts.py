"""The OpenSpiel bench's translation between the two engines (OpenSpiel itself is not needed:
the bench imports it only to play)."""

from __future__ import annotations

from bench.bench_hearts_ismcts import HAND_NUMBERS, MODERN, deal_order, from_openspiel, to_openspiel
from games.cards import Card
from games.hearts import State
from games.hearts.cardbits import from_card


def test_every_card_has_its_openspiel_action_and_back() -> None:
    # OpenSpiel numbers a card rank * 4 + suit, clubs, diamonds, hearts, spades, from the two.
    assert to_openspiel(from_card(Card.parse("2C"))) == 0
    assert to_openspiel(from_card(Card.parse("2S"))) == 3
    assert to_openspiel(from_card(Card.parse("3C"))) == 4
    assert to_openspiel(from_card(Card.parse("QS"))) == 43
    assert to_openspiel(from_card(Card.parse("AS"))) == 51
    assert sorted(to_openspiel(c) for c in range(52)) == list(range(52))
    assert all(from_openspiel(to_openspiel(c)) == c for c in range(52))


def test_the_openspiel_deal_gives_every_seat_its_own_hand() -> None:
    for kind, number in HAND_NUMBERS.items():
        s = State.new(seed=number + 5, rules=MODERN)
        s.hand_number = number
        s._deal()
        dealt = [0] * 4
        for k, action in enumerate(deal_order(s.hands)):
            dealt[k % 4] |= 1 << from_openspiel(action)  # OpenSpiel's k-th card: seat k % 4
        assert dealt == s.hands, kind
        assert s.pass_direction.value == kind
