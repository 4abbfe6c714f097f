"""The rule-based player: sound habits of a club player, on bitmask hands.

``pick`` plays one card; ``smart=False`` is the beginner (duck, dump the queen and high hearts,
avoid points), ``smart=True`` adds card counting, spade fishing, moon shooting and moon stopping.
It is also the roll-out policy of the search, so it must stay fast and use only what the seat
could know (its own hand, the cards played, the points taken).

>>> from games.hearts.cardbits import mask_of, from_card
>>> from games.cards import cards_from_text
>>> hand = mask_of(cards_from_text("QS 3H 5C"))
>>> trick = [from_card(c) for c in cards_from_text("4D 9D")]
>>> card = pick(0, hand, hand, trick, 2, 0, [0, 0, 0, 0], smart=False)
>>> card == from_card(cards_from_text("QS")[0])
True
"""

from __future__ import annotations

from games.hearts.cardbits import (
    HEARTS,
    HEARTS_MASK,
    QS_BIT,
    QUEEN_OF_SPADES,
    SPADES,
    SUIT_MASK,
    cards_of,
    highest,
    lowest,
)

HIGH_SPADES = (1 << (SPADES * 13 + 11)) | (1 << (SPADES * 13 + 12))  # KS, AS
_BELOW = tuple((1 << c) - 1 for c in range(53))


def trick_points(trick: list[int]) -> int:
    p = 0
    for c in trick:
        if c == QUEEN_OF_SPADES:
            p += 13
        elif c // 13 == HEARTS:
            p += 1
    return p


def sure_winners(hand: int, played: int) -> int:
    """How many of ``hand``'s cards are top cards of their suit (nothing higher still out)."""
    n = 0
    rest = ~played & ~hand
    for s in range(4):
        mine = hand & SUIT_MASK[s]
        if mine:
            out = SUIT_MASK[s] & rest
            n += (mine >> out.bit_length()).bit_count() if out else mine.bit_count()
    return n


def shooting(me: int, hand: int, played: int, points: list[int]) -> bool:
    """Go for the moon: every point so far is mine and the rest of the hand looks like mine."""
    total = points[0] + points[1] + points[2] + points[3]
    if total != points[me]:
        return False
    left = hand.bit_count()
    if left == 0 or (total == 0 and left > 11):
        return False
    wins = sure_winners(hand, played)
    if total >= 13:
        return wins >= left - 1
    if total > 0:
        return wins >= left
    return left <= 11 and wins >= left


def moon_threat(me: int, points: list[int]) -> int:
    """A seat (not ``me``) that holds every point so far and at least 14 of them, else -1."""
    total = points[0] + points[1] + points[2] + points[3]
    for s in range(4):
        if s != me and points[s] == total and total >= 14:
            return s
    return -1


def pick(
    me: int,
    hand: int,
    legal: int,
    trick: list[int],
    leader: int,
    played: int,
    points: list[int],
    smart: bool,
    sharp: bool = False,
) -> int:
    """The card to play (an int). ``played`` includes the cards of the current trick.
    ``sharp`` (with ``smart``: the standard player) also unloads high cards while it is free:
    the first lead of a side suit goes high, and the last seat takes a trick without points with
    its top card. The expert's roll-outs play without it (docs/hearts-strength.md says why)."""
    if not legal & (legal - 1):
        return highest(legal)
    if smart and shooting(me, hand, played, points):
        return _run(legal, trick)
    if not trick:
        if sharp:
            return _lead_high_early(legal, hand, played)
        return _lead(legal, hand, played, smart)
    lead = trick[0] // 13
    if legal & SUIT_MASK[lead]:
        free = len(trick) == 3 and not trick_points(trick) and (lead != SPADES or played & QS_BIT)
        if sharp and free:
            return highest(legal)  # nothing to take: win it with the top card, or unload
        return _follow(me, legal, trick, leader, played, points, smart)
    return _discard(legal, hand, played, smart)


def _run(legal: int, trick: list[int]) -> int:
    """Shooting: win with the highest card, or throw the lowest non-point card."""
    if not trick or legal & SUIT_MASK[trick[0] // 13]:
        return highest(legal)
    safe = legal & ~HEARTS_MASK & ~QS_BIT
    return lowest(safe or legal)


def _lead(legal: int, hand: int, played: int, smart: bool) -> int:
    best = -1
    best_score = 1e9
    for s in (0, 1, 3, 2):
        mine = legal & SUIT_MASK[s]
        if not mine:
            continue
        c = lowest(mine)
        out = SUIT_MASK[s] & ~played & ~hand
        if smart:
            n_out = out.bit_count()
            if n_out == 0:
                score = 50.0 + c % 13
            else:
                score = (out & _BELOW[c]).bit_count() / n_out * 10
            if s == SPADES:
                if hand & QS_BIT:
                    score += 8
                elif not played & QS_BIT and c < QUEEN_OF_SPADES:
                    score -= 4  # fish for the queen
                elif c > QUEEN_OF_SPADES and not played & QS_BIT:
                    score += 20
            if s == HEARTS:
                score += 1
        else:
            score = c % 13 + (6 if s == SPADES and hand & (QS_BIT | HIGH_SPADES) else 0)
            score += 3 if s == HEARTS else 0
        if score < best_score:
            best, best_score = c, score
    return best


def _lead_high_early(legal: int, hand: int, played: int) -> int:
    """The smart lead, except that the first round of clubs or diamonds (nobody void yet) is
    led with the highest card that a card still out beats."""
    c = _lead(legal, hand, played, True)
    s = c // 13
    if s >= HEARTS or played & SUIT_MASK[s]:
        return c
    out = SUIT_MASK[s] & ~played & ~hand
    under = legal & SUIT_MASK[s] & _BELOW[highest(out)] if out else 0
    return highest(under) if under else c


def _follow(
    me: int,
    legal: int,
    trick: list[int],
    leader: int,
    played: int,
    points: list[int],
    smart: bool,
) -> int:
    lead = trick[0] // 13
    win = -1
    win_at = 0
    for i, c in enumerate(trick):
        if c // 13 == lead and c > win:
            win, win_at = c, i
    if lead == SPADES and legal & QS_BIT and win > QUEEN_OF_SPADES:
        return QUEEN_OF_SPADES
    last = len(trick) == 3
    if smart:
        threat = moon_threat(me, points)
        if threat >= 0 and threat == (leader + win_at) % 4 and trick_points(trick) > 0:
            over = legal & ~_BELOW[win]
            if over:
                return highest(over)
    below = legal & _BELOW[win]
    if below:
        return highest(below)
    safe = legal & ~QS_BIT or legal
    if last:
        return highest(safe)
    if lead == SPADES:
        if smart and played & QS_BIT:
            return highest(safe)
        return lowest(safe)
    if smart:
        # Nobody else is void yet (few cards of the suit gone): take it with the top card.
        gone = (played & SUIT_MASK[lead]).bit_count()
        if gone <= 4:
            return highest(safe)
        return lowest(safe)
    return highest(safe)


def _discard(legal: int, hand: int, played: int, smart: bool) -> int:
    if legal & QS_BIT:
        return QUEEN_OF_SPADES
    high_spades = legal & HIGH_SPADES
    if high_spades and not played & QS_BIT:
        return highest(high_spades)
    hearts = legal & HEARTS_MASK
    if hearts and (not smart or highest(hearts) % 13 >= 6 or hearts == legal):
        return highest(hearts)
    best = -1
    best_key = (-99, 0)
    for s in range(4):
        mine = legal & SUIT_MASK[s]
        if not mine:
            continue
        c = highest(mine)
        if smart:
            out_below = (SUIT_MASK[s] & ~played & ~hand & _BELOW[c]).bit_count()
            key = (out_below * 2 - mine.bit_count(), c % 13)
        else:
            key = (c % 13, -mine.bit_count())
        if key > best_key:
            best, best_key = c, key
    return best


def pass_cards(hand: int, smart: bool) -> int:
    """Three cards to pass (a mask): the queen and top spades when short, high hearts, and the
    high cards of a short side suit (to void it)."""
    mask = 0
    for _, c in pass_scores(hand, smart)[:3]:
        mask |= 1 << c
    return mask


def pass_scores(hand: int, smart: bool) -> list[tuple[float, int]]:
    """Every card of ``hand`` with how much it wants to be passed, most wanted first."""
    spades = hand & SUIT_MASK[SPADES]
    n_spades = spades.bit_count()
    scores: list[tuple[float, int]] = []
    for c in cards_of(hand):
        s, r = divmod(c, 13)  # r: 0 = two .. 12 = ace
        if c == QUEEN_OF_SPADES:
            score = 100.0 if n_spades <= 4 else 10.0
        elif s == SPADES and r > 10:
            score = 90.0 if (n_spades <= 3 or hand & QS_BIT) else 12.0
        elif s == SPADES:
            score = r * 0.5 - 10  # low spades guard the queen: keep them
        elif s == HEARTS:
            score = 10.0 + r * 4
        else:
            score = r * 3.5
            if smart:
                n = (hand & SUIT_MASK[s]).bit_count()
                if n <= 2:
                    score += 18
                elif n == 3:
                    score += 8
        scores.append((score, c))
    scores.sort(reverse=True)
    return scores
