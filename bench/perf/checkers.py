"""Checkers benchmarks: perft speed (against pydraughts), the search's speed (the C core
against the pure-Python search) and the computer's think time per level.

    python -m bench.perf.checkers            # perft 1-8, pydraughts perft(5), search, AI times
    python -m bench.perf.checkers --deep     # also perft 9 and 10
    python -m bench.perf.checkers --search-only   # only the search: nodes/s, depth in 1 and 0.1 s
    python -m bench.strength.checkers_ladder     # level ladder (strength), see that module

Medians over repeated runs; the pydraughts baseline is measured in the same run.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import TypeVar

from games.checkers import LEVELS, Board, State, choose, perft, search

EXPECTED = (7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564)

# Positions for think time: after a few varied 3-move ballots, plus a middle game and an ending.
POSITIONS = (
    ("11-15 23-19 8-11", None),
    ("9-14 22-17 11-15", None),
    ("10-15 21-17 9-13", None),
    ("11-16 24-19 8-11", None),
    ("", "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"),
    ("", "W:W17,21,22,23,25,26,27,30,31:B1,2,3,5,6,7,9,11,14"),
    ("", "B:WK27,K31:BK3,K7,K8"),
)


T = TypeVar("T")


def timed(fn: Callable[[], T], repeat: int = 3) -> tuple[float, T]:
    """The median seconds of ``repeat`` calls of ``fn`` (at least one), and its last result."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def perft_from_start(depth: int) -> int:
    return perft(Board(), depth)


def bench_perft(max_depth: int) -> None:
    print("perft from the start position (bulk counting at the last ply)")
    print(f"{'depth':>5} {'leaves':>10} {'expected':>10} {'seconds':>8} {'leaves/s':>11}")
    for depth in range(1, max_depth + 1):
        repeat = 3 if depth <= 7 else 1
        seconds, leaves = timed(partial(perft_from_start, depth), repeat)
        ok = "" if leaves == EXPECTED[depth - 1] else "  MISMATCH"
        rate = leaves / seconds if seconds else float("inf")
        print(
            f"{depth:>5} {leaves:>10} {EXPECTED[depth - 1]:>10} {seconds:>8.3f} {rate:>11,.0f}{ok}"
        )


def bench_against_pydraughts(depth: int) -> None:
    try:
        from draughts import Board as PyBoard
    except ImportError:
        print("pydraughts is not installed: no baseline")
        return

    def py_perft(board: PyBoard, d: int) -> int:
        if d == 0:
            return 1
        total = 0
        for move in board.legal_moves():
            board.push(move)
            total += py_perft(board, d - 1)
            board.pop()
        return total

    def our_plain_perft(board: Board, d: int) -> int:
        # The same algorithm as the baseline: push/pop every move, no bulk counting.
        if d == 0:
            return 1
        total = 0
        for move in board.legal_moves:
            board.push(move)
            total += our_plain_perft(board, d - 1)
            board.pop()
        return total

    py_seconds, py_leaves = timed(lambda: py_perft(PyBoard(variant="english"), depth), 1)
    bulk_seconds, bulk_leaves = timed(lambda: perft(Board(), depth), 5)
    plain_seconds, plain_leaves = timed(lambda: our_plain_perft(Board(), depth), 3)
    print(f"\nperft({depth}) against pydraughts (english)")
    py_rate = py_leaves / py_seconds
    print(f"  pydraughts        {py_leaves:>8} leaves {py_seconds:8.3f} s {py_rate:>12,.0f}/s")
    for name, leaves, seconds in (
        ("ours, push/pop", plain_leaves, plain_seconds),
        ("ours, bitboard", bulk_leaves, bulk_seconds),
    ):
        ratio = py_seconds / seconds
        print(
            f"  {name:<17} {leaves:>8} leaves {seconds:8.3f} s {leaves / seconds:>12,.0f}/s"
            f"  x{ratio:,.0f}"
        )
    assert py_leaves == bulk_leaves == plain_leaves


def _position(moves: str, fen: str | None) -> State:
    state = State.new(fen)
    for text in moves.split():
        state.apply(state.to_act()[0], text)
    return state


def bench_ai(budget: float, levels: tuple[str, ...]) -> None:
    print(f"\ncomputer think time per move (budget {budget} s, {len(POSITIONS)} positions)")
    print(f"{'level':>9} {'median s':>9} {'max s':>7}")
    for level in levels:
        times = []
        for moves, fen in POSITIONS:
            state = _position(moves, fen)
            seat = state.to_act()[0]
            start = time.perf_counter()
            action = choose(state, seat, level, budget, seed=1)
            times.append(time.perf_counter() - start)
            assert action in state.legal_actions(seat)
        print(f"{level:>9} {statistics.median(times):>9.3f} {max(times):>7.3f}")
    state = _position("11-15 23-19", None)
    start = time.perf_counter()
    choose(state, 0, LEVELS[-1], 0.0, seed=1)
    print(f"  budget 0 ({LEVELS[-1]}): {time.perf_counter() - start:.4f} s")


# Search speed: the start, two openings a few moves in, and two middle games.
SEARCH_POSITIONS = (
    ("", None),
    ("11-15 23-19 8-11 22-17", None),
    ("9-14 22-17 11-15 25-22", None),
    ("", "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"),
    ("", "B:W18,19,21,23,24,26,27,28,30,31,32:B1,2,3,5,6,8,9,10,12,14,16"),
)


def bench_search(budgets: tuple[float, ...]) -> None:
    """Nodes/s and depth completed per move budget: the Python search, then the C core, on the
    same positions in the same run (no opening book, no endgame database, and the C core's
    table fresh for every position, as the Python search's)."""
    cores = [("python", False)]
    if search._core is not None:
        cores.append(("C core", True))
    else:
        print("\nthe C core is not built (no compiler at install time): Python only")
    for budget in budgets:
        print(f"\nsearch: {budget} s a position, {len(SEARCH_POSITIONS)} positions (start first)")
        print(f"{'engine':>8} {'median nodes/s':>15} {'depths':>22} {'median':>7}")
        rates: dict[str, float] = {}
        for name, core in cores:
            nps, depths = [], []
            for moves, fen in SEARCH_POSITIONS:
                board = _position(moves, fen).board
                me, opp, kings, black = board._raw()
                keys, clock = search.history_keys(board), board.halfmove_clock
                start = time.perf_counter()
                searcher: search.Searcher | search.CoreSearcher
                if core:
                    searcher = search.CoreSearcher(
                        keys, clock, deadline=start + budget, keep_table=False
                    )
                else:
                    searcher = search.Searcher(keys, clock, deadline=start + budget)
                _, _, depth = searcher.iterate(me, opp, kings, black, keys[-1], search.MAX_PLY - 8)
                nps.append(searcher.nodes / (time.perf_counter() - start))
                depths.append(depth)
            rates[name] = statistics.median(nps)
            shown = " ".join(str(d) for d in depths)
            print(f"{name:>8} {rates[name]:>15,.0f} {shown:>22} {statistics.median(depths):>7g}")
        if len(rates) == 2:
            print(f"  nodes/s ratio C/python: {rates['C core'] / rates['python']:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deep", action="store_true", help="perft up to 10")
    parser.add_argument("--budget", type=float, default=1.5)
    parser.add_argument("--pydraughts-depth", type=int, default=5)
    parser.add_argument("--search-only", action="store_true", help="only the search speed")
    args = parser.parse_args()
    if args.search_only:
        bench_search((1.0, 0.1))
        return
    bench_perft(10 if args.deep else 8)
    bench_against_pydraughts(args.pydraughts_depth)
    bench_search((1.0, 0.1))
    bench_ai(args.budget, LEVELS)


if __name__ == "__main__":
    main()
