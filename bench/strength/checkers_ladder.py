"""Checkers strength ladder: each level against the one below, and the strongest against chance.

    python -m bench.strength.checkers_ladder            # --quick (default): a few minutes
    python -m bench.strength.checkers_ladder --full     # more openings, longer thinking

Every pairing plays the same 3-move ballot openings with both colours. Scores count a win 1,
a draw 1/2; the Elo difference is the logistic estimate from the score (capped at +-800).
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import time
from concurrent.futures import ProcessPoolExecutor

from games.checkers import LEVELS, State, choose

# A spread of the standard 3-move ballots (all sound openings).
BALLOTS = (
    "11-15 23-19 8-11",
    "9-14 22-17 11-15",
    "10-15 21-17 9-13",
    "11-16 24-19 8-11",
    "9-13 22-18 10-15",
    "10-14 24-20 6-10",
    "12-16 21-17 9-13",
    "11-15 22-17 9-13",
    "9-14 23-19 5-9",
    "10-15 23-18 12-16",
    "11-16 22-18 10-14",
    "10-14 22-17 11-16",
    "9-13 24-20 12-16",
    "11-15 24-20 8-11",
    "9-14 24-20 11-15",
    "12-16 22-18 10-15",
)
MAX_PLIES = 240
RANDOM = "random"


def play(black: str, red: str, opening: str, budget: float, seed: int) -> tuple[str, int]:
    """One game; returns the result code ("1-0" Black won, "0-1", "1/2-1/2") and its length."""
    state = State.new()
    for text in opening.split():
        state.apply(state.to_act()[0], text)
    rng = random.Random(seed)
    plies = 0
    while not state.is_over() and plies < MAX_PLIES:
        seat = state.to_act()[0]
        level = (black, red)[seat]
        if level == RANDOM:
            action = rng.choice([a for a in state.legal_actions(seat) if a[0].isdigit()])
        else:
            action = choose(state, seat, level, budget, seed=seed + plies)
            if not action[0].isdigit():
                action = next(a for a in state.legal_actions(seat) if a[0].isdigit())
        state.apply(seat, action)
        plies += 1
    outcome = state.outcome()
    if outcome is None or outcome.is_draw:
        return "1/2-1/2", plies
    return ("1-0" if outcome.winners == (0,) else "0-1"), plies


def _game(args: tuple[str, str, str, float, int]) -> tuple[str, str, str, int]:
    black, red, opening, budget, seed = args
    result, plies = play(black, red, opening, budget, seed)
    return black, red, result, plies


def elo(score: float, games: int) -> float:
    if games == 0:
        return 0.0
    s = min(max(score / games, 1e-3), 1 - 1e-3)
    return max(-800.0, min(800.0, -400 * math.log10(1 / s - 1)))


def match(
    pool: ProcessPoolExecutor, strong: str, weak: str, openings: tuple[str, ...], budget: float
) -> None:
    jobs = []
    for i, opening in enumerate(openings):
        jobs.append((strong, weak, opening, budget, 1000 + i))
        jobs.append((weak, strong, opening, budget, 2000 + i))
    start = time.perf_counter()
    wins = draws = losses = 0
    lengths = []
    for black, _red, result, plies in pool.map(_game, jobs):
        lengths.append(plies)
        strong_black = black == strong
        if result == "1/2-1/2":
            draws += 1
        elif (result == "1-0") == strong_black:
            wins += 1
        else:
            losses += 1
    games = wins + draws + losses
    score = wins + draws / 2
    print(
        f"{strong:>9} vs {weak:<9} +{wins} ={draws} -{losses}  score {score:g}/{games}"
        f"  Elo {elo(score, games):+5.0f}  avg {sum(lengths) / games:.0f} plies"
        f"  ({time.perf_counter() - start:.0f} s)",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--full", action="store_true", help="16 openings, 0.5 s a move")
    parser.add_argument("--quick", action="store_true", help="4 openings, 0.1 s a move (default)")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    openings = BALLOTS if args.full else BALLOTS[:4]
    budget = 0.5 if args.full else 0.1
    print(f"{len(openings)} openings x 2 colours, budget {budget} s a move")
    with ProcessPoolExecutor(args.workers) as pool:
        for weak, strong in itertools.pairwise(LEVELS):
            match(pool, strong, weak, openings, budget)
        match(pool, LEVELS[-1], RANDOM, openings, budget)


if __name__ == "__main__":
    main()
