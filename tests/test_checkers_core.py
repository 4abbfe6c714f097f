"""The compiled checkers core (``games/checkers/_core.c``) against the pure-Python reference:
the same moves, the same evaluation, the same search (scores, moves and node counts at fixed
depths), repeatable under a node limit, and sensible about repetitions.

Skipped when the core was not built (no C compiler at install time); under ``CI=true`` a
missing core fails instead, since CI always has a compiler.
"""

from __future__ import annotations

import os
import random
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from example_counts import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from games.checkers import bitboard as bb
from games.checkers import egdb, search
from games.checkers import evaluation as ev
from games.checkers.board import Board, Move
from games.checkers.search import CoreSearcher, Searcher, board_key, history_keys

if search._core is None and os.environ.get("CI") == "true":
    pytest.fail("the C checkers core was not built; CI has a compiler", pytrace=False)
pytestmark = pytest.mark.skipif(
    search._core is None, reason="games.checkers._core is not built (no C compiler at install)"
)
core = search._core

EXPECTED_PERFT = (7, 49, 302, 1469, 7361, 36768, 179740)

# Kings, multi-jumps in several directions, crowning mid-capture, an almost bare board.
TRICKY = (
    "B:W14,23,31:B9,1",
    "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
    "W:W17,21,22,23,25,26,27,30,31:B1,2,3,5,6,7,9,11,14",
    "B:W6,7,14,15,22,23:BK1,K2",
    "W:WK31,K32,21,22:B10,11,18,19,26,27",
    "B:WK27,K31:BK3,K7,K8",
)


def played(count: int, seed: int, max_plies: int = 110) -> list[Board]:
    """Boards reached by random play (games that are not over)."""
    rng = random.Random(seed)
    out: list[Board] = []
    while len(out) < count:
        board = Board()
        for _ in range(rng.randrange(0, max_plies)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if list(board.legal_moves):
            out.append(board)
    return out


@st.composite
def raw_positions(draw: st.DrawFn) -> tuple[int, int, int, bool]:
    """Any placement of up to 12 pieces a side; men never on their own crowning row."""
    squares = draw(st.permutations(range(32)))
    nb, nr = draw(st.integers(0, 12)), draw(st.integers(0, 12))
    black_sq, red_sq = squares[:nb], squares[nb : nb + nr]
    kings = 0
    for s in black_sq:
        if s >= 28 or draw(st.booleans()):
            kings |= 1 << s
    for s in red_sq:
        if s < 4 or draw(st.booleans()):
            kings |= 1 << s
    black = sum(1 << s for s in black_sq)
    red = sum(1 << s for s in red_sq)
    black_to_move = draw(st.booleans())
    if black_to_move:
        return black, red, kings, True
    return red, black, kings, False


# -- rules ------------------------------------------------------------------------------------
@pytest.mark.parametrize("depth", range(1, len(EXPECTED_PERFT) + 1))
def test_perft_from_the_start_matches_the_known_counts(depth: int) -> None:
    assert core.perft(*Board()._raw(), depth) == EXPECTED_PERFT[depth - 1]


@pytest.mark.parametrize("fen", TRICKY)
def test_perft_from_tricky_positions_matches_python(fen: str) -> None:
    raw = Board.from_fen(fen)._raw()
    for depth in range(1, 6):
        assert core.perft(*raw, depth) == bb.perft_raw(*raw, depth), depth


def test_move_lists_equal_python_move_for_move_in_played_positions() -> None:
    for board in played(150, 11):
        raw = board._raw()
        assert core.moves(*raw) == bb.gen_moves(*raw)


@settings(max_examples=examples(300), deadline=None)
@given(raw_positions())
def test_move_lists_equal_python_on_any_placement(raw: tuple[int, int, int, bool]) -> None:
    assert core.moves(*raw) == bb.gen_moves(*raw)
    assert core.perft(*raw, 3) == bb.perft_raw(*raw, 3)


# -- evaluation -------------------------------------------------------------------------------
@settings(max_examples=examples(300), deadline=None)
@given(raw_positions())
def test_evaluation_equals_python_for_either_side_to_move(raw: tuple[int, int, int, bool]) -> None:
    me, opp, kings, black = raw
    for side in ((me, opp, kings, black), (opp, me, kings, not black)):
        assert core.features(*side) == ev.features(*side)
        assert core.patterns(side[0], side[1], side[3]) == ev.pattern_indices(
            side[0], side[1], side[3]
        )
        assert core.evaluate(*side, ev.ALL_WEIGHTS) == ev.evaluate(*side)


@settings(max_examples=examples(100), deadline=None)
@given(
    raw_positions(),
    st.lists(st.integers(-200, 200), min_size=len(ev.TERMS), max_size=len(ev.TERMS)),
)
def test_evaluation_follows_the_weights_passed_in(
    raw: tuple[int, int, int, bool], weights: list[int]
) -> None:
    f = ev.features(*raw)
    assert core.evaluate(*raw, weights) == sum(w * x for w, x in zip(weights, f, strict=True))


def test_evaluation_equals_python_in_played_positions() -> None:
    for board in played(200, 12):
        me, opp, kings, black = board._raw()
        for side in ((me, opp, kings, black), (opp, me, kings, not black)):
            assert core.evaluate(*side, ev.ALL_WEIGHTS) == ev.evaluate(*side)


def test_evaluation_adds_the_patterns_values_passed_in() -> None:
    rng = random.Random(5)
    values = [rng.randrange(-60, 61) for _ in range(ev.PATTERNS)]
    weights = tuple(ev.WEIGHTS) + tuple(values)
    for board in played(40, 13):
        me, opp, kings, black = board._raw()
        for side in ((me, opp, kings, black), (opp, me, kings, not black)):
            m, o, _, b = side
            terms = sum(w * x for w, x in zip(ev.WEIGHTS, ev.features(*side), strict=True))
            expected = terms + sum(values[i] for i in ev.pattern_indices(m, o, b))
            assert core.evaluate(*side, weights) == expected
            assert core.evaluate(*side, list(weights)) == expected  # a list: parsed afresh


def test_weights_of_the_wrong_length_are_refused() -> None:
    with pytest.raises(ValueError, match="patterns"):
        core.evaluate(*Board()._raw(), (*ev.WEIGHTS, 0))


# -- search -----------------------------------------------------------------------------------
def both(
    board: Board, depth: int, db: egdb.Egdb | None = None, prune: bool = True
) -> tuple[tuple, tuple]:
    """(move, score, depth, nodes) of the Python and the C search to ``depth``."""
    me, opp, kings, black = board._raw()
    keys, key = history_keys(board), board_key(board)
    out = []
    for cls in (Searcher, CoreSearcher):
        searcher = cls(keys, board.halfmove_clock, egdb=db, prune=prune)
        out.append((*searcher.iterate(me, opp, kings, black, key, depth), searcher.nodes))
    return out[0], out[1]


@pytest.mark.parametrize("depth", [1, 3, 5, 6])
def test_a_fixed_depth_search_equals_python_score_move_and_nodes(depth: int) -> None:
    for board in played(12, 13):
        python, compiled = both(board, depth)
        assert compiled == python


@pytest.mark.parametrize("prune", [False, True])
def test_with_or_without_pruning_far_from_the_window_the_search_equals_python(
    prune: bool,
) -> None:
    for board in played(6, 23):
        python, compiled = both(board, 8, prune=prune)
        assert compiled == python


def test_the_openings_and_tricky_positions_search_the_same_at_depth_7() -> None:
    boards = [Board.from_fen(fen) for fen in TRICKY]
    start = Board()
    for text in ("11-15", "23-19", "8-11", "22-17"):
        start.push_text(text)
    for board in [start, *boards]:
        python, compiled = both(board, 7)
        assert compiled == python


def test_with_the_endgame_database_the_search_still_equals_python() -> None:
    db = egdb.build(2)
    # Three or four pieces: the search probes every two-piece position it reaches.
    for fen in ("B:WK27,K31:BK3,K7", "W:W21:BK3,K7", "B:W22,K31:B5,K10", "W:WK4:B10,K11"):
        python, compiled = both(Board.from_fen(fen), 6, db)
        assert compiled == python


def test_root_scores_equal_python() -> None:
    for board in [*played(4, 14), shuffled_kings()]:
        me, opp, kings, black = board._raw()
        keys, key = history_keys(board), board_key(board)
        py = Searcher(keys, board.halfmove_clock).root_scores(me, opp, kings, black, key, 4)
        c = CoreSearcher(keys, board.halfmove_clock).root_scores(me, opp, kings, black, key, 4)
        assert c == py


def test_a_node_limit_gives_the_same_answer_every_time_and_a_legal_move() -> None:
    for board in played(6, 15):
        me, opp, kings, black = board._raw()
        keys, key = history_keys(board), board_key(board)
        answers = []
        for _ in range(2):
            searcher = CoreSearcher(keys, board.halfmove_clock, limit=20_000)
            answers.append((*searcher.iterate(me, opp, kings, black, key, 60), searcher.nodes))
        assert answers[0] == answers[1]
        move, score, _depth, nodes = answers[0]
        assert move in bb.gen_moves(me, opp, kings, black)
        # It stops at the limit, or earlier when the game is decided within its horizon.
        assert nodes >= 20_000 or abs(score) >= search.EGDB_WIN - search.MAX_PLY


@pytest.mark.parametrize("cls", [Searcher, CoreSearcher])
def test_past_the_soft_deadline_no_new_depth_begins(cls: type) -> None:
    board = played(1, 17, 20)[0]
    me, opp, kings, black = board._raw()
    keys, key = history_keys(board), board_key(board)
    # A soft deadline already gone: depth 1 (always completed) and no more; without one, the
    # same node limit goes deeper.
    passed = cls(keys, board.halfmove_clock, limit=50_000, soft_deadline=time.perf_counter())
    free = cls(keys, board.halfmove_clock, limit=50_000)
    assert passed.iterate(me, opp, kings, black, key, 60)[2] == 1
    assert free.iterate(me, opp, kings, black, key, 60)[2] > 1


def test_more_nodes_reach_deeper() -> None:
    board = played(1, 16, 20)[0]
    shallow = search.think(board, limit=5_000, core=True)
    deep = search.think(board, limit=200_000, core=True)
    assert deep.depth > shallow.depth


def shuffled_kings() -> Board:
    """Two Black kings against one; both sides have just moved back and forth once."""
    board = Board.from_fen("B:WK32:BK1,K10")
    for text in ("1-5", "32-27", "5-1", "27-32"):
        board.push_text(text)
    return board


def test_the_winning_side_does_not_walk_into_a_repetition() -> None:
    board = shuffled_kings()
    result = search.think(board, max_depth=8, core=True)
    assert str(result.move) != "1-5"  # Red would answer 32-27: the game has been here before
    assert result.score > 0


def test_the_losing_side_takes_a_repetition() -> None:
    board = shuffled_kings()
    board.push_text("1-5")  # Black repeats; Red's 32-27 brings back a position seen before
    for core_on in (True, False):
        result = search.think(board, max_depth=6, core=core_on)
        assert (str(result.move), result.score) == ("32-27", 0)


def test_a_probe_that_fails_raises_instead_of_playing_on() -> None:
    class Broken:  # a table whose reads fail (only what the search touches)
        max_pieces = 5

        def probe(self, me: int, opp: int, kings: int, black: bool) -> tuple[int, int] | None:
            raise RuntimeError("disk gone")

    board = Board.from_fen("B:WK27,K31:BK3,K7,K8")
    with pytest.raises(RuntimeError, match="disk gone"):
        search.think(board, max_depth=4, egdb=Broken(), core=True)


def test_the_switch_forces_the_python_search(monkeypatch: pytest.MonkeyPatch) -> None:
    keys = history_keys(Board())
    assert isinstance(search.make_searcher(keys, 0), CoreSearcher)
    monkeypatch.setenv(search.CORE_ENV, "python")
    assert not search.core_available()
    assert isinstance(search.make_searcher(keys, 0), Searcher)


def test_a_custom_evaluation_gets_the_python_search() -> None:
    keys = history_keys(Board())
    assert isinstance(search.make_searcher(keys, 0, evaluate=lambda *a: 0), Searcher)


def test_the_chosen_move_converts_to_a_legal_board_move() -> None:
    for board in played(10, 17):
        result = search.think(board, limit=3_000, core=True)
        assert result.move in board.legal_moves
        assert result.move == Move.from_raw(result.raw)


def _search_an_opening(keep: bool, depth: int) -> tuple[bb.RawMove, int, int, int]:
    """The core's search of a position after four plies, to ``depth``, with the kept table or
    a fresh one: (move, score, depth, nodes)."""
    board = Board()
    for text in ("11-15", "23-19", "8-11", "22-17"):
        board.push_text(text)
    me, opp, kings, black = board._raw()
    searcher = CoreSearcher(history_keys(board), board.halfmove_clock, keep_table=keep)
    move, score, done = searcher.iterate(me, opp, kings, black, board_key(board), depth)
    return move, score, done, searcher.nodes


def test_a_kept_table_gives_a_head_start_and_a_fresh_search_ignores_it() -> None:
    fresh = _search_an_opening(False, 10)
    _search_an_opening(True, 10)
    kept = _search_an_opening(True, 10)  # reads what the search before stored: fewer nodes
    assert kept[2] == fresh[2] == 10
    assert kept[3] < fresh[3]
    assert _search_an_opening(False, 10) == fresh


def test_a_kept_table_keeps_its_head_start_when_the_generations_run_out() -> None:
    """The shared table tells searches apart by a generation of 6 bits: when they run out,
    the entries of earlier searches stay for a search that reads them."""
    fresh = _search_an_opening(False, 6)
    for _ in range(64):  # two at a time, and 63 generations is odd: one wrap falls on a kept one
        _search_an_opening(True, 6)
        assert _search_an_opening(True, 6)[3] < fresh[3]
    assert _search_an_opening(False, 6) == fresh


def test_searches_in_several_threads_at_once_give_the_answers_they_give_alone() -> None:
    db = egdb.build(2)
    boards = [Board.from_fen("B:WK27,K31:BK3,K7"), Board.from_fen("W:W21:BK3,K7")]
    boards += played(4, 19)

    def run(board: Board) -> tuple:
        result = search.think(board, limit=30_000, egdb=db, core=True)
        return result.raw, result.score, result.depth, result.nodes

    alone = [run(board) for board in boards]
    with ThreadPoolExecutor(3) as pool:
        together = list(pool.map(run, boards * 2))
    assert together == alone * 2
