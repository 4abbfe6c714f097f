"""Hearts AI tournaments on duplicate deals, and time per decision.

Each deal is played once by four copies of the baseline level, then four more times with the
tested level in each seat in turn (the other three seats the baseline). The tested level's points
are compared with what the baseline took from the same seat of the same deal, so the luck of the
cards cancels. Hands are single hands scored with the moon rule, reported by kind: a passing hand
(pass left) and a hold hand (no passing) of each deal.

``baseline`` is the expert as it was before this round, frozen in ``bench/hearts_baseline.py``
(the searched pass, the search's inline trick rules). The default run sets the expert against
it, then times the search's playouts with the engine's rules against the baseline's inline ones.

    python -m bench.bench_hearts            # --quick (default): expert v baseline, a few minutes
    python -m bench.bench_hearts --full     # more deals, the default budget
    python -m bench.bench_hearts --ladder   # every level against the others and random play
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

from bench import hearts_baseline
from games.hearts import LEVELS, State, choose
from games.hearts.rules import first_leader
from games.hearts.search import play_out

RANDOM = "random"
BASELINE = "baseline"
KINDS = {"pass": 0, "hold": 3}  # hand numbers: the first hand passes left, the fourth holds


def deal_state(deal: int, kind: str) -> State:
    """The hand of game ``deal`` with that kind of passing (its own shuffle, as in a game)."""
    state = State.new(seed=deal)
    if KINDS[kind]:
        state.hand_number = KINDS[kind]
        state._deal()
    return state


def _random_action(state: State, seat: int, rng: random.Random) -> str:
    if state.phase.value == "pass":
        hand = state.hand(seat)
        return "pass-" + "-".join(str(c) for c in rng.sample(hand, 3))
    return rng.choice(state.legal_actions(seat))


def play_hand(
    deal: int, levels: tuple[str, ...], budget: float, kind: str = "pass"
) -> tuple[list[int], dict[str, list[float]]]:
    """Play one hand of game ``deal``; the scores and the decision times per level."""
    state = deal_state(deal, kind)
    rng = random.Random(deal)
    times: dict[str, list[float]] = {}
    while not state.history:
        for seat in state.to_act():
            level = levels[seat]
            forced = state.phase.value == "play" and len(state.legal_actions(seat)) == 1
            start = time.perf_counter()
            if level == RANDOM:
                action = _random_action(state, seat, rng)
            elif level == BASELINE:
                action = hearts_baseline.choose(state, seat, budget, seed=deal * 7 + seat)
            else:
                action = choose(state, seat, level, budget, seed=deal * 7 + seat)
            if not forced:
                times.setdefault(level, []).append(time.perf_counter() - start)
            state.apply(seat, action)
    return list(state.history[0]["scores"]), times


def _duplicate(
    args: tuple[int, str, str, float, str],
) -> tuple[list[float], dict[str, list[float]]]:
    deal, tested, base, budget, kind = args
    base_scores, times = play_hand(deal, (base,) * 4, budget, kind)
    diffs = []
    for seat in range(4):
        levels = tuple(tested if s == seat else base for s in range(4))
        scores, t = play_hand(deal, levels, budget, kind)
        for k, v in t.items():
            times.setdefault(k, []).extend(v)
        diffs.append((scores[seat], base_scores[seat]))
    return diffs, times  # type: ignore[return-value]


def match(
    tested: str,
    base: str,
    deals: list[int],
    budget: float,
    pool: ProcessPoolExecutor,
    kind: str = "pass",
) -> tuple[dict[str, float], dict[str, list[float]]]:
    pairs: list[tuple[int, int]] = []
    times: dict[str, list[float]] = {}
    work = [(d, tested, base, budget, kind) for d in deals]
    for diffs, t in pool.map(_duplicate, work):
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


def playout_speed(hands_n: int = 200, reps: int = 7) -> tuple[float, float]:
    """Microseconds per whole-hand playout: the search's (engine rules) and the baseline's
    (inline rules), on the same fresh deals, alternated in one process; medians of ``reps``."""
    deals = []
    for seed in range(hands_n):
        s = State.new(seed=seed)
        deals.append((s.rules, list(s.hands), first_leader(s.dealer)))
    runs: dict[str, list[float]] = {"engine": [], "inline": []}
    for _ in range(reps):
        for name, fn in (("engine", play_out), ("inline", hearts_baseline.play_out)):
            start = time.perf_counter()
            for rules, hands, lead in deals:
                fn(rules, list(hands), [], lead, 0, [0, 0, 0, 0], False, True)
            runs[name].append((time.perf_counter() - start) / hands_n * 1e6)
    return statistics.median(runs["engine"]), statistics.median(runs["inline"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="a few minutes (default)")
    mode.add_argument("--full", action="store_true", help="more deals, default budget")
    parser.add_argument("--deals", type=int, help="deals per match")
    parser.add_argument("--budget", type=float, help="expert seconds per card")
    parser.add_argument("--jobs", type=int, default=1, help="processes (the machine is shared)")
    parser.add_argument("--first-deal", type=int, default=1000)
    parser.add_argument("--ladder", action="store_true", help="every level v the others, random")
    parser.add_argument(
        "--match", action="append", metavar="TESTED:BASE", help="only these (e.g. expert:standard)"
    )
    parser.add_argument(
        "--kind", action="append", choices=sorted(KINDS), help="hand kinds (default: both)"
    )
    opts = parser.parse_args()
    deals_n = opts.deals or (60 if opts.full else 20)
    budget = opts.budget or (0.5 if opts.full else 0.25)
    deals = list(range(opts.first_deal, opts.first_deal + deals_n))
    kinds = opts.kind or list(KINDS)
    print(f"hearts bench: {deals_n} duplicate deals per match (x4 seats), expert budget {budget}s")
    pairings: list[tuple[str, str]] = [("expert", BASELINE)]
    if opts.ladder:
        pairings = [(hi, lo) for lo, hi in combinations(LEVELS, 2)]
        pairings.sort(key=lambda p: (LEVELS.index(p[0]), LEVELS.index(p[1])), reverse=True)
        pairings += [(level, RANDOM) for level in reversed(LEVELS)]
    if opts.match:
        pairings = [(t, b) for t, _, b in (m.partition(":") for m in opts.match)]
    all_times: dict[str, list[float]] = {}
    print(
        f"{'tested':>9} vs {'baseline':<9} {'hand':>4} {'hands':>5} {'tested pts/hand':>16} "
        f"{'baseline pts/hand':>18} {'diff':>7} {'±se':>6}"
    )
    with ProcessPoolExecutor(opts.jobs) as pool:
        for tested, base in pairings:
            for kind in kinds:
                start = time.perf_counter()
                r, t = match(tested, base, deals, budget, pool, kind)
                for k, v in t.items():
                    all_times.setdefault(k, []).extend(v)
                print(
                    f"{tested:>9} vs {base:<9} {kind:>4} {r['hands']:>5} {r['tested']:>16.2f} "
                    f"{r['base']:>18.2f} {r['diff']:>+7.2f} {r['se']:>6.2f}"
                    f"   ({time.perf_counter() - start:.0f}s)",
                    flush=True,
                )
    print("\ntime per decision (passes and unforced plays)")
    base = next((b for b in ("standard", BASELINE) if all_times.get(b)), None)
    base_median = statistics.median(all_times[base]) if base else 0.0
    for level in (*LEVELS, BASELINE, RANDOM):
        ts = sorted(all_times.get(level, []))
        if not ts:
            continue
        p90 = ts[int(0.9 * (len(ts) - 1))]
        med = statistics.median(ts)
        ratio = f"{med / base_median:.3g}x {base}, " if base_median else ""
        print(
            f"  {level:>9}: median {med * 1000:8.2f} ms  p90 {p90 * 1000:8.2f} ms  "
            f"max {ts[-1] * 1000:8.2f} ms  ({ratio}n={len(ts)})"
        )
    engine, inline = playout_speed()
    print(
        f"\nsearch playout, one whole hand: engine rules {engine:.1f} us, baseline's inline "
        f"rules {inline:.1f} us (ratio {engine / inline:.3f})"
    )


if __name__ == "__main__":
    main()
