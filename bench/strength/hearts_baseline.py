"""The Hearts expert as it was before this round (frozen as the bench's baseline): the searched
pass (the heuristic's candidates played out, kept only when clearly better) and the play search
with the trick winner and points worked out inline. Only ``bench.strength.hearts`` uses it.
"""

from __future__ import annotations

import random
import time
from itertools import combinations
from typing import Any

from games.hearts.actions import format_pass, format_play
from games.hearts.cardbits import ALL_CARDS, HEARTS, QUEEN_OF_SPADES, cards_of, to_card
from games.hearts.knowledge import Knowledge, parse_mask
from games.hearts.policy import pass_cards, pass_scores, pick
from games.hearts.rules import MOON_POINTS, PassDirection, Rules, first_leader, legal_mask

# How much the others' points count against mine in the search's objective (0 = only mine).
OTHERS_WEIGHT = 0.5
# How much better (mean objective points) a searched pass must look to replace the heuristic's.
PASS_MARGIN = 0.75


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
) -> list[int]:
    """Finish the hand with the policy for every seat (``card``, if given, is played first by
    the seat to move); the points each seat took. ``hands`` and ``points`` are consumed."""
    seat = (leader + len(trick)) % 4
    while True:
        if card < 0:
            hand = hands[seat]
            lead_suit = trick[0] // 13 if trick else None
            legal = legal_mask(hand, lead_suit, first_trick, broken, rules)
            card = pick(seat, hand, legal, trick, leader, played, points, True)
        hands[seat] &= ~(1 << card)
        trick.append(card)
        played |= 1 << card
        if card // 13 == HEARTS:
            broken = True
        card = -1
        if len(trick) == 4:
            lead = trick[0] // 13
            best = 0
            pts = 0
            for i in range(4):
                c = trick[i]
                if c // 13 == lead and c > trick[best]:
                    best = i
                if c == QUEEN_OF_SPADES:
                    pts += 13
                elif c // 13 == HEARTS:
                    pts += 1
            leader = (leader + best) % 4
            points[leader] += pts
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
    deadline = time.perf_counter() + budget
    n = 0
    while n < max_samples and (n < min_samples or time.perf_counter() < deadline):
        hands = k.sample(rng)
        for i, c in enumerate(cands):
            totals[i] += rollout(k, hands, c)
        n += 1
    # Ties (common when the outcome is certain) go to the rule-based player's card.
    hint = pick(k.seat, k.hand, legal, list(k.trick), k.leader, k.played, list(k.points), True)
    best = min(range(len(cands)), key=lambda i: (totals[i], cands[i] != hint, i))
    return cands[best]


def search_pass(
    seat: int,
    hand: int,
    rules: Rules,
    offset: int,
    leader: int,
    budget: float,
    rng: random.Random,
    min_samples: int = 6,
    max_samples: int = 200,
) -> int:
    """Three cards to pass (a mask): the heuristic's few best candidates, each tried on the same
    random deals (the others pass by the standard heuristic) and played out by the policy."""
    ranked = [c for _, c in pass_scores(hand, True)]
    cands = [sum(1 << c for c in combo) for combo in combinations(ranked[:6], 3)]
    low = sorted(cards_of(hand), key=lambda c: c % 13)[:3]
    cands.append(sum(1 << c for c in low))  # the moon-shooter's pass: keep the top cards
    totals = [0.0] * len(cands)
    others = [s for s in range(4) if s != seat]
    rest = cards_of(ALL_CARDS & ~hand)
    deadline = time.perf_counter() + budget
    n = 0
    while n < max_samples and (n < min_samples or time.perf_counter() < deadline):
        rng.shuffle(rest)
        base = [0] * 4
        base[seat] = hand
        for i, s in enumerate(others):
            for c in rest[13 * i : 13 * i + 13]:
                base[s] |= 1 << c
        passes = [0 if s == seat else pass_cards(base[s], True) for s in range(4)]
        for i, mine in enumerate(cands):
            passes[seat] = mine
            hands = [base[s] & ~passes[s] for s in range(4)]
            for s in range(4):
                hands[(s + offset) % 4] |= passes[s]
            lead = leader
            if rules.two_of_clubs_leads:
                lead = next(s for s in range(4) if hands[s] & 1)
            points = play_out(rules, hands, [], lead, 0, [0, 0, 0, 0], False, True)
            totals[i] += objective(points, seat)
        n += 1
    # The best of many noisy estimates flatters itself: leave the heuristic's pass only for a
    # clearly better one (bench: search alone was no better than the heuristic).
    default = pass_cards(hand, True)
    best = min(range(len(cands)), key=lambda i: (totals[i], cands[i] != default, i))
    if default in cands and totals[best] > totals[cands.index(default)] - PASS_MARGIN * n:
        return default
    return cands[best]


def choose(state: Any, seat: int, budget: float, seed: int) -> str:
    """The baseline expert's action for ``seat`` (from its view), as ``games.hearts.ai`` was."""
    view = state.view(seat)
    hand = parse_mask(view["hand"])
    if view["phase"] == "pass":
        rng = random.Random(f"hearts-pass:{seed}:{seat}:{view['hand_number']}")
        passed = search_pass(
            seat,
            hand,
            Rules.from_dict(view["rules"]),
            PassDirection(view["pass_direction"]).offset,
            first_leader(view["dealer"]),
            budget * 0.9,
            rng,
        )
        return format_pass(to_card(c) for c in cards_of(passed))
    k = Knowledge.from_view(view)
    legal = k.legal()
    if not legal & (legal - 1):
        return format_play(to_card(legal.bit_length() - 1))
    rng = random.Random(f"hearts-ai:{seed}:{seat}:{len(view['played'])}")
    return format_play(to_card(search_play(k, budget * 0.9, rng)))
