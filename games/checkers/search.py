"""The checkers search: iterative-deepening PVS alpha-beta over raw bitboards.

- A transposition table keyed by Zobrist hashes that respects the path: a score that came from
  a repetition or 40-move draw depends on how the position was reached, so it is never stored
  as a bound (only its best move is kept, for ordering).
- Move ordering: the table's move, then captures, two killers per ply, then the history table.
- Late move reductions for quiet moves far down the list; a full-depth re-search if one
  surprises.
- Null-window searches of quiet positions whose static score is far outside the window go one
  or two plies shallower; the plies are given back down the line where the score comes near the
  window again (what Cake calls truncation; ``FAR_OFF`` and ``OFF``).
- At the horizon the search plays out captures (they are forced in checkers) and looks one
  ply further when the opponent threatens one, so the static score is taken on quiet boards.
- Positions with few pieces are read from the endgame database when one is loaded.
- It stops at a node ``limit`` (deterministic, for tests) or at a deadline (the bot), and
  starts no new depth after a ``soft_deadline``.

The same search is compiled from ``_core.c`` when a C compiler was present at install time
(:class:`CoreSearcher`, some 50 times the nodes a second); :func:`make_searcher` and
:func:`think` use it unless ``PARLOUR_CHECKERS_CORE=python`` asks for this module's
pure-Python :class:`Searcher`.

>>> from games.checkers.board import Board
>>> result = think(Board(), limit=2000)
>>> result.move in Board().legal_moves and result.nodes >= 2000
True
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, TypedDict

from games.checkers import bitboard as bb
from games.checkers import evaluation
from games.checkers.board import DRAW_PLIES, Board, Move
from games.checkers.egdb import LOSS, WIN, Egdb
from games.checkers.evaluation import evaluate

MATE = 100_000
INF = 1_000_000
EGDB_WIN = MATE - 1_000  # a database win: below a mate seen by the search, above any evaluation
MAX_PLY = 128
WIN_BOUND = EGDB_WIN - 400  # scores beyond this are wins counted in plies from the root
EXACT, LOWER, UPPER = 0, 1, 2
TT_SIZE = 1 << 20
THREAT_PLIES = 1  # plies searched past the horizon when the opponent threatens a capture
# A quiet position searched with a null window whose static score is more than FAR_OFF outside
# it is searched two plies shallower, more than OFF one ply; the plies come back further down
# the line when a position's score lands near the window again.
FAR_OFF, OFF = 120, 60

Evaluate = Callable[[int, int, int, bool, int], int]

# -- Zobrist keys ----------------------------------------------------------------------------
_rng = random.Random(0x5EED_C4EC)
# ZOBRIST[colour][king][index], colour 0 = Black, 1 = Red.
ZOBRIST = [[[_rng.getrandbits(64) for _ in range(32)] for _ in range(2)] for _ in range(2)]
Z_RED_TO_MOVE = _rng.getrandbits(64)
del _rng


def init_core(core: ModuleType) -> None:
    """Give a compiled core (``_core``, or another build of it) this module's Zobrist keys."""
    core.init([k for colour in ZOBRIST for kind in colour for k in kind], Z_RED_TO_MOVE)


# mypy reads the compiled module's stub (_core.pyi); at run time it is None when it was not
# built (no C compiler at install), and the pure-Python search does the work.
if TYPE_CHECKING:
    import games.checkers._core as _core
else:
    try:
        import games.checkers._core as _core
    except ImportError:
        _core = None
    else:
        init_core(_core)

CORE_ENV = "PARLOUR_CHECKERS_CORE"  # "python" forces the pure-Python search
CORE_TT_BITS = 21  # the C table: 2**21 entries of 16 bytes, kept between searches


def core_available() -> bool:
    """True when the compiled search is built and not switched off by ``PARLOUR_CHECKERS_CORE``."""
    return _core is not None and os.environ.get(CORE_ENV, "").strip().lower() != "python"


def zobrist(black: int, red: int, kings: int, black_to_move: bool) -> int:
    """The Zobrist key of a position."""
    key = 0 if black_to_move else Z_RED_TO_MOVE
    for colour, bits in ((0, black), (1, red)):
        while bits:
            bit = bits & -bits
            bits ^= bit
            key ^= ZOBRIST[colour][1 if kings & bit else 0][bit.bit_length() - 1]
    return key


def board_key(board: Board) -> int:
    black, red, kings, turn = board._key()
    return zobrist(black, red, kings, turn == 0)


def history_keys(board: Board) -> list[int]:
    """Zobrist keys of every position of the game so far, oldest first."""
    replay = board.copy()
    moves = []
    while replay.move_stack:
        moves.append(replay.pop())
    keys = [board_key(replay)]
    for move in reversed(moves):
        replay.push(move)
        keys.append(board_key(replay))
    return keys


class _Stop(Exception):
    pass


@dataclass(frozen=True, slots=True)
class Result:
    """What a search found: the move, its score (hundredths of a man), depth and effort."""

    move: Move
    raw: bb.RawMove
    score: int
    depth: int
    nodes: int
    seconds: float


class Searcher:
    """One search: its transposition table, killers, history, clock and node budget."""

    def __init__(
        self,
        path_keys: list[int],
        clock: int,
        *,
        deadline: float | None = None,
        limit: int | None = None,
        egdb: Egdb | None = None,
        evaluate: Evaluate = evaluate,
        lmr: bool = True,
        prune: bool = True,
        threat_plies: int | None = None,
        soft_deadline: float | None = None,
    ) -> None:
        self.deadline = deadline
        self.soft_deadline = soft_deadline
        self.limit = limit
        self.egdb = egdb
        self.egdb_pieces = egdb.max_pieces if egdb else 0
        self.evaluate = evaluate
        self.lmr = lmr
        self.prune = prune
        self.cut = [0] * MAX_PLY  # plies taken off the path to each ply (see FAR_OFF)
        self.threat_plies = THREAT_PLIES if threat_plies is None else threat_plies
        self.tt: dict[int, tuple[int, int, int, tuple[int, int] | None]] = {}
        self.killers: list[list[tuple[int, int] | None]] = [[None, None] for _ in range(MAX_PLY)]
        self.history: dict[tuple[int, int], int] = {}
        self.nodes = 0
        self.path_draws = 0  # draws by repetition or the 40-move rule met so far
        self.can_stop = False
        # Keys of the positions since the last irreversible move (for repetition).
        self.path = path_keys[-(clock + 1) :] if clock else path_keys[-1:]
        self.root_clock = clock
        self.root_move: bb.RawMove | None = None
        self.root_partial: bb.RawMove | None = None

    # ------------------------------------------------------------------------------------------
    def _tick(self) -> None:
        if not self.can_stop:
            return
        if self.limit is not None and self.nodes >= self.limit:
            raise _Stop
        if (
            self.deadline is not None
            and not self.nodes & 1023
            and time.perf_counter() > self.deadline
        ):
            raise _Stop

    def _order(
        self, moves: list[bb.RawMove], hash_move: tuple[int, int] | None, ply: int
    ) -> list[bb.RawMove]:
        if len(moves) < 2:
            return moves
        killers = self.killers[ply]
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

    @staticmethod
    def child(
        me: int, opp: int, kings: int, black: bool, key: int, move: bb.RawMove
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

    def _probe(self, me: int, opp: int, kings: int, black: bool, ply: int) -> int | None:
        found = self.egdb.probe(me, opp, kings, black) if self.egdb else None
        if found is None:
            return None
        result, distance = found
        if result == WIN:
            return EGDB_WIN - ply - distance
        if result == LOSS:
            return -EGDB_WIN + ply + distance
        return 0

    # ------------------------------------------------------------------------------------------
    def quiesce(
        self,
        me: int,
        opp: int,
        kings: int,
        black: bool,
        key: int,
        ply: int,
        extend: int,
        alpha: int,
        beta: int,
    ) -> int:
        """Play out forced captures; look one ply on when the opponent threatens one.

        Fail-hard alpha-beta, with no "stand pat": in checkers a capture cannot be declined.
        """
        self.nodes += 1
        if (me | opp).bit_count() <= self.egdb_pieces:
            found = self._probe(me, opp, kings, black, ply)
            if found is not None:
                return found
        caps = bb.gen_captures(me, opp, kings, black)
        if not caps:
            steps = bb.count_steps(me, opp, kings, black)
            if not steps:
                return -MATE + ply
            if not (extend and ply < MAX_PLY - 2 and bb.has_capture(opp, me, kings, not black)):
                return self.evaluate(me, opp, kings, black, steps)
            moves = bb.gen_moves(me, opp, kings, black)
            extend -= 1
        elif ply >= MAX_PLY - 2:
            return self.evaluate(me, opp, kings, black, -1)
        else:
            moves = caps
        nb = not black
        for move in moves:
            nme, nopp, nkings, nkey, _ = self.child(me, opp, kings, black, key, move)
            score = -self.quiesce(nopp, nme, nkings, nb, nkey, ply + 1, extend, -beta, -alpha)
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    break
        return alpha

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
        self._tick()
        if ply:
            if clock >= DRAW_PLIES:
                self.path_draws += 1
                return 0
            if clock >= 4:
                # A position seen before with the same side to move: a draw from here.
                path = self.path
                n = len(path)
                for back in range(n - 5, max(n - 2 - clock, -1), -2):
                    if path[back] == key:
                        self.path_draws += 1
                        return 0
            if (me | opp).bit_count() <= self.egdb_pieces:
                found = self._probe(me, opp, kings, black, ply)
                if found is not None:
                    return found
        if depth <= 0 or ply >= MAX_PLY - 4:
            return self.quiesce(me, opp, kings, black, key, ply, self.threat_plies, alpha, beta)

        entry = self.tt.get(key)
        hash_move = None
        if entry is not None:
            e_depth, e_flag, e_score, hash_move = entry
            if e_depth >= depth and ply:
                if e_score > WIN_BOUND:
                    e_score -= ply
                elif e_score < -WIN_BOUND:
                    e_score += ply
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
        cut = self.cut[ply - 1] if ply else 0
        if (
            self.prune
            and ply
            and beta - alpha == 1
            and len(moves) > 1
            and not moves[0][2]
            and depth >= 2
            and not bb.has_capture(opp, me, kings, not black)
        ):
            # A quiet position whose score is far from the window: search it shallower.
            e = self.evaluate(me, opp, kings, black, len(moves))
            off = max(alpha - e, e - beta)
            r = 2 if off > FAR_OFF else 1 if off > OFF else 0
            if r:
                r = min(r, depth - 1)
                cut += r
                depth -= r
            else:
                depth += cut
                cut = 0
        self.cut[ply] = cut
        moves = self._order(moves, hash_move, ply)

        draws_before = self.path_draws
        best, best_move = -INF, None
        orig_alpha = alpha
        nb = not black
        quiet = not moves[0][2]
        killers = self.killers[ply]
        path = self.path
        for i, move in enumerate(moves):
            nme, nopp, nkings, nkey, irreversible = self.child(me, opp, kings, black, key, move)
            nclock = 0 if irreversible else clock + 1
            d = depth - 1
            path.append(nkey)
            try:
                if i == 0:
                    score = -self.search(
                        nopp, nme, nkings, nb, nkey, d, -beta, -alpha, ply + 1, nclock
                    )
                else:
                    r = 0
                    if (
                        self.lmr
                        and quiet
                        and depth >= 3
                        and i >= 3
                        and (move[0], move[1]) not in killers
                    ):
                        r = 2 if i >= 8 and depth >= 5 else 1
                    score = -self.search(
                        nopp, nme, nkings, nb, nkey, d - r, -alpha - 1, -alpha, ply + 1, nclock
                    )
                    if r and score > alpha:
                        score = -self.search(
                            nopp, nme, nkings, nb, nkey, d, -alpha - 1, -alpha, ply + 1, nclock
                        )
                    if alpha < score < beta:
                        score = -self.search(
                            nopp, nme, nkings, nb, nkey, d, -beta, -alpha, ply + 1, nclock
                        )
            finally:
                path.pop()
            if score > best:
                best, best_move = score, move
                if score > alpha:
                    alpha = score
                    if ply == 0:  # the best root move so far at this depth, fully searched
                        self.root_partial = move
                    if alpha >= beta:
                        if not move[2]:
                            quiet_ident = (move[0], move[1])
                            if killers[0] != quiet_ident:
                                killers[1], killers[0] = killers[0], quiet_ident
                            self.history[quiet_ident] = (
                                self.history.get(quiet_ident, 0) + depth * depth
                            )
                        break
        ident = (best_move[0], best_move[1]) if best_move else None
        if len(self.tt) > TT_SIZE:
            self.tt.clear()
        if self.path_draws != draws_before:
            # The score leans on this path's history: keep the move, not the score.
            self.tt[key] = (-1, EXACT, 0, ident)
        else:
            flag = UPPER if best <= orig_alpha else LOWER if best >= beta else EXACT
            stored = best
            if stored > WIN_BOUND:
                stored += ply
            elif stored < -WIN_BOUND:
                stored -= ply
            self.tt[key] = (depth, flag, stored, ident)
        if ply == 0 and best_move is not None:
            self.root_move = best_move
        return best

    # ------------------------------------------------------------------------------------------
    def root_scores(
        self, me: int, opp: int, kings: int, black: bool, key: int, depth: int
    ) -> list[tuple[int, bb.RawMove]]:
        """Every root move with its exact score at ``depth`` (for the noisy lower levels)."""
        out = []
        for move in bb.gen_moves(me, opp, kings, black):
            nme, nopp, nkings, nkey, irreversible = self.child(me, opp, kings, black, key, move)
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
        if len(moves) == 1:
            max_depth = min(max_depth, 1)
        score = 0
        for depth in range(1, max_depth + 1):
            self.root_move = self.root_partial = None
            try:
                if depth >= 5:
                    # Aspiration window around the last score.
                    lo, hi = score - 40, score + 40
                    score = self.search(
                        me, opp, kings, black, key, depth, lo, hi, 0, self.root_clock
                    )
                    if score <= lo or score >= hi:
                        score = self.search(
                            me, opp, kings, black, key, depth, -INF, INF, 0, self.root_clock
                        )
                else:
                    score = self.search(
                        me, opp, kings, black, key, depth, -INF, INF, 0, self.root_clock
                    )
            except _Stop:
                # A root move that beat every move searched before it at this depth (the last
                # depth's best comes first) is better than that one: take it.
                if self.root_partial is not None:
                    best_move = self.root_partial
                break
            if self.root_move is not None:
                best_move = self.root_move
            best_score, done = score, depth
            self.can_stop = True
            if abs(score) >= EGDB_WIN - MAX_PLY:
                break
            if self.deadline is not None and time.perf_counter() > self.deadline:
                break
            if self.soft_deadline is not None and time.perf_counter() > self.soft_deadline:
                break
        return best_move, best_score, done


class _CoreOptions(TypedDict):
    """The compiled search's keyword arguments beyond the position (see ``_core.pyi``)."""

    limit: int
    budget: float
    soft: float
    probe: Callable[[int, int, int, bool], tuple[int, int] | None] | None
    egdb_pieces: int
    threat_plies: int
    lmr: bool
    prune: bool
    tt_bits: int
    keep_table: bool


class CoreSearcher:
    """:class:`Searcher`'s search compiled (``_core.c``): the same algorithm and evaluation
    terms, with the weights of :mod:`~games.checkers.evaluation` passed in.

    Its transposition table is a fixed array of two-entry buckets (deepest and latest) instead
    of a dict cleared when full. Each call of :meth:`iterate` or :meth:`root_scores` is one
    search with fresh killers and history, like a new :class:`Searcher`; its table is fresh
    too, unless ``keep_table`` (the default for searches by time alone: a deadline and no node
    limit) lets it read what the searches before it stored.
    """

    def __init__(
        self,
        path_keys: list[int],
        clock: int,
        *,
        deadline: float | None = None,
        limit: int | None = None,
        egdb: Egdb | None = None,
        weights: Sequence[int] | None = None,
        lmr: bool = True,
        prune: bool = True,
        threat_plies: int | None = None,
        tt_bits: int = CORE_TT_BITS,
        keep_table: bool | None = None,
        soft_deadline: float | None = None,
    ) -> None:
        if _core is None:
            raise RuntimeError("the compiled checkers core is not built")
        self.deadline = deadline
        self.soft_deadline = soft_deadline
        self.limit = limit
        self.egdb = egdb
        self.weights = tuple(evaluation.ALL_WEIGHTS if weights is None else weights)
        self.lmr = lmr
        self.prune = prune
        self.threat_plies = THREAT_PLIES if threat_plies is None else threat_plies
        self.tt_bits = tt_bits
        # Reading the entries of earlier searches (the previous moves) gives a head start, but
        # the answer then depends on them: only for searches by time, never to a node limit or
        # a fixed depth.
        if keep_table is None:
            keep_table = deadline is not None and limit is None
        self.keep_table = keep_table
        self.path = path_keys[-(clock + 1) :] if clock else path_keys[-1:]
        self.root_clock = clock
        self.nodes = 0

    def _options(self) -> _CoreOptions:
        budget = soft = -1.0
        if self.deadline is not None:
            budget = max(0.0, self.deadline - time.perf_counter())
        if self.soft_deadline is not None:
            soft = max(0.0, self.soft_deadline - time.perf_counter())
        return {
            "limit": -1 if self.limit is None else self.limit,
            "budget": budget,
            "soft": soft,
            "probe": self.egdb.probe if self.egdb else None,
            "egdb_pieces": self.egdb.max_pieces if self.egdb else 0,
            "threat_plies": self.threat_plies,
            "lmr": self.lmr,
            "prune": self.prune,
            "tt_bits": self.tt_bits,
            "keep_table": self.keep_table,
        }

    def _path(self, key: int) -> list[int]:
        return self.path if self.path[-1] == key else [key]

    def iterate(
        self, me: int, opp: int, kings: int, black: bool, key: int, max_depth: int
    ) -> tuple[bb.RawMove, int, int]:
        """Iterative deepening: (best move, its score, depth completed)."""
        assert _core is not None
        raw, score, depth, nodes, _egdb_hits = _core.iterate(
            me,
            opp,
            kings,
            black,
            self._path(key),
            self.root_clock,
            self.weights,
            max_depth,
            **self._options(),
        )
        self.nodes += nodes
        return raw, score, depth

    def root_scores(
        self, me: int, opp: int, kings: int, black: bool, key: int, depth: int
    ) -> list[tuple[int, bb.RawMove]]:
        """Every root move with its exact score at ``depth`` (for the noisy lower levels)."""
        assert _core is not None
        options = self._options()
        # As Searcher: always completed, and from a fresh table.
        options["limit"], options["budget"], options["keep_table"] = -1, -1.0, False
        scores, nodes = _core.root_scores(
            me,
            opp,
            kings,
            black,
            self._path(key),
            self.root_clock,
            self.weights,
            depth,
            **options,
        )
        self.nodes += nodes
        return scores


def make_searcher(
    path_keys: list[int],
    clock: int,
    *,
    deadline: float | None = None,
    soft_deadline: float | None = None,
    limit: int | None = None,
    egdb: Egdb | None = None,
    evaluate: Evaluate = evaluate,
    core: bool | None = None,
) -> Searcher | CoreSearcher:
    """The compiled searcher when it is available (``core=None``) or asked for (``True``), else
    the pure-Python one; a custom ``evaluate`` function always gets the Python searcher.

    ``deadline`` stops the search; after ``soft_deadline`` it starts no new depth."""
    use_core = core_available() if core is None else core
    if use_core and evaluate is evaluation.evaluate:
        return CoreSearcher(
            path_keys, clock, deadline=deadline, soft_deadline=soft_deadline, limit=limit, egdb=egdb
        )
    return Searcher(
        path_keys,
        clock,
        deadline=deadline,
        soft_deadline=soft_deadline,
        limit=limit,
        egdb=egdb,
        evaluate=evaluate,
    )


def think(
    board: Board,
    *,
    budget: float | None = None,
    limit: int | None = None,
    max_depth: int = MAX_PLY - 8,
    egdb: Egdb | None = None,
    evaluate: Evaluate = evaluate,
    core: bool | None = None,
) -> Result:
    """Search ``board`` for ``budget`` seconds or ``limit`` nodes (whichever comes first).

    With neither, it searches to ``max_depth``. Depth 1 is always completed. ``core`` picks
    the compiled (True) or the Python (False) search; None: the compiled one when built.
    """
    start = time.perf_counter()
    me, opp, kings, black = board._raw()
    searcher = make_searcher(
        history_keys(board),
        board.halfmove_clock,
        deadline=None if budget is None else start + max(0.0, budget),
        limit=limit,
        egdb=egdb,
        evaluate=evaluate,
        core=core,
    )
    raw, score, depth = searcher.iterate(me, opp, kings, black, board_key(board), max_depth)
    move = Move.from_raw(raw)
    return Result(move, raw, score, depth, searcher.nodes, time.perf_counter() - start)
