"""Kabu hands: card values, totals, special hands and who beats whom.

Hands are compared by rank only (suits never matter in Kabu), so the odds code works on tuples
of rank numbers (1 = ace .. 13 = king).

>>> total((13, 3, 8)), total((5, 9, 9)), total((4, 5))
(4, 3, 9)
>>> dealer_beats((1, 9), (4, 5), arashi=True)  # Kuppin beats everything
True
"""

from __future__ import annotations

from collections.abc import Sequence

# Value of each rank (index 1..13): A 1, 2-9 face, 10 = 0, J 1, Q 2, K 3.
VALUE = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3)

ACE = 1

# Traditional names of the totals (0 .. 9).
TOTAL_NAMES = (
    "Buta",
    "Pin",
    "Nizo",
    "Santa",
    "Yotsuya",
    "Goke",
    "Roppo",
    "Shichiken",
    "Oicho",
    "Kabu",
)

# Hand kinds; a hand's strength is (kind, total).
PLAIN = 0
ARASHI = 1
SHIPPIN = 2  # player only
KUPPIN = 3  # dealer only


def total(ranks: Sequence[int]) -> int:
    """The last digit of the sum of the card values."""
    return sum(VALUE[r] for r in ranks) % 10


def is_shippin(ranks: Sequence[int]) -> bool:
    """A player's two-card ace and 4."""
    return len(ranks) == 2 and sorted(ranks) == [1, 4]


def is_kuppin(ranks: Sequence[int]) -> bool:
    """The dealer's two-card ace and 9."""
    return len(ranks) == 2 and sorted(ranks) == [1, 9]


def is_arashi(ranks: Sequence[int]) -> bool:
    """Three cards of one rank."""
    return len(ranks) == 3 and ranks[0] == ranks[1] == ranks[2]


def player_kind(ranks: Sequence[int], arashi: bool) -> int:
    if is_shippin(ranks):
        return SHIPPIN
    if arashi and is_arashi(ranks):
        return ARASHI
    return PLAIN


def dealer_kind(ranks: Sequence[int], arashi: bool) -> int:
    if is_kuppin(ranks):
        return KUPPIN
    if arashi and is_arashi(ranks):
        return ARASHI
    return PLAIN


def dealer_beats_kinds(dkind: int, dtotal: int, pkind: int, ptotal: int) -> bool:
    """Whether the dealer's hand beats the player's, given both kinds and totals."""
    if dkind == KUPPIN:
        return True
    if pkind == SHIPPIN:
        return False
    if (pkind == ARASHI or dkind == ARASHI) and pkind != dkind:
        return dkind == ARASHI
    return dtotal >= ptotal  # ties go to the dealer


def dealer_beats(dealer: Sequence[int], player: Sequence[int], arashi: bool) -> bool:
    """Whether the dealer's hand beats the player's hand (ties go to the dealer)."""
    return dealer_beats_kinds(
        dealer_kind(dealer, arashi), total(dealer), player_kind(player, arashi), total(player)
    )


def hand_name(ranks: Sequence[int], *, dealer: bool, arashi: bool) -> str:
    """``"Kuppin"``, ``"Shippin"``, ``"Arashi"`` or the traditional name of the total."""
    if dealer and is_kuppin(ranks):
        return "Kuppin"
    if not dealer and is_shippin(ranks):
        return "Shippin"
    if arashi and is_arashi(ranks):
        return "Arashi"
    return TOTAL_NAMES[total(ranks)]
