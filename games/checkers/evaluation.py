"""Static evaluation of a checkers position, in hundredths of a man, for the side to move.

The score is a weighted sum of named terms, each "mine minus theirs":

=============  ==========================================================================
``men``        men on the board
``kings``      kings on the board
``trade``      pieces ahead times empty squares: the same lead is worth more with fewer left
``back_rank``  men still on the home row (they stop the opponent crowning), while it matters
``bridge``     the two key back-rank guards (squares 1 and 3 for Black, 30 and 32 for Red)
``dog_hole``   a man stuck in the "dog hole" (28 for Black, 5 for Red) with the enemy corner
               man behind it: minus
``centre``     pieces on the four centre squares 14, 15, 18, 19
``near``       pieces on the squares around the centre
``king_edge``  kings on the edge of the board (they do less there): minus
``tempo_open`` how far the men have advanced, with more than 16 pieces on the board
``tempo_mid``  the same with 9 to 16 pieces
``tempo_end``  the same with 8 pieces or fewer
``runaway``    men nothing can stop from crowning, more the closer they are
``chase``      with fewer than 11 pieces, the stronger side's kings closing in on the enemy
``mobility``   simple moves available
=============  ==========================================================================

Then come terms a player reads off the squares themselves, each seen from its owner's side of
the board (square 1 is the owner's own back corner, so both colours share one table):

=================  ======================================================================
``man_early_S``    a man on the owner's square S (1-28), with more than 16 pieces on the board
``man_late_S``     the same with 16 pieces or fewer
``king_S``         a king on the owner's square S (1-32)
``home_P``         the owner's back row held in pattern P (bit k: a man on its square k+1),
                   while the other side still has men to crown; the empty row is the zero
``king_mobility``  the kings' simple moves
``trapped_kings``  kings with no simple move: minus
``balance``        men lopsided between the two halves of the board (left, right): minus
``sole_kings``     having kings when the other side has none
``the_move``       with material level and 12 pieces or fewer, +1 if the side to move has "the
                   move" (an odd count of pieces on its system's squares), else -1
=================  ======================================================================

Last come the patterns. Seen from the side to move's back row, the board has sixteen regions of
eight squares: seven bands of two rows (rows 1-2, 2-3, ..., 7-8) and nine overlapping boxes of
four rows by four columns (rows and columns 1-4, 3-6 and 5-8). Each region's exact filling (every
square empty, the mover's or the other side's piece, man or king) has a value of its own: 3^8 =
6,561 values a region, 104,976 in all (:data:`PATTERN_WEIGHTS`, region by region). They see what
the named terms cannot: formations, holds and cramps, which man guards which. A filling never
seen in the tuning data is worth nothing.

The weights are fitted by ``bench/builders/checkers_weights.py`` (a logistic fit of a win chance on
the score: the game's result, or a stronger engine's score of the position turned into a win chance)
and kept in ``weights.json`` beside this module, with the figures of the fit. The squares' tables
overlap the named terms (a man on a square counts in ``men`` and in its table), so a weight is read
together with the others: the fit may put part of a man's worth in its table.

>>> from games.checkers.board import Board
>>> abs(evaluate(*Board()._raw())) < 30  # level, give or take having the move
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from importlib import resources
from operator import mul
from typing import Any

from games.checkers import bitboard as bb

TERMS: tuple[str, ...] = (
    "men",
    "kings",
    "trade",
    "back_rank",
    "bridge",
    "dog_hole",
    "centre",
    "near",
    "king_edge",
    "tempo_open",
    "tempo_mid",
    "tempo_end",
    "runaway",
    "chase",
    "mobility",
    *(f"man_early_{s}" for s in range(1, 29)),
    *(f"man_late_{s}" for s in range(1, 29)),
    *(f"king_{s}" for s in range(1, 33)),
    *(f"home_{p}" for p in range(1, 16)),
    "king_mobility",
    "trapped_kings",
    "balance",
    "sole_kings",
    "the_move",
)
BASIC = 15  # the named terms before the squares' tables

# The hand-set weights the engine had before tuning (the tuner's starting point).
HAND_WEIGHTS: dict[str, int] = {
    "men": 100,
    "kings": 135,
    "trade": 3,
    "back_rank": 5,
    "bridge": 8,
    "dog_hole": -10,
    "centre": 6,
    "near": 2,
    "king_edge": -6,
    "tempo_open": 1,
    "tempo_mid": 3,
    "tempo_end": 5,
    "runaway": 10,
    "chase": 4,
    "mobility": 2,
    **{term: 0 for term in TERMS[BASIC:]},
}


def _regions() -> tuple[tuple[int, ...], ...]:
    """The patterns' regions (square indices, lowest first, on the mover's board): the bands
    of rows 1-2 to 7-8, then the four-by-four boxes, row by row."""
    bands = [tuple(i for i in range(32) if r <= i // 4 < r + 2) for r in range(7)]
    boxes = [
        tuple(
            i
            for i in range(32)
            if top <= bb.coords(i)[0] < top + 4 and left <= bb.coords(i)[1] < left + 4
        )
        for top in (0, 2, 4)
        for left in (0, 2, 4)
    ]
    return tuple(bands + boxes)


REGIONS = _regions()
REGION_SIZE = 3**8  # the fillings of a region's eight squares
PATTERNS = len(REGIONS) * REGION_SIZE


@cache
def _saved() -> dict[str, Any]:
    """``weights.json`` as read from disk once (empty when it is missing)."""
    try:
        text = resources.files(__package__).joinpath("weights.json").read_text()
    except OSError:
        return {}
    saved: dict[str, Any] = json.loads(text)
    return saved


def load_weights(saved: dict[str, Any] | None = None) -> dict[str, int]:
    """The tuned weights (``weights.json``, or ``saved``, a file of that form as read), or the
    hand-set ones where it has none."""
    data = (_saved() if saved is None else saved).get("weights", {})
    return {term: int(data.get(term, HAND_WEIGHTS[term])) for term in TERMS}


def load_patterns(saved: dict[str, Any] | None = None) -> list[int]:
    """The regions' values (``weights.json`` or ``saved``, region by region), or zeros if there
    are none."""
    regions = (_saved() if saved is None else saved).get("patterns")
    if not regions:
        return [0] * PATTERNS
    flat = [int(v) for region in regions for v in region]
    if len(flat) != PATTERNS:
        raise ValueError(f"weights.json: {len(flat)} pattern values, {PATTERNS} expected")
    return flat


def _for_search(weights: dict[str, int], patterns: Sequence[int]) -> tuple[int, ...]:
    """The terms' weights, then the patterns' values, as the compiled search takes them (the
    terms alone when no pattern has a value)."""
    terms = tuple(weights[t] for t in TERMS)
    return terms + tuple(patterns) if any(patterns) else terms


def all_weights(saved: dict[str, Any] | None = None) -> tuple[int, ...]:
    """:data:`ALL_WEIGHTS` of ``weights.json``, or of ``saved`` (a trial fit's file, as
    ``bench/builders/checkers_weights.py --write-to`` writes it)."""
    return _for_search(load_weights(saved), load_patterns(saved))


CENTRE = sum(1 << (s - 1) for s in (14, 15, 18, 19))
NEAR_CENTRE = sum(1 << (s - 1) for s in (10, 11, 22, 23, 13, 16, 17, 20))
BLACK_BRIDGE = (1 << 0) | (1 << 2)  # squares 1 and 3
RED_BRIDGE = (1 << 29) | (1 << 31)  # squares 30 and 32
EDGES = sum(1 << (s - 1) for s in (5, 13, 21, 12, 20, 28, 1, 2, 3, 4, 29, 30, 31, 32))
BLACK_DOG, RED_CORNER = 1 << 27, 1 << 31  # a Black man on 28 with a Red man on 32
RED_DOG, BLACK_CORNER = 1 << 4, 1 << 0  # a Red man on 5 with a Black man on 1


def _row_tables() -> tuple[list[list[int]], list[list[int]]]:
    """Per byte of the board (two rows), the summed advancement of men for each colour."""
    black: list[list[int]] = []
    red: list[list[int]] = []
    for byte in range(4):
        bt, rt = [], []
        for value in range(256):
            b = r = 0
            for bit in range(8):
                if value >> bit & 1:
                    row = (8 * byte + bit) // 4
                    b += row  # Black advances downwards
                    r += 7 - row
            bt.append(b)
            rt.append(r)
        black.append(bt)
        red.append(rt)
    return black, red


_ADV_BLACK, _ADV_RED = _row_tables()


def _cones() -> tuple[list[int], list[int]]:
    """Squares from which an enemy piece could reach the path of a man racing to crown."""
    black: list[int] = []
    red: list[int] = []
    for i in range(32):
        row, col = bb.coords(i)
        for table, step, last in ((black, 1, 7), (red, -1, 0)):
            mask = 0
            r, width = row + step, 2
            while 0 <= r <= 7:
                for c in range(col - width, col + width + 1):
                    j = bb.index_at(r, c)
                    if j is not None:
                        mask |= 1 << j
                if r == last:
                    break
                r += step
                width += 1
            table.append(mask)
    return black, red


_CONE_BLACK, _CONE_RED = _cones()
_ROW = [i // 4 for i in range(32)]


def _advancement(men: int, table: list[list[int]]) -> int:
    return (
        table[0][men & 0xFF]
        + table[1][(men >> 8) & 0xFF]
        + table[2][(men >> 16) & 0xFF]
        + table[3][men >> 24]
    )


def _bits(b: int) -> list[int]:
    """The indices of the set bits of ``b``, lowest first."""
    out = []
    while b:
        low = b & -b
        out.append(low.bit_length() - 1)
        b ^= low
    return out


def _runaways(men: int, opp: int, black: bool) -> int:
    """Tenths: 7 for a runaway about to crown, one less per row further away."""
    bonus = 0
    cones = _CONE_BLACK if black else _CONE_RED
    for i in _bits(men):
        if not opp & cones[i]:
            distance = 7 - _ROW[i] if black else _ROW[i]
            bonus += 7 - distance
    return bonus


def _distance(i: int, j: int) -> int:
    (ri, ci), (rj, cj) = bb.coords(i), bb.coords(j)
    return max(abs(ri - rj), abs(ci - cj))


_DIST = [[_distance(i, j) for j in range(32)] for i in range(32)]


def _chase(my_kings: int, opp: int) -> int:
    """How close the stronger side's kings are to the enemy (bigger is closer)."""
    targets = _bits(opp)
    return sum(7 - min(_DIST[i][j] for j in targets) for i in _bits(my_kings))


MAN_EARLY, MAN_LATE, KING_SQ, HOME = BASIC, BASIC + 28, BASIC + 56, BASIC + 88
KING_MOBILITY, TRAPPED, BALANCE, SOLE_KINGS, THE_MOVE = range(HOME + 15, HOME + 20)
_LEFT = sum(1 << i for i in range(32) if bb.coords(i)[1] < 4)
_REVERSED = tuple(int(f"{p:04b}"[::-1], 2) for p in range(16))  # four bits in reverse order
_SYSTEM = (  # the squares of the side to move's system: Red's, then Black's
    sum(1 << i for i in range(32) if (i // 4) % 2 == 1),
    sum(1 << i for i in range(32) if (i // 4) % 2 == 0),
)


def _king_steps(mk: int, empty: int) -> tuple[int, int]:
    """The kings' simple moves, and how many kings have none."""
    dl, dr = bb.down_left(mk) & empty, bb.down_right(mk) & empty
    ul, ur = bb.up_left(mk) & empty, bb.up_right(mk) & empty
    free = bb.up_right(dl) | bb.up_left(dr) | bb.down_right(ul) | bb.down_left(ur)
    steps = dl.bit_count() + dr.bit_count() + ul.bit_count() + ur.bit_count()
    return steps, (mk & ~free).bit_count()


def _tables(me: int, opp: int, kings: int, black: bool, f: list[int]) -> None:
    """Add the squares' terms (from :data:`BASIC` on) to ``f``, mine minus theirs."""
    pieces = (me | opp).bit_count()
    men_base = MAN_EARLY if pieces > 16 else MAN_LATE
    empty = ~(me | opp) & bb.FULL
    for side, sign, own_black in ((me, 1, black), (opp, -1, not black)):
        flip = 0 if own_black else 31  # square i is the owner's square (i ^ flip) + 1
        men, side_kings = side & ~kings, side & kings
        for i in _bits(men):
            f[men_base + (i ^ flip)] += sign
        for i in _bits(side_kings):
            f[KING_SQ + (i ^ flip)] += sign
        other_men = (opp if sign > 0 else me) & ~kings
        if other_men:
            home = _REVERSED[men >> 28] if flip else men & 0xF  # Red's 1-4: bits 31-28
            if home:
                f[HOME + home - 1] += sign
        steps, trapped = _king_steps(side_kings, empty)
        f[KING_MOBILITY] += sign * steps
        f[TRAPPED] += sign * trapped
        left = (men & _LEFT).bit_count()
        f[BALANCE] += sign * abs(2 * left - men.bit_count())
    my_kings, opp_kings = me & kings, opp & kings
    f[SOLE_KINGS] = bool(my_kings and not opp_kings) - bool(opp_kings and not my_kings)
    if pieces <= 12 and me.bit_count() == opp.bit_count():
        f[THE_MOVE] = 1 if ((me | opp) & _SYSTEM[black]).bit_count() % 2 else -1


def _region_tables() -> list[tuple[int, list[tuple[int, list[int]]]]]:
    """Per region: its first index, and for each board row it covers, that row's part of the
    region's base-3 number by the row's pieces (``[16 * mine + theirs]``, both four bits):
    digit k is the region's k-th square, 1 for the mover's piece and 2 for the other side's."""
    out = []
    for g, squares in enumerate(REGIONS):
        rows = []
        for row in sorted({i // 4 for i in squares}):
            table = [0] * 256
            for mine in range(16):
                for theirs in range(16):
                    if mine & theirs:
                        continue
                    code = 0
                    for k, i in enumerate(squares):
                        if i // 4 == row:
                            bit = i % 4
                            code += 3**k * (1 if mine >> bit & 1 else 2 if theirs >> bit & 1 else 0)
                    table[16 * mine + theirs] = code
            rows.append((row, table))
        out.append((g * REGION_SIZE, rows))
    return out


_REGION_TABLES = _region_tables()


def pattern_indices(me: int, opp: int, black: bool) -> list[int]:
    """Each region's filling as an index into the patterns (region g: ``g * REGION_SIZE`` on).

    The board is seen from the mover's side: for Red it is turned half round (square s is
    square 33 - s), so row 1 is always the mover's back row.
    """
    if black:
        rows = [16 * ((me >> 4 * r) & 15) + ((opp >> 4 * r) & 15) for r in range(8)]
    else:
        rows = [
            16 * _REVERSED[(me >> 4 * (7 - r)) & 15] + _REVERSED[(opp >> 4 * (7 - r)) & 15]
            for r in range(8)
        ]
    return [base + sum(table[rows[r]] for r, table in parts) for base, parts in _REGION_TABLES]


def features(me: int, opp: int, kings: int, black: bool, my_steps: int = -1) -> list[int]:
    """The value of every term of :data:`TERMS` for the side to move (``me``)."""
    my_men, opp_men = me & ~kings, opp & ~kings
    my_kings, opp_kings = me & kings, opp & kings
    nm, nk = my_men.bit_count(), my_kings.bit_count()
    om, ok = opp_men.bit_count(), opp_kings.bit_count()
    pieces = nm + nk + om + ok
    lead = nm + nk - om - ok
    if black:
        adv = _advancement(my_men, _ADV_BLACK) - _advancement(opp_men, _ADV_RED)
        my_back, opp_back = my_men & bb.TOP_ROW, opp_men & bb.BOTTOM_ROW
        my_bridge, opp_bridge = my_men & BLACK_BRIDGE, opp_men & RED_BRIDGE
        dog = bool(my_men & BLACK_DOG and opp_men & RED_CORNER) - bool(
            opp_men & RED_DOG and my_men & BLACK_CORNER
        )
    else:
        adv = _advancement(my_men, _ADV_RED) - _advancement(opp_men, _ADV_BLACK)
        my_back, opp_back = my_men & bb.BOTTOM_ROW, opp_men & bb.TOP_ROW
        my_bridge, opp_bridge = my_men & RED_BRIDGE, opp_men & BLACK_BRIDGE
        dog = bool(my_men & RED_DOG and opp_men & BLACK_CORNER) - bool(
            opp_men & BLACK_DOG and my_men & RED_CORNER
        )
    back = (my_back.bit_count() if om else 0) - (opp_back.bit_count() if nm else 0)
    bridge = (my_bridge.bit_count() if om else 0) - (opp_bridge.bit_count() if nm else 0)
    runaway = chase = 0
    if pieces <= 16:
        runaway = (_runaways(my_men, opp, black) if nm else 0) - (
            _runaways(opp_men, me, not black) if om else 0
        )
        if pieces <= 10 and lead:
            if lead > 0 and my_kings and opp:
                chase = _chase(my_kings, opp)
            elif lead < 0 and opp_kings and me:
                chase = -_chase(opp_kings, me)
    if my_steps < 0:
        my_steps = bb.count_steps(me, opp, kings, black)
    f = [
        nm - om,
        nk - ok,
        lead * (24 - pieces) if nm + nk and om + ok else 0,
        back,
        bridge,
        dog,
        (me & CENTRE).bit_count() - (opp & CENTRE).bit_count(),
        (me & NEAR_CENTRE).bit_count() - (opp & NEAR_CENTRE).bit_count(),
        (my_kings & EDGES).bit_count() - (opp_kings & EDGES).bit_count(),
        adv if pieces > 16 else 0,
        adv if 8 < pieces <= 16 else 0,
        adv if pieces <= 8 else 0,
        runaway,
        chase,
        my_steps - bb.count_steps(opp, me, kings, not black),
    ]
    f.extend([0] * (len(TERMS) - BASIC))
    _tables(me, opp, kings, black, f)
    return f


def evaluate(me: int, opp: int, kings: int, black: bool, my_steps: int = -1) -> int:
    """The score of the position for the side to move (``me``), positive when it is better.

    ``my_steps`` is the mover's count of simple moves when the caller already knows it.
    """
    terms: int = sum(map(mul, WEIGHTS, features(me, opp, kings, black, my_steps)))
    return terms + sum(PATTERN_WEIGHTS[i] for i in pattern_indices(me, opp, black))


WEIGHT_MAP = load_weights()
WEIGHTS: tuple[int, ...] = tuple(WEIGHT_MAP[t] for t in TERMS)
PATTERN_WEIGHTS: tuple[int, ...] = tuple(load_patterns())
# What the compiled search is given (read once: the file's values above, not read again).
ALL_WEIGHTS: tuple[int, ...] = _for_search(WEIGHT_MAP, PATTERN_WEIGHTS)
