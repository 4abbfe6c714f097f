"""The four C helpers at their boundary with Python: a malformed argument (a wrong type, a size
out of range, a negative or huge number, a short buffer) is refused with an exception, and a
well-formed one is answered as the Python code answers it; nothing reads or writes out of
bounds. ``.ci/c-safety`` runs this file against builds with AddressSanitizer and
UndefinedBehaviorSanitizer, where any stray access or undefined operation stops the process.

Skipped for a helper that was not built (no C compiler at install); under ``CI=true`` a missing
helper fails instead.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any

import pytest
from example_counts import examples
from hypothesis import example, given, settings
from hypothesis import strategies as st

from games.checkers import bitboard as bb
from games.checkers import egdb, search
from games.checkers import evaluation as ev
from games.checkers.board import Board
from games.hearts import search as hearts
from games.hearts.rules import Rules
from games.quatorze import fair

HELPERS = {
    "games.checkers._core": search._core,
    "games.checkers._egdbcore": egdb._egdbcore,
    "games.quatorze._playouts": fair._compiled,
    "games.hearts._playouts": hearts._compiled,
}
if os.environ.get("CI") == "true" and None in HELPERS.values():
    missing = ", ".join(name for name, module in HELPERS.items() if module is None)
    pytest.fail(f"C helpers not built: {missing}; CI has a compiler", pytrace=False)


def needs(module: object) -> pytest.MarkDecorator:
    """Skip a test when its helper was not built."""
    return pytest.mark.skipif(module is None, reason="the C helper is not built")


# What a refusal may raise: the argument parser's TypeError and OverflowError, the helpers'
# ValueError, BufferError for a buffer that can not be read as flat bytes.
REFUSED = (TypeError, ValueError, OverflowError, BufferError)
FULL = 0xFFFFFFFF

# Numbers from everywhere: small, on the edges of C's int and long, far past them, negative.
EDGES = [0, 1, -1, 2**31 - 1, 2**31, -(2**31), 2**32 - 1, 2**32, 2**63 - 1, 2**63, 2**64, -(2**63)]
numbers = st.one_of(st.integers(-3, 40), st.sampled_from(EDGES), st.integers(-(2**80), 2**80))
# Anything a caller might pass by mistake.
junk = st.one_of(
    numbers,
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True),
    st.text(max_size=3),
    st.binary(max_size=6),
    st.lists(st.integers(-3, 3), max_size=3),
    st.tuples(numbers, numbers),
)
boards = st.one_of(st.integers(0, FULL), numbers)


@contextmanager
def refused_or_answered() -> Iterator[None]:
    """The call either returns (the body checks the answer) or raises a refusal."""
    with suppress(REFUSED):
        yield


# -- the checkers search (_core) ------------------------------------------------------------
core: Any = search._core
START = Board()._raw()


@contextmanager
def zobrist_restored() -> Iterator[None]:
    """Give the core back the search's Zobrist keys after calls to init()."""
    try:
        yield
    finally:
        search.init_core(core)


@needs(core)
@settings(max_examples=examples(150), deadline=None)
@given(boards, boards, boards, junk)
def test_core_move_lists_are_refused_or_equal_python(me: Any, opp: Any, kings: Any, black: Any):
    with refused_or_answered():
        got = core.moves(me, opp, kings, black)
        assert got == bb.gen_moves(me, opp, kings, bool(black))
    with refused_or_answered():
        assert core.perft(me, opp, kings, black, 1) == len(core.moves(me, opp, kings, black))


@needs(core)
@settings(max_examples=examples(100), deadline=None)
@given(st.one_of(st.integers(-(2**80), 3), st.integers(2**31, 2**80)))
def test_core_perft_refuses_a_negative_depth(depth: int):
    # (A depth from 4 up is valid and answered, only slowly: MAX_PLY plies of perft.)
    with refused_or_answered():
        got = core.perft(*START, depth)
        assert 0 <= depth <= 3
        assert got == bb.perft_raw(*START, depth)


@needs(core)
@settings(max_examples=examples(150), deadline=None)
@given(boards, boards, boards, st.one_of(st.integers(-2, 130), numbers))
def test_core_evaluation_is_refused_or_equals_python(me: Any, opp: Any, kings: Any, steps: Any):
    with refused_or_answered():
        got = core.features(me, opp, kings, True, steps)
        assert steps in (-1, bb.count_steps(me, opp, kings, True)) or 0 <= steps <= 128
        if steps == -1:
            assert got == ev.features(me, opp, kings, True)
    with refused_or_answered():
        assert core.patterns(me, opp, False) == ev.pattern_indices(me, opp, False)
    with refused_or_answered():
        got = core.evaluate(me, opp, kings, True, ev.ALL_WEIGHTS, steps)
        if steps == -1:
            assert got == ev.evaluate(me, opp, kings, True)


weight_lists = st.one_of(
    st.lists(st.integers(-(2**16), 2**16), min_size=core.NTERMS, max_size=core.NTERMS)
    if core
    else st.nothing(),
    st.lists(numbers, min_size=core.NTERMS, max_size=core.NTERMS) if core else st.nothing(),
    st.lists(st.integers(-3, 3), max_size=5),
    junk,
)


@needs(core)
@settings(max_examples=examples(100), deadline=None)
@given(weight_lists)
def test_core_weights_out_of_range_or_length_are_refused(weights: Any):
    with refused_or_answered():
        got = core.evaluate(*START, weights)
        assert len(weights) == core.NTERMS and all(abs(w) <= 2**16 for w in weights)
        assert got == ev.evaluate(*START, list(weights))


def _probe_answering(answer: Any) -> Callable[..., Any]:
    def probe(*_position: Any) -> Any:
        if answer == "raise":
            raise LookupError("the probe failed")
        return answer

    return probe


@needs(core)
@settings(max_examples=examples(120), deadline=None)
@given(
    path=st.one_of(st.lists(numbers, max_size=4), st.just([]), junk),
    clock=numbers,
    depth=numbers,
    threat=numbers,
    tt_bits=numbers,
    pieces=numbers,
    answer=st.one_of(st.none(), st.tuples(numbers, numbers), junk, st.just("raise")),
    scores=st.booleans(),
)
# a probe answering neither None nor a tuple once raised SystemError from PyArg_ParseTuple
@example(path=b"\x00", clock=0, depth=5, threat=0, tt_bits=0, pieces=1, answer=0, scores=False)
def test_core_search_arguments_out_of_range_are_refused(
    path: Any,
    clock: Any,
    depth: Any,
    threat: Any,
    tt_bits: Any,
    pieces: Any,
    answer: Any,
    scores: bool,
):
    # A position with few pieces, so that the probe is asked; a node limit keeps it short.
    me, opp, kings = 1 << 5 | 1 << 9, 1 << 22, 1 << 22
    options = {
        "limit": 300,
        "probe": _probe_answering(answer),
        "egdb_pieces": pieces,
        "threat_plies": threat,
        "tt_bits": tt_bits,
    }
    call = core.root_scores if scores else core.iterate
    try:
        got = call(me, opp, kings, True, path, clock, ev.ALL_WEIGHTS, depth, **options)
    except (*REFUSED, LookupError):
        return
    assert len(path) > 0 and 0 <= clock <= 2**20 and depth >= 0
    if scores:
        moves = bb.gen_moves(me, opp, kings, True)
        assert sorted(raw for _score, raw in got[0]) == sorted(moves)
    else:
        assert got[0] in bb.gen_moves(me, opp, kings, True)


@needs(core)
def test_core_refuses_an_empty_path_and_a_negative_clock():
    with pytest.raises(ValueError, match="path"):
        core.iterate(*START, [], 0, ev.ALL_WEIGHTS, 2)
    with pytest.raises(ValueError, match="clock"):
        core.iterate(*START, [1, 2, 3], -5, ev.ALL_WEIGHTS, 2)


def _keys(length: int, odd: Any) -> list[Any]:
    """``length`` Zobrist keys, the last one ``odd``."""
    keys: list[Any] = [k for colour in search.ZOBRIST for kind in colour for k in kind]
    return [*([*keys, 0])[: length - 1], odd]


@needs(core)
@settings(max_examples=examples(60), deadline=None)
@given(st.one_of(st.builds(_keys, st.integers(127, 129), numbers), junk), numbers)
def test_core_init_refuses_bad_keys_and_keeps_the_old_ones(keys: Any, red: Any):
    before = core.iterate(*START, [search.board_key(Board())], 0, ev.ALL_WEIGHTS, 3)
    with zobrist_restored():
        try:
            core.init(keys, red)
        except REFUSED:
            after = core.iterate(*START, [search.board_key(Board())], 0, ev.ALL_WEIGHTS, 3)
            assert after == before
            return
        assert len(keys) == 128


# -- the endgame database (_egdbcore) ---------------------------------------------------------
egdbcore: Any = egdb._egdbcore
LAYOUT3 = egdb.Layout(3)


@contextmanager
def layout_restored() -> Iterator[None]:
    """Give the probe back the real layout after calls to set_layout()."""
    try:
        yield
    finally:
        egdbcore.set_layout(egdb.Layout(egdb.MAX_PIECES).offsets(), egdb._DECODE, egdb._LOST)


def _tables() -> st.SearchStrategy[Any]:
    raw = st.binary(max_size=40)
    return st.one_of(
        raw,
        raw.map(bytearray),
        raw.map(memoryview),
        raw.map(lambda b: memoryview(b)[::2]),  # strided: not flat bytes
        junk,
    )


@needs(egdbcore)
@settings(max_examples=examples(200), deadline=None)
@given(_tables(), numbers, boards, boards, boards, junk)
def test_egdb_probe_is_refused_or_reads_inside_the_table(
    table: Any, pieces: Any, me: Any, opp: Any, kings: Any, black: Any
):
    with refused_or_answered():
        got = egdbcore.probe(table, pieces, me, opp, kings, black)
        assert got is None or got is egdb._LOST or got in egdb._DECODE


# A few entries of the real offsets changed to any number.
_changes = st.lists(st.tuples(st.integers(0, 4094), numbers), max_size=3)


def _offsets(length: int, changes: list[tuple[int, int]]) -> list[int]:
    """The 3-piece layout's offsets, cut or padded to ``length``, with ``changes`` made."""
    offsets = ([*LAYOUT3.offsets(), -1])[:length]
    for key, value in changes:
        offsets[key] = value
    return offsets


@needs(egdbcore)
def test_egdb_probe_refuses_a_released_view_and_overlapping_sides():
    view = memoryview(bytes(100))
    view.release()
    with pytest.raises(ValueError):
        egdbcore.probe(view, 5, 1, 2, 0, True)
    with pytest.raises(ValueError, match="disjoint"):
        egdbcore.probe(bytes(100), 5, 3, 2, 0, True)


@needs(egdbcore)
@settings(max_examples=examples(60), deadline=None)
@given(
    st.one_of(st.builds(_offsets, st.integers(4095, 4097), _changes), junk),
    st.one_of(st.integers(255, 257).map(lambda n: [None] * n), junk),
)
def test_egdb_set_layout_refuses_bad_input_and_keeps_the_old_layout(offsets: Any, decode: Any):
    table = bytes(range(256)) * 64
    position = (table, 3, 1 << 1, 1 << 30, 0, True)
    before = egdbcore.probe(*position)
    with layout_restored():
        try:
            egdbcore.set_layout(offsets, decode, egdb._LOST)
        except REFUSED:
            assert egdbcore.probe(*position) == before
            return
        assert len(offsets) == 4096 and len(decode) == 256


@needs(egdbcore)
def test_egdb_probe_reads_its_own_copy_of_the_decoded_values():
    decode = list(egdb._DECODE)
    with layout_restored():
        egdbcore.set_layout(egdb.Layout(egdb.MAX_PIECES).offsets(), decode, egdb._LOST)
        decode.clear()  # the caller's list shrinks; the probe must not index it
        table = bytes([255]) * egdb.Layout(3).size
        assert egdbcore.probe(table, 3, 1 << 1, 1 << 30, 0, True) == egdb._DECODE[255]


def _group_bounds(offsets: list[int], keys: list[int]) -> tuple[int, int]:
    """Where the group of these signature keys sits in the table: (start, end)."""
    sigs = [(k & 7, k >> 3 & 7, k >> 6 & 7, k >> 9 & 7) for k in keys]
    start = min(offsets[k] for k in keys)
    return start, start + sum(egdb.sig_size(s) for s in sigs)


@needs(egdbcore)
@settings(max_examples=examples(80), deadline=None)
@given(
    length=st.one_of(st.integers(0, LAYOUT3.size + 8), st.just(LAYOUT3.size)),
    changes=_changes,
    keys=st.one_of(
        st.lists(st.sampled_from([egdb.sig_key(s) for s in LAYOUT3.order]), min_size=1, max_size=2),
        st.lists(numbers, max_size=3),
        junk,
    ),
    fill=st.integers(0, 255),
    writable=st.booleans(),
)
def test_egdb_solver_is_refused_or_writes_only_its_group(
    length: int, changes: list[tuple[int, int]], keys: Any, fill: int, writable: bool
):
    offsets = _offsets(4096, changes)
    table = bytearray([fill]) * length
    before = bytes(table)
    try:
        egdbcore.solve_group(table if writable else before, offsets, keys)
    except REFUSED:
        return
    assert writable
    start, end = _group_bounds(offsets, list(keys))
    assert end <= length
    assert table[:start] == before[:start] and table[end:] == before[end:]


# -- the Quatorze playouts ----------------------------------------------------------------------
quatorze: Any = fair._compiled
MAX_SAMPLES = 1 << 24
samples = st.one_of(
    st.integers(-(2**80), -1), st.integers(0, 70), st.integers(MAX_SAMPLES + 1, 2**80)
)
node_limits = st.one_of(st.sampled_from([-5, 0, 50, 20_000]), st.integers(2**63, 2**80))
cards = st.binary(max_size=30)
quatorze_weights = st.one_of(st.tuples(numbers, numbers), st.just(fair.ROLLOUT_RATING), junk)


@needs(quatorze)
@settings(max_examples=examples(150), deadline=None)
@given(
    grid=st.one_of(cards, st.lists(st.integers(0, 13), min_size=25, max_size=25).map(bytes)),
    unseen=st.one_of(st.binary(max_size=60), st.lists(st.integers(1, 13), max_size=52).map(bytes)),
    moves=st.one_of(st.lists(st.tuples(numbers, numbers), max_size=3), junk),
    count=samples,
    seed=numbers,
    weights=quatorze_weights,
    limit=node_limits,
)
# a move that is not a tuple once raised SystemError from PyArg_ParseTuple
@example(grid=bytes(25), unseen=b"", moves=[0], count=0, seed=0, weights=(1, 2), limit=-5)
def test_quatorze_playouts_are_refused_or_one_bit_set_per_sample(
    grid: Any, unseen: Any, moves: Any, count: Any, seed: Any, weights: Any, limit: Any
):
    with refused_or_answered():
        got = quatorze.playouts(grid, unseen, moves, count, seed, weights, limit)
        assert len(got) == len(moves)
        assert all(len(bits) == (count + 63) // 64 * 8 for bits in got)
        assert all(int.from_bytes(bits, "little") < 1 << count for bits in got)


@needs(quatorze)
@settings(max_examples=examples(150), deadline=None)
@given(
    grid=st.one_of(cards, st.lists(st.integers(0, 13), min_size=25, max_size=25).map(bytes)),
    stock=st.one_of(st.binary(max_size=60), st.lists(st.integers(1, 13), max_size=52).map(bytes)),
    seed=numbers,
    weights=quatorze_weights,
    limit=node_limits,
)
def test_quatorze_rollout_is_refused_or_a_bool(
    grid: Any, stock: Any, seed: Any, weights: Any, limit: Any
):
    with refused_or_answered():
        assert quatorze.rollout(grid, stock, seed, weights, limit) in (True, False)


# -- the Hearts roll-outs -----------------------------------------------------------------------
hearts_core: Any = hearts._compiled
masks = st.one_of(st.integers(0, 2**52 - 1), numbers)


def _deal(seed: int) -> list[int]:
    """Four disjoint hands of 13 cards."""
    order = sorted(range(52), key=lambda c: (c * 7919 + seed * 104729) % 52)
    hands = [0] * 4
    for i, c in enumerate(order):
        hands[i % 4] |= 1 << c
    return hands


@needs(hearts_core)
@settings(max_examples=examples(150), deadline=None)
@given(
    rules=st.one_of(st.just(Rules()), junk),
    hands=st.one_of(st.integers(0, 50).map(_deal), st.lists(masks, min_size=3, max_size=5), junk),
    trick=st.one_of(st.lists(numbers, max_size=4), junk),
    leader=numbers,
    played=masks,
    points=st.one_of(st.lists(st.integers(-1, 27), min_size=3, max_size=5), junk),
    card=numbers,
    flags=st.tuples(junk, junk),
)
def test_hearts_play_out_is_refused_or_takes_every_point(
    rules: Any,
    hands: Any,
    trick: Any,
    leader: Any,
    played: Any,
    points: Any,
    card: Any,
    flags: Any,
):
    with refused_or_answered():
        got = hearts_core.play_out(rules, hands, trick, leader, played, points, *flags, card=card)
        assert len(got) == 4 and all(p >= 0 for p in got)
    with refused_or_answered():
        cards = [card, card] if isinstance(card, int) else card
        got = hearts_core.rollouts(
            rules, hands, trick, leader, played, points, *flags, cards, leader, 0.5
        )
        assert len(got) == len(cards)
