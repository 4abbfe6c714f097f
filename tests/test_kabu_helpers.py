"""Shared helpers for the Kabu tests: decks in a chosen order and an independent referee."""

from __future__ import annotations

from games.cards import Card, cards_from_text, full_deck
from games.kabu import Rules, State


def deck(first: str, rest: str = "") -> list[Card]:
    """A deck starting with ``first`` (five position cards, the dealer's card) then ``rest``,
    then every other card in new-deck order."""
    head = cards_from_text(first + " " + rest)
    return head + [c for c in full_deck() if c not in head]


def table(first: str, rest: str = "", players: int = 1, arashi: bool = True) -> State:
    return State.from_deck(deck(first, rest), players=players, rules=Rules(arashi=arashi))


# -- an independent referee, written from RULES.md without the engine's code ---------------


def points(rank: int) -> int:
    return {1: 1, 10: 0, 11: 1, 12: 2, 13: 3}.get(rank, rank)


def strength(hand: tuple[int, ...], dealer: bool, arashi: bool) -> tuple[int, int]:
    """A (class, total) pair: Kuppin/Shippin 3, Arashi 2, plain 1."""
    total = sum(points(r) for r in hand) % 10
    if len(hand) == 2 and sorted(hand) == ([1, 9] if dealer else [1, 4]):
        return (3, total)
    if arashi and len(hand) == 3 and len(set(hand)) == 1:
        return (2, total)
    return (1, total)


def player_wins(player: tuple[int, ...], dealer: tuple[int, ...], arashi: bool = True) -> bool:
    p = strength(player, False, arashi)
    d = strength(dealer, True, arashi)
    if d[0] == 3:
        return False
    if p[0] == 3:
        return True
    return p > d  # same class: higher total; ties (equal pairs) to the dealer


def referee_dealer_draws(
    dealer: tuple[int, int], seated: list[tuple[int, ...]], unseen: list[int], arashi: bool = True
) -> bool:
    """The dealer's rule, by listing every unseen card one by one."""
    if sorted(dealer) == [1, 9]:
        return False
    total = sum(points(r) for r in dealer) % 10
    if total <= 3:
        return True
    if total >= 7:
        return False
    cards = [r for r in range(1, 14) for _ in range(unseen[r])]
    stand = sum(not player_wins(h, dealer, arashi) for h in seated)
    draw = sum(not player_wins(h, (*dealer, c), arashi) for c in cards for h in seated)
    return draw > len(cards) * stand
