"""The checkers tuner's labels: an outside teacher's scores, the endgame database's results."""

from __future__ import annotations

import ctypes
import json
import math
import random
import sys
from pathlib import Path

import numpy as np
import pytest

from bench.builders import checkers_weights
from bench.builders.checkers_weights import (
    at_least,
    db_label,
    fit_weights,
    read_set,
    teach,
    win_chance,
    write_set,
)
from bench.strength import checkers_engine as cb
from games.checkers import egdb
from games.checkers.board import Board
from games.checkers.evaluation import PATTERN_WEIGHTS, PATTERNS, REGIONS, TERMS, WEIGHT_MAP


@pytest.fixture(scope="module")
def db() -> egdb.Egdb:
    return egdb.build(3)


def teacher(value: int) -> tuple[cb.Engine, list[str]]:
    """An engine that reports ``value`` for every position it is asked about (and plays the
    first legal move); the positions it was asked about, as FEN, in order."""
    asked: list[str] = []

    @cb.GETMOVE
    def getmove(board_p, colour, _maxtime, text, playnow, info, _unused, _move_p):
        black, red, kings = cb.from_cb(board_p.contents)
        board = Board.from_fen(fen(black, red, kings, colour == cb.CB_BLACK))
        asked.append(board.fen())
        board.push(sorted(board.legal_moves, key=str)[0])
        black, red, kings = cb.position(board)
        board_p.contents[:] = cb.to_cb(black & ~red, red, kings & (black | red))[:]
        report = f"depth 9  value={value}  nodes 100".encode()
        ctypes.memmove(text, report, len(report) + 1)
        return cb.CB_UNKNOWN

    return cb.Engine(getmove, "teacher"), asked


def fen(black: int, red: int, kings: int, black_to_move: bool) -> str:
    def side(bits: int) -> str:
        return ",".join(
            ("K" if kings >> i & 1 else "") + str(i + 1) for i in range(32) if bits >> i & 1
        )

    return f"{'B' if black_to_move else 'W'}:W{side(red)}:B{side(black)}"


def test_the_database_labels_the_positions_it_covers_with_their_result(db: egdb.Egdb) -> None:
    # Two black kings against one red king: Black wins whoever is to move.
    red_to_move = Board.from_fen("W:WK32:BK1,K3")._raw()
    black_to_move = Board.from_fen("B:WK32:BK1,K3")._raw()
    assert db_label(db, red_to_move) == 0.0
    assert db_label(db, black_to_move) == 1.0
    assert db_label(db, Board.from_fen("B:WK32:BK1")._raw()) == 0.5  # a king each: drawn
    assert db_label(db, Board()._raw()) is None  # 24 pieces: not covered
    assert db_label(None, red_to_move) is None


def test_the_teacher_scores_only_what_the_database_does_not_cover(db: egdb.Egdb) -> None:
    covered = Board.from_fen("W:WK32:BK1,K3")._raw()
    opening = Board()._raw()
    engine, asked = teacher(-60)
    games = [[(covered, 0.5), (opening, 0.5)]]
    assert teach(games, engine, 0.01, 300.0, db) == [[(covered, 0.0), (opening, win_chance(-60))]]
    assert asked == [Board().fen()]
    engine, asked = teacher(120)
    assert teach(games, engine, 0.01, 300.0) == [
        [(covered, win_chance(120)), (opening, win_chance(120))]
    ]
    assert len(asked) == 2


def test_min_pieces_keeps_every_game_and_only_its_larger_positions() -> None:
    big = Board()._raw()  # 24 pieces
    small = Board.from_fen("B:WK32:BK1,K3")._raw()  # 3 pieces
    games = [[(big, 1.0), (small, 0.5)], [(small, 0.0)]]
    assert at_least(games, 6) == [[(big, 1.0)], []]
    assert at_least(games, 3) == games


def test_a_continued_fit_pulls_each_pattern_toward_its_start_not_toward_zero() -> None:
    """A pattern the new data has nothing against keeps what earlier data taught it, however
    strong the pull: a pull toward zero used to wash out such patterns in a refit on a small
    set."""
    k, start = 300.0, 40.0
    rows = 50
    x = np.zeros((rows, len(TERMS)))
    regions = np.full((rows, len(REGIONS)), 7, dtype=np.int64)  # pattern 7 in every region
    label = 1 / (1 + math.exp(-len(REGIONS) * start / k))  # what the start already predicts
    data = (x, regions, np.full(rows, label))
    patterns = np.zeros(PATTERNS)
    patterns[7] = start
    weights = [float(WEIGHT_MAP[t]) for t in TERMS]
    _, kept = fit_weights(data, weights, k, 50, 0.5, patterns=patterns, pattern_l2=1e-3)
    assert kept is not None and kept[7] == pytest.approx(start, abs=1e-6)
    # Labels above the prediction: the pattern rises, the men weight stays 100.
    data = (x, regions, np.full(rows, 0.95))
    fitted, kept = fit_weights(data, weights, k, 100, 0.5, patterns=patterns, pattern_l2=1e-9)
    assert kept is not None and kept[7] > start + 5 and fitted[0] == 100


@pytest.mark.parametrize("name", ["set.json", "set.json.gz"])
def test_a_saved_set_reads_back_the_same_and_compresses_to_stable_bytes(
    tmp_path: Path, name: str
) -> None:
    body = {"games": [[[list(Board()._raw()), 0.5]]], "results": {"games": 1.0}, "nodes": 0}
    path = tmp_path / name
    write_set(path, body)
    first = path.read_bytes()
    assert read_set(path) == body
    write_set(path, body)
    assert path.read_bytes() == first


def random_sets(folder: Path, names: tuple[str, ...]) -> None:
    """Saved sets of five short random games each, labelled at random."""
    rng = random.Random(3)
    for name in names:
        games = []
        for _ in range(5):
            board, game = Board(), []
            for _ in range(rng.randrange(6, 20)):
                board.push(rng.choice(list(board.legal_moves)))
                game.append([list(board._raw()), rng.choice([0.0, 0.5, 1.0])])
            games.append(game)
        results = {"games": 5.0, "black": 2.5, "draws": 1.0, "plies": 60.0}
        write_set(folder / name, {"games": games, "results": results, "nodes": 100})


def test_a_refit_does_not_depend_on_the_order_its_sets_are_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The split into training and held-out games is seeded, so it must see the games in one
    order whatever order the shell's glob or the user lists the sets in."""
    random_sets(tmp_path, ("a.json", "b.json"))
    written = []
    for first, second in (("a.json", "b.json"), ("b.json", "a.json")):
        out = tmp_path / f"{first}-first.json"
        argv = ["checkers_weights", "--load", str(tmp_path / first), str(tmp_path / second)]
        monkeypatch.setattr(sys, "argv", [*argv, "--write-to", str(out)])
        checkers_weights.main()
        written.append(out.read_text())
    assert written[0] == written[1]


def test_agreement_reads_a_teachers_scores_band_by_band() -> None:
    """Labels made from the evaluation's own scores agree with it exactly; labels of exactly 0
    or 1 (a game's result, the database's) are left out, and so are bands with too few
    positions."""
    rng = random.Random(3)
    board = Board()
    raws = []
    for _ in range(8):  # quiet opening moves: every position still has 24 pieces
        raws.append(board._raw())
        board.push(sorted(board.legal_moves, key=str)[rng.randrange(len(list(board.legal_moves)))])
    weights = [float(WEIGHT_MAP[t]) for t in TERMS]
    k = 300.0
    data = checkers_weights.matrix([(r, 0.5) for r in raws])
    scores = checkers_weights._scores(data, weights, None)
    assert scores.std() > 0
    samples = [
        (raw, win_chance(round(s * checkers_weights.LABEL_K / k)))
        for raw, s in zip(raws, scores, strict=True)
    ]
    samples += [(raws[0], 1.0), (raws[2], 0.0)]
    rows = checkers_weights.agreement(samples, checkers_weights.matrix(samples), weights, k)
    assert len(rows) == 1
    band, positions, correlation, rms = rows[0]
    assert (band, positions) == ("22-24", 8)
    assert correlation == pytest.approx(1.0, abs=1e-3)
    assert rms < 1


def test_judge_holds_out_whole_sets_and_every_loaded_game_trains(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    random_sets(tmp_path, ("a.json", "b.json"))
    out = tmp_path / "trial.json"
    argv = [
        "checkers_weights",
        "--load",
        str(tmp_path / "a.json"),
        "--judge",
        str(tmp_path / "b.json"),
    ]
    monkeypatch.setattr(
        sys, "argv", [*argv, "--from-current", "--epochs", "0", "--phases", "--write-to", str(out)]
    )
    checkers_weights.main()
    assert "held-out: the evaluation against the labels' scores" in capsys.readouterr().out
    report = json.loads(out.read_text())["tuning"]
    samples = {
        name: [(tuple(raw), y) for game in read_set(tmp_path / name)["games"] for raw, y in game]
        for name in ("a.json", "b.json")
    }
    assert report["held_out"] == "b.json"
    assert report["positions"] == len(samples["a.json"]) + len(samples["b.json"])
    current = [float(WEIGHT_MAP[t]) for t in TERMS]
    patterns = np.array(PATTERN_WEIGHTS, dtype=np.float64)
    for name, key in (("a.json", "loss_before_train"), ("b.json", "loss_before_held_out")):
        data = checkers_weights.matrix(samples[name])
        loss = checkers_weights._loss(data, current, report["k"], patterns)
        assert report[key] == pytest.approx(loss)
    # No epochs and no --patterns: the weights are read with the current patterns after too.
    assert report["loss_after_held_out"] == pytest.approx(report["loss_before_held_out"], abs=1e-3)


def test_keep_pieces_drops_the_smaller_positions_before_the_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    random_sets(tmp_path, ("a.json",))
    kept = tmp_path / "kept.json"
    argv = ["checkers_weights", "--load", str(tmp_path / "a.json"), "--keep-pieces", "24"]
    monkeypatch.setattr(sys, "argv", [*argv, "--epochs", "0", "--save", str(kept)])
    checkers_weights.main()
    games = read_set(kept)["games"]
    every = read_set(tmp_path / "a.json")["games"]
    assert len(games) == len(every)  # every game stays, for the split
    full = [[raw, y] for game in every for raw, y in game if (raw[0] | raw[1]).bit_count() == 24]
    assert [s for game in games for s in game] == full
    assert 0 < len(full) < sum(map(len, every))
