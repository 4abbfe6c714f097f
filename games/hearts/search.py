"""The expert: perfect-information Monte Carlo. Deal the hidden cards many times consistently
with what the seat knows, play each candidate card out to the end of the hand with the
rule-based policy for all four seats, and keep the card with the best average hand score
(shooting the moon counted: 0 for the shooter, 26 for the others). The roll-outs run compiled
(``_playouts.c``, the same answers) when it was built; ``PARLOUR_HEARTS_CORE=python`` forces the
Python ones, which stay the reference.

What the search is worth, what was tried on top of it and dropped (weighted deals, sharper
roll-outs, more samples, defences against a moon), and why moons shot against it are its weak
spot: docs/hearts-strength.md.
"""

from __future__ import annotations

import os
import random
import time
from typing import TYPE_CHECKING

from games.hearts.cardbits import HEARTS, QUEEN_OF_SPADES, cards_of, points_in
from games.hearts.knowledge import Knowledge
from games.hearts.policy import pick
from games.hearts.rules import MOON_POINTS, Rules, legal_mask, trick_winner

# How much the others' points count against mine in the search's objective (0 = only mine).
OTHERS_WEIGHT = 0.5

# The same roll-outs compiled: mypy reads their stub (_playouts.pyi); at run time the module is
# None when setup.py did not build it (no C compiler at install).
if TYPE_CHECKING:
    import games.hearts._playouts as _compiled
else:
    try:
        import games.hearts._playouts as _compiled
    except ImportError:  # pragma: no cover - depends on the install
        _compiled = None

CORE_ENV = "PARLOUR_HEARTS_CORE"  # "python" forces the Python roll-outs


def compiled_available() -> bool:
    """True when the compiled roll-outs are built and not switched off by ``CORE_ENV``."""
    return _compiled is not None and os.environ.get(CORE_ENV, "").strip().lower() != "python"


def rollout(k: Knowledge, hands: list[int], first: int) -> float:
    """Play ``first`` for ``k.seat`` then the rest of the hand by the policy; my objective."""
    points = play_out(
        k.rules,
        list(hands),
        list(k.trick),
        k.leader,
        k.played,
        list(k.points),
        k.hearts_broken,
        k.first_trick,
        first,
    )
    return objective(points, k.seat)


def rollouts(k: Knowledge, hands: list[int], cards: list[int], compiled: bool) -> list[float]:
    """:func:`rollout` of each of ``cards`` on one sampled deal; with ``compiled``, by the
    compiled roll-outs (the same answers, bit for bit)."""
    if not compiled:
        return [rollout(k, hands, c) for c in cards]
    assert _compiled is not None
    return _compiled.rollouts(
        k.rules,
        hands,
        k.trick,
        k.leader,
        k.played,
        k.points,
        k.hearts_broken,
        k.first_trick,
        cards,
        k.seat,
        OTHERS_WEIGHT,
    )


def take_trick(leader: int, trick: list[int], points: list[int]) -> int:
    """Who takes the four cards of ``trick`` (led by ``leader``), by the engine's own rules;
    the trick's points are added to that seat's in ``points``."""
    winner = trick_winner(leader, trick)
    points[winner] += points_in(
        (1 << trick[0]) | (1 << trick[1]) | (1 << trick[2]) | (1 << trick[3])
    )
    return winner


def play_out(
    rules: Rules,
    hands: list[int],
    trick: list[int],
    leader: int,
    played: int,
    points: list[int],
    broken: bool,
    first_trick: bool,
    card: int = -1,
    sharp: bool = False,
) -> list[int]:
    """Finish the hand with the policy for every seat (``card``, if given, is played first by
    the seat to move); the points each seat took. ``hands`` and ``points`` are consumed."""
    seat = (leader + len(trick)) % 4
    while True:
        if card < 0:
            hand = hands[seat]
            lead_suit = trick[0] // 13 if trick else None
            legal = legal_mask(hand, lead_suit, first_trick, broken, rules)
            card = pick(seat, hand, legal, trick, leader, played, points, True, sharp)
        hands[seat] &= ~(1 << card)
        trick.append(card)
        played |= 1 << card
        if card // 13 == HEARTS:
            broken = True
        card = -1
        if len(trick) == 4:
            leader = take_trick(leader, trick, points)
            trick = []
            first_trick = False
            seat = leader
            if not hands[seat]:
                return points
        else:
            seat = (seat + 1) % 4


def objective(points: list[int], me: int) -> float:
    if MOON_POINTS in points:
        shooter = points.index(MOON_POINTS)
        if shooter == me:
            return -OTHERS_WEIGHT * MOON_POINTS
        return MOON_POINTS - OTHERS_WEIGHT * MOON_POINTS * 2 / 3
    others = sum(points) - points[me]
    return points[me] - OTHERS_WEIGHT * others / 3


def candidates(k: Knowledge, legal: int) -> list[int]:
    """Legal cards, one per run of equivalent cards (no outstanding card between them and the
    same points), since they play the same."""
    out: list[int] = []
    in_trick = 0
    for c in k.trick:
        in_trick |= 1 << c
    gaps = ~((k.played & ~in_trick) | k.hand)
    prev = -2
    for c in cards_of(legal):
        if (
            out
            and prev // 13 == c // 13
            and not (gaps & ((1 << c) - (1 << (prev + 1))))
            and c != QUEEN_OF_SPADES
            and prev != QUEEN_OF_SPADES
        ):
            prev = c
            out[-1] = c  # keep the higher of equivalent cards (same effect, safer to hold low)
            continue
        out.append(c)
        prev = c
    return out


def search_play(
    k: Knowledge,
    budget: float,
    rng: random.Random,
    min_samples: int = 12,
    max_samples: int = 400,
) -> int:
    """The card with the lowest mean objective over sampled deals (common deals per card)."""
    legal = k.legal()
    cands = candidates(k, legal)
    if len(cands) == 1:
        return cands[0]
    totals = [0.0] * len(cands)
    compiled = compiled_available()
    deadline = time.perf_counter() + budget
    n = 0
    while n < max_samples and (n < min_samples or time.perf_counter() < deadline):
        hands = k.sample(rng)
        for i, value in enumerate(rollouts(k, hands, cands, compiled)):
            totals[i] += value
        n += 1
    # Ties (common when the outcome is certain) go to the rule-based player's card.
    hint = pick(k.seat, k.hand, legal, list(k.trick), k.leader, k.played, list(k.points), True)
    best = min(range(len(cands)), key=lambda i: (totals[i], cands[i] != hint, i))
    return cands[best]
