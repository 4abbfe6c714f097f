"""The checkers expert against an outside engine that speaks CheckerBoard's engine interface.

    nice -n 10 python -m bench.strength.checkers_engine --engine ./libengine.so --budget 0.5
    nice -n 10 python -m bench.strength.checkers_engine --engine ./libengine.so --budget 1 \
        --openings 8

CheckerBoard, Martin Fierz's checkers program, loads its engines as shared libraries that export
``getmove`` (and usually ``enginecommand``), and most established checkers engines are written to
that interface. This bench loads such a library (built for this machine, with C linkage) through
ctypes and plays the expert against it in one process, games one after the other, the same
seconds a move for both: every opening of ``bench_checkers_match`` (the ladder's 16 ballots
first) twice, each side taking each colour once. It prints every game, the expert's score with
the Elo difference and its 95% interval, the score with each colour, both sides' mean seconds a
move, and the moves of every game the expert lost (to replay them).

The interface, as CheckerBoard defines it: ``int getmove(int board[8][8], int color, double
maxtime, char str[1024], int *playnow, int info, int unused, struct CBmove *move)``. The board
is indexed ``[x][y]`` from Black's side (x left to right, y upwards from Black's back row), with
``1`` white (our Red), ``2`` black, ``4`` a man, ``8`` a king; ``color`` is the side to move.
The engine plays its move on the board array and returns ``0`` for a draw it claims, ``1`` a
win, ``2`` a loss, ``3`` unknown. ``info`` bit 1 tells it a new game began. The move it made is
read back from the board: the legal move that leads to that position.

Draws: the expert may offer one in a dead-drawn position; an engine that answers with a draw
claim (0) agrees to it, any other answer plays on (its move declines the offer). The engine is
never asked about a draw otherwise; repetition and the forty-move rule end games as usual, and
games that reach ``--max-plies`` count as draws. The endgame database is used when it is built.
"""

from __future__ import annotations

import argparse
import ctypes
import re
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bench.strength.checkers_match import openings, score_line
from games.checkers import ai, egdb, search
from games.checkers.board import Board
from games.checkers.state import ACCEPT_DRAW, OFFER_DRAW, State

CB_WHITE, CB_BLACK, CB_MAN, CB_KING = 1, 2, 4, 8
CB_DRAW, CB_UNKNOWN = 0, 3  # getmove's verdicts we read (1 and 2: the engine wins, loses)
CB_RESET_MOVES = 1

Board8x8 = (ctypes.c_int * 8) * 8  # CheckerBoard's int board[8][8]
CBBoard = ctypes.Array[ctypes.Array[ctypes.c_int]]  # a Board8x8, as a type


class Coor(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int)]


class CBMove(ctypes.Structure):
    """CheckerBoard's ``struct CBmove`` (filled by some engines, read by nobody here)."""

    _fields_ = [
        ("jumps", ctypes.c_int),
        ("newpiece", ctypes.c_int),
        ("oldpiece", ctypes.c_int),
        ("from_", Coor),
        ("to", Coor),
        ("path", Coor * 12),
        ("dele", Coor * 12),
        ("delpiece", ctypes.c_int * 12),
    ]


GETMOVE = ctypes.CFUNCTYPE(
    ctypes.c_int,
    ctypes.POINTER(Board8x8),
    ctypes.c_int,
    ctypes.c_double,
    ctypes.POINTER(ctypes.c_char),  # the engine's report (1024 bytes); writable, unlike c_char_p
    ctypes.POINTER(ctypes.c_int),
    ctypes.c_int,
    ctypes.c_int,
    ctypes.POINTER(CBMove),
)


def square_xy(square: int) -> tuple[int, int]:
    """CheckerBoard's (x, y) of standard square 1..32 (square 1 at (6, 0), 32 at (1, 7))."""
    row, place = divmod(square - 1, 4)
    return 2 * (3 - place) + row % 2, row


XY = {square: square_xy(square) for square in range(1, 33)}


def to_cb(black: int, red: int, kings: int) -> CBBoard:
    """The position as CheckerBoard's board array (bit i of each mask is square i + 1)."""
    board = Board8x8()
    for square, (x, y) in XY.items():
        bit = 1 << (square - 1)
        colour = CB_BLACK if black & bit else CB_WHITE if red & bit else 0
        if colour:
            board[x][y] = colour | (CB_KING if kings & bit else CB_MAN)
    return board


def from_cb(board: CBBoard) -> tuple[int, int, int]:
    """(black, red, kings) masks of a CheckerBoard board array; ValueError on a bad value."""
    black = red = kings = 0
    for square, (x, y) in XY.items():
        value, bit = board[x][y], 1 << (square - 1)
        if value == 0:
            continue
        if value not in (
            CB_BLACK | CB_MAN,
            CB_BLACK | CB_KING,
            CB_WHITE | CB_MAN,
            CB_WHITE | CB_KING,
        ):
            raise ValueError(f"square {square} holds {value}, which is no piece")
        if value & CB_BLACK:
            black |= bit
        else:
            red |= bit
        if value & CB_KING:
            kings |= bit
    return black, red, kings


def position(board: Board) -> tuple[int, int, int]:
    """(black, red, kings) of a board, whoever is to move."""
    me, opp, kings, black = board._raw()
    return (me, opp, kings) if black else (opp, me, kings)


class Engine:
    """A CheckerBoard engine: its ``getmove`` (and name), called in this process."""

    def __init__(self, getmove: Callable[..., int], name: str = "engine") -> None:
        self._getmove = getmove
        self.name = name
        self.seconds = 0.0
        self.moves = 0
        self.text = ""  # what the engine said of its last move (its search's report)

    @classmethod
    def load(cls, path: str) -> Engine:
        """The engine in the shared library at ``path``."""
        lib = ctypes.CDLL(path)
        getmove = GETMOVE(("getmove", lib))
        name = path
        command = getattr(lib, "enginecommand", None)
        if command is not None:
            command.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
            command.restype = ctypes.c_int
            reply = ctypes.create_string_buffer(1024)
            if command(b"name", reply):
                name = reply.value.decode(errors="replace")
        return cls(getmove, name)

    def move(self, board: Board, seconds: float, new_game: bool) -> tuple[CBBoard, int]:
        """The engine's answer for ``board``: the board array after its move and its verdict."""
        return self.answer(*position(board), board._raw()[3], seconds, new_game)

    def answer(
        self, black: int, red: int, kings: int, black_to_move: bool, seconds: float, new_game: bool
    ) -> tuple[CBBoard, int]:
        """The engine's answer for a position given by its pieces and the side to move."""
        cb = to_cb(black, red, kings)
        colour = CB_BLACK if black_to_move else CB_WHITE
        text = ctypes.create_string_buffer(1024)
        playnow = ctypes.c_int(0)
        info = CB_RESET_MOVES if new_game else 0
        start = time.perf_counter()
        verdict = self._getmove(
            ctypes.byref(cb),
            colour,
            seconds,
            text,
            ctypes.byref(playnow),
            info,
            0,
            ctypes.byref(CBMove()),
        )
        self.seconds += time.perf_counter() - start
        self.moves += 1
        self.text = text.value.decode(errors="replace")
        return cb, verdict


_VALUE = re.compile(r"value\s*=\s*(-?\d+)")


def engine_score(engine: Engine, raw: tuple[int, int, int, bool], seconds: float) -> int | None:
    """The engine's score of a position (``(me, opp, kings, black)``, the side to move's view,
    in its own units), read from the report of a fresh search (``value=N``, as Cake writes
    it); None when the report carries no score (a forced move, a book move)."""
    me, opp, kings, black = raw
    engine.answer(*((me, opp) if black else (opp, me)), kings, black, seconds, True)
    found = _VALUE.search(engine.text)
    return int(found.group(1)) if found else None


def played_move(board: Board, after: tuple[int, int, int]) -> str:
    """The legal move of ``board`` that leads to the position ``after``; ValueError if none."""
    for move in board.legal_moves:
        board.push(move)
        reached = position(board)
        board.pop()
        if reached == after:
            return str(move)
    raise ValueError(f"the engine's position is no legal move from {board.fen()}")


@dataclass
class Expert:
    """What the expert did over the match."""

    seconds: float = 0.0
    moves: int = 0
    depths: list[int] = field(default_factory=list)


def play(
    state: State,
    expert_seat: int,
    engine: Engine,
    budget: float,
    seed: int,
    max_plies: int,
    expert: Expert,
) -> float:
    """One game on from ``state``; the expert's score (1, 1/2, 0)."""
    plies, first = 0, True
    while not state.is_over() and plies < max_plies:
        seat = state.to_act()[0]
        if seat == expert_seat:
            start = time.perf_counter()
            decision = ai.decide(state, seat, "expert", budget, seed + plies)
            expert.seconds += time.perf_counter() - start
            expert.moves += 1
            if decision.depth:
                expert.depths.append(decision.depth)
            state.apply(seat, decision.action)
            if decision.action == OFFER_DRAW:
                continue
        else:
            cb, verdict = engine.move(state.board, budget, first)
            first = False
            if ACCEPT_DRAW in state.legal_actions(seat) and verdict == CB_DRAW:
                state.apply(seat, ACCEPT_DRAW)
                break
            state.apply(seat, played_move(state.board, from_cb(cb)))
        plies += 1
    outcome = state.outcome()
    if outcome is None or outcome.is_draw:
        return 0.5
    return 1.0 if outcome.winners == (expert_seat,) else 0.0


def match(engine: Engine, budget: float, count: int, max_plies: int, first: int = 0) -> list[float]:
    """Openings ``first`` to ``first + count - 1``, each twice with both colours; prints the
    games and the summary."""
    lines = openings(first + count)[first:]
    expert = Expert()
    results: list[float] = []
    lost: list[str] = []
    start = time.perf_counter()
    print(
        f"expert v {engine.name}: {len(lines)} openings x 2 colours (from opening {first}), "
        f"{budget} s a move, "
        f"endgame database {'on' if egdb.load() else 'not built'}, "
        f"search {'C core' if search.core_available() else 'Python'}",
        flush=True,
    )
    for i, line in enumerate(lines, first):
        for seat in (0, 1):
            state = State.new()
            for text in line.split():
                state.apply(state.to_act()[0], text)
            r = play(state, seat, engine, budget, 1000 * i + seat, max_plies, expert)
            results.append(r)
            colour = "Black" if seat == 0 else "Red"
            outcome = state.outcome()
            moves = state.board.move_stack
            how = outcome.termination if outcome else f"{max_plies} plies"
            print(f"  {line:<18} expert as {colour:<5} {r:<3g} {len(moves):>3} plies, {how}")
            if r == 0.0:
                lost.append(f"{colour}: {' '.join(map(str, moves))}")
    print(f"\n{score_line('expert', results)}  {time.perf_counter() - start:.0f} s")
    depth = statistics.mean(expert.depths) if expert.depths else 0
    print(
        f"  expert: {expert.seconds / max(1, expert.moves):.3f} s a move over {expert.moves} "
        f"moves, mean depth {depth:.1f}\n"
        f"  {engine.name}: {engine.seconds / max(1, engine.moves):.3f} s a move over "
        f"{engine.moves} moves"
    )
    for seat, colour in enumerate(("Black", "Red")):
        print(f"  expert as {colour}: {sum(results[seat::2]):g}/{len(results[seat::2])}")
    if lost:
        print("games lost (every move, the opening included):")
        print("\n".join(f"  {game}" for game in lost))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", required=True, help="the engine's shared library")
    parser.add_argument("--budget", type=float, default=0.5, help="seconds a move, both sides")
    parser.add_argument("--openings", type=int, default=16, help="openings, each played twice")
    parser.add_argument(
        "--first-opening", type=int, default=0, help="start at this opening (0: the ladder's)"
    )
    parser.add_argument("--max-plies", type=int, default=300)
    args = parser.parse_args()
    match(Engine.load(args.engine), args.budget, args.openings, args.max_plies, args.first_opening)


if __name__ == "__main__":
    main()
