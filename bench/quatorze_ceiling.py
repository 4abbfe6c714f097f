"""Offline: how many deals a much stronger fair player clears, ignoring the hint's time limit.

Not part of the suite or the bot. Plays seeded deals with a flat Monte Carlo search at every
decision (every pair a candidate, the same sampled stock orders for all of them), optionally
nested (the rollouts themselves choose by a small flat search), and the exact expectation once
the stock is small. Use seeds apart from the benchmark's (0..999) to tune.

    python -m bench.quatorze_ceiling --first 20000 --deals 200 --samples 200
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from bench.bench_quatorze import wilson
from games.quatorze import State, Status, ai
from games.quatorze.board import play
from games.quatorze.fair import Endgame, Expectation, Move, options, ranked, rollout
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
    lemma, the sum over a game estimates what one step of policy improvement (a flat search
    with unlimited samples over the rating's rollouts) adds to the rating's win rate."""
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


def _wins(
    grid: tuple[int, ...], moves: list[Move], unseen: list[int], samples: int, rng: random.Random
) -> list[int]:
    end = Endgame()
    pool = list(unseen)
    wins = [0] * len(moves)
    for _ in range(samples):
        rng.shuffle(pool)
        stock = tuple(pool)
        seed = rng.getrandbits(32)
        for i, (a, b) in enumerate(moves):
            child, top = play(grid, stock, 0, a, b)
            wins[i] += rollout(child, stock, top, random.Random(seed), end)
    return wins


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
    args = parser.parse_args()
    if args.advantage:
        advantages(args)
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
