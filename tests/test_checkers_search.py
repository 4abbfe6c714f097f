"""The search: node limits, repetition draws and a transposition table that respects them."""

from __future__ import annotations

from games.checkers import evaluation as ev
from games.checkers.board import Board, Move
from games.checkers.search import EXACT, Searcher, board_key, history_keys, think


def shuffled_kings() -> Board:
    """Two Black kings against one; both sides have just moved back and forth once."""
    board = Board.from_fen("B:WK32:BK1,K10")
    for text in ("1-5", "32-27", "5-1", "27-32"):
        board.push_text(text)
    return board


def test_a_node_limit_gives_the_same_answer_every_time() -> None:
    board = Board()
    for text in ("11-15", "23-19", "8-11", "22-17"):
        board.push_text(text)
    first = think(board, limit=3000)
    again = think(board, limit=3000)
    assert (first.move, first.score, first.depth, first.nodes) == (
        again.move,
        again.score,
        again.depth,
        again.nodes,
    )
    assert 3000 <= first.nodes < 3100
    assert think(board, limit=20000).depth > first.depth


def test_going_back_to_a_position_already_seen_scores_as_a_draw() -> None:
    board = shuffled_kings()
    me, opp, kings, black = board._raw()
    searcher = Searcher(history_keys(board), board.halfmove_clock)
    scores = {
        str(board.parse_move(_text(m))): s
        for s, m in searcher.root_scores(me, opp, kings, black, board_key(board), 4)
    }
    assert scores["1-5"] == 0  # Red answers 32-27 and the game has been here before
    assert max(scores.values()) > 0  # the two kings still play for a win elsewhere


def test_a_score_that_leans_on_the_path_is_not_stored_as_a_bound() -> None:
    board = shuffled_kings()
    me, opp, kings, black = board._raw()
    # The hand-set weights, so that a refit of the evaluation does not move the best line.
    weights = [ev.HAND_WEIGHTS[t] for t in ev.TERMS]

    def hand(me: int, opp: int, kings: int, black: bool, steps: int = -1) -> int:
        terms = ev.features(me, opp, kings, black, steps)
        return sum(w * x for w, x in zip(weights, terms, strict=True))

    searcher = Searcher(history_keys(board), board.halfmove_clock, lmr=False, evaluate=hand)
    key = board_key(board)
    searcher.search(me, opp, kings, black, key, 4, -(10**6), 10**6, 0, board.halfmove_clock)
    assert searcher.path_draws > 0
    depth, flag, _score, move = searcher.tt[key]
    assert depth == -1 and flag == EXACT and move is not None  # only the move is kept
    # Without that history the same position is searched and stored normally.
    fresh = Searcher([key], 0, lmr=False, evaluate=hand)
    fresh.search(me, opp, kings, black, key, 4, -(10**6), 10**6, 0, 0)
    assert fresh.tt[key][0] == 4


def _text(raw) -> str:
    return str(Move.from_raw(raw))


def test_pruning_far_from_the_window_sees_the_same_win_in_fewer_nodes() -> None:
    """25-22 wins a man, which a search sees from depth 7 on. Searching null windows of quiet
    positions far from them shallower (``FAR_OFF``, ``OFF``) finds the same move and score at
    every depth, and needs fewer nodes once the search is deep enough to cut anything."""
    board = Board.from_fen("W:W19,23,25,29,30,31:B5,10,12,14,16,21")
    me, opp, kings, black = board._raw()
    for depth in (3, 5, 7, 9):
        found = []
        for prune in (False, True):
            searcher = Searcher(history_keys(board), 0, prune=prune)
            raw, score, _ = searcher.iterate(me, opp, kings, black, board_key(board), depth)
            found.append((str(Move.from_raw(raw)), score, searcher.nodes))
        (move, score, full), (pruned_move, pruned_score, pruned) = found
        assert (pruned_move, pruned_score) == (move, score) and move == "25-22"
        assert score >= 100 if depth >= 7 else score < 100
        assert pruned < full if depth >= 5 else pruned <= full
