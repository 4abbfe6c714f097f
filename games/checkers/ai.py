"""The computer player: levels on top of :mod:`games.checkers.search`, the book and the database.

The strongest level plays from the opening book, then searches with the whole budget, reading
positions with few pieces from the endgame database when it was built
(``python -m games.checkers.egdb build``). Lower levels search shallow and add deliberate noise.
Draws are offered and accepted only in dead-drawn positions.

>>> from games.checkers.state import State
>>> choose(State.new(), 0, "beginner", 0.0, seed=1) in State.new().legal_actions(0)
True
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from games.checkers import bitboard as bb
from games.checkers import egdb as egdb_module
from games.checkers.board import Board, Move
from games.checkers.book import load_book, moves_for
from games.checkers.egdb import DRAW
from games.checkers.evaluation import evaluate
from games.checkers.search import (
    MAX_PLY,
    board_key,
    history_keys,
    make_searcher,
    think,
    zobrist,
)
from games.checkers.state import ACCEPT_DRAW, OFFER_DRAW, State

LEVELS: tuple[str, ...] = ("beginner", "easy", "medium", "hard", "expert")
DEFAULT_LEVEL = LEVELS[-1]
DEFAULT_BUDGET = 1.5
# The clock: the search starts no new depth after SOFT_SHARE of the budget and stops at
# HARD_SHARE of it, so a depth begun early is finished rather than cut off, and the moves still
# take the budget on average (what that is worth: docs/checkers-strength.md, "Clock").
SOFT_SHARE, HARD_SHARE = 0.7, 2.0
# A search score this close to 0 in a kings-only, level ending is a draw: the square tables and
# the patterns move such scores well away from 0. The margin suits the weights shipped, as
# `python -m bench.builders.checkers_draw_margin` measures it against the endgame database
# (docs/checkers-strength.md has the figures); a refit of the weights is checked with it again.
DEAD_DRAW_MARGIN = 70

__all__ = [
    "DEFAULT_BUDGET",
    "LEVELS",
    "best_move",
    "choose",
    "dead_drawn",
    "decide",
    "evaluate",
    "zobrist",
]


@dataclass(frozen=True, slots=True)
class LevelSettings:
    """How a level plays: its depth cap, share of the budget, and deliberate mistakes."""

    max_depth: int
    time_share: float  # fraction of the budget it may use
    noise: int  # standard deviation of the random score added to each root move
    blunder: float  # chance of playing a random legal move instead
    book: bool
    egdb: bool = False


SETTINGS = {
    "beginner": LevelSettings(max_depth=1, time_share=0.2, noise=80, blunder=0.3, book=False),
    "easy": LevelSettings(max_depth=2, time_share=0.3, noise=40, blunder=0.1, book=False),
    "medium": LevelSettings(max_depth=4, time_share=0.5, noise=15, blunder=0.02, book=True),
    "hard": LevelSettings(max_depth=8, time_share=0.5, noise=0, blunder=0.0, book=True, egdb=True),
    "expert": LevelSettings(
        max_depth=MAX_PLY - 8, time_share=1.0, noise=0, blunder=0.0, book=True, egdb=True
    ),
}


def best_move(
    board: Board,
    budget: float | None = DEFAULT_BUDGET,
    max_depth: int = MAX_PLY - 8,
    *,
    limit: int | None = None,
) -> tuple[Move, int, int]:
    """The engine's best move on ``board`` within ``budget`` seconds: (move, score, depth)."""
    result = think(board, budget=budget, limit=limit, max_depth=max_depth, egdb=egdb_module.load())
    return result.move, result.score, result.depth


def dead_drawn(board: Board, score: int | None = None) -> bool:
    """True when nobody can win with correct play: the database says so, or a level
    kings-only ending (at most three kings a side) that the search also scores level.
    """
    me, opp, kings, black = board._raw()
    db = egdb_module.load()
    if db is not None and db.covers(me, opp):
        found = db.probe(me, opp, kings, black)
        if found is not None:
            return found[0] == DRAW
    if (me | opp) & ~kings or me.bit_count() != opp.bit_count() or me.bit_count() > 3:
        return False
    if bb.has_capture(me, opp, kings, black) or bb.has_capture(opp, me, kings, not black):
        return False
    return score is not None and abs(score) <= DEAD_DRAW_MARGIN


@dataclass(frozen=True, slots=True)
class Decision:
    """What the computer chose and how hard it looked (nodes 0 for a book or forced move)."""

    action: str
    score: int = 0
    depth: int = 0
    nodes: int = 0
    source: str = "search"  # "search", "book", "forced" or "chance"


def choose(
    state: State,
    seat: int,
    level: str = DEFAULT_LEVEL,
    budget: float = DEFAULT_BUDGET,
    seed: int = 0,
    *,
    limit: int | None = None,
) -> str:
    """The computer's action for ``seat``: a legal move in long notation, or a draw action.

    Pure and picklable. With ``limit`` (nodes) the answer depends only on the arguments; with a
    time budget alone a faster machine may search deeper.
    """
    return decide(state, seat, level, budget, seed, limit=limit).action


def decide(
    state: State,
    seat: int,
    level: str = DEFAULT_LEVEL,
    budget: float = DEFAULT_BUDGET,
    seed: int = 0,
    *,
    limit: int | None = None,
) -> Decision:
    """:func:`choose` with its working: score, depth and nodes searched.

    The clock starts once the endgame database and the opening book are loaded: the first
    call in a process reads them from disk (about a tenth of a second each), which must not
    eat a short budget.
    """
    settings = SETTINGS.get(level, SETTINGS[DEFAULT_LEVEL])
    db = egdb_module.load() if settings.egdb else None
    if settings.book:
        load_book()
    start = time.perf_counter()
    rng = random.Random(seed)
    board = state.board
    legal = state.legal_actions(seat)
    moves = list(board.legal_moves)
    if not moves or seat != board.turn:
        raise ValueError("the computer has no move to make here")
    deadline = soft_deadline = None
    if limit is None:
        share = max(0.0, budget) * settings.time_share
        deadline, soft_deadline = start + HARD_SHARE * share, start + SOFT_SHARE * share
    if len(moves) == 1 and ACCEPT_DRAW not in legal and OFFER_DRAW not in legal:
        return Decision(str(moves[0]), source="forced")

    if settings.book:
        replies = moves_for(board)
        if replies:
            return Decision(rng.choice(replies), source="book")
    if settings.blunder and rng.random() < settings.blunder:
        return Decision(str(rng.choice(moves)), source="chance")

    me, opp, kings, black = board._raw()
    searcher = make_searcher(
        history_keys(board),
        board.halfmove_clock,
        deadline=deadline,
        soft_deadline=soft_deadline,
        limit=limit,
        egdb=db,
    )
    key = board_key(board)
    if settings.noise:
        # Weak levels: exact scores at a shallow depth, then a random nudge to each.
        scored = searcher.root_scores(me, opp, kings, black, key, settings.max_depth)
        noisy = [(s + rng.gauss(0, settings.noise), i) for i, (s, _) in enumerate(scored)]
        raw = scored[max(noisy)[1]][1]
        score, depth = max(s for s, _ in scored), settings.max_depth
    else:
        raw, score, depth = searcher.iterate(me, opp, kings, black, key, settings.max_depth)
    action = str(Move.from_raw(raw))
    if (ACCEPT_DRAW in legal or OFFER_DRAW in legal) and dead_drawn(board, score):
        if ACCEPT_DRAW in legal:
            action = ACCEPT_DRAW
        elif board.halfmove_clock % 20 < 2:  # offer now and then, not on every move
            action = OFFER_DRAW
    return Decision(action, score, depth, searcher.nodes)
