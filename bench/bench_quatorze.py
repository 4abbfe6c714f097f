"""Quatorze: win rates of the hint's policy, random play and the solver that knows the stock;
the hint's time per move. ``python -m bench.bench_quatorze [--quick] [--deals N] [--budget S]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from games.quatorze import State, Status, choose
from games.quatorze.solver import solve


def play_out(seed: int, level: str, budget: float, times: list[float] | None = None) -> bool:
    s = State.new(seed=seed)
    while not s.is_over():
        start = time.perf_counter()
        action = choose(s, 0, level, budget, seed * 1000 + len(s.moves))
        if times is not None:
            times.append(time.perf_counter() - start)
        s.apply(0, action)
    return s.status is Status.WON


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="100 deals instead of 1000")
    parser.add_argument("--deals", type=int, default=None)
    parser.add_argument("--budget", type=float, default=0.25, help="hint seconds per move")
    args = parser.parse_args()
    deals = args.deals or (100 if args.quick else 1000)
    seeds = list(range(deals))

    t0 = time.perf_counter()
    random_wins = sum(play_out(seed, "casual", 0.0) for seed in seeds)
    t_random = time.perf_counter() - t0

    t0 = time.perf_counter()
    solver_wins = 0
    unresolved = 0
    for seed in seeds:
        values = [int(c.rank) for c in State.new(seed=seed).deck]
        result = solve(tuple(values[:25]), values[25:], node_limit=500_000)
        solver_wins += result.won
        unresolved += not result.complete and not result.won
    t_solver = time.perf_counter() - t0

    t0 = time.perf_counter()
    times: list[float] = []
    hint_wins = sum(play_out(seed, "best", args.budget, times) for seed in seeds)
    t_hint = time.perf_counter() - t0

    print(f"Quatorze, {deals} seeded deals (seeds 0..{deals - 1}), hint budget {args.budget}s")
    print(f"  random legal play : {random_wins / deals:6.1%}  ({t_random:.1f}s)")
    print(f"  hint's policy     : {hint_wins / deals:6.1%}  ({t_hint:.1f}s)")
    print(
        f"  solver (knows the stock): {solver_wins / deals:6.1%}  "
        f"({unresolved} unresolved at the node limit, {t_solver:.1f}s)"
    )
    print(
        f"  hint per move: median {statistics.median(times) * 1000:.1f} ms, "
        f"p90 {sorted(times)[int(len(times) * 0.9)] * 1000:.1f} ms, max {max(times) * 1000:.0f} ms"
    )
    print(
        f"  ratios: hint/random wins {hint_wins / max(1, random_wins):.2f}, "
        f"hint/solver wins {hint_wins / max(1, solver_wins):.2f}"
    )


if __name__ == "__main__":
    main()
