"""The rule-based player's sharp habits (the expert's roll-outs): unload high cards while free."""

from __future__ import annotations

from games.cards import Card, cards_from_text
from games.hearts.cardbits import from_card, mask_of
from games.hearts.policy import pick


def _c(text: str) -> int:
    return from_card(Card.parse(text))


def _played(text: str) -> int:
    return mask_of(cards_from_text(text)) if text else 0


def test_last_seat_takes_a_pointless_trick_with_its_top_card_when_sharp() -> None:
    hand = mask_of(cards_from_text("3D 9D KD 4C"))
    legal = mask_of(cards_from_text("3D 9D KD"))
    trick = [_c("5D"), _c("TD"), _c("7D")]
    args = (0, hand, legal, trick, 1, _played("5D TD 7D"), [0, 0, 0, 0])
    assert pick(*args, smart=True) == _c("9D")  # plain: the highest card that ducks
    assert pick(*args, smart=True, sharp=True) == _c("KD")


def test_sharp_still_ducks_a_trick_with_points_and_guards_the_queen() -> None:
    hand = mask_of(cards_from_text("3D 9D KD 4C"))
    trick = [_c("5D"), _c("2H"), _c("TD")]  # a heart in it: duck
    legal = mask_of(cards_from_text("3D 9D KD"))
    points = [0, 0, 0, 0]
    assert pick(0, hand, legal, trick, 1, _played("5D 2H TD"), points, True, True) == _c("9D")
    spades = mask_of(cards_from_text("4S AS"))
    trick = [_c("5S"), _c("8S"), _c("7S")]  # spades with the queen still out: no ace
    assert pick(0, spades, spades, trick, 1, _played("5S 8S 7S"), points, True, True) == _c("4S")


def test_sharp_leads_a_fresh_side_suit_high_under_the_top_card_out() -> None:
    hand = mask_of(cards_from_text("2C 9C QC 5D 8D JD 7H 8H"))
    played = _played("2H 3H 4H 5H")  # hearts broken elsewhere; clubs and diamonds fresh
    plain = pick(0, hand, hand, [], 0, played, [0, 4, 0, 0], smart=True)
    sharp = pick(0, hand, hand, [], 0, played, [0, 4, 0, 0], smart=True, sharp=True)
    assert plain // 13 == sharp // 13 and plain % 13 < sharp % 13
    assert (plain, sharp) == (_c("2C"), _c("QC"))  # the ace of clubs is still out
