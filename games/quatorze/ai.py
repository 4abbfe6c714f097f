"""The hint (and the computer's play): the best move from what the player can see.

The player sees the grid, how many cards are left in the stock and the cards already removed,
so the stock holds exactly the unseen cards, in an unknown order. The hint never uses that
order (a determinised solver that did would believe every move wins):

- with the stock gone nothing is hidden, and the solver decides exactly;
- with a few cards left (``EXACT_STOCK``) it takes the exact expectation over their orders;
- otherwise it rates the moves (the pairs they leave, the pairs their refills should make)
  and plays the best-rated ones (up to ``CANDIDATES``) out on up to ``samples`` sampled orders
  of the unseen cards, every move on the same orders, with the same blind rating after it
  (``fair.playouts``, compiled when a C compiler was present at install time: about 40 times
  the Python rate, so thousands of orders fit in the budget). It drops the moves clearly
  behind, stops early when every move left clears every order (nothing to choose), and leaves
  the best-rated move only for one clearly ahead (``SWITCH_Z``): a handful of samples must not
  overrule the rating by luck.

The losses are full grids without a pair while the stock lasts, prepared many moves before, so
the search runs at every decision, not only when pairs run short.

``suggest`` also says how likely the move is to clear the grid (``Suggestion``): exact with the
stock gone or nearly gone, otherwise the share of the sampled orders that the move and the
rating's play after it cleared (a little below what best play would clear).

>>> from games.quatorze.state import State
>>> s = State.new(seed=5)
>>> choose(s, 0, "best", 0.1, seed=1, limit=8) in s.legal_actions(0)
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from games.base import N_, IllegalAction
from games.quatorze.board import pairs, play
from games.quatorze.fair import (
    Endgame,
    Expectation,
    Move,
    compiled_available,
    playouts,
    ranked,
)
from games.quatorze.solver import solve
from games.quatorze.state import State, format_move

LEVELS: tuple[str, ...] = ("casual", "best")

# With a time budget, sampled stock orders at most per second of it and in all (the deadline
# usually ends the search first when it is not sure sooner): compiled playouts, Python ones.
SAMPLES_PER_SECOND = {True: 8000, False: 400}
MAX_SAMPLES = {True: 4000, False: 1000}
EXACT_STOCK = 3  # with this many cards or fewer in the stock, the exact expectation
CANDIDATES = 16  # the best-rated moves that are played out (a grid rarely has more pairs)
SAFE_SAMPLES = 32  # every candidate cleared the grid this many times out of as many: stop
CHECK_EVERY = 16  # samples between two looks at the counts (stop early, drop the worst)
DROP_Z = 2.5  # drop a move this many standard errors behind the leader (paired outcomes)
SWITCH_Z = 1.5  # leave the best-rated move only for one this many standard errors ahead
EXACT_NODE_LIMIT = 200_000  # with the stock gone nothing is hidden: search deeper
FORCED_SAMPLES = 256  # sampled orders that measure the chance of a forced move (``suggest``)


@dataclass(frozen=True, slots=True)
class Suggestion:
    """The hint's move and its chance of clearing the grid.

    ``chance`` is exact when ``orders`` is 0 (the stock gone, or ``EXACT_STOCK`` cards or
    fewer in it): the chance with best play over every order of the stock. Otherwise it is the
    share of ``orders`` sampled orders that the move, and the rating's play after it, cleared.
    ``None`` when nothing measured it (no samples allowed, a forced move left unmeasured, or an
    endgame too big to settle).
    """

    move: Move
    chance: float | None
    orders: int = 0


def best_move(
    grid: tuple[int, ...],
    unseen: Sequence[int],
    stock_count: int,
    samples: int,
    seed: int,
    deadline: float | None = None,
    candidates: int = CANDIDATES,
) -> Move:
    """The hint's move on a value grid, with ``unseen`` the values that make up the stock."""
    return _suggestion(grid, unseen, stock_count, samples, seed, deadline, candidates).move


def _suggestion(
    grid: tuple[int, ...],
    unseen: Sequence[int],
    stock_count: int,
    samples: int,
    seed: int,
    deadline: float | None = None,
    candidates: int = CANDIDATES,
    forced_orders: int = 0,
) -> Suggestion:
    """:func:`best_move` with its chance; a forced move is measured on ``forced_orders``
    sampled orders (none: no chance, the computer's own play does not need it)."""
    if len(unseen) != stock_count:
        raise ValueError("the unseen cards are the stock")
    if not pairs(grid):
        raise ValueError("no move")
    if stock_count == 0:
        return _exact(grid)
    counts = [0] * 15
    for v in unseen:
        counts[v] += 1
    moves = ranked(grid, counts, stock_count)
    if len(moves) == 1 and forced_orders <= 0:
        return Suggestion(moves[0], None)
    if stock_count <= EXACT_STOCK:
        chances = Expectation(Endgame())
        values = [chances.move(grid, a, b, counts, stock_count) for a, b in moves]
        best = max(range(len(moves)), key=lambda i: (values[i], -i))
        return Suggestion(moves[best], values[best])
    if len(moves) == 1:
        won = playouts(grid, unseen, moves, forced_orders, seed)[0].bit_count()
        return Suggestion(moves[0], won / forced_orders, forced_orders)
    if samples <= 0:
        return Suggestion(moves[0], None)
    best, wins, done = _played_out(grid, moves[:candidates], unseen, samples, seed, deadline)
    return Suggestion(moves[best], wins / done, done)


def _played_out(
    grid: tuple[int, ...],
    moves: Sequence[Move],
    unseen: Sequence[int],
    samples: int,
    seed: int,
    deadline: float | None,
) -> tuple[int, int, int]:
    """The index of the move that clears the grid in the most sampled stock orders, with the
    orders it cleared and the orders played.

    Every move is played out on the same orders, with the same blind play after it (common
    random numbers), so two moves differ only where one wins and the other loses. The orders
    come in batches of ``CHECK_EVERY``; after each, a move that falls ``DROP_Z`` standard
    errors of those differences behind the leader is dropped, and when every move still in has
    won every order so far (``SAFE_SAMPLES``), the best-rated one is as good as any and the
    search stops. Ties go to the better-rated move.
    """
    rng = random.Random(seed)
    alive = list(range(len(moves)))
    wins = [0] * len(moves)
    record = [0] * len(moves)  # bit k set: the move won on sample k
    done = 0
    while done < samples:
        if deadline is not None and done > 0 and time.monotonic() > deadline:
            break
        batch = min(CHECK_EVERY, samples - done)
        won = playouts(grid, unseen, [moves[i] for i in alive], batch, rng.getrandbits(64))
        for i, bits in zip(alive, won, strict=True):
            wins[i] += bits.bit_count()
            record[i] |= bits << done
        done += batch
        if done >= SAFE_SAMPLES and all(wins[i] == done for i in alive):
            break
        lead = max(alive, key=lambda i: (wins[i], -i))
        alive = [i for i in alive if i == lead or _close(wins, record, lead, i, DROP_Z)]
        if len(alive) == 1:
            break
    lead = max(alive, key=lambda i: (wins[i], -i))
    rated = min(alive)
    best = rated if _close(wins, record, lead, rated, SWITCH_Z) else lead
    return best, wins[best], done


def _close(wins: list[int], record: list[int], lead: int, other: int, z: float) -> bool:
    """``other`` is within ``z`` standard errors of ``lead`` (over the samples where just one
    of the two won)."""
    differ = (record[lead] ^ record[other]).bit_count()
    return wins[lead] - wins[other] <= z * math.sqrt(differ)


def _exact(grid: tuple[int, ...]) -> Suggestion:
    """Nothing hidden: the first pair that still clears the grid, else the one that goes
    furthest (chance 0 when the solver settled every pair, else unknown)."""
    found = pairs(grid)
    end = Endgame(node_limit=EXACT_NODE_LIMIT)  # the fast check first, shared dead ends
    for a, b in found:
        if end.won(play(grid, (), 0, a, b)[0]):
            return Suggestion((a, b), 1.0)
    best, most, settled = found[0], -1, True
    for a, b in found:
        child, _ = play(grid, (), 0, a, b)
        result = solve(child, (), 0, node_limit=EXACT_NODE_LIMIT)
        if result.won:
            return Suggestion((a, b), 1.0)
        settled = settled and result.complete
        if result.pairs > most:
            best, most = (a, b), result.pairs
    return Suggestion(best, 0.0 if settled else None)


def hint(state: State, budget: float = 0.5, seed: int = 0, *, limit: int | None = None) -> str:
    """The move the AI would make, from what the player can see (never the stock order).

    ``limit`` fixes the number of sampled stock orders (tests, benchmarks); otherwise the
    search samples until ``budget`` seconds have passed (or it is sure sooner).
    """
    a, b = suggest(state, budget, seed, limit=limit, forced_orders=0).move
    return format_move(a, b)


def suggest(
    state: State,
    budget: float = 0.5,
    seed: int = 0,
    *,
    limit: int | None = None,
    forced_orders: int | None = None,
) -> Suggestion:
    """:func:`hint`'s move with its chance of clearing the grid (the player's Hint shows both).
    A forced move is measured on ``forced_orders`` sampled orders (by default
    ``FORCED_SAMPLES``, or ``limit`` if fewer; 0: not measured, as the computer's own play)."""
    if forced_orders is None:
        forced_orders = FORCED_SAMPLES if limit is None else min(FORCED_SAMPLES, limit)
    legal = state.legal_actions(0)
    if not [a for a in legal if a != "give-up"]:
        raise IllegalAction(N_("There is no pair to take."))
    if limit is not None:
        samples, deadline = limit, None
    else:
        fast = compiled_available()
        samples = min(MAX_SAMPLES[fast], max(16, round(budget * SAMPLES_PER_SECOND[fast])))
        deadline = time.monotonic() + budget
    return _suggestion(
        state.values(),
        state.unseen_values(),
        len(state.stock),
        samples,
        seed,
        deadline,
        forced_orders=forced_orders,
    )


def choose(
    state: State,
    seat: int = 0,
    level: str = "best",
    budget: float = 0.5,
    seed: int = 0,
    *,
    limit: int | None = None,
) -> str:
    """A legal action: ``best`` follows the hint; ``casual`` takes a random pair."""
    legal = state.legal_actions(seat)
    if not legal:
        raise IllegalAction(N_("This game is over."))
    pair_moves = [a for a in legal if a != "give-up"]
    if not pair_moves:
        return "give-up"
    if level == "best":
        return hint(state, budget, seed, limit=limit)
    return random.Random(seed).choice(pair_moves)
