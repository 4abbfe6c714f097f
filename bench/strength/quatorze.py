"""Quatorze: how often the fair hint's policy clears a seeded deal (with a 95% interval), against
greedy play (the hint's rating alone), random play and the solver that knows the stock; the
hint's time per move.

One process. By default the hint uses a fixed number of sampled stock orders per move
(deterministic); ``--budget`` gives it a time budget per move as in the bot instead (the result
then depends on the machine's load, which is printed).

    python -m bench.strength.quatorze                 # 1000 deals (seeds 0..999)
    python -m bench.strength.quatorze --quick         # 100 deals
    python -m bench.strength.quatorze --budget 0.5    # the bot's budget per move, not samples
    python -m bench.strength.quatorze --samples 64
    python -m bench.strength.quatorze --against 8000   # the hint at another sample count, paired
    PARLOUR_QUATORZE_CORE=python python -m bench.strength.quatorze --quick   # Python playouts

Two players on the same deals disagree on few of them, so each comparison is also given paired:
the deals only one of the two won, and the difference with its standard error. Even the same
hint with other sampled orders ends some 5% of 1,000 deals differently, about 0.7 points of
standard error (``docs/quatorze-hint.md``).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time

from games.quatorze import State, Status, choose
from games.quatorze.fair import compiled_available
from games.quatorze.solver import solve

# About what the bot's half-second budget allows on a loaded core: thousands of sampled orders
# with the compiled playouts, a hundred with the Python ones.
SAMPLES = 2000 if compiled_available() else 100


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% (Wilson score) interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def play_out(
    seed: int,
    level: str,
    samples: int | None,
    budget: float = 1.0,
    times: list[float] | None = None,
) -> bool:
    """One seeded deal played by ``choose`` at ``level``: ``samples`` sampled stock orders a
    move, or (``samples=None``) as many as ``budget`` seconds allow."""
    s = State.new(seed=seed)
    while not s.is_over():
        start = time.perf_counter()
        action = choose(s, 0, level, budget, seed * 1000 + len(s.moves), limit=samples)
        if times is not None:
            times.append(time.perf_counter() - start)
        s.apply(0, action)
    return s.status is Status.WON


def paired(name: str, a: dict[int, bool], b: dict[int, bool]) -> str:
    """Two players on the same deals: the deals only one of them won, and the difference in
    win rate with its standard error (over deals)."""
    n = len(a)
    only_a = sum(a[s] and not b[s] for s in a)
    only_b = sum(b[s] and not a[s] for s in a)
    diff = (only_a - only_b) / n
    se = math.sqrt(max(0.0, (only_a + only_b) / n - diff * diff) / max(1, n - 1))
    return (
        f"  {name:<30} won by the first only {only_a}, by the second only {only_b}: "
        f"{diff:+.1%} (s.e. {se:.1%})"
    )


def line(name: str, wins: int, n: int, seconds: float) -> str:
    lo, hi = wilson(wins, n)
    return f"  {name:<30} {wins / n:6.1%}  [{lo:6.1%}, {hi:6.1%}]  ({n} deals, {seconds:.0f}s)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 deals instead of 1000")
    parser.add_argument("--deals", type=int, default=None)
    parser.add_argument("--first", type=int, default=0, help="the first seed")
    parser.add_argument(
        "--samples", type=int, default=SAMPLES, help="sampled stock orders a move (at most)"
    )
    parser.add_argument(
        "--budget", type=float, default=None, help="seconds a move instead of a sample count"
    )
    parser.add_argument(
        "--against", type=int, default=None, help="also the hint at this many samples, paired"
    )
    args = parser.parse_args()
    deals = args.deals or (100 if args.quick else 1000)
    seeds = list(range(args.first, args.first + deals))
    samples = None if args.budget is not None else args.samples
    mode = f"{args.budget}s a move" if samples is None else f"{samples} samples a move"
    mode += ", compiled" if compiled_available() else ", Python playouts"
    load_before = os.getloadavg()

    t0 = time.perf_counter()
    times: list[float] = []
    hint_won: dict[int, bool] = {}
    for n, seed in enumerate(seeds, 1):
        hint_won[seed] = play_out(seed, "best", samples, args.budget or 1.0, times)
        if n % 100 == 0 and n < deals:
            won = sum(hint_won.values())
            print(f"  ... {n} deals: {won} won, {time.perf_counter() - t0:.0f}s", file=sys.stderr)
    hint_wins = sum(hint_won.values())
    t_hint = time.perf_counter() - t0
    load_after = os.getloadavg()

    t0 = time.perf_counter()
    greedy_won = {seed: play_out(seed, "best", 0) for seed in seeds}
    greedy_wins = sum(greedy_won.values())
    t_greedy = time.perf_counter() - t0

    t0 = time.perf_counter()
    other_won = {s: play_out(s, "best", args.against) for s in seeds} if args.against else {}
    t_other = time.perf_counter() - t0

    t0 = time.perf_counter()
    random_wins = sum(play_out(seed, "casual", 0) for seed in seeds)
    t_random = time.perf_counter() - t0

    t0 = time.perf_counter()
    solver_wins = unresolved = 0
    for seed in seeds:
        values = [int(c.rank) for c in State.new(seed=seed).deck]
        result = solve(tuple(values[:25]), values[25:], node_limit=500_000)
        solver_wins += result.won
        unresolved += not result.complete and not result.won
    t_solver = time.perf_counter() - t0

    last = seeds[-1]
    print(f"Quatorze, seeded deals {seeds[0]}..{last}: win rate [95% interval]")
    print(line(f"fair hint ({mode})", hint_wins, deals, t_hint))
    if other_won:
        other = f"fair hint ({args.against} samples)"
        print(line(other, sum(other_won.values()), deals, t_other))
    print(line("greedy (the hint's rating)", greedy_wins, deals, t_greedy))
    print(line("random legal play", random_wins, deals, t_random))
    print(line("solver (knows the stock)", solver_wins, deals, t_solver))
    if unresolved:
        print(f"  ({unresolved} deals unresolved at the solver's node limit)")
    ts = sorted(times)
    print(
        f"  fair hint per move: median {statistics.median(ts) * 1000:.1f} ms, "
        f"p90 {ts[int(len(ts) * 0.9)] * 1000:.0f} ms, p99 {ts[int(len(ts) * 0.99)] * 1000:.0f} ms, "
        f"max {ts[-1] * 1000:.0f} ms ({len(ts)} moves)"
    )
    print(
        f"  load average (1 min) {load_before[0]:.1f} before, {load_after[0]:.1f} after the "
        f"hint's games ({os.cpu_count()} cpus)"
    )
    print("paired, on the same deals:")
    print(paired("fair hint v greedy", hint_won, greedy_won))
    if other_won:
        print(paired(f"fair hint v {args.against} samples", hint_won, other_won))
    print(
        f"  ratios: fair/random wins {hint_wins / max(1, random_wins):.3f}; "
        f"fair/greedy {hint_wins / max(1, greedy_wins):.3f}"
    )


if __name__ == "__main__":
    main()
