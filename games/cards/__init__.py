"""Playing cards shared by Kabu, Quatorze and Hearts.

>>> Card.parse("QS")
Card(rank=<Rank.QUEEN: 12>, suit=<Suit.SPADES: 3>)
>>> str(Card(Rank.TEN, Suit.DIAMONDS))
'TD'
>>> len(shuffled_deck(7))
52
"""

from games.cards.card import Card, Rank, Suit, full_deck
from games.cards.deck import cards_from_text, cards_to_text, shuffled_deck

__all__ = [
    "Card",
    "Rank",
    "Suit",
    "cards_from_text",
    "cards_to_text",
    "full_deck",
    "shuffled_deck",
]
