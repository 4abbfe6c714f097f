"""Tune the checkers evaluation: self-play games, then a logistic fit of the results.

It writes ``games/checkers/weights.json``. Long runs go under ``nice -n 10``.

    python -m bench.builders.checkers_weights --games 400 --nodes 300      # play, fit, report
    python -m bench.builders.checkers_weights --write                      # also save weights
    python -m bench.builders.checkers_weights --save data/ck.json          # keep the samples
    python -m bench.builders.checkers_weights --load data/ck.json          # refit them only
    python -m bench.builders.checkers_weights --label-nodes 20000 --versus 32 --versus-current
    python -m bench.builders.checkers_weights --engine ./libengine.so --from-current  # see below
    python -m bench.builders.checkers_weights --load data/ck.json --teacher ./cake.so --save t.json
    python -m bench.builders.checkers_weights --load a.json b.json --patterns --from-current \
        --write
    python -m bench.builders.checkers_weights \
        --load bench/builders/tuning/checkers-cake-games-*.json.gz --patterns \
        --pattern-l2 1e-8 --l2 1e-6 --from-current --min-pieces 6 --write-to trial.json
    python -m bench.builders.checkers_weights \
        --load bench/builders/tuning/checkers-cake-games-*.json.gz \
        --judge bench/builders/tuning/checkers-cake-rematch-*.json.gz \
        --from-current --epochs 0 --min-pieces 6 --phases  # where the weights fall short

1. Self-play: the current engine against itself at a fixed node count a move (the compiled
   search when it is built: the same search, many times the nodes per second), from every
   3-move opening in turn (both sides' first moves varied with a seeded few random plies), so
   the games are reproducible. Games longer than ``--max-plies`` count as draws.
2. The tuning set: every quiet position (no capture pending for either side) after the opening,
   labelled with the game's result for the side to move (1 won, 1/2 drawn, 0 lost), or with
   ``--label-nodes N`` by a deeper search's score of the position turned into a win chance
   (self-play games are mostly drawn, so their results say little about a position).
   Whole games are split 80/20 into a training and a held-out set; ``--judge`` holds out
   other saved sets instead (games the weights have never seen), and every loaded game trains.
   With ``--engine`` the games are the expert's against an outside engine instead (a
   CheckerBoard library, as ``bench.strength.checkers_engine`` plays; ``--engine-openings`` openings
   from number ``--first-game`` on, both colours, ``--engine-budget`` seconds a move),
   labelled with their results: decisive games against a stronger player, where self-play is
   mostly drawn.
   With ``--teacher`` every position is labelled instead by an outside engine's score of it
   (a fresh search of ``--teacher-time`` seconds, turned into a win chance): a stronger
   engine's judgement of each position, where game results say little about most of them.
   With ``--db-labels`` too, the positions the endgame database covers are labelled by its
   exact result instead (1 won, 1/2 drawn, 0 lost): a teacher without a database misjudges
   king endings, and the evaluation's scores of them decide when the expert takes a draw.
   ``--min-pieces N`` leaves the positions of fewer than N pieces out of the fit instead (a
   saved set keeps them); ``--keep-pieces N`` drops them before the labels and the save (a
   set of middle games, where a teacher's time is best spent). ``bench/builders/tuning`` keeps
   labelled sets of the expert's games against Cake (the README says what they hold); the
   example above refits from the two the current weights were fitted to, in seconds.
3. The fit (Texel's method): P(win) = 1 / (1 + exp(-score / K)); K is fitted first with the
   weights the fit starts from (hand-set, or with ``--from-current`` the current ones with
   their patterns), then every weight from there by gradient descent on the log loss (Adam),
   the man held at 100 so the scale stays "hundredths of a man". A weight keeps the sign a
   player would give it (``--free-signs`` lifts that): cheap self-play games confound some
   terms (a man deep in the enemy's camp "wins" because it is advanced, dog hole or not).
   With ``--patterns`` the regions' patterns of the evaluation (104,976 values, sixteen seen in
   each position) are fitted at the same time, each pulled toward its start by
   ``--pattern-l2`` (zero, or with ``--from-current`` the current value, so new data refines
   what earlier data taught instead of washing out the patterns it rarely shows); one that
   fewer than ``--min-seen`` training positions show keeps its start.
   The report gives the log loss of both sets before and after, and with ``--phases`` how
   closely the held-out scores follow a teacher's, band by band of pieces on the board
   (:func:`agreement`): a loss says how well the evaluation does, this says where.

``--write`` saves the fitted weights to ``games/checkers/weights.json`` with the figures; a fit
``--from-current`` keeps there, under ``continues``, the figures of the fit it started from.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import random
import time
from collections.abc import Sequence
from operator import mul
from pathlib import Path
from typing import TYPE_CHECKING

# The fit needs NumPy (the bench extra); the games and their labels do not. mypy reads NumPy's
# types; at run time np is None without it, which main() checks before a fit.
if TYPE_CHECKING:
    import numpy as np
else:
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - depends on the install
        np = None

from bench.strength import checkers_engine as outside
from bench.strength.checkers_match import openings as ballots
from games.checkers import bitboard as bb
from games.checkers import egdb
from games.checkers.board import Board, Move
from games.checkers.evaluation import (
    HAND_WEIGHTS,
    PATTERN_WEIGHTS,
    PATTERNS,
    REGION_SIZE,
    REGIONS,
    TERMS,
    WEIGHT_MAP,
    features,
    pattern_indices,
)
from games.checkers.search import (
    CoreSearcher,
    Searcher,
    board_key,
    core_available,
    history_keys,
)
from games.checkers.state import State

LABEL_K = 300.0  # a score of 300 (three men) is a win chance of 73% in a label


def win_chance(score: int, k: float = LABEL_K) -> float:
    """A search score as a label: 1 / (1 + exp(-score / k)), the score capped at 20 men."""
    return 1 / (1 + math.exp(-max(-2000, min(2000, score)) / k))


WEIGHTS_FILE = Path(__file__).resolve().parent.parent / "games" / "checkers" / "weights.json"
Raw = tuple[int, int, int, bool]  # (me, opp, kings, black): a position, the side to move first
Sample = tuple[Raw, float]  # a quiet position and its label (a win chance for the side to move)


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
                deep = node_searcher(board, label_nodes, None)
                scores.append(deep.iterate(me, opp, kings, black, board_key(board), 60)[1])
        searcher = node_searcher(board, nodes, None)
        move, _, _ = searcher.iterate(me, opp, kings, black, board_key(board), 60)
        board.push(board.parse_move(_text(move)))
    outcome = board.outcome()
    if outcome is None or not outcome.winners:
        return positions, 0.5, scores
    return positions, 1.0 if outcome.winners == (0,) else 0.0, scores


def _text(raw: bb.RawMove) -> str:
    return str(Move.from_raw(raw))


def collect(
    games: int,
    nodes: int,
    max_plies: int,
    label_nodes: int = 0,
    label_k: float = LABEL_K,
    first: int = 0,
) -> tuple[list[list[Sample]], dict[str, float]]:
    """Self-play games ``first`` to ``first + games - 1``: the samples of each game, and the
    games' totals. A sample's label is the game's result for the side to move, or with
    ``label_nodes`` the deeper search's score as a win chance (1 / (1 + exp(-score /
    label_k)), the score capped at 20 men). Game ``g`` plays opening ``g`` (in turn) with seed
    ``g``, so a later ``first`` gives new games."""
    lines = openings()
    per_game: list[list[Sample]] = []
    samples = 0
    results = {"black": 0.0, "draws": 0.0, "games": 0.0, "plies": 0.0}
    start = time.perf_counter()
    for g in range(first, first + games):
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
                label = win_chance(scores[i], label_k)
            game.append(((me, opp, kings, black), label))
        per_game.append(game)
        samples += len(game)
        played = g + 1 - first
        if played % 25 == 0:
            print(
                f"  {played} games, {samples} positions, {time.perf_counter() - start:.0f} s",
                flush=True,
            )
    return per_game, results


def describe(opponent: str, games: int, nodes: int, first: int, engine_budget: float) -> str:
    """Where a tuning set's games come from, in a few words (kept with the set when saved)."""
    if nodes:
        return f"{opponent} {games} ({nodes} nodes{f', from game {first}' if first else ''})"
    if engine_budget:
        start = f", from opening {first}" if first else ""
        return f"{opponent} {games} ({engine_budget} s a move{start})"
    return f"{opponent} {games}"


def collect_against(
    path: str, budget: float, count: int, max_plies: int, first: int = 0
) -> tuple[list[list[Sample]], dict[str, float], str]:
    """Games of the expert against an outside engine (``bench_checkers_engine``), ``count``
    openings from number ``first`` on (the benches play the first ones) with both colours at
    ``budget`` seconds a move: the samples of each game, labelled with its result for the side
    to move, the games' totals and the engine's name. Such games are decisive where self-play
    is drawn, and show what the expert misjudges against a stronger player."""

    engine = outside.Engine.load(path)
    per_game: list[list[Sample]] = []
    results = {"black": 0.0, "draws": 0.0, "games": 0.0, "plies": 0.0}
    start = time.perf_counter()
    for i, line in enumerate(ballots(first + count)[first:], start=first):
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
                if ply >= 6 and quiet(raw):
                    label = black_score if raw[3] else 1 - black_score
                    game.append((raw, label))
                board.push(move)
            per_game.append(game)
            results["games"] += 1
            results["black"] += black_score
            results["draws"] += black_score == 0.5
            results["plies"] += len(game)
        done = i + 1 - first
        if done % 10 == 0:
            print(
                f"  {2 * done} games against {engine.name}, {time.perf_counter() - start:.0f} s",
                flush=True,
            )
    return per_game, results, engine.name


def db_label(db: egdb.Egdb | None, raw: Raw) -> float | None:
    """The endgame database's result of a position it covers, as a label for the side to move
    (1 won, 1/2 drawn, 0 lost with correct play); None when it does not cover it."""
    me, opp, kings, black = raw
    if db is None or not db.covers(me, opp):
        return None
    found = db.probe(me, opp, kings, black)
    if found is None:
        return None
    return {egdb.WIN: 1.0, egdb.DRAW: 0.5, egdb.LOSS: 0.0}[found[0]]


def read_set(path: Path) -> dict:
    """A tuning set saved by ``--save`` (gzip-compressed when its name ends in ``.gz``)."""
    raw = path.read_bytes()
    return json.loads(gzip.decompress(raw) if path.suffix == ".gz" else raw)


def write_set(path: Path, body: dict) -> None:
    """Save a tuning set (compressed when the name ends in ``.gz``, with no time stamp, so the
    same set gives the same bytes)."""
    data = json.dumps(body).encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gzip.compress(data, mtime=0) if path.suffix == ".gz" else data)


def at_least(per_game: list[list[Sample]], pieces: int) -> list[list[Sample]]:
    """The games with only their positions of ``pieces`` pieces or more. It keeps small endings
    out of a fit: a teacher searching without a database misjudges them, and the dead-draw
    margin was calibrated on the current weights' scores of them."""
    return [[s for s in game if (s[0][0] | s[0][1]).bit_count() >= pieces] for game in per_game]


def teach(
    per_game: list[list[Sample]],
    engine: outside.Engine,
    seconds: float,
    label_k: float,
    db: egdb.Egdb | None = None,
) -> list[list[Sample]]:
    """The same positions labelled by an outside engine (a CheckerBoard library that reports
    its score, as Cake does): its score of each after a fresh search of ``seconds``, as a win
    chance 1 / (1 + exp(-score / label_k)), the score capped at 20 men. Positions it gives no
    score for are dropped. With ``db``, the positions the endgame database covers take its
    exact result instead (:func:`db_label`): an engine searching without a database judges
    king endings poorly. Returns the relabelled games."""
    out: list[list[Sample]] = []
    done, start = 0, time.perf_counter()
    for game in per_game:
        taught: list[Sample] = []
        for raw, _ in game:
            exact = db_label(db, raw)
            if exact is not None:
                taught.append((raw, exact))
                continue
            score = outside.engine_score(engine, raw, seconds)
            if score is not None:
                taught.append((raw, win_chance(score, label_k)))
        out.append(taught)
        done += len(game)
        if len(out) % 50 == 0:
            print(
                f"  {done} positions scored by {engine.name}, {time.perf_counter() - start:.0f} s",
                flush=True,
            )
    return out


def _evaluator(weights: Sequence[int]):
    """The evaluation with these weights (the terms, then the patterns' values if given)."""
    terms, patterns = weights[: len(TERMS)], weights[len(TERMS) :]

    def evaluate(me: int, opp: int, kings: int, black: bool, steps: int = -1) -> int:
        score = sum(map(mul, terms, features(me, opp, kings, black, steps)))
        if patterns:
            score += sum(patterns[i] for i in pattern_indices(me, opp, black))
        return score

    return evaluate


def node_searcher(
    board: Board, nodes: int, weights: Sequence[int] | None
) -> Searcher | CoreSearcher:
    """A node-limited search of ``board`` with ``weights`` (None: the current ones), compiled
    when the C core is built, else the Python search with the same terms and patterns."""
    keys, clock = history_keys(board), board.halfmove_clock
    if core_available():
        return CoreSearcher(keys, clock, limit=nodes, weights=weights)
    if weights is None:
        return Searcher(keys, clock, limit=nodes)
    return Searcher(keys, clock, limit=nodes, evaluate=_evaluator(weights))


def versus(new: list[int], old: list[int], openings_count: int, nodes: int) -> tuple[float, int]:
    """The fitted weights against the old ones, same search, fixed nodes a move, both colours:
    (score of the fitted weights, games)."""
    sides = (tuple(new), tuple(old))
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
                searcher = node_searcher(
                    board, nodes, sides[0 if int(board.turn) == new_seat else 1]
                )
                move, _, _ = searcher.iterate(me, opp, kings, black, board_key(board), 60)
                board.push(Move.from_raw(move))
            outcome = board.outcome()
            games += 1
            if outcome is None or not outcome.winners:
                total += 0.5
            elif outcome.winners == (new_seat,):
                total += 1.0
    return total, games


Data = tuple["np.ndarray", "np.ndarray", "np.ndarray"]  # terms (a row each), regions, labels


def matrix(samples: list[Sample]) -> Data:
    """The terms of every sample's position as rows of a matrix, each region's pattern index
    (a row of ``len(REGIONS)`` each), and the labels."""
    x = np.array([features(*raw) for raw, _ in samples], dtype=np.float64)
    regions = np.array([pattern_indices(raw[0], raw[1], raw[3]) for raw, _ in samples])
    return (
        x.reshape(len(samples), len(TERMS)),
        regions.reshape(len(samples), len(REGIONS)).astype(np.int64),
        np.array([y for _, y in samples]),
    )


def _scores(data: Data, weights: Sequence[float], patterns: np.ndarray | None) -> np.ndarray:
    x, regions, _ = data
    score = x @ np.asarray(weights, dtype=np.float64)
    if patterns is not None:
        score = score + patterns[regions].sum(axis=1)
    return score


def _loss(
    data: Data, weights: Sequence[float], k: float, patterns: np.ndarray | None = None
) -> float:
    y = data[2]
    p = 1 / (1 + np.exp(-np.clip(_scores(data, weights, patterns) / k, -30, 30)))
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())


# Bands of the pieces on the board, for :func:`agreement`: endings to the opening.
PHASES = ((2, 9), (10, 13), (14, 17), (18, 21), (22, 24))


def agreement(
    samples: list[Sample],
    data: Data,
    weights: Sequence[float],
    k: float,
    patterns: np.ndarray | None = None,
) -> list[tuple[str, int, float, float]]:
    """How closely the evaluation follows a teacher's scores, phase by phase: for each band of
    :data:`PHASES`, (the band, its positions, the correlation, the root mean square difference).

    Both scores are in the labels' scale: the teacher's is ``LABEL_K * logit(label)``, the
    evaluation's its score times ``LABEL_K / k``. It is meant for a teacher's labels: those of
    exactly 0 or 1 (a game's result, the database's) are left out, while 1/2 is a teacher's
    level score; a band with fewer than 3 positions is skipped. A held-out loss says how well
    the evaluation does overall; this says where it falls short.
    """
    y = data[2]
    scored = (y > 0) & (y < 1)
    ours = _scores(data, weights, patterns) * LABEL_K / k
    theirs = LABEL_K * np.log(np.where(scored, y, 0.5) / (1 - np.where(scored, y, 0.5)))
    pieces = np.array([(raw[0] | raw[1]).bit_count() for raw, _ in samples])
    rows = []
    for low, high in PHASES:
        keep = scored & (pieces >= low) & (pieces <= high)
        n = int(keep.sum())
        if n < 3:
            continue
        a, b = ours[keep], theirs[keep]
        correlation = float(np.corrcoef(a, b)[0, 1]) if a.std() and b.std() else 0.0
        rows.append((f"{low}-{high}", n, correlation, float(np.sqrt(((a - b) ** 2).mean()))))
    return rows


def fit_k(data: Data, weights: list[float], patterns: np.ndarray | None = None) -> float:
    """The scale K (to 20) at which the weights' scores best predict the labels."""
    best = min((_loss(data, weights, k, patterns), k) for k in range(40, 801, 20))
    return float(best[1])


def fit_weights(
    data: Data,
    start: list[float],
    k: float,
    epochs: int,
    rate: float,
    signs: list[float] | None = None,
    l2: float = 0.0,
    patterns: np.ndarray | None = None,
    pattern_l2: float = 0.0,
    min_seen: int = 1,
) -> tuple[list[float], np.ndarray | None]:
    """Adam on the mean log loss; the men weight (index 0) stays fixed.

    With ``signs``, a weight may not cross to the other side of zero from its sign there (a
    term a player calls good stays good); it stops at zero instead. ``l2`` adds
    ``l2 * (w - start)^2`` for each weight: small data then moves the weights less.

    With ``patterns`` (their starting values), the regions' patterns are fitted too, with
    ``pattern_l2 * (v - start)^2`` pulling each toward its start (zero in a fresh fit; from
    the current patterns, what earlier data taught, which a smaller set would otherwise wash
    out: a pull toward zero outweighs the data of a rarely seen pattern); a pattern found in
    fewer than ``min_seen`` positions keeps its start. Returns the weights and the patterns
    (None without them).
    """
    x, regions, y = data
    w = np.array(start, dtype=np.float64)
    origin = w.copy()
    m, v = np.zeros_like(w), np.zeros_like(w)
    b1, b2 = 0.9, 0.999
    sign = None if signs is None else np.array(signs, dtype=np.float64)
    pv = None if patterns is None else np.array(patterns, dtype=np.float64)
    if pv is not None:
        p_origin = pv.copy()
        seen = np.bincount(regions.ravel(), minlength=PATTERNS) >= min_seen
        pm, pvv = np.zeros_like(pv), np.zeros_like(pv)
    for epoch in range(1, epochs + 1):
        p = 1 / (1 + np.exp(-np.clip(_scores(data, list(w), pv) / k, -30, 30)))
        error = (p - y) / k / len(y)
        grad = x.T @ error + 2 * l2 * (w - origin)
        grad[0] = 0.0
        m = b1 * m + (1 - b1) * grad
        v = b2 * v + (1 - b2) * grad * grad
        w -= rate * (m / (1 - b1**epoch)) / (np.sqrt(v / (1 - b2**epoch)) + 1e-12)
        if sign is not None:
            w[w * sign < 0] = 0.0
        if pv is not None:
            pgrad = np.bincount(
                regions.ravel(), weights=np.repeat(error, len(REGIONS)), minlength=PATTERNS
            ) + 2 * pattern_l2 * (pv - p_origin)
            pgrad[~seen] = 0.0
            pm = b1 * pm + (1 - b1) * pgrad
            pvv = b2 * pvv + (1 - b2) * pgrad * pgrad
            pv -= rate * (pm / (1 - b1**epoch)) / (np.sqrt(pvv / (1 - b2**epoch)) + 1e-12)
    return [float(value) for value in w], pv


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--nodes", type=int, default=300, help="search nodes a move")
    parser.add_argument("--max-plies", type=int, default=160)
    parser.add_argument(
        "--first-game",
        type=int,
        default=0,
        help="number of the first self-play game (new games), or with --engine the first opening",
    )
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
        "--teacher",
        help="label the positions with this outside engine's score of each (a CheckerBoard "
        "library whose report gives value=N, as Cake's does)",
    )
    parser.add_argument("--teacher-time", type=float, default=0.02, help="seconds a position")
    parser.add_argument(
        "--db-labels",
        action="store_true",
        help="with --teacher, label the positions the endgame database covers by its result",
    )
    parser.add_argument(
        "--keep-pieces",
        type=int,
        default=0,
        help="keep (label, save and fit) only the positions of this many pieces or more",
    )
    parser.add_argument(
        "--min-pieces",
        type=int,
        default=0,
        help="fit only the positions of this many pieces or more (all are saved)",
    )
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
    parser.add_argument(
        "--write-to", type=Path, help="save the fitted weights to this file instead (a trial)"
    )
    parser.add_argument("--free-signs", action="store_true", help="let weights change sign")
    parser.add_argument(
        "--save", type=Path, help="keep the positions in this file (.gz: compressed)"
    )
    parser.add_argument(
        "--load", type=Path, nargs="+", help="fit samples saved earlier, one file or more"
    )
    parser.add_argument(
        "--patterns", action="store_true", help="fit the regions' patterns too (see evaluation)"
    )
    parser.add_argument(
        "--pattern-l2", type=float, default=1e-6, help="pull of each pattern toward its start"
    )
    parser.add_argument(
        "--min-seen", type=int, default=3, help="patterns in fewer positions keep their start"
    )
    parser.add_argument(
        "--judge",
        type=Path,
        nargs="+",
        help="hold out these saved sets instead of a fifth of the games (every loaded one trains)",
    )
    parser.add_argument(
        "--phases",
        action="store_true",
        help="report, band by band of pieces, how closely the held-out scores follow the labels",
    )
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
    if np is None:
        parser.error("the fit needs NumPy: pip install -e '.[bench]'")
    if args.db_labels and not args.teacher:
        parser.error("--db-labels labels what a --teacher is asked about: give one")
    db = egdb.load() if args.db_labels else None
    if args.db_labels and db is None:
        parser.error("--db-labels: build the endgame database first")

    start = time.perf_counter()
    opponent, teacher, teacher_seconds = "self", "", 0.0
    if args.load:
        per_game: list[list[Sample]] = []
        results: dict[str, float] = {}
        opponents: list[str] = []
        # Sorted by name, so the split (and the fit) do not depend on the order given.
        for path in sorted(args.load):
            saved = read_set(path)
            per_game += saved["games"]
            for key, value in saved["results"].items():
                results[key] = results.get(key, 0.0) + value
            first = saved.get("first_game", 0)
            engine_budget = saved.get("engine_budget", 0)
            opponents.append(
                saved.get("source")
                or describe(
                    saved.get("opponent", "self"),
                    int(saved["results"]["games"]),
                    saved["nodes"],
                    first,
                    engine_budget,
                )
            )
            args.nodes = saved["nodes"]
            args.first_game = first
            args.label_nodes = saved.get("label_nodes", 0)
            if not teacher:
                teacher = saved.get("teacher", "")
                teacher_seconds = saved.get("teacher_seconds", 0.0)
        opponent = source = " + ".join(opponents)
    elif args.engine:
        print(f"games against {args.engine}, {args.engine_budget} s a move", flush=True)
        per_game, results, opponent = collect_against(
            args.engine,
            args.engine_budget,
            args.engine_openings,
            2 * args.max_plies,
            first=args.first_game,
        )
        args.nodes, args.label_nodes, engine_budget = 0, 0, args.engine_budget
    else:
        print(f"self-play: {args.games} games, {args.nodes} nodes a move", flush=True)
        per_game, results = collect(
            args.games, args.nodes, args.max_plies, args.label_nodes, first=args.first_game
        )
        engine_budget = 0.0
    if not args.load:
        source = describe(
            opponent, int(results["games"]), args.nodes, args.first_game, engine_budget
        )
    if args.keep_pieces:  # before the labels: a teacher's time goes to the positions kept
        per_game = at_least(per_game, args.keep_pieces)
    if args.teacher:
        print(f"labels: {args.teacher}, {args.teacher_time} s a position", flush=True)
        engine = outside.Engine.load(args.teacher)
        per_game = teach(per_game, engine, args.teacher_time, LABEL_K, db)
        teacher = engine.name
        if db is not None:
            teacher += f" (the endgame database up to {db.max_pieces} pieces)"
        teacher_seconds = args.teacher_time
        args.label_nodes = 0
    if args.save:
        write_set(
            args.save,
            {
                "games": per_game,
                "results": results,
                "nodes": args.nodes,
                "first_game": args.first_game,
                "label_nodes": args.label_nodes,
                "opponent": opponent,
                "source": source,
                "engine_budget": engine_budget,
                "teacher": teacher,
                "teacher_seconds": teacher_seconds,
            },
        )
    played = time.perf_counter() - start
    judged = [game for path in sorted(args.judge or []) for game in read_set(path)["games"]]
    if args.min_pieces:
        per_game = at_least(per_game, args.min_pieces)
        judged = at_least(judged, args.min_pieces)
    if judged:  # every loaded game trains; other sets are held out
        cut = len(per_game)
        per_game += judged
    else:
        # Whole games go to one side of the split: positions of one game are not independent.
        rng = random.Random(16)
        rng.shuffle(per_game)
        cut = len(per_game) * 4 // 5
    train = matrix([s for game in per_game[:cut] for s in game])
    held_samples = [s for game in per_game[cut:] for s in game]
    held = matrix(held_samples)
    hand = [float(HAND_WEIGHTS[t]) for t in TERMS]
    current = [float(WEIGHT_MAP[t]) for t in TERMS]
    current_patterns = np.array(PATTERN_WEIGHTS, dtype=np.float64)
    # K is the scale of the weights the fit starts from: a continuation keeps its scale.
    k = fit_k(train, current, current_patterns) if args.from_current else fit_k(train, hand)
    signs = None if args.free_signs else [math.copysign(1.0, x) if x else 0.0 for x in hand]
    fitted, patterns = fit_weights(
        train,
        current if args.from_current else hand,
        k,
        args.epochs,
        args.rate,
        signs,
        args.l2,
        patterns=(current_patterns if args.from_current else np.zeros(PATTERNS))
        if args.patterns
        else None,
        pattern_l2=args.pattern_l2,
        min_seen=args.min_seen,
    )
    rounded = [round(x) for x in fitted]
    rounded[0] = 100
    kept = None if patterns is None else np.rint(patterns)
    # The patterns the fitted weights are read with: fitted ones, or those a fit of the terms
    # alone keeps (the current ones, continuing; none from the hand-set weights).
    read_with = kept if kept is not None else current_patterns if args.from_current else None
    report = {
        "games": int(results["games"]),
        "black_score": results["black"] / results["games"],
        "draws": int(results["draws"]),
        "positions": len(train[1]) + len(held[1]),
        "held_out": ", ".join(sorted(path.name for path in args.judge))
        if args.judge
        else "a fifth of the games",
        "opponent": source,
        "engine_budget": engine_budget,
        "nodes_per_move": args.nodes,
        "first_game": args.first_game,
        "label_nodes": args.label_nodes,
        "teacher": teacher,
        "teacher_seconds": teacher_seconds,
        "sign_constrained": not args.free_signs,
        "start": "current" if args.from_current else "hand",
        "l2": args.l2,
        "min_pieces": args.min_pieces,
        "k": k,
        "loss_hand_train": _loss(train, hand, k),
        "loss_hand_held_out": _loss(held, hand, k),
        "patterns": kept is not None,
        "pattern_l2": args.pattern_l2 if kept is not None else 0,
        "patterns_nonzero": int(np.count_nonzero(kept)) if kept is not None else 0,
        "loss_before_train": _loss(train, current, k, current_patterns),
        "loss_before_held_out": _loss(held, current, k, current_patterns),
        "loss_after_train": _loss(train, rounded, k, read_with),
        "loss_after_held_out": _loss(held, rounded, k, read_with),
        "seconds_playing": round(played),
        "seconds_total": round(time.perf_counter() - start),
    }
    if args.from_current and WEIGHTS_FILE.exists():
        # A continuation: keep the report of the fit it started from (and so on back), so the
        # weights' whole history stays with them.
        report["continues"] = json.loads(WEIGHTS_FILE.read_text()).get("tuning")
    for key, value in report.items():
        if isinstance(value, dict):  # the fit this one continues: its data only
            print(f"{key:>22}: {value.get('positions')} positions, {value.get('opponent')}")
            continue
        shown = f"{value:.4g}" if isinstance(value, float) and 0 < abs(value) < 1e-3 else None
        if isinstance(value, float) and shown is None:
            shown = f"{value:.4f}"
        print(f"{key:>22}: {value if shown is None else shown}")
    print(f"{'term':>12} {'before':>7} {'after':>7}")
    for term, before, after in zip(TERMS, current, rounded, strict=True):
        print(f"{term:>12} {before:>7g} {after:>7}")
    if args.phases:
        print("held-out: the evaluation against the labels' scores, by pieces on the board")
        print(
            f"{'pieces':>7} {'positions':>9} {'corr before':>11} {'after':>6} "
            f"{'rms before':>10} {'after':>6}"
        )
        rows_before = agreement(held_samples, held, current, k, current_patterns)  # as loss_before
        rows_after = agreement(held_samples, held, rounded, k, read_with)
        for (band, n, c0, r0), (_, _, c1, r1) in zip(rows_before, rows_after, strict=True):
            print(f"{band:>7} {n:>9} {c0:>11.3f} {c1:>6.3f} {r0:>10.0f} {r1:>6.0f}")
    if args.versus:
        t0 = time.perf_counter()
        other = "current" if args.versus_current else "hand"
        old = [round(x) for x in (current if args.versus_current else hand)]
        if args.versus_current and current_patterns.any():
            old += [int(x) for x in current_patterns]
        new = rounded + (
            [int(x) for x in read_with] if read_with is not None and read_with.any() else []
        )
        # The weights as tuples: the compiled search parses a tuple it has seen before once.
        score, games = versus(new, old, args.versus, args.versus_nodes)
        report[f"versus_{other}_score"] = score
        report[f"versus_{other}_games"] = games
        report[f"versus_{other}_nodes"] = args.versus_nodes
        print(
            f"fitted v {other} weights, {args.versus_nodes} nodes a move: {score:g}/{games} "
            f"({100 * score / games:.1f}%), {time.perf_counter() - t0:.0f} s"
        )
    if args.write or args.write_to:
        target = args.write_to or WEIGHTS_FILE
        # Without --patterns the patterns stay as they were (or none, fitting from the hand-set
        # weights): a fit of the terms alone is not read with other terms' patterns.
        regions = (
            [
                [int(v) for v in read_with[g * REGION_SIZE : (g + 1) * REGION_SIZE]]
                for g in range(len(REGIONS))
            ]
            if read_with is not None and read_with.any()
            else None
        )
        body = json.dumps(
            {"weights": dict(zip(TERMS, rounded, strict=True)), "tuning": report}, indent=1
        )
        if regions:  # one line a region: the file stays readable
            body = (
                body[:-2]
                + ',\n "patterns": [\n'
                + ",\n".join("  " + json.dumps(part, separators=(",", ":")) for part in regions)
                + "\n ]\n}"
            )
        target.write_text(body + "\n")
        print(f"written: {target}")


if __name__ == "__main__":
    main()
