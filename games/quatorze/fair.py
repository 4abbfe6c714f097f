"""The fair hint's parts: what a move is worth to a player who knows the stock's contents
(the unseen values, as counts) but not its order.

While the stock lasts, a card stays in its cell until it is taken, so the game is lost when the
grid runs out of pairs with the stock still full. ``score`` rates a move by the pairs it leaves
and the new pairs its two refills can be expected to make; ``greedy`` plays the best-rated move.
``Expectation`` is the exact chance over every order of a small stock (the endgame, once the
stock is gone, solved exactly by ``Endgame``), and ``rollout`` plays one sampled order out with
``greedy``'s rating.

The two cells of a move are refilled by the stock's next two cards, which are exchangeable to a
player who does not know the order: ``3-18`` and ``18-3`` are worth the same, except with one
card left, which only the first cell gets.

>>> grid = (1, 13, 5, 0, 0) + (13,) + (0,) * 19
>>> counts = [0] * 15
>>> counts[9] = counts[1] = 1
>>> options(grid, 2)
[(0, 1), (0, 5)]

Taking cells 1 and 2 leaves no pair; each of the two unseen cards (a 9 and an ace) would pair
with the 5 or the king beside the refilled cells: 3 pairs in all, expected 3 / 2 each card.

>>> score(grid, pairs(grid), 0, 1, counts, 2) == REFILL_WEIGHT * 3 / 2
True
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from games.quatorze.board import CELLS, LINE_PAIRS, LINES, TARGET, pairs, play

# Each cell's line-mates: the other cells of its row and of its column.
MATES = tuple(
    tuple(sorted({c for line in LINES if i in line for c in line if c != i})) for i in range(CELLS)
)
# How much an expected new pair from the refills counts against a pair left on the grid (the
# best weight of those tried on the rating's own play: docs/quatorze-hint.md).
REFILL_WEIGHT = 2
ENDGAME_NODES = 20_000
# The rollouts' rating in whole numbers (``score`` times the cards left): the weights of the
# pairs left and of the pairs the refills should make, tuned on the win rate of 100,000 deals
# (docs/quatorze-hint.md has the weights and terms that did no better).
ROLLOUT_RATING = (1, REFILL_WEIGHT)
# Each cell's line-mates with the key of the pair they make (``a * CELLS + b``, a < b).
MATE_KEYS = tuple(tuple((m, min(c, m) * CELLS + max(c, m)) for m in MATES[c]) for c in range(CELLS))

Move = tuple[int, int]


def options(grid: Sequence[int], stock_left: int) -> list[Move]:
    """The moves worth telling apart: one order per pair, both with a single card left."""
    found = pairs(grid)
    if stock_left == 1:
        return [m for a, b in found for m in ((a, b), (b, a))]
    return found


def score(
    grid: Sequence[int], found: Sequence[Move], a: int, b: int, counts: Sequence[int], left: int
) -> float:
    """Pairs left after taking ``a`` and ``b`` plus the pairs their refills should make."""
    rest = sum(1 for p, q in found if p != a and p != b and q != a and q != b)
    if left == 0:
        return float(rest)
    expected = 0
    for cell in (a, b):
        for mate in MATES[cell]:
            if mate != a and mate != b and grid[mate]:
                expected += counts[TARGET - grid[mate]]
    return rest + REFILL_WEIGHT * expected / left


def ranked(grid: Sequence[int], counts: Sequence[int], left: int) -> list[Move]:
    """The options, best-rated first (ties keep the board's order)."""
    found = pairs(grid)
    opts = options(grid, left)
    return sorted(opts, key=lambda m: -score(grid, found, m[0], m[1], counts, left))


def greedy(grid: Sequence[int], counts: Sequence[int], left: int, rng: random.Random) -> Move:
    """The best-rated move, ties broken at random (``grid`` must have a pair)."""
    found = pairs(grid)
    best: Move = found[0]
    top = -1.0
    for a, b in found:
        value = score(grid, found, a, b, counts, left) + rng.random() * 1e-6
        if value > top:
            best, top = (a, b), value
    return best


class Endgame:
    """Exact answers once the stock is gone (nothing is hidden then), remembered by grid.

    A depth-first search that takes the first pair it meets and backs up from dead ends; the
    dead ends are remembered across questions (the same grids come back from other orders).
    """

    def __init__(self, node_limit: int = ENDGAME_NODES) -> None:
        self.node_limit = node_limit
        self.known: dict[tuple[int, ...], bool] = {}
        self.nodes = 0

    def won(self, grid: tuple[int, ...]) -> bool:
        """The grid (closed up, empty cells last) can be cleared; a search cut off by the node
        limit counts as a loss."""
        found = self.known.get(grid)
        if found is None:
            self.nodes = 0
            try:
                found = self._clears(grid)
            except _Cutoff:
                found = False
            self.known[grid] = found
        return found

    def _clears(self, grid: tuple[int, ...]) -> bool:
        if not grid[0]:
            return True
        found = self.known.get(grid)
        if found is not None:
            return found
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise _Cutoff
        for a, b in LINE_PAIRS:
            va = grid[a]
            if va and va + grid[b] == TARGET:
                cells = list(grid)
                del cells[b]
                del cells[a]
                cells += (0, 0)
                if self._clears(tuple(cells)):
                    return True
            elif not va:
                break
        self.known[grid] = False
        return False


class _Cutoff(Exception):
    pass


class Expectation:
    """Exact win chances over every order of a small stock (counts of values, 1..13)."""

    def __init__(self, end: Endgame) -> None:
        self.end = end
        self.memo: dict[tuple[tuple[int, ...], tuple[int, ...]], float] = {}

    def position(self, grid: tuple[int, ...], counts: list[int], left: int) -> float:
        """The chance of clearing ``grid`` with best play, the stock's order unknown."""
        if left == 0:
            return 1.0 if self.end.won(grid) else 0.0
        key = (grid, tuple(counts))
        known = self.memo.get(key)
        if known is not None:
            return known
        best = 0.0
        for a, b in options(grid, left):
            best = max(best, self.move(grid, a, b, counts, left))
            if best == 1.0:
                break
        self.memo[key] = best
        return best

    def move(self, grid: tuple[int, ...], a: int, b: int, counts: list[int], left: int) -> float:
        """The chance after taking ``a`` then ``b``, averaged over the next one or two cards."""
        total = 0.0
        for x in range(1, 14):
            cx = counts[x]
            if not cx:
                continue
            counts[x] -= 1
            if left == 1:
                child, _ = play(grid, (x,), 0, a, b)
                total += cx / left * self.position(child, counts, 0)
            else:
                for y in range(1, 14):
                    cy = counts[y]
                    if not cy:
                        continue
                    counts[y] -= 1
                    child, _ = play(grid, (x, y), 0, a, b)
                    total += cx * cy / (left * (left - 1)) * self.position(child, counts, left - 2)
                    counts[y] += 1
            counts[x] += 1
        return total


class SplitMix:
    """A small seeded generator (SplitMix64) that the compiled playouts repeat exactly, so the
    compiled and the Python playouts agree sample for sample."""

    MASK = (1 << 64) - 1

    def __init__(self, seed: int) -> None:
        self.state = seed & self.MASK

    def next(self) -> int:
        """The next 64-bit number."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & self.MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & self.MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & self.MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A number in ``0..n-1`` (n small: the bias is negligible)."""
        return self.next() % n

    def shuffle(self, cards: list[int]) -> None:
        """Fisher-Yates, last place first."""
        for i in range(len(cards) - 1, 0, -1):
            j = self.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]


def rollout(
    grid: Sequence[int],
    stock: Sequence[int],
    top: int,
    rng: SplitMix,
    end: Endgame,
    weights: Sequence[int] = ROLLOUT_RATING,
    path: list[Move] | None = None,
) -> bool:
    """Play one stock order out with ``greedy``'s rating (blind to the order), then the exact
    endgame. The pairs and how many each cell is in are kept up to date move by move; values
    are whole numbers (the rating times the cards left), ties are broken by ``rng``, and the two
    cells of a move are taken in a random order while more than two cards are left (they are
    worth the same then). ``path``, if given, receives the moves played (tests)."""
    g = list(grid)
    n = len(stock)
    counts = [0] * 15
    for v in stock[top:]:
        counts[v] += 1
    found: set[int] = set()  # pairs as keys a * CELLS + b
    deg = [0] * CELLS
    for a, b in pairs(g):
        found.add(a * CELLS + b)
        deg[a] += 1
        deg[b] += 1
    w_pairs, w_refill = weights
    while True:
        left = n - top
        if left == 0:
            filled = [v for v in g if v]
            return end.won(tuple(filled + [0] * (CELLS - len(filled))))
        if not found:
            return False
        total = len(found)
        # need[c]: stock cards that would pair with the card in c; near[c]: that summed over
        # c's line-mates, the refill that c's cell can expect to pair.
        need = [counts[TARGET - v] for v in g]
        near: dict[int, int] = {}
        best: Move = (0, 0)
        top_value = -1
        ties = 0
        for key in sorted(found):
            a, b = divmod(key, CELLS)
            na = near.get(a)
            if na is None:
                na = near[a] = sum(map(need.__getitem__, MATES[a]))
            nb = near.get(b)
            if nb is None:
                nb = near[b] = sum(map(need.__getitem__, MATES[b]))
            rest = total - deg[a] - deg[b] + 1
            base = w_pairs * rest * left
            choices: tuple[tuple[int, int, int], ...]
            if left == 1:  # the one card goes to the first cell: both orders differ
                choices = (
                    (a, b, base + w_refill * (na - need[b])),
                    (b, a, base + w_refill * (nb - need[a])),
                )
            else:
                choices = ((a, b, base + w_refill * (na + nb - need[a] - need[b])),)
            for x, y, value in choices:
                if value > top_value:
                    best, top_value, ties = (x, y), value, 1
                elif value == top_value:
                    ties += 1
                    if rng.below(ties) == 0:
                        best = (x, y)
        a, b = best
        if left > 2 and rng.next() & 1:
            a, b = b, a
        if path is not None:
            path.append((a, b))
        if left <= 2:  # the stock runs out: the cards close up, and nothing is hidden
            grid_t, top = play(g, stock, top, a, b)
            return end.won(grid_t)
        for c in (a, b):
            for m, key in MATE_KEYS[c]:
                if key in found:
                    found.remove(key)
                    deg[c] -= 1
                    deg[m] -= 1
        va, vb = stock[top], stock[top + 1]
        top += 2
        counts[va] -= 1
        counts[vb] -= 1
        g[a], g[b] = va, vb
        for c in (a, b):
            want = TARGET - g[c]
            for m, key in MATE_KEYS[c]:
                if g[m] == want and key not in found:
                    found.add(key)
                    deg[c] += 1
                    deg[m] += 1


def playouts_python(
    grid: Sequence[int],
    unseen: Sequence[int],
    moves: Sequence[Move],
    samples: int,
    seed: int,
    node_limit: int = ENDGAME_NODES,
    weights: Sequence[int] = ROLLOUT_RATING,
) -> list[int]:
    """For each move, the samples it won as bits (bit k: sample k). Each sample shuffles the
    unseen cards into a stock order (the shuffles follow one another from ``seed``); every move
    is played on it and then rolled out with the same tie-breaks (common random numbers)."""
    rng = SplitMix(seed)
    pool = list(unseen)
    end = Endgame(node_limit)
    record = [0] * len(moves)
    for k in range(samples):
        rng.shuffle(pool)
        policy_seed = rng.next()
        for i, (a, b) in enumerate(moves):
            child, top = play(grid, pool, 0, a, b)
            if top >= len(pool):
                won = end.won(child)
            else:
                won = rollout(child, pool, top, SplitMix(policy_seed), end, weights)
            if won:
                record[i] |= 1 << k
    return record


# The same playouts compiled: mypy reads their stub (_playouts.pyi); at run time the module is
# None when setup.py did not build it (no C compiler at install).
if TYPE_CHECKING:
    import games.quatorze._playouts as _compiled
else:
    try:
        import games.quatorze._playouts as _compiled
    except ImportError:  # pragma: no cover - depends on the install
        _compiled = None

CORE_ENV = "PARLOUR_QUATORZE_CORE"  # "python" forces the Python playouts


def compiled_available() -> bool:
    """True when the compiled playouts are built and not switched off by ``CORE_ENV``."""
    return _compiled is not None and os.environ.get(CORE_ENV, "").strip().lower() != "python"


def playouts(
    grid: Sequence[int],
    unseen: Sequence[int],
    moves: Sequence[Move],
    samples: int,
    seed: int,
    node_limit: int = ENDGAME_NODES,
    weights: Sequence[int] = ROLLOUT_RATING,
) -> list[int]:
    """:func:`playouts_python`, compiled when available (the same answers, about forty times
    faster)."""
    if not compiled_available():
        return playouts_python(grid, unseen, moves, samples, seed, node_limit, weights)
    assert _compiled is not None
    raw = _compiled.playouts(
        bytes(grid),
        bytes(unseen),
        list(moves),
        samples,
        seed & SplitMix.MASK,
        (weights[0], weights[1]),
        node_limit,
    )
    return [int.from_bytes(bits, "little") for bits in raw]
