"""The lost-games reader (``bench/checkers_losses.py``), driven by a fake engine."""

from __future__ import annotations

from bench import checkers_losses as cl
from tests.test_bench_checkers_engine import scoring_engine

REPORT = """expert v Cake: 1 openings x 2 colours (from opening 0), 1.0 s a move
  11-15 23-19 8-11   expert as Black 0   12 plies, no-moves
expert: +0 =0 -2  score 0/2 (0.0%)
games lost (every move, the opening included):
  Black: 11-15 23-19 8-11 22-17 10-14 17x10 7x14
  Red: 11-15 23-19 8-11 22-17
"""


def rows(*scores: int | None) -> list[cl.Row]:
    """The expert's positions every other ply from ply 6, with the engine's ``scores``."""
    return [cl.Row(6 + 2 * i, 24 - i, s, 0, 10) for i, s in enumerate(scores)]


def test_the_lost_games_are_read_with_the_experts_seat_and_every_move() -> None:
    games = cl.lost_games(REPORT)
    assert games == [
        (0, ["11-15", "23-19", "8-11", "22-17", "10-14", "17x10", "7x14"]),
        (1, ["11-15", "23-19", "8-11", "22-17"]),
    ]
    assert cl.lost_games(REPORT.split("games lost")[0]) == []


def test_a_game_turned_where_the_score_fell_for_good() -> None:
    # -70 at the second row comes back to -20: not yet; from the fourth row on it stays low.
    point = cl.turning_point(rows(0, -70, -20, -65, None, -40, -200))
    assert point is not None and point.ply == 12
    assert cl.turning_point(rows(0, -10, -50, -59)) is None


def test_the_worst_moves_are_the_largest_falls_of_a_game_still_open() -> None:
    falls = cl.worst_moves(rows(10, -90, -100, None, -200, -500, -1990), count=3)
    assert [(fall, before.ply) for fall, before, _ in falls] == [(-100, 6), (-10, 8)]


def test_every_position_the_expert_had_after_the_opening_is_scored() -> None:
    engine, seen = scoring_engine(b"depth 9  value=-37  nodes 1234")
    moves = ["11-15", "24-20", "8-11", "28-24", "9-13", "21-17", "4-8", "32-28", "6-9", "25-21"]
    scored = cl.score_game(0, moves, engine, 0.01, nodes=2000)
    assert [(row.ply, row.pieces, row.engine) for row in scored] == [(6, 24, -37), (8, 24, -37)]
    assert all(row.depth > 1 for row in scored)
    assert len(seen) == 2


def test_a_forced_move_is_not_judged() -> None:
    engine, seen = scoring_engine(b"value=-5")
    # Black to move after 11-15 23-19 8-11 22-17 10-14 17x10: the only move is 7x14.
    moves = ["11-15", "23-19", "8-11", "22-17", "10-14", "17x10", "7x14", "19x10"]
    (row,) = cl.score_game(0, moves, engine, 0.01, nodes=500)
    assert row.ply == 6 and row.engine is None and not seen
