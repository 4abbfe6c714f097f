"""Tune the checkers evaluation: self-play games, then a logistic fit of the results.

    nice -n 10 python -m bench.tune_checkers --games 400 --nodes 300      # play, fit, report
    nice -n 10 python -m bench.tune_checkers --write                      # also save weights
    nice -n 10 python -m bench.tune_checkers --save data/ck.json          # keep the samples
    nice -n 10 python -m bench.tune_checkers --load data/ck.json          # refit them only
    nice -n 10 python -m bench.tune_checkers --label-nodes 20000 --versus 32 --versus-current
    nice -n 10 python -m bench.tune_checkers --engine ./libengine.so --from-current   # see below

1. Self-play: the current engine against itself at a fixed node count a move (the compiled
   search when it is built: the same search, many times the nodes per second), from every
   3-move opening in turn (both sides' first moves varied with a seeded few random plies), so
   the games are reproducible. Games longer than ``--max-plies`` count as draws.
2. The tuning set: every quiet position (no capture pending for either side) after the opening,
   labelled with the game's result for the side to move (1 won, 1/2 drawn, 0 lost), or with
   ``--label-nodes N`` by a deeper search's score of the position turned into a win chance
   (self-play games are mostly drawn, so their results say little about a position).
   Whole games are split 80/20 into a training and a held-out set.
   With ``--engine`` the games are the expert's against an outside engine instead (a
   CheckerBoard library, as ``bench_checkers_engine`` plays; ``--engine-openings`` openings,
   both colours, ``--engine-budget`` seconds a move), labelled with their results: decisive
   games against a stronger player, where self-play is mostly drawn.
3. The fit (Texel's method): P(win) = 1 / (1 + exp(-score / K)); K is fitted first with the
   hand-set weights, then every weight from there by gradient descent on the log loss (Adam),
   the man held at 100 so the scale stays "hundredths of a man". A weight keeps the sign a
   player would give it (``--free-signs`` lifts that): cheap self-play games confound some
   terms (a man deep in the enemy's camp "wins" because it is advanced, dog hole or not).
   The report gives the log loss of both sets before and after.

``--write`` saves the fitted weights to ``games/checkers/weights.json`` with the figures.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from operator import mul
from pathlib import Path

from games.checkers import bitboard as bb
from games.checkers.board import Board, Move
from games.checkers.evaluation import HAND_WEIGHTS, TERMS, WEIGHT_MAP, features
from games.checkers.search import (
    CoreSearcher,
    Searcher,
    board_key,
    core_available,
    history_keys,
)

WEIGHTS_FILE = Path(__file__).resolve().parent.parent / "games" / "checkers" / "weights.json"
Sample = tuple[list[int], float]


def openings() -> list[list[str]]:
    """Every distinct 3-ply opening, in a fixed order."""
    out: list[list[str]] = []
    seen = set()
    board = Board()
    for a in list(board.legal_moves):
        board.push(a)
        for b in list(board.legal_moves):
            board.push(b)
            for c in list(board.legal_moves):
                board.push(c)
                if board._key() not in seen:
                    seen.add(board._key())
                    out.append([str(a), str(b), str(c)])
                board.pop()
            board.pop()
        board.pop()
    return out


def quiet(raw: tuple[int, int, int, bool]) -> bool:
    """No capture pending for either side (a position the static evaluation can judge)."""
    me, opp, kings, black = raw
    return not bb.has_capture(me, opp, kings, black) and not bb.has_capture(
        opp, me, kings, not black
    )


def self_play(
    opening: list[str], nodes: int, max_plies: int, seed: int, label_nodes: int = 0
) -> tuple[list, float, list[int]]:
    """One game: (positions as (me, opp, kings, black), Black's score 1 / 0.5 / 0, and with
    ``label_nodes`` each position's score by a search of that many nodes, for the side to
    move)."""
    rng = random.Random(seed)
    board = Board()
    for text in opening:
        board.push_text(text)
    for _ in range(rng.randrange(0, 3)):  # a little variety beyond the opening
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    positions = []
    scores: list[int] = []
    while board.outcome() is None and len(board.move_stack) < max_plies:
        raw = board._raw()
        me, opp, kings, black = raw
        if quiet(raw):
            positions.append(raw)
            if label_nodes:
                deep = _searcher(board, label_nodes, None)
                scores.append(deep.iterate(me, opp, kings, black, board_key(board), 60)[1])
        searcher = _searcher(board, nodes, None)
        move, _, _ = searcher.iterate(me, opp, kings, black, board_key(board), 60)
        board.push(board.parse_move(_text(move)))
    outcome = board.outcome()
    if outcome is None or not outcome.winners:
        return positions, 0.5, scores
    return positions, 1.0 if outcome.winners == (0,) else 0.0, scores


def _text(raw: bb.RawMove) -> str:
    return str(Move.from_raw(raw))


def collect(
    games: int, nodes: int, max_plies: int, label_nodes: int = 0, label_k: float = 300.0
) -> tuple[list[list[Sample]], dict[str, float]]:
    """Self-play games: the samples of each game, and the games' totals. A sample's label is
    the game's result for the side to move, or with ``label_nodes`` the deeper search's score
    as a win chance (1 / (1 + exp(-score / label_k)), the score capped at 20 men)."""
    lines = openings()
    per_game: list[list[Sample]] = []
    samples = 0
    results = {"black": 0.0, "draws": 0.0, "games": 0.0, "plies": 0.0}
    start = time.perf_counter()
    for g in range(games):
        positions, black_score, scores = self_play(
            lines[g % len(lines)], nodes, max_plies, seed=g, label_nodes=label_nodes
        )
        results["games"] += 1
        results["black"] += black_score
        results["draws"] += black_score == 0.5
        results["plies"] += len(positions)
        game = []
        for i, (me, opp, kings, black) in enumerate(positions):
            label = black_score if black else 1 - black_score
            if label_nodes:
                label = 1 / (1 + math.exp(-max(-2000, min(2000, scores[i])) / label_k))
            game.append((features(me, opp, kings, black), label))
        per_game.append(game)
        samples += len(game)
        if (g + 1) % 25 == 0:
            print(
                f"  {g + 1} games, {samples} positions, {time.perf_counter() - start:.0f} s",
                flush=True,
            )
    return per_game, results


def collect_against(
    path: str, budget: float, count: int, max_plies: int
) -> tuple[list[list[Sample]], dict[str, float], str]:
    """Games of the expert against an outside engine (``bench_checkers_engine``), ``count``
    openings with both colours at ``budget`` seconds a move: the samples of each game, labelled
    with its result for the side to move, the games' totals and the engine's name. Such games
    are decisive where self-play is drawn, and show what the expert misjudges against a stronger
    player."""
    from bench import bench_checkers_engine as outside
    from bench.bench_checkers_match import openings as ballots
    from games.checkers.state import State

    engine = outside.Engine.load(path)
    per_game: list[list[Sample]] = []
    results = {"black": 0.0, "draws": 0.0, "games": 0.0, "plies": 0.0}
    start = time.perf_counter()
    for i, line in enumerate(ballots(count)):
        for seat in (0, 1):
            state = State.new()
            for text in line.split():
                state.apply(state.to_act()[0], text)
            score = outside.play(
                state, seat, engine, budget, 1000 * i + seat, max_plies, outside.Expert()
            )
            black_score = score if seat == 0 else 1 - score
            board, game = Board(), []
            for ply, move in enumerate(state.board.move_stack):
                raw = board._raw()
                me, opp, kings, black = raw
                if ply >= 6 and quiet(raw):
                    label = black_score if black else 1 - black_score
                    game.append((features(me, opp, kings, black), label))
                board.push(move)
            per_game.append(game)
            results["games"] += 1
            results["black"] += black_score
            results["draws"] += black_score == 0.5
            results["plies"] += len(game)
        if (i + 1) % 10 == 0:
            print(
                f"  {2 * (i + 1)} games against {engine.name}, {time.perf_counter() - start:.0f} s",
                flush=True,
            )
    return per_game, results, engine.name


def _evaluator(weights: list[int]):
    def evaluate(me: int, opp: int, kings: int, black: bool, steps: int = -1) -> int:
        return sum(map(mul, weights, features(me, opp, kings, black, steps)))

    return evaluate


def _searcher(board: Board, nodes: int, weights: list[int] | None) -> Searcher | CoreSearcher:
    """A node-limited search of ``board`` with ``weights`` (None: the current ones), compiled
    when the C core is built."""
    keys, clock = history_keys(board), board.halfmove_clock
    if core_available():
        return CoreSearcher(keys, clock, limit=nodes, weights=weights)
    if weights is None:
        return Searcher(keys, clock, limit=nodes)
    return Searcher(keys, clock, limit=nodes, evaluate=_evaluator(weights))


def versus(new: list[int], old: list[int], openings_count: int, nodes: int) -> tuple[float, int]:
    """The fitted weights against the old ones, same search, fixed nodes a move, both colours:
    (score of the fitted weights, games)."""
    sides = (new, old)
    total = 0.0
    lines = openings()
    step = max(1, len(lines) // openings_count)
    games = 0
    for line in lines[::step][:openings_count]:
        for new_seat in (0, 1):
            board = Board()
            for text in line:
                board.push_text(text)
            while board.outcome() is None and len(board.move_stack) < 200:
                me, opp, kings, black = board._raw()
                searcher = _searcher(board, nodes, sides[0 if int(board.turn) == new_seat else 1])
                move, _, _ = searcher.iterate(me, opp, kings, black, board_key(board), 60)
                board.push(Move.from_raw(move))
            outcome = board.outcome()
            games += 1
            if outcome is None or not outcome.winners:
                total += 0.5
            elif outcome.winners == (new_seat,):
                total += 1.0
    return total, games


def _loss(samples: list[Sample], weights: list[float], k: float) -> float:
    total = 0.0
    for f, y in samples:
        s = sum(w * x for w, x in zip(weights, f, strict=True)) / k
        p = 1 / (1 + math.exp(-max(-30.0, min(30.0, s))))
        p = min(max(p, 1e-9), 1 - 1e-9)
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(samples)


def fit_k(samples: list[Sample], weights: list[float]) -> float:
    best = min((_loss(samples, weights, k), k) for k in range(40, 801, 20))
    return float(best[1])


def fit_weights(
    samples: list[Sample],
    start: list[float],
    k: float,
    epochs: int,
    rate: float,
    signs: list[float] | None = None,
    l2: float = 0.0,
) -> list[float]:
    """Adam on the mean log loss; the men weight (index 0) stays fixed.

    With ``signs``, a weight may not cross to the other side of zero from its sign there (a
    term a player calls good stays good); it stops at zero instead. ``l2`` adds
    ``l2 * (w - start)^2`` for each weight: small data then moves the weights less.
    """
    w = list(start)
    n = len(w)
    m, v = [0.0] * n, [0.0] * n
    b1, b2 = 0.9, 0.999
    for epoch in range(1, epochs + 1):
        grad = [0.0] * n
        for f, y in samples:
            s = sum(wi * x for wi, x in zip(w, f, strict=True)) / k
            p = 1 / (1 + math.exp(-max(-30.0, min(30.0, s))))
            err = (p - y) / k
            for i, x in enumerate(f):
                if x:
                    grad[i] += err * x
        for i in range(1, n):
            g = grad[i] / len(samples) + 2 * l2 * (w[i] - start[i])
            m[i] = b1 * m[i] + (1 - b1) * g
            v[i] = b2 * v[i] + (1 - b2) * g * g
            mh, vh = m[i] / (1 - b1**epoch), v[i] / (1 - b2**epoch)
            w[i] -= rate * mh / (math.sqrt(vh) + 1e-12)
            if signs is not None and w[i] * signs[i] < 0:
                w[i] = 0.0
    return w


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--nodes", type=int, default=300, help="search nodes a move")
    parser.add_argument("--max-plies", type=int, default=160)
    parser.add_argument(
        "--label-nodes",
        type=int,
        default=0,
        help="label positions by a search of this many nodes, not by the game's result",
    )
    parser.add_argument(
        "--engine",
        help="play an outside engine (a CheckerBoard library, see bench_checkers_engine) "
        "instead of self-play, and label with those games' results",
    )
    parser.add_argument("--engine-budget", type=float, default=0.1, help="seconds a move there")
    parser.add_argument("--engine-openings", type=int, default=170, help="openings, both colours")
    parser.add_argument(
        "--from-current",
        action="store_true",
        help="start the fit from the current weights (weights.json), not the hand-set ones",
    )
    parser.add_argument(
        "--l2", type=float, default=0.0, help="pull toward the starting weights (small data)"
    )
    parser.add_argument("--epochs", type=int, default=300)
    parser.add_argument("--rate", type=float, default=0.5)
    parser.add_argument("--write", action="store_true", help="save games/checkers/weights.json")
    parser.add_argument("--free-signs", action="store_true", help="let weights change sign")
    parser.add_argument("--save", type=Path, help="keep the self-play samples in this file")
    parser.add_argument("--load", type=Path, help="fit samples saved earlier (no self-play)")
    parser.add_argument(
        "--versus",
        type=int,
        default=0,
        help="then play the fitted weights against the hand-set"
        " ones from this many openings, both colours",
    )
    parser.add_argument("--versus-nodes", type=int, default=1500, help="nodes a move there")
    parser.add_argument(
        "--versus-current",
        action="store_true",
        help="play the fitted weights against the current ones (weights.json), not the hand-set",
    )
    args = parser.parse_args()

    start = time.perf_counter()
    opponent = "self"
    if args.load:
        saved = json.loads(args.load.read_text())
        per_game, results = saved["games"], saved["results"]
        args.nodes = saved["nodes"]
        args.label_nodes = saved.get("label_nodes", 0)
    else:
        if args.engine:
            print(f"games against {args.engine}, {args.engine_budget} s a move", flush=True)
            per_game, results, opponent = collect_against(
                args.engine, args.engine_budget, args.engine_openings, 2 * args.max_plies
            )
            args.nodes, args.label_nodes = 0, 0
        else:
            print(f"self-play: {args.games} games, {args.nodes} nodes a move", flush=True)
            per_game, results = collect(args.games, args.nodes, args.max_plies, args.label_nodes)
        if args.save:
            args.save.parent.mkdir(parents=True, exist_ok=True)
            args.save.write_text(
                json.dumps(
                    {
                        "games": per_game,
                        "results": results,
                        "nodes": args.nodes,
                        "label_nodes": args.label_nodes,
                    }
                )
            )
    played = time.perf_counter() - start
    # Whole games go to one side of the split: positions of one game are not independent.
    rng = random.Random(16)
    rng.shuffle(per_game)
    cut = len(per_game) * 4 // 5
    train = [s for game in per_game[:cut] for s in game]
    held = [s for game in per_game[cut:] for s in game]
    samples = train + held
    hand = [float(HAND_WEIGHTS[t]) for t in TERMS]
    current = [float(WEIGHT_MAP[t]) for t in TERMS]
    k = fit_k(train, hand)
    signs = None if args.free_signs else [math.copysign(1.0, x) if x else 0.0 for x in hand]
    fitted = fit_weights(
        train, current if args.from_current else hand, k, args.epochs, args.rate, signs, args.l2
    )
    rounded = [round(x) for x in fitted]
    rounded[0] = 100
    report = {
        "games": int(results["games"]),
        "black_score": results["black"] / results["games"],
        "draws": int(results["draws"]),
        "positions": len(samples),
        "opponent": opponent,
        "engine_budget": args.engine_budget if args.engine else 0,
        "nodes_per_move": args.nodes,
        "label_nodes": args.label_nodes,
        "sign_constrained": not args.free_signs,
        "start": "current" if args.from_current else "hand",
        "l2": args.l2,
        "k": k,
        "loss_hand_train": _loss(train, hand, k),
        "loss_hand_held_out": _loss(held, hand, k),
        "loss_before_train": _loss(train, current, k),
        "loss_before_held_out": _loss(held, current, k),
        "loss_after_train": _loss(train, rounded, k),
        "loss_after_held_out": _loss(held, rounded, k),
        "seconds_playing": round(played),
        "seconds_total": round(time.perf_counter() - start),
    }
    for key, value in report.items():
        print(f"{key:>22}: {value:.4f}" if isinstance(value, float) else f"{key:>22}: {value}")
    print(f"{'term':>12} {'before':>7} {'after':>7}")
    for term, before, after in zip(TERMS, current, rounded, strict=True):
        print(f"{term:>12} {before:>7g} {after:>7}")
    if args.versus:
        t0 = time.perf_counter()
        other = "current" if args.versus_current else "hand"
        old = current if args.versus_current else hand
        score, games = versus(rounded, [round(x) for x in old], args.versus, args.versus_nodes)
        report[f"versus_{other}_score"] = score
        report[f"versus_{other}_games"] = games
        report[f"versus_{other}_nodes"] = args.versus_nodes
        print(
            f"fitted v {other} weights, {args.versus_nodes} nodes a move: {score:g}/{games} "
            f"({100 * score / games:.1f}%), {time.perf_counter() - t0:.0f} s"
        )
    if args.write:
        WEIGHTS_FILE.write_text(
            json.dumps(
                {"weights": dict(zip(TERMS, rounded, strict=True)), "tuning": report}, indent=1
            )
            + "\n"
        )
        print(f"written: {WEIGHTS_FILE.name}")


if __name__ == "__main__":
    main()
