"""The self-play bench gives each side its own settings: here, side B's evaluation weights."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.strength import checkers_selfplay as selfplay
from games.checkers import evaluation, search
from games.checkers.board import Board

pytestmark = pytest.mark.skipif(not search.core_available(), reason="compiled core not built")


def test_side_b_searches_with_the_weights_of_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trial = {"weights": {"men": 100, "kings": 300}}
    path = tmp_path / "trial.json"
    path.write_text(json.dumps(trial))
    given: list[object] = []
    real = search.CoreSearcher

    def spy(*args: object, **kwargs: object) -> search.CoreSearcher:
        given.append(kwargs["weights"])
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(search, "CoreSearcher", spy)
    board = Board()
    move_a, _ = selfplay.search_move(board, selfplay.Side(), 2_000, None)
    move_b, _ = selfplay.search_move(board, selfplay.Side(weights_path=str(path)), 2_000, None)
    assert given == [None, evaluation.all_weights(trial)]
    assert {move_a, move_b} <= {str(m) for m in board.legal_moves}
