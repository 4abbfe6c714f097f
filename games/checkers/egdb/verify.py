"""Check a solved table against plain minimax (``python -m games.checkers.egdb verify``).

The minimax here knows nothing of the solver: it plays the moves of :mod:`bitboard` to a fixed
depth. A table value is confirmed when minimax settles the position at exactly that distance
(and not one ply sooner); a draw, or a result deeper than the search, must stay unsettled.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.checkers import bitboard as bb
from games.checkers.egdb import DRAW, LOSS, WIN, Egdb, flip, sig_size, signatures, unrank

Value = tuple[int, int] | None
Memo = dict[tuple[int, int, int, bool, int], Value]


def brute(me: int, opp: int, kings: int, black: bool, depth: int, memo: Memo) -> Value:
    """(result, distance) if the game is decided within ``depth`` plies, by plain minimax.

    The winner takes the shortest win, the loser the longest loss; None when ``depth`` plies
    do not settle it. ``memo`` caches (position, depth) only to keep it fast.
    """
    key = (me, opp, kings, black, depth)
    if key in memo:
        return memo[key]
    moves = bb.gen_moves(me, opp, kings, black)
    if not moves:
        return (LOSS, 0)
    if depth == 0:
        return None
    win = None
    worst = 0
    all_won = True
    for move in moves:
        nme, nopp, nk = bb.apply(me, opp, kings, black, move)
        child = (LOSS, 0) if not nopp else brute(nopp, nme, nk, not black, depth - 1, memo)
        if child is not None and child[0] == LOSS:
            win = child[1] + 1 if win is None else min(win, child[1] + 1)
        if child is None or child[0] != WIN:
            all_won = False
        else:
            worst = max(worst, child[1] + 1)
    result: Value = (WIN, win) if win is not None else (LOSS, worst) if all_won else None
    memo[key] = result
    return result


@dataclass
class Tally:
    """What a sample showed: exact results confirmed, and positions left unsettled."""

    exact: int = 0
    draws: int = 0
    deep: int = 0


def check(
    db: Egdb,
    black: int,
    red: int,
    kings: int,
    tally: Tally,
    exact_depth: int = 9,
    open_depth: int = 6,
) -> None:
    """Check one position (Black to move) both ways round; AssertionError on a disagreement."""
    found = db.probe(black, red, kings, True)
    turned = db.probe(flip(black), flip(red), flip(kings), False)
    assert found is not None and turned == found, (black, red, kings, found, turned)
    memo: Memo = {}
    result, distance = found
    if result != DRAW and distance <= exact_depth:
        assert brute(black, red, kings, True, distance, memo) == found, (black, red, kings)
        if distance:
            assert brute(black, red, kings, True, distance - 1, memo) is None, (black, red, kings)
        tally.exact += 1
    else:
        assert brute(black, red, kings, True, open_depth, memo) is None, (black, red, kings)
        if result == DRAW:
            tally.draws += 1
        else:
            tally.deep += 1


def sample(db: Egdb, pieces: int, count: int, seed: int = 1) -> Tally:
    """Check ``count`` random positions of exactly ``pieces`` pieces (any material)."""
    rng = random.Random(seed * 100 + pieces)
    sigs = signatures(pieces)
    tally = Tally()
    for _ in range(count):
        sig = rng.choice(sigs)
        position = None
        while position is None:
            position = unrank(sig, rng.randrange(sig_size(sig)))
        check(db, *position, tally)
    return tally
