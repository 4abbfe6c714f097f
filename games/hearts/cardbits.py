"""Cards as small ints and hands as bitmasks, with Hearts' ranking (aces high).

A card is ``suit * 13 + order`` where ``order`` runs 0 (two) .. 12 (ace), so within a suit a
higher bit is a higher card. A hand is an ``int`` with one bit per card. The engine keeps
:class:`games.cards.Card` values; the AI works on these ints.

>>> to_card(QUEEN_OF_SPADES)
Card(rank=<Rank.QUEEN: 12>, suit=<Suit.SPADES: 3>)
>>> from_card(Card.parse("2C")), from_card(Card.parse("AH"))
(0, 38)
"""

from __future__ import annotations

from collections.abc import Iterable

from games.cards import Card, Rank, Suit

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
FULL_SUIT = (1 << 13) - 1
SUIT_MASK = tuple(FULL_SUIT << (13 * s) for s in range(4))
ALL_CARDS = (1 << 52) - 1
HEARTS_MASK = SUIT_MASK[HEARTS]
QUEEN_OF_SPADES = SPADES * 13 + 10
QS_BIT = 1 << QUEEN_OF_SPADES
POINT_MASK = HEARTS_MASK | QS_BIT
TWO_OF_CLUBS = 0


def hearts_rank(card: Card) -> int:
    """The card's strength in Hearts: 2..14, aces high."""
    return 14 if card.rank is Rank.ACE else int(card.rank)


def from_card(card: Card) -> int:
    return int(card.suit) * 13 + hearts_rank(card) - 2


def to_card(c: int) -> Card:
    return _CARDS[c]


def mask_of(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << from_card(card)
    return mask


def cards_of(mask: int) -> list[int]:
    """The ints in ``mask``, lowest first (suit by suit, low to high)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def highest(mask: int) -> int:
    return mask.bit_length() - 1


def points_in(mask: int) -> int:
    return (mask & HEARTS_MASK).bit_count() + (13 if mask & QS_BIT else 0)


def sort_key(card: Card) -> tuple[int, int]:
    """Display order for a hand: clubs, diamonds, spades, hearts; low to high within a suit."""
    return (_DISPLAY_SUIT[card.suit], hearts_rank(card))


_DISPLAY_SUIT = {Suit.CLUBS: 0, Suit.DIAMONDS: 1, Suit.SPADES: 2, Suit.HEARTS: 3}
_CARDS = tuple(
    Card(Rank.ACE if o == 12 else Rank(o + 2), Suit(s)) for s in range(4) for o in range(13)
)
