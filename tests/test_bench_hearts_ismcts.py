"""The OpenSpiel bench's translation between the two engines and its hand log (OpenSpiel itself
is not needed: the bench imports it only to play)."""

from __future__ import annotations

import json

import pytest

from bench.strength.hearts_ismcts import (
    HAND_NUMBERS,
    MODERN,
    deal_order,
    from_openspiel,
    record,
    show_hand,
    to_openspiel,
)
from games.cards import Card
from games.hearts import State, choose
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


@pytest.mark.parametrize("kind", ["left", "hold"])
def test_a_logged_hand_replays_trick_by_trick(kind: str) -> None:
    s = State.new(seed=11, rules=MODERN)
    s.hand_number = HAND_NUMBERS[kind]
    s._deal()
    dealt = list(s.hands)
    while not s.history:
        seat = s.to_act()[0]
        s.apply(seat, choose(s, seat, "standard", seed=0))
    logged = json.loads(json.dumps(record(s, 11, 2, "standard")))  # as --log writes it
    assert (logged["number"], logged["kind"], logged["ours"]) == (11, kind, 2)
    text = show_hand(logged).splitlines()
    assert text[0].startswith(f"deal 11 ({kind}), standard in seat 2: scores {logged['scores']}")
    assert text[3].startswith("* seat 2: ")
    tricks = [line for line in text if line.lstrip().startswith("trick")]
    assert len(tricks) == 13
    assert tricks[-1].endswith(f"points {logged['taken']}")
    assert tricks[0].split()[2].endswith(":2C")  # the two of clubs leads
    shown = [
        sum(1 << from_card(Card.parse(c)) for c in line.split(": ")[1].split())
        for line in text[1:5]
    ]
    assert [h.bit_count() for h in shown] == [13] * 4
    assert sum(shown) == (1 << 52) - 1
    assert (shown == dealt) == (kind == "hold")  # the hands once passed
