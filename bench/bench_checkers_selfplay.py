"""Two settings of the compiled checkers search against each other at a fixed node count.

    nice -n 10 python -m bench.bench_checkers_selfplay --a prune=0          # A: without pruning
    nice -n 10 python -m bench.bench_checkers_selfplay --b-core OLD_CORE.so --openings 48
    nice -n 10 python -m bench.bench_checkers_selfplay --a lmr=0 --jobs 2 --first-opening 48

What to try before a change goes in: a search option (``--a``/``--b`` take ``KEY=VALUE`` for
:class:`~games.checkers.search.CoreSearcher`: ``lmr``, ``prune``, ``threat_plies``,
``tt_bits``), or a whole other build of ``_core.c`` (``--b-core`` loads that compiled module
for side B; build it from another checkout). Side A is the search as installed, with its
options.

Each side searches ``--nodes`` nodes a move (no clock: the result does not depend on the
machine or its load, and both sides get the same work). Openings are those of
``bench_checkers_match`` (ladder ballots, then balanced book lines), each played twice with
the colours swapped; ``--first-opening`` starts later in that list so that two processes can
share the openings, or a second run can add games. After the opening the book is not used. A
position the endgame database covers ends the game with its verdict (both sides would play it
out perfectly), a game that reaches ``--max-plies`` counts as a draw. It prints each game, then
A's score with an Elo difference and its 95% interval, and each side's mean depth.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from types import ModuleType

from bench.bench_checkers_match import openings, score_line
from games.checkers import egdb, search
from games.checkers.board import Board, Move
from games.checkers.egdb import DRAW, WIN
from games.checkers.search import board_key, history_keys

OPTIONS = {"lmr": bool, "prune": bool, "threat_plies": int, "tt_bits": int}


@dataclass(frozen=True)
class Side:
    """One side's search: options for ``CoreSearcher`` and, for B, maybe another core."""

    options: tuple[tuple[str, object], ...] = ()
    core_path: str | None = None


def parse_options(pairs: list[str]) -> tuple[tuple[str, object], ...]:
    """``["prune=0", "threat_plies=2"]`` -> typed (name, value) pairs."""
    out = []
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep or name not in OPTIONS:
            raise SystemExit(f"unknown option {pair!r}: one of {', '.join(OPTIONS)} as KEY=VALUE")
        kind = OPTIONS[name]
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
            keys = [k for colour in search.ZOBRIST for kind in colour for k in kind]
            module.init(keys, search.Z_RED_TO_MOVE)
            _CORES[path] = module
    return _CORES[path]


def search_move(board: Board, side: Side, nodes: int) -> tuple[str, int]:
    """``side``'s move on ``board`` after ``nodes`` nodes, and the depth it completed."""
    moves = list(board.legal_moves)
    if len(moves) == 1:
        return str(moves[0]), 0
    installed = search._core
    search._core = load_core(side.core_path)
    try:
        searcher = search.CoreSearcher(
            history_keys(board),
            board.halfmove_clock,
            limit=nodes,
            egdb=egdb.load(),
            **dict(side.options),  # type: ignore[arg-type]
        )
        me, opp, kings, black = board._raw()
        raw, _, depth = searcher.iterate(me, opp, kings, black, board_key(board), 96)
    finally:
        search._core = installed
    return str(Move.from_raw(raw)), depth


def play(opening: str, a_seat: int, a: Side, b: Side, nodes: int, max_plies: int) -> tuple:
    """One game: (A's score, A's depths, B's depths, plies, how it ended)."""
    board = Board()
    for text in opening.split():
        board.push_text(text)
    depths: dict[int, list[int]] = {0: [], 1: []}
    db = egdb.load()
    plies = 0
    while True:
        outcome = board.outcome()
        if outcome is not None:
            if not outcome.winners:
                return 0.5, depths[a_seat], depths[1 - a_seat], plies, outcome.termination
            a_won = outcome.winners == (a_seat,)
            return float(a_won), depths[a_seat], depths[1 - a_seat], plies, outcome.termination
        me, opp, kings, black = board._raw()
        if db is not None and db.covers(me, opp):
            found = db.probe(me, opp, kings, black)
            if found is not None:
                value = found[0]
                if value == DRAW:
                    return 0.5, depths[a_seat], depths[1 - a_seat], plies, "database"
                mover_wins = value == WIN
                a_wins = mover_wins == (int(board.turn) == a_seat)
                return float(a_wins), depths[a_seat], depths[1 - a_seat], plies, "database"
        if plies >= max_plies:
            return 0.5, depths[a_seat], depths[1 - a_seat], plies, "length"
        seat = int(board.turn)
        move, depth = search_move(board, a if seat == a_seat else b, nodes)
        if depth:
            depths[seat].append(depth)
        board.push_text(move)
        plies += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--nodes", type=int, default=300_000, help="nodes a move, both sides")
    parser.add_argument("--openings", type=int, default=48, help="openings, each with 2 colours")
    parser.add_argument("--first-opening", type=int, default=0)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--a", nargs="*", default=[], help="side A's options, KEY=VALUE")
    parser.add_argument("--b", nargs="*", default=[], help="side B's options, KEY=VALUE")
    parser.add_argument("--b-core", help="side B's compiled core (a built _core*.so)")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once")
    args = parser.parse_args()
    if not search.core_available():
        raise SystemExit("the compiled checkers core is not built (see the README)")
    a = Side(parse_options(args.a))
    b = Side(parse_options(args.b), args.b_core)
    lines = openings(args.first_opening + args.openings)[args.first_opening :]
    print(
        f"A {dict(a.options) or 'defaults'} v B {dict(b.options) or 'defaults'}"
        f"{' core ' + args.b_core if args.b_core else ''}: openings {args.first_opening}-"
        f"{args.first_opening + len(lines) - 1} x 2 colours, {args.nodes:,} nodes a move, "
        f"endgame database {'on' if egdb.load() else 'not built'}",
        flush=True,
    )
    games = [(line, seat) for line in lines for seat in (0, 1)]
    start = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = [
            pool.submit(play, line, seat, a, b, args.nodes, args.max_plies) for line, seat in games
        ]
        results, a_depths, b_depths = [], [], []
        for (line, seat), future in zip(games, futures, strict=True):
            score, da, db_, plies, how = future.result()
            results.append(score)
            a_depths += da
            b_depths += db_
            colour = "Black" if seat == 0 else "Red"
            print(f"  {line:<18} A as {colour:<5} {score:g}  ({plies} plies, {how})", flush=True)
    print(f"\n{score_line('A', results)}  {time.perf_counter() - start:.0f} s")
    for name, depths in (("A", a_depths), ("B", b_depths)):
        if depths:
            print(f"  {name}: mean depth {statistics.mean(depths):.1f} over {len(depths)} moves")


if __name__ == "__main__":
    main()
