"""Cards in the words and symbols of button labels and messages (Discord shows suit symbols).

>>> from games.cards import Card
>>> card_label(Card.parse("TD")), card_label(Card.parse("QS"))
('10♦', 'Q♠')
"""

from __future__ import annotations

from games.cards import Card

SUIT_SYMBOLS = "♣♦♥♠"  # clubs, diamonds, hearts, spades: the order of games.cards.Suit


def card_label(card: Card) -> str:
    """The card's index and suit symbol, as printed in a corner: ``Q♠``, ``10♦``."""
    return card.rank.label + SUIT_SYMBOLS[card.suit]


def cards_label(cards: list[Card]) -> str:
    """``"Q♠ 3♥"``."""
    return " ".join(card_label(c) for c in cards)
