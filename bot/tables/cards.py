"""Cards in the words and symbols of button labels and messages (Discord shows suit symbols).

>>> from games.cards import Card
>>> card_label(Card.parse("TD")), card_label(Card.parse("QS")), codes_label(["QS", "TD"])
('10♦', 'Q♠', 'Q♠ 10♦')
"""

from __future__ import annotations

from collections.abc import Iterable

from games.cards import Card

SUIT_SYMBOLS = "♣♦♥♠"  # clubs, diamonds, hearts, spades: the order of games.cards.Suit


def card_label(card: Card) -> str:
    """The card's index and suit symbol, as printed in a corner: ``Q♠``, ``10♦``."""
    return card.rank.label + SUIT_SYMBOLS[card.suit]


def cards_label(cards: Iterable[Card]) -> str:
    """``"Q♠ 3♥"``."""
    return " ".join(card_label(c) for c in cards)


def codes_label(codes: Iterable[str]) -> str:
    """``"Q♠ 10♦"`` from card codes ``["QS", "TD"]``."""
    return cards_label(Card.parse(code) for code in codes)
