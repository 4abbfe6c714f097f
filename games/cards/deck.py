"""Shuffling from a stored seed, and the text form of a list of cards."""

from __future__ import annotations

import random
from collections.abc import Iterable

from games.cards.card import Card, full_deck


def shuffled_deck(seed: int) -> list[Card]:
    """A 52-card deck shuffled by ``random.Random(seed)``: the same seed, the same order.

    States store the dealt order itself (``cards_to_text``), so a stored deal replays even if
    this shuffle ever changed.
    """
    deck = full_deck()
    random.Random(seed).shuffle(deck)
    return deck


def cards_to_text(cards: Iterable[Card]) -> str:
    """``"QS TD AH"``: the JSON-friendly form of a list of cards."""
    return " ".join(str(card) for card in cards)


def cards_from_text(text: str) -> list[Card]:
    """The inverse of :func:`cards_to_text`."""
    return [Card.parse(part) for part in text.split()]
