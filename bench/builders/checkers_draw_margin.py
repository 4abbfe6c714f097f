"""How well a search score tells drawn kings-only endings from decided ones, without the database.

    python -m bench.builders.checkers_draw_margin [--positions 300] [--nodes 2000] [--seed 7]
    python -m bench.builders.checkers_draw_margin --weights trial.json --nodes 20000

The expert accepts or offers a draw in a level kings-only ending (at most three kings a side)
that the endgame database does not cover only when its search scores the position within
``games.checkers.ai.DEAD_DRAW_MARGIN`` of 0. This draws random 1-2 king endings with no capture
pending, searches each at a fixed node count with the database off, and counts, for several
margins, the drawn ones (by the database) that score within it and the decided ones that do too:
the first should be large, the second small. The decided ones are split by who wins: the
computer judges a draw on its own turn, so a won one within the margin is a win it would give
away, and a lost one is only a chance of the other side's slip it would give up.
``--weights`` searches with a trial fit's weights (``bench.builders.checkers_weights
--write-to``), with the compiled search when it is built, else the Python one (much slower).
Needs the database built (4 pieces at least).
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from bench.builders.checkers_weights import node_searcher
from games.checkers import bitboard as bb
from games.checkers import egdb
from games.checkers.ai import DEAD_DRAW_MARGIN
from games.checkers.board import Board
from games.checkers.evaluation import all_weights
from games.checkers.search import MAX_PLY, board_key

MARGINS = (25, 40, 50, 60, 70, 80, 100, 125, 150)


def endings(rng: random.Random, count: int, db: egdb.Egdb) -> list[tuple[Board, int]]:
    """``count`` random level 1-2 king endings with no capture pending and a move to make,
    each with the database's result for the side to move (WIN, DRAW or LOSS)."""
    out: list[tuple[Board, int]] = []
    while len(out) < count:
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
        out.append((board, found[0]))
    return out


def score(board: Board, nodes: int, weights: tuple[int, ...] | None) -> int:
    """The search's score of ``board`` at ``nodes`` nodes, without the database, with
    ``weights`` (None: the current ones), as the tuner searches."""
    me, opp, kings, black = board._raw()
    searcher = node_searcher(board, nodes, weights)
    return searcher.iterate(me, opp, kings, black, board_key(board), MAX_PLY - 8)[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--nodes", type=int, default=2000, help="search nodes a position")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--weights", type=Path, help="a trial fit's weights file")
    args = parser.parse_args()
    db = egdb.load()
    if db is None:
        raise SystemExit("build the endgame database first: python -m games.checkers.egdb build")
    weights = None
    if args.weights is not None:
        weights = all_weights(json.loads(args.weights.read_text()))
    scored = [
        (result, abs(score(board, args.nodes, weights)))
        for board, result in endings(random.Random(args.seed), args.positions, db)
    ]
    by_result = {
        r: [s for found, s in scored if found == r] for r in (egdb.DRAW, egdb.WIN, egdb.LOSS)
    }
    drawn, won, lost = by_result[egdb.DRAW], by_result[egdb.WIN], by_result[egdb.LOSS]
    print(
        f"{len(drawn)} drawn and {len(won) + len(lost)} decided 1-2 king endings ({len(won)} won "
        f"and {len(lost)} lost for the side to move), {args.nodes} nodes each, "
        f"{args.weights or 'the current weights'} (the margin now: {DEAD_DRAW_MARGIN})"
    )
    print(f"{'margin':>7} {'drawn within':>13} {'won within':>11} {'lost within':>12}")
    for margin in MARGINS:
        inside = sum(s <= margin for s in drawn)
        given = sum(s <= margin for s in won)
        hoped = sum(s <= margin for s in lost)
        print(f"{margin:>7} {inside:>7}/{len(drawn)} {given:>7}/{len(won)} {hoped:>8}/{len(lost)}")


if __name__ == "__main__":
    main()
