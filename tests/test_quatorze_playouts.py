"""The Quatorze hint's compiled playouts (``games/quatorze/_playouts.c``) against the Python
reference: the same shuffles, the same rollouts, the same wins, sample for sample.

Skipped when the module was not built (no C compiler at install time); under ``CI=true`` a
missing module fails instead, since CI always has a compiler.
"""

from __future__ import annotations

import os
import random

import pytest

from games.quatorze import State, fair
from games.quatorze.board import pairs, play

if fair._compiled is None and os.environ.get("CI") == "true":
    pytest.fail("the compiled Quatorze playouts were not built; CI has a compiler", pytrace=False)
pytestmark = pytest.mark.skipif(
    fair._compiled is None, reason="games.quatorze._playouts is not built (no C compiler)"
)


def _positions(count: int) -> list[State]:
    """Games in play at every stage, from random play (the stock from full to empty)."""
    found: list[State] = []
    seed = 0
    while len(found) < count:
        seed += 1
        s = State.new(seed=seed)
        rng = random.Random(seed)
        for _ in range(seed % 15):
            moves = [a for a in s.legal_actions(0) if a != "give-up"]
            if s.is_over() or not moves:
                break
            s.apply(0, rng.choice(moves))
        if not s.is_over() and s.pairs():
            found.append(s)
    return found


def _compiled(*args: object) -> list[int]:
    assert fair._compiled is not None
    raw = fair._compiled.playouts(*args)
    return [int.from_bytes(bits, "little") for bits in raw]


def test_the_compiled_playouts_win_the_same_samples_as_the_python_ones() -> None:
    stocks = set()
    for n, s in enumerate(_positions(45)):
        grid, unseen = s.values(), s.unseen_values()
        stocks.add(len(unseen))
        moves = pairs(grid)
        if len(unseen) == 1:  # with one card left the two orders of a pair differ
            moves += [(b, a) for a, b in moves]
        weights = fair.ROLLOUT_RATING if n % 3 else (3, 5)  # other weights: the same answers
        expected = fair.playouts_python(grid, unseen, moves, 40, n, weights=weights)
        got = _compiled(bytes(grid), bytes(unseen), moves, 40, n, weights, 20_000)
        assert got == expected
    assert len(stocks) >= 8  # from the full stock down to an empty one


def test_more_than_64_samples_keep_their_bits_in_order() -> None:
    s = _positions(3)[2]
    grid, unseen = s.values(), s.unseen_values()
    moves = pairs(grid)
    expected = fair.playouts_python(grid, unseen, moves, 150, seed=9)
    assert fair.playouts(grid, unseen, moves, 150, seed=9) == expected
    assert all(bits < 1 << 150 for bits in expected)


def test_a_sample_is_won_only_by_a_move_that_clears_that_order() -> None:
    # Replay the first sample's shuffle by hand: a move won exactly when the rollout after it
    # clears the grid with that stock order.
    s = _positions(5)[4]
    grid, unseen = s.values(), s.unseen_values()
    moves = pairs(grid)
    won = fair.playouts(grid, unseen, moves, 1, seed=77)
    rng = fair.SplitMix(77)
    stock = list(unseen)
    rng.shuffle(stock)
    policy = rng.next()
    for (a, b), bits in zip(moves, won, strict=True):
        child, top = play(grid, stock, 0, a, b)
        expected = fair.rollout(child, stock, top, fair.SplitMix(policy), fair.Endgame())
        assert bool(bits & 1) == expected


def test_a_compiled_rollout_plays_the_given_order_as_the_python_one() -> None:
    assert fair._compiled is not None
    for seed in range(40):
        s = State.new(seed=seed)
        grid, stock = s.values(), [int(c.rank) for c in s.stock]
        expected = fair.rollout(grid, stock, 0, fair.SplitMix(seed), fair.Endgame())
        got = fair._compiled.rollout(bytes(grid), bytes(stock), seed, fair.ROLLOUT_RATING, 20_000)
        assert got is expected


def test_bad_input_is_refused_not_crashed_on() -> None:
    assert fair._compiled is not None
    grid = bytes(State.new(seed=3).values())
    pool = bytes(State.new(seed=3).unseen_values())
    a, b = pairs(grid)[0]
    for args in (
        (grid[:24], pool, [(a, b)]),  # a short grid
        (grid, pool + bytes([14]), [(a, b)]),  # a value that is no card
        (grid, pool, [(a, a)]),  # one cell twice
        (grid, pool, [(a, 25)]),  # off the grid
        (grid, pool * 2, [(a, b)]),  # more unseen cards than a deck holds
    ):
        with pytest.raises(ValueError):
            fair._compiled.playouts(*args, 4, 1, fair.ROLLOUT_RATING, 1000)


def test_the_switch_forces_the_python_playouts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(fair.CORE_ENV, raising=False)
    assert fair.compiled_available()
    monkeypatch.setenv(fair.CORE_ENV, "python")
    assert not fair.compiled_available()
    s = State.new(seed=4)
    grid, unseen = s.values(), s.unseen_values()
    moves = pairs(grid)
    assert fair.playouts(grid, unseen, moves, 8, 1) == fair.playouts_python(
        grid, unseen, moves, 8, 1
    )
