"""How well a search score tells drawn kings-only endings from decided ones, without the database.

    python -m bench.checkers_draw_margin [--positions 300] [--nodes 2000] [--seed 7]

The expert accepts or offers a draw in a level kings-only ending (at most three kings a side)
that the endgame database does not cover only when its search scores the position within
``games.checkers.ai.DEAD_DRAW_MARGIN`` of 0. This draws random 1-2 king endings with no capture
pending, searches each at a fixed node count with the database off, and counts, for several
margins, the drawn ones (by the database) that score within it and the decided ones that do too:
the first should be large, the second small. Needs the database built (4 pieces at least).
"""

from __future__ import annotations

import argparse
import random

from games.checkers import bitboard as bb
from games.checkers import egdb
from games.checkers.ai import DEAD_DRAW_MARGIN
from games.checkers.board import Board
from games.checkers.search import think

MARGINS = (25, 40, 60, 80, 100, 125, 150)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--nodes", type=int, default=2000, help="search nodes a position")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    db = egdb.load()
    if db is None:
        raise SystemExit("build the endgame database first: python -m games.checkers.egdb build")
    rng = random.Random(args.seed)
    drawn: list[int] = []
    decided: list[int] = []
    while len(drawn) + len(decided) < args.positions:
        side = rng.choice([1, 2])
        squares = [f"K{s + 1}" for s in rng.sample(range(32), 2 * side)]
        black = rng.random() < 0.5
        mover, other = ",".join(squares[:side]), ",".join(squares[side:])
        board = Board.from_fen(f"B:W{other}:B{mover}" if black else f"W:W{mover}:B{other}")
        me, opp, kings, _ = board._raw()
        if bb.has_capture(me, opp, kings, black) or bb.has_capture(opp, me, kings, not black):
            continue
        found = db.probe(me, opp, kings, black) if db.covers(me, opp) else None
        if found is None or not bb.gen_moves(me, opp, kings, black):
            continue
        score = abs(think(board, limit=args.nodes).score)
        (drawn if found[0] == egdb.DRAW else decided).append(score)
    print(
        f"{len(drawn)} drawn and {len(decided)} decided 1-2 king endings, {args.nodes} nodes each "
        f"(the margin now: {DEAD_DRAW_MARGIN})"
    )
    print(f"{'margin':>7} {'drawn within':>13} {'decided within':>15}")
    for margin in MARGINS:
        inside = sum(s <= margin for s in drawn)
        wrong = sum(s <= margin for s in decided)
        print(f"{margin:>7} {inside:>7}/{len(drawn)} {wrong:>9}/{len(decided)}")


if __name__ == "__main__":
    main()
