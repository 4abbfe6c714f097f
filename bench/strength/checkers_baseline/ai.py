"""FROZEN BASELINE (issue 16): the computer player as it was; see the package docstring.

Move ordering uses the hash move, captures, two killers per ply and a history table; at the
horizon the search goes on through forced captures (quiescence). Lower levels search shallow
and add deliberate noise; the strongest uses the whole time budget and a small opening book.

>>> from games.checkers.state import State
>>> choose(State.new(), 0, "beginner", 0.0, seed=1) in State.new().legal_actions(0)
True
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from bench.strength.checkers_baseline.evaluation import evaluate
from games.checkers import bitboard as bb
from games.checkers.board import DRAW_PLIES, Board, Move
from games.checkers.state import ACCEPT_DRAW, State

LEVELS: tuple[str, ...] = ("beginner", "easy", "medium", "hard", "expert")
DEFAULT_LEVEL = LEVELS[-1]
DEFAULT_BUDGET = 1.5

MATE = 100_000
INF = 1_000_000
MAX_PLY = 96
EXACT, LOWER, UPPER = 0, 1, 2


@dataclass(frozen=True, slots=True)
class LevelSettings:
    """How a level plays: its depth cap, share of the budget, and deliberate mistakes."""

    max_depth: int
    time_share: float  # fraction of the budget it may use
    noise: int  # standard deviation of the random score added to each root move
    blunder: float  # chance of playing a random legal move instead
    book: bool


SETTINGS = {
    "beginner": LevelSettings(max_depth=1, time_share=0.2, noise=80, blunder=0.3, book=False),
    "easy": LevelSettings(max_depth=2, time_share=0.3, noise=40, blunder=0.1, book=False),
    "medium": LevelSettings(max_depth=4, time_share=0.5, noise=15, blunder=0.02, book=True),
    "hard": LevelSettings(max_depth=8, time_share=0.5, noise=0, blunder=0.0, book=True),
    "expert": LevelSettings(max_depth=MAX_PLY, time_share=1.0, noise=0, blunder=0.0, book=True),
}

# -- Zobrist keys ----------------------------------------------------------------------------
_rng = random.Random(0x5EED_C4EC)
# ZOBRIST[colour][king][index], colour 0 = Black, 1 = Red.
ZOBRIST = [[[_rng.getrandbits(64) for _ in range(32)] for _ in range(2)] for _ in range(2)]
Z_RED_TO_MOVE = _rng.getrandbits(64)
del _rng


def zobrist(black: int, red: int, kings: int, black_to_move: bool) -> int:
    """The Zobrist key of a position."""
    key = 0 if black_to_move else Z_RED_TO_MOVE
    for colour, bits in ((0, black), (1, red)):
        while bits:
            bit = bits & -bits
            bits ^= bit
            key ^= ZOBRIST[colour][1 if kings & bit else 0][bit.bit_length() - 1]
    return key


# -- opening book: sound first moves for Black and replies for Red (from the 3-move ballots) --
_BOOK_LINES = (
    "11-15 23-19",
    "11-15 22-17",
    "11-15 23-18",
    "11-15 24-20",
    "11-15 21-17",
    "9-14 22-17",
    "9-14 22-18",
    "9-14 24-20",
    "10-15 21-17",
    "10-15 22-17",
    "10-15 23-18",
    "11-16 22-18",
    "11-16 21-17",
    "11-16 23-18",
    "10-14 22-17",
    "10-14 23-19",
)


def _build_book() -> dict[tuple[int, int, int, int], tuple[str, ...]]:
    book: dict[tuple[int, int, int, int], list[str]] = {}
    for line in _BOOK_LINES:
        board = Board()
        for text in line.split():
            book.setdefault(board._key(), [])
            if text not in book[board._key()]:
                book[board._key()].append(text)
            board.push_text(text)
    # 11-15, the strongest first move, is chosen more often.
    book[Board()._key()] += ["11-15", "11-15"]
    return {key: tuple(moves) for key, moves in book.items()}


BOOK = _build_book()


class _Timeout(Exception):
    pass


class Searcher:
    """One search: its transposition table, killers, history and clock."""

    def __init__(self, deadline: float, history_keys: list[int], clock: int) -> None:
        self.deadline = deadline
        self.tt: dict[int, tuple[int, int, int, tuple[int, int] | None]] = {}
        self.killers: list[list[tuple[int, int] | None]] = [[None, None] for _ in range(MAX_PLY)]
        self.history: dict[tuple[int, int], int] = {}
        self.nodes = 0
        self.stop_allowed = False
        # Keys of the positions since the last irreversible move (for repetition).
        self.path = history_keys[-(clock + 1) :] if clock else history_keys[-1:]
        self.root_clock = clock

    # ------------------------------------------------------------------------------------------
    def _order(
        self, moves: list[bb.RawMove], hash_move: tuple[int, int] | None, ply: int
    ) -> list[bb.RawMove]:
        if len(moves) < 2:
            return moves
        killers = self.killers[ply] if ply < MAX_PLY else [None, None]
        history = self.history

        def score(m: bb.RawMove) -> int:
            ident = (m[0], m[1])
            if ident == hash_move:
                return 1 << 30
            if m[2]:
                return (1 << 28) + m[2].bit_count() * 1000 + len(m[3])
            if ident == killers[0]:
                return 1 << 26
            if ident == killers[1]:
                return (1 << 26) - 1
            return history.get(ident, 0)

        return sorted(moves, key=score, reverse=True)

    def _child(
        self, me: int, opp: int, kings: int, black: bool, key: int, move: bb.RawMove
    ) -> tuple[int, int, int, int, bool]:
        """(new mover's pieces, new opponent's pieces, kings, key, irreversible)."""
        fb, tb, cap, _ = move
        colour = 0 if black else 1
        was_king = 1 if kings & fb else 0
        nme, nopp, nkings = bb.apply(me, opp, kings, black, move)
        is_king = 1 if nkings & tb else 0
        zc = ZOBRIST[colour]
        key ^= zc[was_king][fb.bit_length() - 1] ^ zc[is_king][tb.bit_length() - 1] ^ Z_RED_TO_MOVE
        if cap:
            zo = ZOBRIST[1 - colour]
            c = cap
            while c:
                bit = c & -c
                c ^= bit
                key ^= zo[1 if kings & bit else 0][bit.bit_length() - 1]
        return nme, nopp, nkings, key, bool(cap) or not was_king

    # ------------------------------------------------------------------------------------------
    def quiesce(self, me: int, opp: int, kings: int, black: bool, key: int, ply: int) -> int:
        """Play out forced captures; otherwise the static score."""
        self.nodes += 1
        caps = bb.gen_captures(me, opp, kings, black)
        if not caps:
            steps = bb.count_steps(me, opp, kings, black)
            if not steps:
                return -MATE + ply
            return evaluate(me, opp, kings, black, steps)
        best = -INF
        for move in caps:
            nme, nopp, nkings, nkey, _ = self._child(me, opp, kings, black, key, move)
            score = -self.quiesce(nopp, nme, nkings, not black, nkey, ply + 1)
            if score > best:
                best = score
        return best

    def search(
        self,
        me: int,
        opp: int,
        kings: int,
        black: bool,
        key: int,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        clock: int,
    ) -> int:
        self.nodes += 1
        if self.stop_allowed and not self.nodes & 1023 and time.perf_counter() > self.deadline:
            raise _Timeout
        if clock >= DRAW_PLIES:
            return 0
        path = self.path
        if ply and clock >= 4:
            # A repeated position with the same side to move (twice in the search) is a draw.
            n = len(path)
            for back in range(n - 2, max(n - 1 - clock, -1), -2):
                if path[back] == key:
                    return 0
        if depth <= 0 or ply >= MAX_PLY - 1:
            return self.quiesce(me, opp, kings, black, key, ply)

        entry = self.tt.get(key)
        hash_move = None
        if entry is not None:
            e_depth, e_flag, e_score, hash_move = entry
            if e_depth >= depth and ply:
                if e_flag == EXACT:
                    return e_score
                if e_flag == LOWER and e_score >= beta:
                    return e_score
                if e_flag == UPPER and e_score <= alpha:
                    return e_score

        moves = bb.gen_moves(me, opp, kings, black)
        if not moves:
            return -MATE + ply
        if len(moves) == 1 and ply < MAX_PLY // 2:
            depth += 1  # a forced move costs nothing: look one ply further
        moves = self._order(moves, hash_move, ply)

        best, best_move = -INF, None
        orig_alpha = alpha
        first = True
        nb = not black
        for move in moves:
            nme, nopp, nkings, nkey, irreversible = self._child(me, opp, kings, black, key, move)
            nclock = 0 if irreversible else clock + 1
            path.append(nkey)
            try:
                if first:
                    score = -self.search(
                        nopp, nme, nkings, nb, nkey, depth - 1, -beta, -alpha, ply + 1, nclock
                    )
                else:
                    score = -self.search(
                        nopp, nme, nkings, nb, nkey, depth - 1, -alpha - 1, -alpha, ply + 1, nclock
                    )
                    if alpha < score < beta:
                        score = -self.search(
                            nopp, nme, nkings, nb, nkey, depth - 1, -beta, -alpha, ply + 1, nclock
                        )
            finally:
                path.pop()
            first = False
            if score > best:
                best, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if not move[2]:
                            ident = (move[0], move[1])
                            k = self.killers[ply]
                            if k[0] != ident:
                                k[1], k[0] = k[0], ident
                            self.history[ident] = self.history.get(ident, 0) + depth * depth
                        break
        flag = UPPER if best <= orig_alpha else LOWER if best >= beta else EXACT
        if len(self.tt) > 400_000:
            self.tt.clear()
        self.tt[key] = (depth, flag, best, (best_move[0], best_move[1]) if best_move else None)
        return best

    # ------------------------------------------------------------------------------------------
    def root_scores(
        self, me: int, opp: int, kings: int, black: bool, key: int, depth: int
    ) -> list[tuple[int, bb.RawMove]]:
        """Every root move with its exact score at ``depth`` (for the noisy lower levels)."""
        out = []
        for move in bb.gen_moves(me, opp, kings, black):
            nme, nopp, nkings, nkey, irreversible = self._child(me, opp, kings, black, key, move)
            clock = 0 if irreversible else self.root_clock + 1
            self.path.append(nkey)
            score = -self.search(nopp, nme, nkings, not black, nkey, depth - 1, -INF, INF, 1, clock)
            self.path.pop()
            out.append((score, move))
        return out

    def iterate(
        self, me: int, opp: int, kings: int, black: bool, key: int, max_depth: int
    ) -> tuple[bb.RawMove, int, int]:
        """Iterative deepening: (best move, its score, depth completed)."""
        moves = self._order(bb.gen_moves(me, opp, kings, black), None, 0)
        best_move, best_score, done = moves[0], 0, 0
        for depth in range(1, max_depth + 1):
            try:
                score = self._root(me, opp, kings, black, key, depth)
            except _Timeout:
                break
            entry = self.tt.get(key)
            if entry and entry[3]:
                best_move = next(m for m in moves if (m[0], m[1]) == entry[3])
            best_score, done = score, depth
            self.stop_allowed = True
            if abs(score) > MATE - 200 or time.perf_counter() > self.deadline:
                break
            if len(moves) == 1:
                break
        return best_move, best_score, done

    def _root(self, me: int, opp: int, kings: int, black: bool, key: int, depth: int) -> int:
        # The root is searched like any node; a fresh clock check keeps budget 0 legal.
        return self.search(me, opp, kings, black, key, depth, -INF, INF, 0, self.root_clock)


def _history_keys(board: Board) -> list[int]:
    """Zobrist keys of every position of the game so far, oldest first."""
    replay = board.copy()
    moves = []
    while replay.move_stack:
        moves.append(replay.pop())
    keys = [_board_key(replay)]
    for move in reversed(moves):
        replay.push(move)
        keys.append(_board_key(replay))
    return keys


def _board_key(board: Board) -> int:
    black, red, kings, turn = board._key()
    return zobrist(black, red, kings, turn == 0)


def best_move(
    board: Board, budget: float = DEFAULT_BUDGET, max_depth: int = MAX_PLY
) -> tuple[Move, int, int]:
    """The engine's best move on ``board`` within ``budget`` seconds: (move, score, depth)."""
    start = time.perf_counter()
    me, opp, kings, black = board._raw()
    searcher = Searcher(start + budget, _history_keys(board), board.halfmove_clock)
    raw, score, depth = searcher.iterate(me, opp, kings, black, _board_key(board), max_depth)
    return _to_move(board, raw), score, depth


def _to_move(board: Board, raw: bb.RawMove) -> Move:
    move = Move.from_raw(raw)
    assert move in board.legal_moves
    return move


def choose(
    state: State,
    seat: int,
    level: str = DEFAULT_LEVEL,
    budget: float = DEFAULT_BUDGET,
    seed: int = 0,
) -> str:
    """The computer's action for ``seat``: a legal move in long notation (or accepting a draw).

    Pure and picklable: the same state, level, budget and seed give the same answer up to
    the time budget (deeper searches on a faster machine).
    """
    start = time.perf_counter()
    settings = SETTINGS.get(level, SETTINGS[DEFAULT_LEVEL])
    rng = random.Random(seed)
    board = state.board
    legal = state.legal_actions(seat)
    moves = [m for m in board.legal_moves]
    if not moves or seat != board.turn:
        raise ValueError("the computer has no move to make here")
    deadline = start + max(0.0, budget) * settings.time_share
    if len(moves) == 1 and ACCEPT_DRAW not in legal:
        return str(moves[0])

    if settings.book and board._key() in BOOK:
        return str(board.parse_move(rng.choice(BOOK[board._key()])))
    if settings.blunder and rng.random() < settings.blunder:
        return str(rng.choice(moves))

    me, opp, kings, black = board._raw()
    searcher = Searcher(deadline, _history_keys(board), board.halfmove_clock)
    key = _board_key(board)
    if settings.noise:
        # Weak levels: exact scores at a shallow depth, then a random nudge to each.
        depth = settings.max_depth
        scored = searcher.root_scores(me, opp, kings, black, key, depth)
        noisy = [(s + rng.gauss(0, settings.noise), i) for i, (s, _) in enumerate(scored)]
        raw = scored[max(noisy)[1]][1]
        score = max(s for s, _ in scored)
    else:
        raw, score, _ = searcher.iterate(me, opp, kings, black, key, settings.max_depth)
    if ACCEPT_DRAW in legal and score < -40:
        return ACCEPT_DRAW
    return str(_to_move(board, raw))
