"""Static evaluation of a checkers position, in hundredths of a man, for the side to move.

Terms: material (kings worth more, and trading down pays when ahead), back-rank defence,
centre control, mobility, tempo (advancement, worth more as the board empties), runaway men
(a man nothing can stop from crowning) and, in the endgame, the stronger side's kings closing in.
"""

from __future__ import annotations

from games.checkers import bitboard as bb

MAN = 100
KING = 135

CENTRE = sum(1 << (s - 1) for s in (14, 15, 18, 19))
NEAR_CENTRE = sum(1 << (s - 1) for s in (10, 11, 22, 23, 13, 16, 17, 20))
BLACK_BRIDGE = (1 << 0) | (1 << 2)  # squares 1 and 3
RED_BRIDGE = (1 << 29) | (1 << 31)  # squares 30 and 32
EDGES = sum(1 << (s - 1) for s in (5, 13, 21, 12, 20, 28, 1, 2, 3, 4, 29, 30, 31, 32))


def _row_tables() -> tuple[list[list[int]], list[list[int]]]:
    """Per byte of the board (two rows), the summed advancement of men for each colour."""
    black, red = [], []
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


def _runaways(men: int, opp: int, black: bool) -> int:
    bonus = 0
    cones = _CONE_BLACK if black else _CONE_RED
    while men:
        bit = men & -men
        men ^= bit
        i = bit.bit_length() - 1
        if not opp & cones[i]:
            distance = 7 - _ROW[i] if black else _ROW[i]
            bonus += 70 - 8 * distance
    return bonus


def _distance(i: int, j: int) -> int:
    (ri, ci), (rj, cj) = bb.coords(i), bb.coords(j)
    return max(abs(ri - rj), abs(ci - cj))


_DIST = [[_distance(i, j) for j in range(32)] for i in range(32)]


def _chase(my_kings: int, opp: int) -> int:
    """How close the stronger side's kings are to the enemy (bigger is closer)."""
    targets = [i for i in range(32) if opp >> i & 1]
    total = 0
    while my_kings:
        bit = my_kings & -my_kings
        my_kings ^= bit
        row = _DIST[bit.bit_length() - 1]
        total += 7 - min(row[j] for j in targets)
    return total


def evaluate(me: int, opp: int, kings: int, black: bool, my_steps: int = -1) -> int:
    """The score of the position for the side to move (``me``), positive when it is better.

    ``my_steps`` is the mover's count of simple moves when the caller already knows it.
    """
    my_men, opp_men = me & ~kings, opp & ~kings
    my_kings, opp_kings = me & kings, opp & kings
    nm, nk, om, ok = (
        my_men.bit_count(),
        my_kings.bit_count(),
        opp_men.bit_count(),
        opp_kings.bit_count(),
    )
    mine = nm * MAN + nk * KING
    theirs = om * MAN + ok * KING
    pieces = nm + nk + om + ok
    score = mine - theirs
    if score and theirs and mine:
        # Trading down when ahead: the same lead is worth more with fewer pieces left.
        score += (mine - theirs) * (24 - pieces) // 40

    if black:
        my_adv, opp_adv = _advancement(my_men, _ADV_BLACK), _advancement(opp_men, _ADV_RED)
        my_back, opp_back = my_men & bb.TOP_ROW, opp_men & bb.BOTTOM_ROW
        my_bridge, opp_bridge = my_men & BLACK_BRIDGE, opp_men & RED_BRIDGE
    else:
        my_adv, opp_adv = _advancement(my_men, _ADV_RED), _advancement(opp_men, _ADV_BLACK)
        my_back, opp_back = my_men & bb.BOTTOM_ROW, opp_men & bb.TOP_ROW
        my_bridge, opp_bridge = my_men & RED_BRIDGE, opp_men & BLACK_BRIDGE

    # Back-rank defence matters while the opponent still has men to crown.
    if om:
        score += 5 * my_back.bit_count() + 8 * my_bridge.bit_count()
    if nm:
        score -= 5 * opp_back.bit_count() + 8 * opp_bridge.bit_count()

    score += 6 * ((me & CENTRE).bit_count() - (opp & CENTRE).bit_count())
    score += 2 * ((me & NEAR_CENTRE).bit_count() - (opp & NEAR_CENTRE).bit_count())
    score -= 6 * ((my_kings & EDGES).bit_count() - (opp_kings & EDGES).bit_count())

    tempo = 1 if pieces > 16 else (3 if pieces > 8 else 5)
    score += tempo * (my_adv - opp_adv)

    if pieces <= 16:
        if nm:
            score += _runaways(my_men, opp, black)
        if om:
            score -= _runaways(opp_men, me, not black)
        if pieces <= 10 and mine != theirs:
            if mine > theirs and my_kings and opp:
                score += 4 * _chase(my_kings, opp)
            elif theirs > mine and opp_kings and me:
                score -= 4 * _chase(opp_kings, me)

    if my_steps < 0:
        my_steps = bb.count_steps(me, opp, kings, black)
    mobility = my_steps - bb.count_steps(opp, me, kings, not black)
    return score + 2 * mobility
