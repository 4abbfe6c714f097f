"""The fair Quatorze hint: it never uses the stock's order, its exact expectation matches a
brute force over the orders, and it is decided by a fixed sample count (``limit``), not a clock.
"""

from __future__ import annotations

import random
from itertools import permutations

from games.cards import Card, full_deck
from games.quatorze import State, Status, Suggestion, choose, format_move, hint, suggest
from games.quatorze.board import pairs, play
from games.quatorze.fair import (
    Endgame,
    Expectation,
    SplitMix,
    options,
    playouts,
    ranked,
    rollout,
)
from games.quatorze.solver import solve

SAMPLES = 16


def _advance(seed: int, moves: int) -> State:
    """A game ``moves`` random pairs in (fewer if it ends)."""
    s = State.new(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        pair_moves = [a for a in s.legal_actions(0) if a != "give-up"]
        if not pair_moves:
            break
        s.apply(0, rng.choice(pair_moves))
    return s


def _positions_with_stock(left: int, count: int) -> list[State]:
    """Games in play with ``left`` cards in the stock, from random play."""
    found: list[State] = []
    seed = 0
    while len(found) < count:
        seed += 1
        s = State.new(seed=seed)
        rng = random.Random(seed)
        while not s.is_over() and len(s.stock) > left:
            s.apply(0, rng.choice([a for a in s.legal_actions(0) if a != "give-up"]))
        if not s.is_over() and len(s.stock) == left:
            found.append(s)
    return found


def _position(grid: list[int], stock: list[int]) -> State:
    """A game in play with these values on the grid (0: empty) and in the stock; the suits are
    dealt out in order and every other card counts as removed."""
    left = {v: [c for c in full_deck() if int(c.rank) == v] for v in range(1, 14)}
    cards: list[Card | None] = [left[v].pop() if v else None for v in grid]
    stock_cards = [left[v].pop() for v in stock]
    removed = [c for v in range(1, 14) for c in left[v]]
    deck = [c for c in cards if c is not None] + stock_cards + removed
    return State(
        seed=0,
        winnable=False,
        deck=deck,
        grid=cards,
        stock=stock_cards,
        removed=removed,
        moves=[],
        status=Status.PLAYING,
    )


def _counts(values: list[int]) -> list[int]:
    counts = [0] * 15
    for v in values:
        counts[v] += 1
    return counts


def test_the_hint_is_the_same_for_every_order_of_the_stock() -> None:
    games = [_advance(seed, moves) for seed, moves in ((3, 0), (8, 4), (21, 7), (30, 10))]
    for s in games + _positions_with_stock(5, 2) + _positions_with_stock(3, 1):
        if s.is_over():
            continue
        first = hint(s, seed=4, limit=SAMPLES)
        for order in range(3):
            other = State.from_dict(s.to_dict())
            random.Random(order).shuffle(other.stock)
            assert hint(other, seed=4, limit=SAMPLES) == first
            assert first in s.legal_actions(0)


def test_three_cards_left_the_exact_expectation_is_the_mean_over_their_orders() -> None:
    # The stock always holds an odd number of cards. With three left, a move draws two and the
    # last card is then known by elimination: nothing is hidden after this move, so the exact
    # chance is the average, over the stock's orders, of what the solver says after it.
    for s in _positions_with_stock(3, 5):
        grid = s.values()
        stock = [int(c.rank) for c in s.stock]
        chances = Expectation(Endgame(node_limit=10**6))
        for a, b in options(grid, 3):
            brute = []
            for order in permutations(stock):
                child, top = play(grid, order, 0, a, b)
                brute.append(solve(child, order, top, node_limit=10**6).won)
            assert abs(chances.move(grid, a, b, _counts(stock), 3) - sum(brute) / 6) < 1e-12


def test_the_endgame_check_agrees_with_the_solver() -> None:
    # Closed-up grids once the stock is gone, from random play: won or not, as the solver says.
    checked = 0
    for seed in range(60):
        s = State.new(seed=seed)
        rng = random.Random(seed)
        while not s.is_over() and s.stock:
            s.apply(0, rng.choice([a for a in s.legal_actions(0) if a != "give-up"]))
        if s.is_over():
            continue
        grid = s.values()
        assert Endgame(node_limit=10**6).won(grid) == solve(grid, (), 0, node_limit=10**6).won
        checked += 1
    assert checked >= 20


def test_a_rollout_plays_legal_pairs_and_wins_only_what_it_clears() -> None:
    # The rollout keeps its pairs up to date move by move: replay the moves it reports.
    for seed in range(30):
        s = State.new(seed=seed)
        grid, stock = s.values(), tuple(int(c.rank) for c in s.stock)
        path: list[tuple[int, int]] = []
        won = rollout(grid, stock, 0, SplitMix(seed), Endgame(), path=path)
        top = 0
        for a, b in path:
            assert (min(a, b), max(a, b)) in pairs(grid)
            grid, top = play(grid, stock, top, a, b)
        if top < len(stock):  # it stopped for want of a pair
            assert not won and not pairs(grid)
        else:
            assert won == solve(grid, (), 0, node_limit=10**6).won


def test_one_card_left_both_orders_of_a_pair_are_told_apart() -> None:
    for s in _positions_with_stock(1, 3):
        grid = s.values()
        assert len(options(grid, 1)) == 2 * len(pairs(grid))
        assert len(options(grid, 3)) == len(pairs(grid))


def test_the_exact_chance_of_a_position_is_its_best_move() -> None:
    for s in _positions_with_stock(3, 4):
        grid, counts = s.values(), _counts([int(c.rank) for c in s.stock])
        chances = Expectation(Endgame())
        best = max(chances.move(grid, a, b, counts, 3) for a, b in options(grid, 3))
        assert chances.position(grid, counts, 3) == best
        assert 0.0 <= best <= 1.0


def test_the_best_rated_move_keeps_a_pair_for_later() -> None:
    # Row 1 is ace, king, king: the ace in cell 1 pairs with both kings, and the king in
    # cell 3 also with the ace in cell 8 below it. Taking cells 1 and 2 leaves 3-8; taking
    # 1 and 3 leaves nothing.
    grid = (1, 13, 13, 0, 0) + (0, 0, 1) + (0,) * 17
    assert pairs(grid) == [(0, 1), (0, 2), (2, 7)]
    assert ranked(grid, [0] * 15, 0)[0] == (0, 1)


def test_with_the_stock_gone_it_finds_the_only_pair_that_clears_the_grid() -> None:
    # Twelve cards, four pairs (cells 1-11, 2-7, 5-10, 6-9): only taking 9 and 5 first clears.
    s = _position([9, 2, 13, 11, 10, 6, 12, 3, 8, 4, 5, 1] + [0] * 13, [])
    grid = s.values()
    assert sorted(s.legal_actions(0)) == sorted(["1-11", "2-7", "5-10", "6-9", "give-up"])
    for a, b in pairs(grid):
        clears = solve(play(grid, (), 0, a, b)[0], ()).won
        assert clears == ((a, b) == (0, 10))
    assert hint(s, seed=1, limit=SAMPLES) == "1-11"


def test_with_one_card_left_it_finds_the_only_order_that_clears_the_grid() -> None:
    # The last card (a 9) goes to the first cell named. The rating likes cells 3 and 5 best,
    # but only 25-21 (the 9 into cell 25) leaves a grid that can be cleared.
    grid = [6, 2, 5, 7, 9, 6, 3, 6, 10, 3, 12, 5, 11, 8, 1, 7, 5, 13, 8, 8, 12, 4, 11, 9, 2]
    s = _position(grid, [9])
    counts = _counts([9])
    assert ranked(s.values(), counts, 1)[0] == (2, 4)
    chances = Expectation(Endgame())
    for a, b in options(s.values(), 1):
        assert chances.move(s.values(), a, b, counts, 1) == (1.0 if (a, b) == (24, 20) else 0.0)
    assert hint(s, seed=1, limit=SAMPLES) == "25-21"


def test_the_hints_chance_with_three_cards_left_is_the_exact_expectation() -> None:
    for s in _positions_with_stock(3, 4):
        found = suggest(s, seed=1, limit=SAMPLES)
        grid, counts = s.values(), _counts([int(c.rank) for c in s.stock])
        assert found.orders == 0
        assert found.chance == Expectation(Endgame()).position(grid, counts, 3)
        assert format_move(*found.move) == hint(s, seed=1, limit=SAMPLES)


def test_with_the_stock_gone_the_hints_chance_is_certain_either_way() -> None:
    clears = _position([9, 2, 13, 11, 10, 6, 12, 3, 8, 4, 5, 1] + [0] * 13, [])
    assert suggest(clears, seed=1, limit=SAMPLES) == Suggestion((0, 10), 1.0)
    # An ace, a king, an ace and a 5: either pair leaves an ace and a 5, which never pair.
    stuck = _position([1, 13, 1, 5] + [0] * 21, [])
    found = suggest(stuck, seed=1, limit=SAMPLES)
    assert found.chance == 0.0 and found.move in pairs(stuck.values())


def test_the_hints_chance_is_the_share_of_sampled_orders_its_move_cleared() -> None:
    for s in _positions_with_stock(15, 6):
        found = suggest(s, seed=3, limit=64)
        assert format_move(*found.move) == hint(s, seed=3, limit=64)
        assert 0 < found.orders <= 64 and found.chance is not None
        assert (found.chance * found.orders).is_integer()
    # A forced move is measured too, on the sample count asked for.
    forced = next(s for s in _positions_with_stock(9, 200) if len(pairs(s.values())) == 1)
    found = suggest(forced, seed=7, limit=SAMPLES)
    (won,) = playouts(forced.values(), forced.unseen_values(), [found.move], SAMPLES, 7)
    assert found.orders == SAMPLES and found.chance == won.bit_count() / SAMPLES
    assert hint(forced, seed=7, limit=SAMPLES) == format_move(*found.move)


def test_a_fixed_sample_count_makes_the_choice_reproducible() -> None:
    s = _advance(12, 3)
    answers = {choose(s, 0, "best", 0.0, seed=9, limit=SAMPLES) for _ in range(3)}
    assert len(answers) == 1 and answers <= set(s.legal_actions(0))


def test_the_fair_hint_clears_more_deals_than_random_play() -> None:
    deals = range(40)
    won = {"best": 0, "casual": 0}
    for level in won:
        for seed in deals:
            s = State.new(seed=seed)
            while not s.is_over():
                s.apply(0, choose(s, 0, level, 0.0, seed=seed + len(s.moves), limit=8))
            won[level] += s.score == 52
    assert won["best"] >= won["casual"] + 4
