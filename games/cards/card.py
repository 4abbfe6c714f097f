"""Rank, suit and card: small frozen values with a two-letter text form (``QS``, ``TD``, ``AH``)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from games.base import IllegalAction


class Suit(IntEnum):
    """The four suits, in the order clubs, diamonds, hearts, spades."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @classmethod
    def parse(cls, text: str) -> Suit:
        index = "CDHS".find(text.upper())
        if len(text) != 1 or index < 0:
            raise IllegalAction(f"`{text}` is not a suit (C, D, H or S).")
        return cls(index)


class Rank(IntEnum):
    """Ranks from ace (1) to king (13). Games give them their own values."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def letter(self) -> str:
        return "A23456789TJQK"[self - 1]

    @property
    def label(self) -> str:
        """The index printed on a card face: ``A``, ``2`` .. ``10``, ``J``, ``Q``, ``K``."""
        return "10" if self is Rank.TEN else self.letter

    @classmethod
    def parse(cls, text: str) -> Rank:
        text = text.upper()
        if text == "10":
            return cls.TEN
        index = "A23456789TJQK".find(text)
        if len(text) != 1 or index < 0:
            raise IllegalAction(f"`{text}` is not a rank (A, 2-9, T, J, Q or K).")
        return cls(index + 1)


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card. Ordered by suit, then rank (ace low); games that rank aces high say so."""

    rank: Rank
    suit: Suit

    def __str__(self) -> str:
        return self.rank.letter + self.suit.letter

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``QS``, ``td``, ``10H``; raise :class:`IllegalAction` on anything else."""
        text = text.strip()
        if len(text) not in (2, 3):
            raise IllegalAction(f"`{text}` is not a card (write it like QS or TD).")
        return cls(Rank.parse(text[:-1]), Suit.parse(text[-1]))

    @property
    def index(self) -> int:
        """0..51, suit-major: the card's position in a new deck."""
        return self.suit * 13 + self.rank - 1


_BY_INDEX = tuple(Card(Rank(r), Suit(s)) for s in range(4) for r in range(1, 14))


def full_deck() -> list[Card]:
    """The 52 cards in new-deck order (clubs A..K, diamonds, hearts, spades)."""
    return list(_BY_INDEX)
