"""The endgame database: built by our own solver and checked against brute-force search."""

from __future__ import annotations

import itertools
import random
import struct
from pathlib import Path

import pytest

from games.checkers import bitboard as bb
from games.checkers import egdb
from games.checkers.egdb import DRAW, LOSS, WIN, verify
from games.checkers.egdb.__main__ import main as egdb_main
from games.checkers.egdb.verify import Memo, Value

compiled = pytest.mark.skipif(egdb._egdbcore is None, reason="the C solver is not built")


@pytest.fixture(scope="module")
def db() -> egdb.Egdb:
    return egdb.build(3)


@pytest.fixture(scope="module")
def db_py() -> egdb.Egdb:
    """The same table from the Python solver, which follows bitboard's move generator."""
    return egdb.build(3, compiled=False)


_memo: Memo = {}


def brute(me: int, opp: int, kings: int, black: bool, depth: int) -> Value:
    return verify.brute(me, opp, kings, black, depth, _memo)


def expected(found: Value) -> Value:
    """What ``brute`` says of a position the table values ``found`` (draws: never settled)."""
    return None if found == (DRAW, 0) else found


def every_position(n: int) -> list[tuple[int, int, int]]:
    """Every legal placement of ``n`` pieces, Black to move, built without the index code."""
    out = []
    for squares in itertools.combinations(range(32), n):
        for colours in itertools.product((0, 1), repeat=n):
            if 0 in colours and 1 in colours:
                for crowned in itertools.product((0, 1), repeat=n):
                    black = red = kings = 0
                    ok = True
                    for s, c, k in zip(squares, colours, crowned, strict=True):
                        bit = 1 << s
                        if k:
                            kings |= bit
                        elif bit & (bb.BOTTOM_ROW if c == 0 else bb.TOP_ROW):
                            ok = False
                        if c == 0:
                            black |= bit
                        else:
                            red |= bit
                    if ok:
                        out.append((black, red, kings))
    return out


def test_every_two_piece_position_matches_brute_force_with_either_side_to_move(
    db: egdb.Egdb,
) -> None:
    # The longest 2-piece result is 13 plies: 15 plies of minimax settle all that can be.
    positions = every_position(2)
    assert len(positions) == 3_488
    for black, red, kings in positions:
        found = db.probe(black, red, kings, True)
        assert brute(black, red, kings, True, 15) == expected(found)
        turned = egdb.flip(black), egdb.flip(red), egdb.flip(kings)
        assert db.probe(*turned, False) == found
        assert brute(*turned, False, 15) == expected(found)


def test_a_sample_of_three_piece_positions_matches_brute_force(db: egdb.Egdb) -> None:
    rng = random.Random(16)
    positions = every_position(3)
    checked = 0
    for black, red, kings in rng.sample(positions, 300):
        found = db.probe(black, red, kings, True)
        assert found is not None
        result, distance = found
        if result == DRAW:
            assert brute(black, red, kings, True, 7) is None
        elif distance <= 11:  # exact: settled in ``distance`` plies and not one fewer
            assert brute(black, red, kings, True, distance) == found
            if distance:
                assert brute(black, red, kings, True, distance - 1) is None
            checked += 1
        else:
            assert brute(black, red, kings, True, 7) is None
    assert checked > 100


def test_the_c_solver_and_the_python_solver_agree_byte_for_byte(
    db: egdb.Egdb, db_py: egdb.Egdb
) -> None:
    # ``db`` comes from the C solver when it is built (else both are the Python one).
    assert db.table == db_py.table


@compiled
def test_the_c_probe_and_the_python_probe_agree(db: egdb.Egdb) -> None:
    for black, red, kings in every_position(3)[::7]:
        value = db.probe_py(black, red, kings, True)
        assert db.probe(black, red, kings, True) == value
        turned = egdb.flip(black), egdb.flip(red), egdb.flip(kings)
        assert db.probe(*turned, False) == db.probe_py(*turned, False) == value
    assert db.probe(0, 1, 1, True) == db.probe_py(0, 1, 1, True) == (LOSS, 0)
    four = 1 | 2 | 4, 1 << 31, 1 | 2 | 4 | 1 << 31
    assert db.probe(*four, True) is None and db.probe_py(*four, True) is None


def test_the_index_round_trips_for_every_signature_of_up_to_three_pieces() -> None:
    for n in (2, 3):
        seen = set()
        for sig in egdb.signatures(n):
            holes = 0
            for index in range(egdb.sig_size(sig)):
                position = egdb.unrank(sig, index)
                if position is None:
                    holes += 1
                    continue
                assert egdb.rank(*position) == (sig, index)
                assert egdb.signature_of(*position) == sig
                seen.add(position)
            listed = [(i, b, r, k) for i, b, r, k in egdb.enumerate_sig(sig)]
            assert [i for i, *_ in listed] == sorted(i for i, *_ in listed)
            assert len(listed) + holes == egdb.sig_size(sig)
        assert seen == set(every_position(n))
    assert egdb.Layout(3).size == sum(egdb.sig_size(s) for n in (2, 3) for s in egdb.signatures(n))


def test_signatures_come_before_the_ones_their_crownings_need() -> None:
    order = egdb.Layout(4).order
    for i, sig in enumerate(order):
        bk, bm, rk, rm = sig
        # A crowning of either side leads to a signature (turned) already solved.
        for after in ((rk, rm, bk + 1, bm - 1), (rk + 1, rm - 1, bk, bm)):
            if min(after) >= 0 and after in order:
                partner = order.index(egdb.swap(sig))
                assert order.index(after) < min(i, partner)


def test_a_lone_king_against_a_lone_king_is_drawn_but_for_quick_tactics(db: egdb.Egdb) -> None:
    assert db.probe(1, 1 << 31, 1 | 1 << 31, True) == (DRAW, 0)
    double_corners = 1 << 0 | 1 << 4 | 1 << 27 | 1 << 31  # squares 1, 5, 28 and 32
    values = []
    for _, black, red, kings in egdb.enumerate_sig((1, 0, 1, 0)):
        found = db.probe(black, red, kings, True)
        assert found is not None
        values.append(found)
        result, distance = found
        assert distance <= 11  # a king is caught quickly or never
        # A king in a double corner can not be caught.
        if black & double_corners:
            assert result != LOSS
        if red & double_corners:
            assert result != WIN
    assert sum(1 for v in values if v == (DRAW, 0)) > len(values) // 2


def test_two_kings_beat_one_but_for_a_few_traps(db: egdb.Egdb) -> None:
    assert db.probe(1 << 9 | 1 << 10, 1 << 3, 1 << 9 | 1 << 10 | 1 << 3, True)[0] == WIN
    results = []
    for _, black, red, kings in egdb.enumerate_sig((2, 0, 1, 0)):
        found = db.probe(black, red, kings, True)
        assert found is not None
        results.append(found[0])
        assert found[0] != LOSS and found[1] < 64
    # With the two kings to move, under 1% are drawn (a king is lost to a quick trap).
    assert results.count(DRAW) < len(results) // 100
    lone = []
    for _, black, red, kings in egdb.enumerate_sig((1, 0, 2, 0)):
        found = db.probe(black, red, kings, True)
        assert found is not None
        lone.append(found[0])
        if found[0] == WIN:  # the lone king to move wins only by taking a king at once
            assert bb.has_capture(black, red, kings, True)
    assert lone.count(LOSS) > len(lone) * 85 // 100


def test_values_are_the_same_for_either_side_to_move(db: egdb.Egdb) -> None:
    rng = random.Random(5)
    for black, red, kings in rng.sample(every_position(3), 2_000):
        assert db.probe(egdb.flip(black), egdb.flip(red), egdb.flip(kings), False) == db.probe(
            black, red, kings, True
        )


def test_wins_are_odd_and_losses_even_and_the_table_is_mostly_decided(db: egdb.Egdb) -> None:
    for value in set(db.table):
        result, distance = egdb.decode(value)
        assert egdb.encode(result, distance) == value
        assert result == DRAW or (distance % 2 == 1) == (result == WIN)
    assert sum(1 for v in db.table if v) > len(db) // 2


def test_the_table_round_trips_through_its_file(tmp_path: Path) -> None:
    small = egdb.build(2)
    path = tmp_path / "t.bin"
    small.save(path)
    again = egdb.Egdb.load(path)
    assert bytes(again.table) == bytes(small.table) and again.max_pieces == 2
    assert again.probe(1, 1 << 31, 1 | 1 << 31, True) == (DRAW, 0)


def test_old_truncated_or_damaged_files_are_rejected(tmp_path: Path) -> None:
    path = tmp_path / "t.bin"
    egdb.build(2).save(path)
    data = path.read_bytes()
    bad = {
        "old": b"PCEGDB1\n" + struct.pack("<BI", 2, 0),
        "truncated": data[:-10],
        "header only": data[:20],
        "damaged": data[:-1] + bytes([data[-1] ^ 1]),
        "other size": data[:8] + bytes([3]) + data[9:],
        "empty": b"",
    }
    for name, content in bad.items():
        path.write_bytes(content)
        with pytest.raises(ValueError):
            egdb.Egdb.load(path)
        assert name


def test_the_build_command_replaces_an_old_format_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PARLOUR_EGDB_DIR", str(tmp_path))
    monkeypatch.setattr(egdb, "_LOADED", {})
    path = egdb.cache_path(2)
    path.write_bytes(b"PCEGDB1\n" + struct.pack("<BI", 2, 0))
    assert egdb.load(2) is None
    assert egdb_main(["build", "--pieces", "2"]) == 0
    assert "rebuilding" in capsys.readouterr().out
    monkeypatch.setattr(egdb, "_LOADED", {})
    loaded = egdb.load(2)
    assert loaded is not None and loaded.max_pieces == 2
    assert egdb_main(["build", "--pieces", "2"]) == 0
    assert "already built" in capsys.readouterr().out
    # Without a size, load takes the largest table on disk.
    monkeypatch.setattr(egdb, "_LOADED", {})
    found = egdb.load()
    assert found is not None and found.max_pieces == 2


def test_the_verify_command_checks_a_sample_of_the_cached_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PARLOUR_EGDB_DIR", str(tmp_path))
    monkeypatch.setattr(egdb, "_LOADED", {})
    assert egdb_main(["verify", "--pieces", "2"]) == 1  # nothing built yet
    assert egdb_main(["build", "--pieces", "3"]) == 0
    monkeypatch.setattr(egdb, "_LOADED", {})
    assert egdb_main(["verify", "--samples", "30"]) == 0
    out = capsys.readouterr().out
    assert "2 pieces: 30 positions agree" in out and "3 pieces: 30 positions agree" in out


def test_verify_catches_a_wrong_value(db: egdb.Egdb) -> None:
    # Two kings against one, a win: claim a draw instead and the check fails.
    black, red, kings = 1 << 9 | 1 << 10, 1 << 3, 1 << 9 | 1 << 10 | 1 << 3
    table = bytearray(db.table)
    sig, index = egdb.rank(black, red, kings)
    table[db.layout.offset(sig) + index] = egdb.encode(DRAW, 0)
    with pytest.raises(AssertionError):
        verify.check(egdb.Egdb(3, table), black, red, kings, verify.Tally())
    verify.check(db, black, red, kings, verify.Tally())
