"""Bitboards and raw move generation for English draughts.

A position is three 32-bit ints (Black's pieces, Red's pieces, kings) plus the side to move.
Square ``n`` (1-32, numbered as in the seed's diagram) is bit ``n - 1``: row ``(n - 1) // 4``
counts down from the top (Red's king row, squares 1-4) to the bottom (Black's king row,
squares 29-32). Black moves down (towards higher numbers), Red up.

Everything here works on raw ints and tuples so the search and perft stay fast; the friendly
``Board`` and ``Move`` types live in :mod:`games.checkers.board`. The lookup tables are built
once, at import.
"""

from __future__ import annotations

FULL = 0xFFFFFFFF
TOP_ROW = 0x0000000F  # squares 1-4: Red's king row (Black's back rank)
BOTTOM_ROW = 0xF0000000  # squares 29-32: Black's king row (Red's back rank)
BLACK_START = 0x00000FFF  # squares 1-12
RED_START = 0xFFF00000  # squares 21-32

# Directions: (row step, column step). Down is Black's forward, up is Red's forward.
DOWN_LEFT, DOWN_RIGHT, UP_LEFT, UP_RIGHT = 0, 1, 2, 3
_STEPS = ((1, -1), (1, 1), (-1, -1), (-1, 1))


def coords(index: int) -> tuple[int, int]:
    """Row and column (0-7, from the top left) of bit ``index``.

    >>> coords(0), coords(4), coords(31)
    ((0, 1), (1, 0), (7, 6))
    """
    row, k = divmod(index, 4)
    return row, 2 * k + (1 if row % 2 == 0 else 0)


def index_at(row: int, col: int) -> int | None:
    """The bit index of the dark square at ``(row, col)``; None off the board or if light."""
    if not (0 <= row < 8 and 0 <= col < 8) or (row + col) % 2 == 0:
        return None
    return 4 * row + col // 2


def _build_tables() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    neighbour: list[tuple[int, ...]] = []
    landing: list[tuple[int, ...]] = []
    for dr, dc in _STEPS:
        near, far = [], []
        for i in range(32):
            r, c = coords(i)
            n = index_at(r + dr, c + dc)
            f = index_at(r + 2 * dr, c + 2 * dc)
            near.append(-1 if n is None else n)
            far.append(-1 if f is None or n is None else f)
        neighbour.append(tuple(near))
        landing.append(tuple(far))
    return tuple(neighbour), tuple(landing)


NEIGHBOUR, LANDING = _build_tables()


def _shift_masks(direction: int) -> dict[int, int]:
    """Source squares of ``direction`` grouped by the bit shift that moves them one step."""
    masks: dict[int, int] = {}
    for i, j in enumerate(NEIGHBOUR[direction]):
        if j >= 0:
            masks[j - i] = masks.get(j - i, 0) | (1 << i)
    return masks


_m = _shift_masks(DOWN_LEFT)
DL4, DL3 = _m[4], _m[3]
_m = _shift_masks(DOWN_RIGHT)
DR5, DR4 = _m[5], _m[4]
_m = _shift_masks(UP_LEFT)
UL4, UL5 = _m[-4], _m[-5]
_m = _shift_masks(UP_RIGHT)
UR3, UR4 = _m[-3], _m[-4]
del _m


def down_left(b: int) -> int:
    return ((b & DL4) << 4) | ((b & DL3) << 3)


def down_right(b: int) -> int:
    return ((b & DR5) << 5) | ((b & DR4) << 4)


def up_left(b: int) -> int:
    return ((b & UL4) >> 4) | ((b & UL5) >> 5)


def up_right(b: int) -> int:
    return ((b & UR3) >> 3) | ((b & UR4) >> 4)


# Jump tables: for each square, the (jumped bit, landing index, landing bit) of each direction.
def _jumps(directions: tuple[int, ...]) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    table = []
    for i in range(32):
        row = []
        for d in directions:
            over, land = NEIGHBOUR[d][i], LANDING[d][i]
            if land >= 0:
                row.append((1 << over, land, 1 << land))
        table.append(tuple(row))
    return tuple(table)


JUMPS_DOWN = _jumps((DOWN_LEFT, DOWN_RIGHT))
JUMPS_UP = _jumps((UP_LEFT, UP_RIGHT))
JUMPS_KING = _jumps((DOWN_LEFT, DOWN_RIGHT, UP_LEFT, UP_RIGHT))

# A raw move: (from bit, to bit, captured bits, path of indices from the start square).
RawMove = tuple[int, int, int, tuple[int, ...]]


def _man_chain(
    i: int,
    opp: int,
    empty: int,
    table: tuple[tuple[tuple[int, int, int], ...], ...],
    crown: int,
    path: tuple[int, ...],
    captured: int,
    out: list[RawMove],
    start: int,
) -> None:
    more = False
    for over, land, lbit in table[i]:
        if opp & over and empty & lbit:
            more = True
            if lbit & crown:  # crowned: the move ends here
                out.append((start, lbit, captured | over, (*path, land)))
            else:
                _man_chain(
                    land,
                    opp ^ over,
                    empty,
                    table,
                    crown,
                    (*path, land),
                    captured | over,
                    out,
                    start,
                )
    if not more:
        out.append((start, 1 << i, captured, path))


def _king_chain(
    i: int,
    opp: int,
    empty: int,
    path: tuple[int, ...],
    captured: int,
    out: list[RawMove],
    start: int,
) -> None:
    more = False
    for over, land, lbit in JUMPS_KING[i]:
        if opp & over and empty & lbit:
            more = True
            _king_chain(land, opp ^ over, empty, (*path, land), captured | over, out, start)
    if not more:
        out.append((start, 1 << i, captured, path))


def _jumpers(me: int, opp: int, kings: int, empty: int, black: bool) -> int:
    """Pieces of the side to move that have at least one capture."""
    if black:
        fwd, back = me, me & kings
        r = (up_right(up_right(empty) & opp) | up_left(up_left(empty) & opp)) & fwd
        if back:
            r |= (down_right(down_right(empty) & opp) | down_left(down_left(empty) & opp)) & back
    else:
        fwd, back = me, me & kings
        r = (down_right(down_right(empty) & opp) | down_left(down_left(empty) & opp)) & fwd
        if back:
            r |= (up_right(up_right(empty) & opp) | up_left(up_left(empty) & opp)) & back
    return r


def gen_captures(me: int, opp: int, kings: int, black: bool) -> list[RawMove]:
    """Every capture of the side to move (``me``), each a complete multi-jump."""
    empty = ~(me | opp) & FULL
    jumpers = _jumpers(me, opp, kings, empty, black)
    out: list[RawMove] = []
    if not jumpers:
        return out
    table = JUMPS_DOWN if black else JUMPS_UP
    crown = BOTTOM_ROW if black else TOP_ROW
    while jumpers:
        bit = jumpers & -jumpers
        jumpers ^= bit
        i = bit.bit_length() - 1
        if bit & kings:
            _king_chain(i, opp, empty | bit, (i,), 0, out, bit)
        else:
            _man_chain(i, opp, empty, table, crown, (i,), 0, out, bit)
    return out


def _add_steps(out: list[RawMove], targets: int, back: tuple[int, ...]) -> None:
    while targets:
        bit = targets & -targets
        targets ^= bit
        j = bit.bit_length() - 1
        i = back[j]
        out.append((1 << i, bit, 0, (i, j)))


_FROM_UR = NEIGHBOUR[UP_RIGHT]  # a down-left step came from the up-right neighbour
_FROM_UL = NEIGHBOUR[UP_LEFT]
_FROM_DR = NEIGHBOUR[DOWN_RIGHT]
_FROM_DL = NEIGHBOUR[DOWN_LEFT]


def gen_moves(me: int, opp: int, kings: int, black: bool) -> list[RawMove]:
    """All legal moves of the side to move: the captures if there are any, else the steps."""
    out = gen_captures(me, opp, kings, black)
    if out:
        return out
    empty = ~(me | opp) & FULL
    mk = me & kings
    if black:
        _add_steps(out, down_left(me) & empty, _FROM_UR)
        _add_steps(out, down_right(me) & empty, _FROM_UL)
        if mk:
            _add_steps(out, up_left(mk) & empty, _FROM_DR)
            _add_steps(out, up_right(mk) & empty, _FROM_DL)
    else:
        _add_steps(out, up_left(me) & empty, _FROM_DR)
        _add_steps(out, up_right(me) & empty, _FROM_DL)
        if mk:
            _add_steps(out, down_left(mk) & empty, _FROM_UR)
            _add_steps(out, down_right(mk) & empty, _FROM_UL)
    return out


def count_steps(me: int, opp: int, kings: int, black: bool) -> int:
    """How many simple (non-capturing) steps the side to move has."""
    empty = ~(me | opp) & FULL
    mk = me & kings
    if black:
        n = (down_left(me) & empty).bit_count() + (down_right(me) & empty).bit_count()
        if mk:
            n += (up_left(mk) & empty).bit_count() + (up_right(mk) & empty).bit_count()
    else:
        n = (up_left(me) & empty).bit_count() + (up_right(me) & empty).bit_count()
        if mk:
            n += (down_left(mk) & empty).bit_count() + (down_right(mk) & empty).bit_count()
    return n


def count_moves(me: int, opp: int, kings: int, black: bool) -> int:
    """How many legal moves the side to move has (fast: no move list for steps)."""
    caps = gen_captures(me, opp, kings, black)
    if caps:
        return len(caps)
    return count_steps(me, opp, kings, black)


def has_capture(me: int, opp: int, kings: int, black: bool) -> bool:
    return bool(_jumpers(me, opp, kings, ~(me | opp) & FULL, black))


def apply(me: int, opp: int, kings: int, black: bool, move: RawMove) -> tuple[int, int, int]:
    """The position after ``move``: (mover's pieces, opponent's pieces, kings)."""
    fb, tb, cap, _ = move
    me ^= fb ^ tb
    if cap:
        opp &= ~cap
        kings &= ~cap
    if kings & fb:
        kings ^= fb ^ tb
    elif tb & (BOTTOM_ROW if black else TOP_ROW):
        kings |= tb
    return me, opp, kings


def perft_raw(me: int, opp: int, kings: int, black: bool, depth: int) -> int:
    """Leaf count of the move tree below a raw position (bulk-counted at the last ply)."""
    if depth <= 1:
        return count_moves(me, opp, kings, black) if depth == 1 else 1
    total = 0
    crown = BOTTOM_ROW if black else TOP_ROW
    nb = not black
    d = depth - 1
    for fb, tb, cap, _ in gen_moves(me, opp, kings, black):
        m = me ^ fb ^ tb
        o = opp & ~cap if cap else opp
        k = kings & ~cap if cap else kings
        if k & fb:
            k ^= fb ^ tb
        elif tb & crown:
            k |= tb
        total += perft_raw(o, m, k, nb, d)
    return total
