"""The computer player: ``choose`` reads only the seat's view, so it plays fair.

Levels, weakest first: ``beginner`` (rule-based habits), ``standard`` (rule-based with card
counting, spade fishing, moon shooting/stopping and unloading high cards while it is free),
``expert`` (Monte Carlo search over deals consistent with the view, rolled out by the rule-based
player; it passes as the standard player).

>>> from games.hearts.state import State
>>> s = State.new(seed=2)
>>> all(choose(s, seat, "expert", 0.05, seed=0) in s.legal_actions(seat) for seat in range(4))
True
"""

from __future__ import annotations

import random

from games.base import IllegalAction
from games.hearts.actions import format_pass, format_play
from games.hearts.cardbits import cards_of, to_card
from games.hearts.knowledge import Knowledge, parse_mask
from games.hearts.policy import pass_cards, pick
from games.hearts.search import search_play
from games.hearts.state import HeartsView, State

LEVELS: tuple[str, ...] = ("beginner", "standard", "expert")
DEFAULT_BUDGET = 0.5


def choose(
    state: State | HeartsView,
    seat: int,
    level: str = "expert",
    budget: float = DEFAULT_BUDGET,
    seed: int = 0,
    *,
    limit: int | None = None,
) -> str:
    """The computer's action for ``seat``, decided from ``state.view(seat)`` alone (``state``
    may also be that view itself). ``limit``: a fixed number of sampled deals instead of the
    time ``budget``, so the answer depends on the arguments only (tests)."""
    view = state if isinstance(state, dict) else state.view(seat)
    if view["seat"] != seat:
        raise ValueError("The view belongs to another seat.")
    return choose_from_view(view, level, budget, seed, samples=limit)


def choose_from_view(
    view: HeartsView,
    level: str = "expert",
    budget: float = DEFAULT_BUDGET,
    seed: int = 0,
    samples: int | None = None,
) -> str:
    """The action for the view's seat. ``samples`` fixes the search's deal count (tests)."""
    if level not in LEVELS:
        raise ValueError(f"Unknown level {level!r}; choose one of {', '.join(LEVELS)}.")
    seat = view["seat"]
    if seat is None or seat not in view["to_act"]:
        raise IllegalAction("It is not this seat's turn.")
    hand = parse_mask(view["hand"])
    if view["phase"] == "pass":
        # The expert passes as the standard player does (why: docs/hearts-strength.md).
        passed = pass_cards(hand, level != "beginner")
        return format_pass(to_card(c) for c in cards_of(passed))
    k = Knowledge.from_view(view)
    legal = k.legal()
    if not legal & (legal - 1):
        return format_play(to_card(legal.bit_length() - 1))
    if level == "expert":
        rng = random.Random(f"hearts-ai:{seed}:{seat}:{len(view['played'])}")
        if samples is not None:
            card = search_play(k, 1e9, rng, min_samples=samples, max_samples=samples)
        else:
            card = search_play(k, budget * 0.9, rng)
    else:
        card = pick(
            seat,
            k.hand,
            legal,
            list(k.trick),
            k.leader,
            k.played,
            list(k.points),
            smart=level == "standard",
            sharp=level == "standard",
        )
    return format_play(to_card(card))
