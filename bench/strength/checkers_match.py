"""The new checkers expert against the frozen baseline (``bench/strength/checkers_baseline``).

    nice -n 10 python -m bench.strength.checkers_match                  # 32 openings x 2 colours
    nice -n 10 python -m bench.strength.checkers_match --budget 0.5     # slower, stronger play
    nice -n 10 python -m bench.strength.checkers_match --search-only    # nodes/s and depth in 1 s

One process, games one after the other, both sides with the same time a move: every opening
(the 16 ballots of the ladder, then more 3-move openings from the book) is played twice, each
engine taking each colour once. It reports the new expert's score, the Elo difference with a
95% interval, and each side's nodes per second and mean depth on the moves it searched. Games
that reach ``--max-plies`` count as draws. The endgame database is used when it is built.

The search section times both engines on the same positions in the same run: nodes per second
and the depth completed in ``--search-seconds`` (median over the positions).
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from dataclasses import dataclass, field
from importlib import resources

from bench.strength.checkers_baseline import ai as base
from bench.strength.checkers_ladder import BALLOTS
from games.checkers import ai, egdb, search
from games.checkers.board import Board
from games.checkers.book import load_book
from games.checkers.search import think
from games.checkers.state import ACCEPT_DRAW, State

NEW, OLD = "new", "baseline"


@dataclass
class Side:
    """What one engine did over the match."""

    nodes: int = 0
    seconds: float = 0.0
    depths: list[int] = field(default_factory=list)

    def add(self, nodes: int, seconds: float, depth: int) -> None:
        if nodes:
            self.nodes += nodes
            self.seconds += seconds
            self.depths.append(depth)


def openings(count: int) -> list[str]:
    """The ladder's ballots, then balanced 3-move openings from the book, ``count`` in all."""
    out = list(BALLOTS)
    board_keys = set()
    for line in out:
        b = Board()
        for t in line.split():
            b.push_text(t)
        board_keys.add(b._key())
    extra = []
    for moves, score in _book_lines():
        if len(moves) == 3 and abs(score) <= 30:
            b = Board()
            for t in moves:
                b.push_text(t)
            if b._key() not in board_keys:
                board_keys.add(b._key())
                extra.append(" ".join(moves))
    return (out + extra)[:count]


def _book_lines() -> list[tuple[list[str], int]]:
    text = resources.files("games.checkers").joinpath("book.txt").read_text()
    lines = []
    for raw in text.splitlines():
        body, _, comment = raw.partition("#")
        path, sep, _ = body.partition(":")
        if not sep or not comment.strip().lstrip("+-").isdigit():
            continue
        lines.append((path.split(), int(comment.strip())))
    return lines


def baseline_move(state: State, seat: int, budget: float, seed: int) -> tuple[str, int, int]:
    """The baseline's expert choice (as ``base.choose``), with its nodes and depth."""
    board = state.board
    moves = list(board.legal_moves)
    legal = state.legal_actions(seat)
    if len(moves) == 1 and ACCEPT_DRAW not in legal:
        return str(moves[0]), 0, 0
    if board._key() in base.BOOK:
        return base.choose(state, seat, "expert", budget, seed), 0, 0
    me, opp, kings, black = board._raw()
    searcher = base.Searcher(
        time.perf_counter() + budget, base._history_keys(board), board.halfmove_clock
    )
    raw, score, depth = searcher.iterate(me, opp, kings, black, base._board_key(board), 96)
    if ACCEPT_DRAW in legal and score < -40:
        return ACCEPT_DRAW, searcher.nodes, depth
    return str(base._to_move(board, raw)), searcher.nodes, depth


def play(opening: str, new_seat: int, budget: float, seed: int, max_plies: int, sides) -> float:
    """One game; the new expert's score (1, 1/2, 0)."""
    state = State.new()
    for text in opening.split():
        state.apply(state.to_act()[0], text)
    plies = 0
    while not state.is_over() and plies < max_plies:
        seat = state.to_act()[0]
        start = time.perf_counter()
        if seat == new_seat:
            d = ai.decide(state, seat, "expert", budget, seed + plies)
            action, nodes, depth = d.action, d.nodes, d.depth
            sides[NEW].add(nodes, time.perf_counter() - start, depth)
        else:
            action, nodes, depth = baseline_move(state, seat, budget, seed + plies)
            sides[OLD].add(nodes, time.perf_counter() - start, depth)
        state.apply(seat, action)
        plies += 1
    outcome = state.outcome()
    if outcome is None or outcome.is_draw:
        return 0.5
    return 1.0 if outcome.winners == (new_seat,) else 0.0


def elo(score: float) -> float:
    s = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / s - 1)


def score_line(who: str, results: list[float]) -> str:
    """``who``'s wins, draws and losses, score, and Elo difference with its 95% interval."""
    n = len(results)
    wins, draws = results.count(1.0), results.count(0.5)
    score = sum(results) / n
    sd = statistics.pstdev(results) / math.sqrt(n)
    lo, hi = elo(score - 1.96 * sd), elo(score + 1.96 * sd)
    return (
        f"{who}: +{wins} ={draws} -{n - wins - draws}  score {sum(results):g}/{n} "
        f"({100 * score:.1f}%)  Elo {elo(score):+.0f} (95%: {lo:+.0f} to {hi:+.0f})"
    )


def match(budget: float, count: int, max_plies: int) -> None:
    lines = openings(count)
    sides = {NEW: Side(), OLD: Side()}
    results: list[float] = []
    start = time.perf_counter()
    print(
        f"new expert v baseline: {len(lines)} openings x 2 colours, {budget} s a move, "
        f"endgame database {'on' if egdb.load() else 'not built'}, "
        f"new search {'C core' if search.core_available() else 'Python'}",
        flush=True,
    )
    for i, line in enumerate(lines):
        for new_seat in (0, 1):
            r = play(line, new_seat, budget, 1000 * i + new_seat, max_plies, sides)
            results.append(r)
            colour = "Black" if new_seat == 0 else "Red"
            print(f"  {line:<18} new as {colour:<5} {r:g}", flush=True)
    print(f"\n{score_line('new expert', results)}  {time.perf_counter() - start:.0f} s")
    for name, side in sides.items():
        nps = side.nodes / side.seconds if side.seconds else 0
        depth = statistics.mean(side.depths) if side.depths else 0
        print(
            f"  {name:<8}: {nps:>9,.0f} nodes/s, mean depth {depth:.1f} "
            f"over {len(side.depths)} searched moves"
        )
    if sides[OLD].seconds and sides[NEW].seconds:
        ratio = (sides[NEW].nodes / sides[NEW].seconds) / (sides[OLD].nodes / sides[OLD].seconds)
        print(f"  nodes/s ratio new/baseline: {ratio:.2f}")


SEARCH_POSITIONS = (
    "11-15 23-19 8-11 22-17",
    "9-14 22-17 11-15 25-22",
    "10-15 21-17 9-13 24-19",
    "11-16 24-19 8-11 22-18",
    "12-16 21-17 9-13 17-14",
)


def search_speed(seconds: float) -> None:
    """Nodes/s and depth completed in ``seconds`` for both engines, same positions, same run."""
    print(
        f"search: {seconds} s a position, {len(SEARCH_POSITIONS)} middle-game positions, "
        f"new search {'C core' if search.core_available() else 'Python'}"
    )
    rows: dict[str, list[tuple[float, int]]] = {NEW: [], OLD: []}
    db = egdb.load()
    for line in SEARCH_POSITIONS:
        board = Board()
        for t in line.split():
            board.push_text(t)
        result = think(board, budget=seconds, egdb=db)
        rows[NEW].append((result.nodes / result.seconds, result.depth))
        me, opp, kings, black = board._raw()
        t0 = time.perf_counter()
        searcher = base.Searcher(t0 + seconds, base._history_keys(board), board.halfmove_clock)
        _, _, depth = searcher.iterate(me, opp, kings, black, base._board_key(board), 96)
        rows[OLD].append((searcher.nodes / (time.perf_counter() - t0), depth))
    for name, row in rows.items():
        nps = statistics.median(r[0] for r in row)
        print(
            f"  {name:<8}: median {nps:>9,.0f} nodes/s, "
            f"median depth {statistics.median(r[1] for r in row):g}"
        )
    ratio = statistics.median(r[0] for r in rows[NEW]) / statistics.median(r[0] for r in rows[OLD])
    print(f"  nodes/s ratio new/baseline: {ratio:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--budget", type=float, default=0.1, help="seconds a move, both sides")
    parser.add_argument("--openings", type=int, default=32, help="each played with both colours")
    parser.add_argument("--max-plies", type=int, default=240)
    parser.add_argument("--search-seconds", type=float, default=1.0)
    parser.add_argument("--search-only", action="store_true")
    parser.add_argument(
        "--threat-plies", type=int, default=search.THREAT_PLIES, help="the new search's setting"
    )
    args = parser.parse_args()
    search.THREAT_PLIES = args.threat_plies
    load_book()
    search_speed(args.search_seconds)
    if not args.search_only:
        print()
        match(args.budget, args.openings, args.max_plies)


if __name__ == "__main__":
    main()
