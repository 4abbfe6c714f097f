"""Hearts AI tournaments on duplicate deals, and time per decision.

Each deal is played once by four copies of the baseline level, then four more times with the
tested level in each seat in turn (the other three seats the baseline). The tested level's points
are compared with what the baseline took from the same seat of the same deal, so the luck of the
cards cancels. Hands are single hands (pass left) scored with the moon rule.

    python -m bench.bench_hearts            # --quick (default): a few minutes
    python -m bench.bench_hearts --full     # more deals, the default budget (~45 min)
    python -m bench.bench_hearts --match expert:standard --deals 40 --budget 0.5
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from itertools import combinations

from games.hearts import LEVELS, State, choose

RANDOM = "random"


def _random_action(state: State, seat: int, rng: random.Random) -> str:
    if state.phase.value == "pass":
        hand = state.hand(seat)
        return "pass-" + "-".join(str(c) for c in rng.sample(hand, 3))
    return rng.choice(state.legal_actions(seat))


def play_hand(
    deal: int, levels: tuple[str, ...], budget: float
) -> tuple[list[int], dict[str, list[float]]]:
    """Play the first hand of game ``deal``; the scores and the decision times per level."""
    state = State.new(seed=deal)
    rng = random.Random(deal)
    times: dict[str, list[float]] = {}
    while not state.history:
        for seat in state.to_act():
            level = levels[seat]
            forced = state.phase.value == "play" and len(state.legal_actions(seat)) == 1
            start = time.perf_counter()
            if level == RANDOM:
                action = _random_action(state, seat, rng)
            else:
                action = choose(state, seat, level, budget, seed=deal * 7 + seat)
            if not forced:
                times.setdefault(level, []).append(time.perf_counter() - start)
            state.apply(seat, action)
    return list(state.history[0]["scores"]), times


def _duplicate(args: tuple[int, str, str, float]) -> tuple[list[float], dict[str, list[float]]]:
    deal, tested, base, budget = args
    base_scores, times = play_hand(deal, (base,) * 4, budget)
    diffs = []
    for seat in range(4):
        levels = tuple(tested if s == seat else base for s in range(4))
        scores, t = play_hand(deal, levels, budget)
        for k, v in t.items():
            times.setdefault(k, []).extend(v)
        diffs.append((scores[seat], base_scores[seat]))
    return diffs, times  # type: ignore[return-value]


def match(
    tested: str, base: str, deals: list[int], budget: float, pool: ProcessPoolExecutor
) -> tuple[dict[str, float], dict[str, list[float]]]:
    pairs: list[tuple[int, int]] = []
    times: dict[str, list[float]] = {}
    for diffs, t in pool.map(_duplicate, [(d, tested, base, budget) for d in deals]):
        pairs.extend(diffs)  # type: ignore[arg-type]
        for k, v in t.items():
            times.setdefault(k, []).extend(v)
    a = [p[0] for p in pairs]
    b = [p[1] for p in pairs]
    d = [x - y for x, y in pairs]
    se = statistics.stdev(d) / math.sqrt(len(d)) if len(d) > 1 else float("nan")
    return {
        "tested": statistics.fmean(a),
        "base": statistics.fmean(b),
        "diff": statistics.fmean(d),
        "se": se,
        "hands": len(d),
    }, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="a few minutes (default)")
    mode.add_argument("--full", action="store_true", help="more deals, default budget")
    parser.add_argument("--deals", type=int, help="deals per match")
    parser.add_argument("--budget", type=float, help="expert seconds per card")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--first-deal", type=int, default=1000)
    parser.add_argument(
        "--match", action="append", metavar="TESTED:BASE", help="only these (e.g. expert:standard)"
    )
    opts = parser.parse_args()
    deals_n = opts.deals or (60 if opts.full else 20)
    budget = opts.budget or (0.5 if opts.full else 0.25)
    deals = list(range(opts.first_deal, opts.first_deal + deals_n))
    print(f"hearts bench: {deals_n} duplicate deals per match (x4 seats), expert budget {budget}s")
    pairings = [(hi, lo) for lo, hi in combinations(LEVELS, 2)]
    pairings.sort(key=lambda p: (LEVELS.index(p[0]), LEVELS.index(p[1])), reverse=True)
    pairings += [(level, RANDOM) for level in reversed(LEVELS)]
    if opts.match:
        pairings = [tuple(m.split(":", 1)) for m in opts.match]  # type: ignore[misc]
    all_times: dict[str, list[float]] = {}
    print(
        f"{'tested':>9} vs {'baseline':<9} {'hands':>5} {'tested pts/hand':>16} "
        f"{'baseline pts/hand':>18} {'diff':>7} {'±se':>6}"
    )
    with ProcessPoolExecutor(opts.jobs) as pool:
        for tested, base in pairings:
            start = time.perf_counter()
            r, t = match(tested, base, deals, budget, pool)
            for k, v in t.items():
                all_times.setdefault(k, []).extend(v)
            print(
                f"{tested:>9} vs {base:<9} {r['hands']:>5} {r['tested']:>16.2f} "
                f"{r['base']:>18.2f} {r['diff']:>+7.2f} {r['se']:>6.2f}"
                f"   ({time.perf_counter() - start:.0f}s)",
                flush=True,
            )
    print("\ntime per decision (passes and unforced plays)")
    base = "standard" if all_times.get("standard") else None
    base_median = statistics.median(all_times[base]) if base else 0.0
    for level in (*LEVELS, RANDOM):
        ts = sorted(all_times.get(level, []))
        if not ts:
            continue
        p90 = ts[int(0.9 * (len(ts) - 1))]
        med = statistics.median(ts)
        ratio = f"{med / base_median:.3g}x standard, " if base_median else ""
        print(
            f"  {level:>9}: median {med * 1000:8.2f} ms  p90 {p90 * 1000:8.2f} ms  "
            f"max {ts[-1] * 1000:8.2f} ms  ({ratio}n={len(ts)})"
        )


if __name__ == "__main__":
    main()
