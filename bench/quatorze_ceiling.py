"""Offline: how many deals a much stronger fair player clears, ignoring the hint's time limit.

Not part of the suite or the bot. Plays seeded deals with a flat Monte Carlo search at every
decision (every pair a candidate, the same sampled stock orders for all of them), and the exact
expectation once the stock is small (``--exact``); or measures instead (``--advantage``,
``--stage``). Use seeds apart from the benchmark's (0..999) to tune.

    python -m bench.quatorze_ceiling --first 20000 --deals 200 --samples 2000
    python -m bench.quatorze_ceiling --advantage --deals 1000 --samples 600 --candidates 8
    python -m bench.quatorze_ceiling --stage 5 --first 30000 --deals 400
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from bench.bench_quatorze import wilson
from games.quatorze import State, Status, ai
from games.quatorze.fair import Endgame, Expectation, Move, options, playouts, ranked
from games.quatorze.state import format_move


def decide(state: State, args: argparse.Namespace, rng: random.Random) -> Move:
    unseen = state.unseen_values()
    if args.exact > ai.EXACT_STOCK and 0 < len(unseen) <= args.exact:
        grid = state.values()
        counts = [0] * 15
        for v in unseen:
            counts[v] += 1
        chances = Expectation(Endgame())
        moves = options(grid, len(unseen))
        values = [chances.move(grid, a, b, counts, len(unseen)) for a, b in moves]
        return moves[max(range(len(moves)), key=lambda i: (values[i], -i))]
    return ai.best_move(
        state.values(),
        unseen,
        len(unseen),
        args.samples,
        rng.getrandbits(32),
        candidates=args.candidates,
    )


def advantages(args: argparse.Namespace) -> None:
    """Along the rating's own games, how much better the best move is than the rated one, by
    ``--samples`` sampled orders a move (the same for all moves). The best is picked on half of
    the orders and judged on the other half (no winner's luck). By the performance difference
    lemma, the sum over a game estimates what that step of policy improvement adds to the
    rating's win rate. The pick on half the orders is itself noisy, so this is a lower bound
    for the step with unlimited samples (stop 36: +0.33% at 600 orders; the hint, which plays
    2,000 orders, adds about +0.6% on the same deals)."""
    per_game: list[float] = []
    decisions = 0
    t0 = time.perf_counter()
    for n, seed in enumerate(range(args.first, args.first + args.deals), 1):
        s = State.new(seed=seed)
        rng = random.Random(seed)
        total = 0.0
        while not s.is_over():
            grid, unseen = s.values(), s.unseen_values()
            counts = [0] * 15
            for v in unseen:
                counts[v] += 1
            moves = ranked(grid, counts, len(unseen)) if unseen else []
            if len(unseen) > ai.EXACT_STOCK and len(moves) > 1:
                half = args.samples // 2
                first = _wins(grid, moves[: args.candidates], unseen, half, rng)
                second = _wins(grid, moves[: args.candidates], unseen, half, rng)
                pick = max(range(len(first)), key=lambda i: (first[i], -i))
                total += (second[pick] - second[0]) / half
                decisions += 1
            a, b = ai.best_move(grid, unseen, len(unseen), 0, 0)
            s.apply(0, format_move(a, b))
        per_game.append(total)
        if n % 5 == 0 or n == args.deals:
            mean = sum(per_game) / n
            sd = (sum((x - mean) ** 2 for x in per_game) / max(1, n - 1)) ** 0.5
            print(
                f"{n} games, {decisions} decisions: one improvement step adds {mean:+.2%} "
                f"a game (s.e. {sd / n**0.5:.2%}) {time.perf_counter() - t0:.0f}s",
                flush=True,
            )


def stage(args: argparse.Namespace) -> None:
    """At the position with ``--stage`` cards left in the stock (reached by the rating, exact
    below ``EXACT_STOCK``), the exact chance of the best move against the rating's move, both
    followed by exact play: what perfect fair play adds at that one decision."""
    gain = base = 0.0
    n = differ = 0
    for seed in range(args.first, args.first + args.deals):
        s = State.new(seed=seed)
        while not s.is_over() and len(s.stock) > args.stage:
            unseen = s.unseen_values()
            a, b = ai.best_move(s.values(), unseen, len(unseen), 0, 0)
            s.apply(0, format_move(a, b))
        if s.is_over():
            continue
        grid, counts = s.values(), [0] * 15
        for v in s.unseen_values():
            counts[v] += 1
        chances = Expectation(Endgame())
        values = [
            chances.move(grid, a, b, counts, args.stage)
            for a, b in ranked(grid, counts, args.stage)
        ]
        n += 1
        base += values[0]
        gain += max(values) - values[0]
        differ += max(values) > values[0]
        if n % 25 == 0:
            _stage_line(args.stage, n, base, gain, differ)
    _stage_line(args.stage, n, base, gain, differ)


def _stage_line(left: int, n: int, base: float, gain: float, differ: int) -> None:
    print(
        f"stock {left}: {n} positions, the rating's move {base / max(1, n):.2%}, the best "
        f"{(base + gain) / max(1, n):.2%} (gain {gain / max(1, n):.3%} a deal, {differ} differ)",
        flush=True,
    )


def _wins(
    grid: tuple[int, ...], moves: list[Move], unseen: list[int], samples: int, rng: random.Random
) -> list[int]:
    won = playouts(grid, unseen, moves, samples, rng.getrandbits(64))
    return [bits.bit_count() for bits in won]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=20000)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--exact", type=int, default=3)
    parser.add_argument("--safe", type=int, default=ai.SAFE_SAMPLES)
    parser.add_argument("--drop", type=float, default=ai.DROP_Z)
    parser.add_argument("--switch", type=float, default=ai.SWITCH_Z)
    parser.add_argument("--candidates", type=int, default=99)
    parser.add_argument("--advantage", action="store_true", help="measure, do not play")
    parser.add_argument("--stage", type=int, default=0, help="exact gain at this stock size")
    args = parser.parse_args()
    if args.advantage:
        advantages(args)
        return
    if args.stage:
        stage(args)
        return
    ai.SAFE_SAMPLES = args.safe
    ai.DROP_Z = args.drop
    ai.SWITCH_Z = args.switch
    wins = 0
    t0 = time.perf_counter()
    for n, seed in enumerate(range(args.first, args.first + args.deals), 1):
        s = State.new(seed=seed)
        rng = random.Random(seed * 7919 + 1)
        while not s.is_over():
            a, b = decide(s, args, rng)
            s.apply(0, format_move(a, b))
        won = s.status is Status.WON
        wins += won
        if not won:
            print(f"lost seed {seed} stock {len(s.stock)} score {s.score}", flush=True)
        if n % 20 == 0 or n == args.deals:
            lo, hi = wilson(wins, n)
            print(
                f"{n} deals: {wins / n:.1%} [{lo:.1%}, {hi:.1%}] "
                f"{time.perf_counter() - t0:.0f}s  {vars(args)}",
                flush=True,
            )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
