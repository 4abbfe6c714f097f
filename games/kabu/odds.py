"""Exact odds: the dealer's third-card decision and the player's hint.

Everything here works on rank numbers (1..13) and on ``unseen`` counts: a list of 14 ints
where ``unseen[r]`` is how many cards of rank ``r`` have not been seen face up.

The dealer (the computer) takes a third card at a total of 3 or less, never at 7 or more, and at
4-6 only when the expected number of seated hands it beats is larger if it draws, the expectation
taken exactly over the cards it has not seen. It always stands on Kuppin.

The hint gives a player the exact chance of winning if they draw and if they stand, over every
order in which the unseen cards may come: their own third card, the second cards of the
positions to their right, the dealer's second card and the dealer's third card (taken by the
rule above, with what the dealer will then see). Other players to the right who have not decided
yet are assumed to stand (their choice is theirs; the hint cannot know it).

>>> from fractions import Fraction
>>> unseen = [0] + [4] * 13
>>> dealer_draws((5, 10), [(9, 10)], unseen, arashi=True)  # 5 loses to 9: draw
True
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction
from math import comb, perm

from games.kabu.hands import dealer_beats_kinds, dealer_kind, player_kind, total

RANKS = range(1, 14)


def _code(kind: int, tot: int) -> int:
    return kind * 10 + tot


def _build_beats() -> tuple[tuple[bool, ...], ...]:
    return tuple(
        tuple(dealer_beats_kinds(d // 10, d % 10, p // 10, p % 10) for p in range(40))
        for d in range(40)
    )


BEATS = _build_beats()  # BEATS[dealer code][player code]


def dealer_code(ranks: Sequence[int], arashi: bool) -> int:
    return _code(dealer_kind(ranks, arashi), total(ranks))


def player_code(ranks: Sequence[int], arashi: bool) -> int:
    return _code(player_kind(ranks, arashi), total(ranks))


def _third_codes(d1: int, d2: int, arashi: bool) -> list[int]:
    """Dealer codes of ``(d1, d2, r)`` for r = 0..13 (index 0 unused)."""
    return [0] + [dealer_code((d1, d2, r), arashi) for r in RANKS]


def dealer_draws(
    dealer: Sequence[int], seated: Sequence[Sequence[int]], unseen: Sequence[int], arashi: bool
) -> bool:
    """Whether the dealer, holding two cards, takes a third (see the module docstring)."""
    d1, d2 = dealer
    code2 = dealer_code(dealer, arashi)
    if code2 // 10 == 3:  # Kuppin wins everything: stand
        return False
    t = code2 % 10
    if t <= 3:
        return True
    if t >= 7:
        return False
    hands = [player_code(h, arashi) for h in seated]
    codes3 = _third_codes(d1, d2, arashi)
    n = sum(unseen[r] for r in RANKS)
    if n == 0:
        return False
    stand = sum(BEATS[code2][h] for h in hands)
    draw = sum(unseen[r] * sum(BEATS[codes3[r]][h] for h in hands) for r in RANKS)
    return draw > n * stand


def _compositions(counts: Sequence[int], k: int) -> Iterator[tuple[int, ...]]:
    """Every way to take ``k`` items from classes of the given sizes (as per-class counts)."""
    if not counts:
        if k == 0:
            yield ()
        return
    first, rest = counts[0], counts[1:]
    for take in range(min(first, k) + 1):
        for tail in _compositions(rest, k - take):
            yield (take, *tail)


def _leaf(
    me: int,
    code2: int,
    codes3: Sequence[int],
    weights: Sequence[int],
    stand_weight: int,
    pool: Sequence[int],
    hidden: int,
) -> int:
    """The player's winning chances once every seated hand is known and the dealer holds 4-6.

    ``weights[r]`` is how many seated hands the dealer beats after drawing a card of rank r,
    ``stand_weight`` how many it beats standing. ``pool`` holds the counts the player does not
    know; ``hidden`` of those cards (second cards of unpicked positions) will be face up before
    the dealer decides, at random, and the dealer's third card comes from the rest.
    Returns the numerator over ``(m - hidden) * comb(m, hidden)``, m = the pool's size.
    """
    good0 = not BEATS[code2][me]
    m = sum(pool)
    left = m - hidden
    if hidden == 0:
        draw_sum = sum(p * w for p, w in zip(pool, weights, strict=True))
        if draw_sum > left * stand_weight:
            return sum(pool[r] for r in RANKS if not BEATS[codes3[r]][me])
        return left if good0 else 0
    classes: dict[tuple[int, bool], int] = {}
    for r in RANKS:
        if pool[r]:
            key = (weights[r], not BEATS[codes3[r]][me])
            classes[key] = classes.get(key, 0) + pool[r]
    keys = list(classes)
    sizes = [classes[k] for k in keys]
    result = 0
    for taken in _compositions(sizes, hidden):
        ways = 1
        draw_sum = 0
        good = 0
        for (w, g), size, k in zip(keys, sizes, taken, strict=True):
            ways *= comb(size, k)
            draw_sum += (size - k) * w
            good += (size - k) * g
        if draw_sum > left * stand_weight:
            result += ways * good
        elif good0:
            result += ways * left
    return result


def win_chance(
    me: Sequence[int],
    d1: int,
    fixed: Sequence[Sequence[int]],
    right: Sequence[tuple[int, bool]],
    unseen: Sequence[int],
    arashi: bool,
) -> Fraction:
    """The chance that hand ``me`` (final) beats the dealer.

    ``fixed`` are the other seated hands already final; ``right`` the positions still waiting
    for their second card, as ``(first rank, seated)``; seated ones are assumed to stand.

    The unseen cards come in a uniformly random order, so their roles may be enumerated in
    any order: the dealer's second card first, then (only when the dealer's decision depends on
    them, at 4-6) the second cards of seated positions one by one, and the unpicked positions'
    second cards as a random handful.
    """
    me_code = player_code(me, arashi)
    seated_firsts = [first for first, seated in right if seated]
    hidden = len(right) - len(seated_firsts)
    fixed_codes = [me_code] + [player_code(h, arashi) for h in fixed]
    pool = [0, *unseen[1:14]]
    n = sum(pool)
    # Each term below is a numerator over the number of orders of the cards it looks at.
    m = n - 1 - len(seated_firsts)
    seated_orders = perm(n - 1, len(seated_firsts))
    leaf_den = (m - hidden) * comb(m, hidden)
    acc = Fraction(0)
    for d2 in RANKS:
        if not pool[d2]:
            continue
        share = Fraction(pool[d2], n)
        pool[d2] -= 1
        code2 = dealer_code((d1, d2), arashi)
        t = code2 % 10
        codes3 = _third_codes(d1, d2, arashi)
        if code2 // 10 == 3 or t >= 7:
            acc += share * int(not BEATS[code2][me_code])
        elif t <= 3:
            # Always draws; unseen cards dealt elsewhere first do not change the odds.
            good = sum(pool[r] for r in RANKS if not BEATS[codes3[r]][me_code])
            acc += share * Fraction(good, n - 1)
        else:
            rows = [[False, *(BEATS[codes3[r]][h] for r in RANKS)] for h in range(40)]
            weights = [0] * 14
            for h in fixed_codes:
                weights = [w + b for w, b in zip(weights, rows[h], strict=True)]
            stand = sum(BEATS[code2][h] for h in fixed_codes)
            numerator = _seated(
                me_code, code2, codes3, seated_firsts, 0, weights, stand, pool, hidden, rows, arashi
            )
            acc += share * Fraction(numerator, seated_orders * leaf_den)
        pool[d2] += 1
    return acc


def _seated(
    me: int,
    code2: int,
    codes3: Sequence[int],
    firsts: Sequence[int],
    i: int,
    weights: list[int],
    stand: int,
    pool: list[int],
    hidden: int,
    rows: Sequence[Sequence[bool]],
    arashi: bool,
) -> int:
    """Sum over the orders of the second cards of the seated positions ``firsts[i:]``."""
    if i == len(firsts):
        return _leaf(me, code2, codes3, weights, stand, pool, hidden)
    acc = 0
    first = firsts[i]
    for r in RANKS:
        k = pool[r]
        if k:
            h = player_code((first, r), arashi)
            pool[r] = k - 1
            acc += k * _seated(
                me,
                code2,
                codes3,
                firsts,
                i + 1,
                [w + b for w, b in zip(weights, rows[h], strict=True)],
                stand + BEATS[code2][h],
                pool,
                hidden,
                rows,
                arashi,
            )
            pool[r] = k
    return acc


def hint_odds(
    me: Sequence[int],
    d1: int,
    fixed: Sequence[Sequence[int]],
    right: Sequence[tuple[int, bool]],
    unseen: Sequence[int],
    arashi: bool,
) -> tuple[Fraction, Fraction]:
    """``(chance if drawing, chance if standing)`` for a player holding two cards ``me``."""
    pool = list(unseen)
    n = sum(pool[r] for r in RANKS)
    draw = Fraction(0)
    for x in RANKS:
        if pool[x]:
            k = pool[x]
            pool[x] -= 1
            draw += k * win_chance((*me, x), d1, fixed, right, pool, arashi)
            pool[x] += 1
    stand = win_chance(me, d1, fixed, right, unseen, arashi)
    return draw / n, stand
