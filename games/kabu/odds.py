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

It stays exact and fast (well under a second for five players) by enumerating cards by
classes that act alike (mostly by value), and by keeping the dealer's decision margin up to
date as each second card is dealt, so no deal is ever re-added from scratch.

>>> from fractions import Fraction
>>> unseen = [0] + [4] * 13
>>> dealer_draws((5, 10), [(9, 10)], unseen, arashi=True)  # 5 loses to 9: draw
True
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import comb, factorial, perm

from games.kabu.hands import VALUE, dealer_beats_kinds, dealer_kind, player_kind, total

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


def _classes(unseen: Sequence[int], special: set[int]) -> tuple[list[int], list[int]]:
    """Ranks that act alike in every role merged into classes: ``(representatives, counts)``.

    Only a rank's value matters, except for the ranks in ``special`` (those that can make a
    Shippin, a Kuppin or an Arashi here), which keep a class of their own.
    """
    reps: list[int] = []
    counts: list[int] = []
    index: dict[int, int] = {}
    for r in RANKS:
        if unseen[r]:
            key = r if r in special else -1 - VALUE[r]
            if key in index:
                counts[index[key]] += unseen[r]
            else:
                index[key] = len(reps)
                reps.append(r)
                counts.append(unseen[r])
    return reps, counts


def _handful(
    avail: Sequence[int],
    dvec: Sequence[int],
    good: Sequence[int],
    margin: int,
    wins: int,
    hidden: int,
    stand_value: int,
) -> int:
    """Deal ``hidden`` second cards to unpicked positions (they only take cards away), then
    let the dealer decide: the sum over the sets of cards they may take (times ``hidden!``
    for their orders). A card's absence changes the margin by ``-dvec`` and the winning
    cards by ``-good``, so sets are merged by those totals as the classes are walked."""
    groups: dict[tuple[int, int], int] = {}
    for a, d, g in zip(avail, dvec, good, strict=True):
        if a:
            groups[(d, g)] = groups.get((d, g), 0) + a
    if hidden == 2:  # the common case (three players), as ordered pairs of cards
        items = list(groups.items())
        total = 0
        for first, s1 in items:
            d1, g1 = first
            for second, s2 in items:
                n = s1 * (s2 - 1 if first == second else s2)
                if n:
                    d2, g2 = second
                    total += n * (wins - g1 - g2 if margin > d1 + d2 else stand_value)
        return total
    # (cards taken, margin lost, winning cards lost) -> number of sets
    sets: dict[tuple[int, int, int], int] = {(0, 0, 0): 1}
    for (d, g), size in groups.items():
        grown: dict[tuple[int, int, int], int] = {}
        for (taken, lost, gone), ways in sets.items():
            for t in range(min(size, hidden - taken) + 1):
                key = (taken + t, lost + t * d, gone + t * g)
                grown[key] = grown.get(key, 0) + ways * comb(size, t)
        sets = grown
    total = sum(
        ways * (wins - gone if margin > lost else stand_value)
        for (taken, lost, gone), ways in sets.items()
        if taken == hidden
    )
    return total * factorial(hidden)


def _decide_and_win(
    me: int,
    code2: int,
    d1: int,
    d2: int,
    hands: Sequence[int],
    right: Sequence[tuple[int, bool]],
    reps: Sequence[int],
    counts: Sequence[int],
    arashi: bool,
) -> tuple[int, int]:
    """The player's chance, as ``(numerator, denominator)``, when the dealer holds 4-6.

    ``hands`` are the final seated hands (the player's among them); ``right`` the positions
    still waiting for a second card, dealt from ``counts`` before the dealer decides.

    The dealer draws when its *margin* is positive: summed over the cards it cannot see, how
    many more seated hands it beats after drawing that card than standing (this is
    :func:`dealer_draws`). The margin and the player's count of winning third cards are kept
    up to date as each second card is dealt, so a deal costs O(1). Seated positions get their
    cards one by one (every ordered deal, by classes of cards that act alike); unpicked ones,
    whose cards only go missing, as a handful at the end.
    """
    seated = [first for first, is_seated in right if is_seated]
    hidden = len(right) - len(seated)
    # Classes for this deal: cards alike for the dealer's third card and every seated hand.
    merged: dict[tuple[int, ...], int] = {}
    c3: list[int] = []
    pool: list[int] = []
    hand_codes: list[tuple[int, ...]] = []  # per class: the code of each seated hand
    for rep, count in zip(reps, counts, strict=True):
        if not count:
            continue
        third = dealer_code((d1, d2, rep), arashi)
        codes = tuple(player_code((first, rep), arashi) for first in seated)
        key = (third, *codes)
        if key in merged:
            pool[merged[key]] += count
            continue
        merged[key] = len(pool)
        c3.append(third)
        pool.append(count)
        hand_codes.append(codes)
    k = len(pool)
    stand_beats = BEATS[code2]

    def row(h: int) -> list[int]:  # per class: the change in "beats h" when the dealer draws it
        return [BEATS[c][h] - stand_beats[h] for c in c3]

    def dot(xs: Sequence[int], ys: Sequence[int]) -> int:
        return sum(x * y for x, y in zip(xs, ys, strict=True))

    fixed = [0] * k
    for h in hands:
        fixed = [a + b for a, b in zip(fixed, row(h), strict=True)]
    good = [int(not BEATS[c][me]) for c in c3]
    n1 = sum(pool)
    left = n1 - len(right)
    stand_value = left * int(not stand_beats[me])
    # Seated position j dealt a card of class c: rows[j][c] is the new hand's row, and
    # own[j][c] the margin it adds (with the card gone from the unseen cards).
    ms = len(seated)
    rows = [[row(hand_codes[c][j]) for c in range(k)] for j in range(ms)]
    own = [[dot(pool, r) - r[c] for c, r in enumerate(rs)] for rs in rows]
    # What dealing class c to position j takes off the gains of a later position t: the new
    # hand's row (the dealer weighs one more hand) and the card (gone from t's count).
    upd = [
        [
            [[x + rows[t][c2][c] for c2, x in enumerate(rows[j][c])] for t in range(ms)]
            for c in range(k)
        ]
        for j in range(ms)
    ]
    avail = list(pool)

    def deal(j: int, gains: list[list[int]], dvec: list[int], margin: int, wins: int) -> int:
        """``gains[t - j][c]``: the margin dealing class c to seated position t would add."""
        if j == ms:
            if hidden == 1:  # the common case of a handful of one, without the bookkeeping
                return sum(
                    a * (wins - g if margin > d else stand_value)
                    for a, d, g in zip(avail, dvec, good, strict=True)
                )
            if hidden:
                return _handful(avail, dvec, good, margin, wins, hidden, stand_value)
            return wins if margin > 0 else stand_value
        here = gains[0]
        if j == ms - 1 and not hidden:
            return sum(
                a * (wins - g if margin + e > 0 else stand_value)
                for a, e, g in zip(avail, here, good, strict=True)
            )
        total = 0
        for c in range(k):
            a = avail[c]
            if not a:
                continue
            avail[c] = a - 1
            later = [
                [g - u for g, u in zip(gains[t - j], upd[j][c][t], strict=True)]
                for t in range(j + 1, ms)
            ]
            if hidden:
                dvec2 = [x + y for x, y in zip(dvec, rows[j][c], strict=True)]
            else:
                dvec2 = dvec
            total += a * deal(j + 1, later, dvec2, margin + here[c], wins - good[c])
            avail[c] = a
        return total

    gains0 = [[o - d for o, d in zip(own[j], fixed, strict=True)] for j in range(ms)]
    numerator = deal(0, gains0, fixed, dot(pool, fixed), dot(pool, good))
    return numerator, perm(n1, len(right)) * left


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
    them, at 4-6) the second cards of the positions to the right.
    """
    special = {1, 4, 9, d1, *me}
    reps, counts = _classes(unseen, special)
    return _chance(me, d1, fixed, right, reps, counts, arashi)


def _chance(
    me: Sequence[int],
    d1: int,
    fixed: Sequence[Sequence[int]],
    right: Sequence[tuple[int, bool]],
    reps: Sequence[int],
    counts: list[int],
    arashi: bool,
) -> Fraction:
    me_code = player_code(me, arashi)
    hands = [me_code] + [player_code(h, arashi) for h in fixed]
    n = sum(counts)
    acc = Fraction(0)
    for i, d2 in enumerate(reps):
        c = counts[i]
        if not c:
            continue
        counts[i] = c - 1
        code2 = dealer_code((d1, d2), arashi)
        t = code2 % 10
        if code2 // 10 == 3 or t >= 7:
            acc += Fraction(c * int(not BEATS[code2][me_code]), n)
        elif t <= 3:
            # Always draws; cards dealt elsewhere first do not change the odds.
            good = sum(
                k
                for r, k in zip(reps, counts, strict=True)
                if not BEATS[dealer_code((d1, d2, r), arashi)][me_code]
            )
            acc += Fraction(c * good, n * (n - 1))
        else:
            num, den = _decide_and_win(me_code, code2, d1, d2, hands, right, reps, counts, arashi)
            acc += Fraction(c * num, n * den)
        counts[i] = c
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
    special = {1, 4, 9, d1, *me}
    reps, counts = _classes(unseen, special)
    n = sum(counts)
    draw = Fraction(0)
    for i, x in enumerate(reps):
        k = counts[i]
        counts[i] = k - 1
        draw += k * _chance((*me, x), d1, fixed, right, reps, counts, arashi)
        counts[i] = k
    stand = _chance(me, d1, fixed, right, reps, counts, arashi)
    return draw / n, stand
