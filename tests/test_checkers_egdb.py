"""The endgame database: built by our own solver and checked against brute-force search."""

from __future__ import annotations

import random

import pytest

from games.checkers import bitboard as bb
from games.checkers import egdb
from games.checkers.egdb import DRAW, LOSS, WIN


@pytest.fixture(scope="module")
def db() -> egdb.Egdb:
    return egdb.build(3)


def brute(me: int, opp: int, kings: int, black: bool, depth: int) -> tuple[int, int] | None:
    """(result, distance) if the game is decided within ``depth`` plies, by plain minimax."""
    moves = bb.gen_moves(me, opp, kings, black)
    if not moves:
        return LOSS, 0
    if depth == 0:
        return None
    win = None
    worst = 0
    all_won = True
    for move in moves:
        nme, nopp, nk = bb.apply(me, opp, kings, black, move)
        child = (LOSS, 0) if not nopp else brute(nopp, nme, nk, not black, depth - 1)
        if child is not None and child[0] == LOSS:
            win = child[1] + 1 if win is None else min(win, child[1] + 1)
        if child is None or child[0] != WIN:
            all_won = False
        else:
            worst = max(worst, child[1] + 1)
    if win is not None:
        return WIN, win
    return (LOSS, worst) if all_won else None


def unpack(key: int) -> tuple[int, int, int]:
    return key & bb.FULL, key >> 32 & bb.FULL, key >> 64


def test_the_table_holds_every_position_up_to_three_pieces(db: egdb.Egdb) -> None:
    expected = sum(1 for n in (2, 3) for _ in egdb.positions(n))
    assert len(db) == expected
    assert set(db.values.values()) >= {0, -1, 2}


def test_a_lone_king_against_a_lone_king_is_a_draw(db: egdb.Egdb) -> None:
    # Kings on 1 and 32, far apart: neither can force anything.
    assert db.probe(1, 1 << 31, 1 | 1 << 31, True) == (DRAW, 0)


def test_two_kings_beat_one(db: egdb.Egdb) -> None:
    result, distance = db.probe(1 << 9 | 1 << 10, 1 << 3, 1 << 9 | 1 << 10 | 1 << 3, True)
    assert result == WIN and 0 < distance < 64


def test_probes_agree_for_either_side_to_move(db: egdb.Egdb) -> None:
    rng = random.Random(5)
    keys = rng.sample(sorted(db.values), 200)
    for key in keys:
        black, red, kings = unpack(key)
        # The same position turned and recoloured, with Red to move.
        assert db.probe(egdb.flip(black), egdb.flip(red), egdb.flip(kings), False) == db.probe(
            black, red, kings, True
        )


def test_short_wins_and_losses_match_brute_force(db: egdb.Egdb) -> None:
    rng = random.Random(16)
    short = sorted(k for k, v in db.values.items() if v and abs(v) - 1 <= 5)
    for key in rng.sample(short, 60):
        black, red, kings = unpack(key)
        result, distance = db.probe(black, red, kings, True)
        assert brute(black, red, kings, True, distance) == (result, distance)
        if distance:
            assert brute(black, red, kings, True, distance - 1) is None


def test_draws_are_not_decided_by_brute_force(db: egdb.Egdb) -> None:
    rng = random.Random(17)
    draws = sorted(
        k for k, v in db.values.items() if v == 0 and unpack(k)[2] != unpack(k)[0] | unpack(k)[1]
    )
    for key in rng.sample(draws, 25):
        black, red, kings = unpack(key)
        assert brute(black, red, kings, True, 5) is None


def test_the_table_round_trips_through_its_file(db: egdb.Egdb, tmp_path) -> None:
    small = egdb.build(2)
    path = tmp_path / "t.bin"
    small.save(path)
    again = egdb.Egdb.load(path)
    assert again.values == small.values and again.max_pieces == 2
