"""The draw bench judges a trial fit's weights with the search the expert plays with."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.builders import checkers_draw_margin as bench
from games.checkers import evaluation, search
from games.checkers.board import Board

pytestmark = pytest.mark.skipif(not search.core_available(), reason="compiled core not built")

ENDINGS = ("B:WK32:BK1", "W:WK5,K9:BK28,K20", "B:WK14:BK23", "W:WK1,K3:BK30,K32")


def test_the_current_weights_from_a_file_score_as_the_expert_does() -> None:
    weights = evaluation.all_weights(
        json.loads(Path(evaluation.__file__).with_name("weights.json").read_text())
    )
    for fen in ENDINGS:
        board = Board.from_fen(fen)
        assert bench.score(board, 2000, weights) == search.think(board, limit=2000).score, fen


def test_other_weights_score_the_endings_otherwise() -> None:
    plain = evaluation.all_weights({"weights": {"men": 100, "kings": 300}})
    scores = {fen: bench.score(Board.from_fen(fen), 2000, plain) for fen in ENDINGS}
    assert scores != {fen: search.think(Board.from_fen(fen), limit=2000).score for fen in ENDINGS}


def test_without_the_compiled_search_trial_weights_score_the_same(monkeypatch) -> None:
    plain = evaluation.all_weights({"weights": {"men": 100, "kings": 300}})
    compiled = [bench.score(Board.from_fen(fen), 2000, plain) for fen in ENDINGS[:2]]
    monkeypatch.setenv(search.CORE_ENV, "python")
    assert not search.core_available()
    assert [bench.score(Board.from_fen(fen), 2000, plain) for fen in ENDINGS[:2]] == compiled
