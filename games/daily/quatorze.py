"""The Quatorze deal of the day: one that the solver who sees the stock clears completely.

>>> deal = quatorze_deal(3)
>>> len(deal.deck)
52
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.cards import Card, cards_from_text, cards_to_text, shuffled_deck
from games.quatorze.solver import solve
from games.quatorze.state import GRID

DEAL_NODES = 100_000  # the solver's node budget per deal tried
DEAL_TRIES = 200  # decks tried before giving up (never reached in practice)


@dataclass(frozen=True, slots=True)
class QuatorzeDeal:
    """The 52 cards in dealing order: the first 25 fill the grid, the rest is the stock."""

    deck: tuple[Card, ...]

    def to_text(self) -> str:
        return cards_to_text(list(self.deck))

    @classmethod
    def from_text(cls, text: str) -> QuatorzeDeal:
        return cls(tuple(cards_from_text(text)))


def clears(deck: tuple[Card, ...] | list[Card]) -> bool:
    """True when the stock-knowing solver proves that every card can be paired away."""
    values = [int(c.rank) for c in deck]
    return solve(tuple(values[:GRID]), values[GRID:], node_limit=DEAL_NODES).won


def verify_quatorze(deal: QuatorzeDeal) -> None:
    """Raise ValueError unless the solver clears the deal."""
    if not clears(deal.deck):
        raise ValueError("the solver cannot clear this deal")


def quatorze_deal(seed: int) -> QuatorzeDeal:
    """The first deck shuffled from seeds drawn from ``seed`` that the solver clears."""
    rng = random.Random(seed)
    for _ in range(DEAL_TRIES):
        deck = shuffled_deck(rng.getrandbits(64))
        if clears(deck):
            return QuatorzeDeal(tuple(deck))
    raise RuntimeError(f"no clearable deal within {DEAL_TRIES} tries")
