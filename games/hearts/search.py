"""The expert: perfect-information Monte Carlo. Deal the hidden cards many times consistently
with what the seat knows, play each candidate card out to the end of the hand with the
rule-based policy for all four seats, and keep the card with the best average hand score
(shooting the moon counted: 0 for the shooter, 26 for the others). The roll-outs run compiled
(``_playouts.c``, the same answers) when it was built; ``PARLOUR_HEARTS_CORE=python`` forces the
Python ones, which stay the reference.

Tried on hold hands with ``bench.strength.hearts`` (duplicate deals, fixed samples) and dropped,
none better: weighting each sampled deal by how well the others' plays so far fit it (the
rule-based player holding those cards), on every play or on the queen of spades only; rolling
out with the standard level's sharper player; twice the samples. Against OpenSpiel's ISMCTS
(``bench.strength.hearts_ismcts``) the hold hands are again the weakest, and moons shot against the
expert (about 4% of its hold hands, none for ISMCTS in its seat) are the visible cause. Tried on
hold hands there (the same deals and seats with and without, 400 and 100 samples) and
dropped: only the searching seat stopping moons in the roll-outs (the others leave it to it),
+0.01 points a hand [-0.56, +0.58] over 200 deals; the policy discarding nothing that scores
while a moon threat wins the trick, +0.19 [-0.47, +0.85] over 125 deals (worse, and no fewer
moons against it). Against ISMCTS a seat holding every point, 16 or more, at the start of a trick
goes on to shoot in about 23% of such hands (14 or more: 9%), far more often than these roll-outs
foresee: the sampled deals give the shooter random cards, not the strong hand its play has shown
(``bench.strength.hearts_ismcts --log`` / ``--show`` replay such hands). Tried there too
(600 deals, 100 samples, paired) and dropped: the other seats of the roll-outs running for the
moon on a looser test (all the points so far, at least 6, all cards but two top cards), -0.04
points a hand [-0.34, +0.26], moons against 51 of 2,400 hands against 59; preferring a card
that takes a trick such a threat (16 or more) is winning by 4 points of the objective, +0.03
[-0.27, +0.33], moons against 61; with such a threat (14 or more), each sampled deal the best
of four for the threat (most sure winners), -0.04 [-0.33, +0.25], moons against 55. None of
them gives the search the shooter's strength; all three looked better on the first 200-400
deals and faded.
"""

from __future__ import annotations

import os
import random
import time

from games.hearts.cardbits import HEARTS, QUEEN_OF_SPADES, cards_of, points_in
from games.hearts.knowledge import Knowledge
from games.hearts.policy import pick
from games.hearts.rules import MOON_POINTS, Rules, legal_mask, trick_winner

# How much the others' points count against mine in the search's objective (0 = only mine).
OTHERS_WEIGHT = 0.5

try:  # the same roll-outs compiled (setup.py builds it when a C compiler is present)
    import games.hearts._playouts as _compiled
except ImportError:  # pragma: no cover - depends on the install
    _compiled = None  # type: ignore[assignment]  # None: not built (the stub types the module)

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
