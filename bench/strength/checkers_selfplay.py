"""Two settings of the compiled checkers search against each other, at equal nodes or time.

    nice -n 10 python -m bench.strength.checkers_selfplay --a prune=0          # A: without pruning
    nice -n 10 python -m bench.strength.checkers_selfplay --b-core OLD_CORE.so --openings 48
    nice -n 10 python -m bench.strength.checkers_selfplay --a lmr=0 --jobs 2 --first-opening 48
    nice -n 10 python -m bench.strength.checkers_selfplay --budget 0.1 --a soft=1 hard=1
    nice -n 10 python -m bench.strength.checkers_selfplay --b-weights TRIAL.json

What to try before a change goes in: a search option (``--a``/``--b`` take ``KEY=VALUE`` for
:class:`~games.checkers.search.CoreSearcher`: ``lmr``, ``prune``, ``threat_plies``,
``tt_bits``), a whole other build of ``_core.c`` (``--b-core`` loads that compiled module
for side B; build it from another checkout), or other evaluation weights (``--b-weights``: a
file of ``weights.json``'s form, as ``bench.builders.checkers_weights --write-to`` writes a
trial fit).
Side A is the search as installed, with its options.

Each side searches ``--nodes`` nodes a move (no clock: the result does not depend on the
machine or its load, and both sides get the same work). With ``--budget S`` each side has S
seconds a move instead, spent as the expert spends its budget: no new depth after ``soft`` times
S, a stop at ``hard`` times S (side options, by default the expert's ``SOFT_SHARE`` and
``HARD_SHARE``); both sides play in one process, one move at a time, so the machine's load
slows them alike, and the report gives each side's seconds a move. Openings are those of
``bench_checkers_match`` (ladder ballots, then balanced book lines), each played twice with
the colours swapped; ``--first-opening`` starts later in that list so that two processes can
share the openings, or a second run can add games. After the opening the book is not used. A
position the endgame database covers ends the game with its verdict (both sides would play it
out perfectly), a game that reaches ``--max-plies`` counts as a draw. It prints each game, then
A's score with an Elo difference and its 95% interval, and each side's mean depth.
"""

from __future__ import annotations

import argparse
import functools
import importlib.machinery
import importlib.util
import json
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, cast

from bench.strength.checkers_match import openings, score_line
from games.checkers import egdb, evaluation, search
from games.checkers.ai import HARD_SHARE, SOFT_SHARE
from games.checkers.board import Board, Move
from games.checkers.egdb import DRAW, WIN
from games.checkers.search import board_key, history_keys

OPTIONS = {"lmr": bool, "prune": bool, "threat_plies": int, "tt_bits": int}
TIME_OPTIONS = {"soft": float, "hard": float}  # shares of --budget (see search_move)


@dataclass(frozen=True)
class Side:
    """One side's search: options for ``CoreSearcher`` and, for B, maybe another core."""

    options: tuple[tuple[str, float], ...] = ()  # bools and ints among them
    core_path: str | None = None
    weights_path: str | None = None


def parse_options(pairs: list[str]) -> tuple[tuple[str, float], ...]:
    """``["prune=0", "threat_plies=2"]`` -> typed (name, value) pairs."""
    out = []
    kinds = OPTIONS | TIME_OPTIONS
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep or name not in kinds:
            raise SystemExit(f"unknown option {pair!r}: one of {', '.join(kinds)} as KEY=VALUE")
        kind = kinds[name]
        out.append((name, bool(int(raw)) if kind is bool else kind(raw)))
    return tuple(out)


_CORES: dict[str | None, ModuleType | None] = {}


def load_core(path: str | None) -> ModuleType | None:
    """The compiled search module at ``path`` (None: the installed one), initialised."""
    if path not in _CORES:
        if path is None:
            _CORES[path] = search._core
        else:
            loader = importlib.machinery.ExtensionFileLoader("games.checkers._core", path)
            spec = importlib.util.spec_from_file_location(
                "games.checkers._core", path, loader=loader
            )
            assert spec is not None
            module = importlib.util.module_from_spec(spec)
            loader.exec_module(module)
            search.init_core(module)
            _CORES[path] = module
    return _CORES[path]


@functools.cache
def load_weights(path: str | None) -> tuple[int, ...] | None:
    """The compiled search's weights from the file at ``path`` (None: the installed ones)."""
    if path is None:
        return None
    return evaluation.all_weights(json.loads(Path(path).read_text()))


def search_move(
    board: Board, side: Side, nodes: int | None, budget: float | None
) -> tuple[str, int]:
    """``side``'s move on ``board`` after ``nodes`` nodes, or within ``budget`` seconds (the
    clock stops the search at ``hard`` times the budget and starts no new depth after ``soft``
    times it), and the depth it completed."""
    moves = list(board.legal_moves)
    if len(moves) == 1:
        return str(moves[0]), 0
    options = dict(side.options)
    limit, deadline, soft_deadline, keep_table = nodes, None, None, None
    if budget is not None:
        start = time.perf_counter()
        limit = None
        deadline = start + options.get("hard", HARD_SHARE) * budget
        soft_deadline = start + options.get("soft", SOFT_SHARE) * budget
        keep_table = False  # both sides share one process: neither reads the other's table
    threat_plies = options.get("threat_plies")
    installed = search._core
    search._core = cast(Any, load_core(side.core_path))  # this side's build of the same module
    try:
        searcher = search.CoreSearcher(
            history_keys(board),
            board.halfmove_clock,
            egdb=egdb.load(),
            weights=load_weights(side.weights_path),
            limit=limit,
            deadline=deadline,
            soft_deadline=soft_deadline,
            keep_table=keep_table,
            lmr=bool(options.get("lmr", True)),
            prune=bool(options.get("prune", True)),
            threat_plies=None if threat_plies is None else int(threat_plies),
            tt_bits=int(options.get("tt_bits", search.CORE_TT_BITS)),
        )
        me, opp, kings, black = board._raw()
        raw, _, depth = searcher.iterate(me, opp, kings, black, board_key(board), 96)
    finally:
        search._core = installed
    return str(Move.from_raw(raw)), depth


@dataclass
class Game:
    """One game's result for A (1, 1/2, 0), how it ended, and each seat's searched moves."""

    score: float = 0.5
    plies: int = 0
    how: str = ""
    depths: dict[int, list[int]] = field(default_factory=lambda: {0: [], 1: []})
    seconds: dict[int, list[float]] = field(default_factory=lambda: {0: [], 1: []})


def play(
    opening: str,
    a_seat: int,
    a: Side,
    b: Side,
    nodes: int | None,
    budget: float | None,
    max_plies: int,
) -> Game:
    """One game from ``opening``, A playing ``a_seat``."""
    board = Board()
    for text in opening.split():
        board.push_text(text)
    game = Game()
    db = egdb.load()
    while True:
        outcome = board.outcome()
        if outcome is not None:
            game.how = outcome.termination
            game.score = 0.5 if not outcome.winners else float(outcome.winners == (a_seat,))
            return game
        me, opp, kings, black = board._raw()
        found = db.probe(me, opp, kings, black) if db is not None and db.covers(me, opp) else None
        if found is not None:
            game.how = "database"
            if found[0] == DRAW:
                game.score = 0.5
            else:  # the side to move wins or loses
                game.score = float((found[0] == WIN) == (int(board.turn) == a_seat))
            return game
        if game.plies >= max_plies:
            game.how = "length"
            return game
        seat = int(board.turn)
        start = time.perf_counter()
        move, depth = search_move(board, a if seat == a_seat else b, nodes, budget)
        if depth:
            game.depths[seat].append(depth)
            game.seconds[seat].append(time.perf_counter() - start)
        board.push_text(move)
        game.plies += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--nodes", type=int, default=300_000, help="nodes a move, both sides")
    parser.add_argument("--budget", type=float, help="seconds a move instead of --nodes")
    parser.add_argument("--openings", type=int, default=48, help="openings, each with 2 colours")
    parser.add_argument("--first-opening", type=int, default=0)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--a", nargs="*", default=[], help="side A's options, KEY=VALUE")
    parser.add_argument("--b", nargs="*", default=[], help="side B's options, KEY=VALUE")
    parser.add_argument("--b-core", help="side B's compiled core (a built _core*.so)")
    parser.add_argument("--b-weights", help="side B's evaluation weights (a weights.json file)")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once")
    args = parser.parse_args()
    if not search.core_available():
        raise SystemExit("the compiled checkers core is not built (see the README)")
    a = Side(parse_options(args.a))
    b = Side(parse_options(args.b), args.b_core, args.b_weights)
    nodes = None if args.budget else args.nodes
    lines = openings(args.first_opening + args.openings)[args.first_opening :]
    print(
        f"A {dict(a.options) or 'defaults'} v B {dict(b.options) or 'defaults'}"
        f"{' core ' + args.b_core if args.b_core else ''}"
        f"{' weights ' + args.b_weights if args.b_weights else ''}: openings {args.first_opening}-"
        f"{args.first_opening + len(lines) - 1} x 2 colours, "
        f"{f'{args.budget} s' if args.budget else f'{args.nodes:,} nodes'} a move, "
        f"endgame database {'on' if egdb.load() else 'not built'}",
        flush=True,
    )
    games = [(line, seat) for line in lines for seat in (0, 1)]
    start = time.perf_counter()
    results: list[float] = []
    depths: dict[str, list[int]] = {"A": [], "B": []}
    seconds: dict[str, list[float]] = {"A": [], "B": []}
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = [
            pool.submit(play, line, seat, a, b, nodes, args.budget, args.max_plies)
            for line, seat in games
        ]
        for (line, seat), future in zip(games, futures, strict=True):
            game = future.result()
            results.append(game.score)
            for name, s in (("A", seat), ("B", 1 - seat)):
                depths[name] += game.depths[s]
                seconds[name] += game.seconds[s]
            colour = "Black" if seat == 0 else "Red"
            print(
                f"  {line:<18} A as {colour:<5} {game.score:g}  ({game.plies} plies, {game.how})",
                flush=True,
            )
    print(f"\n{score_line('A', results)}  {time.perf_counter() - start:.0f} s")
    for name in ("A", "B"):
        if depths[name]:
            print(
                f"  side {name}: mean depth {statistics.mean(depths[name]):.1f}, "
                f"{statistics.mean(seconds[name]):.3f} s a move "
                f"(max {max(seconds[name]):.2f}) over {len(depths[name])} searched moves"
            )


if __name__ == "__main__":
    main()
