"""Finding the cards a text names, to prove no hidden Hearts card reaches the wrong eyes.

Cards are named three ways in what the bot shows: codes (``QS``, ``TD``), index and suit symbol
(``Q♠``, ``10♦``) and words (``queen of spades``, in alt texts). Each is turned back into a code.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from bot.tables.screens import Screen, Select

_RANKS = "A23456789TJQK"
_WORDS = ("ace", "two", "three", "four", "five", "six", "seven")
_WORDS += ("eight", "nine", "ten", "jack", "queen", "king")
_SUITS = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}
_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}

CODE = re.compile(r"(?<![A-Za-z0-9])(10|[2-9TJQKA])([CDHS])(?![A-Za-z0-9])")
SYMBOL = re.compile(r"(10|[2-9JQKA])([♣♦♥♠])")
WORDS = re.compile(
    r"\b(" + "|".join(_WORDS) + r") of (clubs|diamonds|hearts|spades)\b", re.IGNORECASE
)


def _rank(text: str) -> str:
    return "T" if text == "10" else text


def cards_named(text: str) -> set[str]:
    """Every card ``text`` names, as codes.

    >>> sorted(cards_named("Bob played Q♠; ten of hearts; pass-2C-TD"))
    ['2C', 'QS', 'TD', 'TH']
    """
    found = {_rank(r) + s for r, s in CODE.findall(text)}
    found |= {_rank(r) + _SYMBOLS[s] for r, s in SYMBOL.findall(text)}
    for rank, suit in WORDS.findall(text):
        found.add(_RANKS[_WORDS.index(rank.lower())] + _SUITS[suit.lower()])
    return found


def screen_texts(screen: Screen) -> list[str]:
    """Everything a member reads on a message: content, embed, alt texts, control labels."""
    texts = [screen.content]
    if screen.embed is not None:
        e = screen.embed
        texts += [e.title, e.description, e.footer, *(f.name + " " + f.value for f in e.fields)]
    texts += [p.description for p in screen.pictures]
    for row in screen.rows:
        items = [row] if isinstance(row, Select) else list(row)
        for item in items:
            texts.append(getattr(item, "label", "") + " " + getattr(item, "placeholder", ""))
            texts += [
                f"{o.label} {o.value} {o.description or ''}" for o in getattr(item, "options", ())
            ]
    return texts


def hidden_cards(state: dict[str, Any], seat: int | None) -> set[str]:
    """The cards still held by the seats other than ``seat`` (None: every seat), less the
    cards ``seat`` passed this hand (it knows where those went)."""
    hidden: set[str] = set()
    for other, hand in enumerate(state["hands"]):
        if other != seat:
            hidden |= set(hand.split())
    if seat is not None and state["passes"][seat]:
        hidden -= set(state["passes"][seat].split())
    return hidden


def leaked(
    screens: Iterable[Screen | None], states: list[dict[str, Any]], seat: int | None
) -> set[str]:
    """Cards hidden from ``seat`` in every one of ``states`` that some of ``screens`` name."""
    secret = set.intersection(*(hidden_cards(state, seat) for state in states))
    found: set[str] = set()
    for screen in screens:
        if screen is not None:
            for text in screen_texts(screen):
                found |= cards_named(text) & secret
    return found
