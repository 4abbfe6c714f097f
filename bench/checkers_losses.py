"""Where the expert's lost games against an outside engine went wrong.

    python -m bench.bench_checkers_engine --engine LIB.so --budget 1 > match.txt
    python -m bench.checkers_losses match.txt --engine LIB.so [--seconds 0.3] [--nodes N]

Reads the lost games that ``bench_checkers_engine`` prints at the end of a match and replays
each. At every position where the expert was to move after the opening, it scores the position
twice from the expert's side, each with ``--seconds``: the engine's score from a fresh search
(its report's ``value=N``, in its own units, a man about 100) and the expert's search score. It
prints each game's rows, where the game turned (the first of the expert's positions from which
the engine's score stays at or below ``-TURNED``, never again above ``-TURNED // 2``), and the
expert's moves after which the engine's score fell most; then the median ply and piece count at
which the games turned. The engine is the judge here, and it is not perfect: read one row as
a hint, many as a pattern.
"""

from __future__ import annotations

import argparse
import itertools
import re
import statistics
import time
from dataclasses import dataclass

from bench.bench_checkers_engine import Engine, engine_score
from games.checkers import egdb
from games.checkers.board import Board
from games.checkers.search import board_key, history_keys, make_searcher

TURNED = 60  # the engine's score at or below -TURNED: the expert is clearly worse
OPENING_PLIES = 6  # the ballot and the book: not the expert's own judgement
_LOST = re.compile(r"^\s+(Black|Red): (.+)$")


@dataclass(frozen=True)
class Row:
    """One position with the expert to move: both scores from the expert's side."""

    ply: int
    pieces: int
    engine: int | None  # None: a forced move (nothing to judge), or a report with no score
    expert: int
    depth: int


def lost_games(text: str) -> list[tuple[int, list[str]]]:
    """The lost games of a ``bench_checkers_engine`` report: (the expert's seat, 0 for Black,
    1 for Red; every move of the game, the opening included)."""
    _, found, tail = text.partition("games lost")
    if not found:
        return []
    games = []
    for line in tail.splitlines():
        match = _LOST.match(line)
        if match:
            games.append((0 if match.group(1) == "Black" else 1, match.group(2).split()))
    return games


def turning_point(rows: list[Row]) -> Row | None:
    """The first row from which the engine's score stays at or below -TURNED (and never comes
    back above -TURNED // 2); None when the game never turned that clearly."""
    for i, row in enumerate(rows):
        if row.engine is None or row.engine > -TURNED:
            continue
        if all(r.engine is None or r.engine <= -TURNED // 2 for r in rows[i:]):
            return row
    return None


def worst_moves(rows: list[Row], count: int = 2) -> list[tuple[int, Row, Row]]:
    """The ``count`` largest falls of the engine's score from one of the expert's positions to
    the next (the expert's move and the engine's reply): (fall, before, after), worst first.
    Positions already lost (score below -3 * TURNED) or decided (a score beyond 1,000) are
    left out: the interesting moves are those that lost a game still open."""
    falls = []
    for before, after in itertools.pairwise(rows):
        if before.engine is None or after.engine is None:
            continue
        if max(abs(before.engine), abs(after.engine)) >= 1000 or before.engine < -3 * TURNED:
            continue
        falls.append((after.engine - before.engine, before, after))
    falls.sort(key=lambda fall: fall[0])
    return falls[:count]


def score_game(
    seat: int, moves: list[str], engine: Engine, seconds: float, nodes: int | None = None
) -> list[Row]:
    """Replay one game and score every position where the expert was to move: the engine
    searches ``seconds``, the expert as long or, given ``nodes``, that many nodes."""
    board = Board()
    db = egdb.load()
    rows = []
    for ply, text in enumerate(moves):
        if ply % 2 == seat and ply >= OPENING_PLIES:
            me, opp, kings, black = board._raw()
            forced = len(list(board.legal_moves)) == 1
            judged = None if forced else engine_score(engine, (me, opp, kings, black), seconds)
            searcher = make_searcher(
                history_keys(board),
                board.halfmove_clock,
                deadline=None if nodes else time.perf_counter() + seconds,
                limit=nodes,
                egdb=db,
            )
            _, ours, depth = searcher.iterate(me, opp, kings, black, board_key(board), 96)
            rows.append(Row(ply, (me | opp).bit_count(), judged, ours, depth))
        board.push_text(text)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("report", help="the output of bench_checkers_engine")
    parser.add_argument("--engine", required=True, help="the engine's shared library")
    parser.add_argument("--seconds", type=float, default=0.3, help="a search, each side")
    parser.add_argument("--nodes", type=int, help="the expert searches this many nodes instead")
    args = parser.parse_args()
    with open(args.report, encoding="utf-8") as handle:
        games = lost_games(handle.read())
    engine = Engine.load(args.engine)
    turned: list[Row] = []
    for seat, moves in games:
        rows = score_game(seat, moves, engine, args.seconds, args.nodes)
        colour = "Black" if seat == 0 else "Red"
        print(f"{' '.join(moves[:3])}, expert as {colour}, lost in {len(moves)} plies")
        for row in rows:
            print(
                f"  ply {row.ply:>3}  pieces {row.pieces:>2}  engine {row.engine!s:>6}  "
                f"expert {row.expert:>6}  depth {row.depth:>2}"
            )
        point = turning_point(rows)
        if point is not None:
            turned.append(point)
            print(f"  turned at ply {point.ply} with {point.pieces} pieces")
        for fall, before, after in worst_moves(rows):
            print(
                f"  the move at ply {before.ply} ({before.pieces} pieces): engine "
                f"{before.engine} -> {after.engine} ({fall:+d}); the expert said {before.expert}"
            )
    print(f"\n{len(games)} lost games, {len(turned)} turned clearly", end="")
    if turned:
        print(
            f": median ply {statistics.median(r.ply for r in turned):g}, "
            f"median pieces {statistics.median(r.pieces for r in turned):g}"
        )
    else:
        print()


if __name__ == "__main__":
    main()
