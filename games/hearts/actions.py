"""The two Hearts actions and their text forms: a play ``QS``, a pass ``pass-2C-QS-AH``.

>>> parse_pass("pass-ah-2c-qs") == parse_pass(format_pass(parse_pass("2C QS AH")))
True
>>> format_pass(parse_pass("AH 2C QS"))
'pass-2C-AH-QS'
>>> format_play(parse_play("qs"))
'QS'
"""

from __future__ import annotations

from collections.abc import Iterable

from games.base import N_, IllegalAction
from games.cards import Card
from games.hearts.cardbits import from_card
from games.hearts.rules import PASS_SIZE

PASS_PREFIX = "pass-"


def format_play(card: Card) -> str:
    return str(card)


def parse_play(text: str) -> Card:
    """A card to play: ``QS``, ``td``, ``10H``."""
    return Card.parse(text)


def format_pass(cards: Iterable[Card]) -> str:
    """The canonical pass: the three cards in a fixed order (clubs low .. spades high)."""
    return PASS_PREFIX + "-".join(str(c) for c in sorted(cards, key=from_card))


def parse_pass(text: str) -> tuple[Card, Card, Card]:
    """Three different cards, written ``pass-2C-QS-AH`` (also ``2C+QS+AH``, ``2C QS AH``)."""
    body = text.strip()
    if body.lower().startswith(PASS_PREFIX):
        body = body[len(PASS_PREFIX) :]
    parts = [p for p in body.replace("+", " ").replace("-", " ").replace(",", " ").split() if p]
    cards = [Card.parse(p) for p in parts]
    if len(cards) != PASS_SIZE or len(set(cards)) != PASS_SIZE:
        raise IllegalAction(N_("Pass exactly three different cards."))
    first, second, third = sorted(cards, key=from_card)
    return first, second, third
