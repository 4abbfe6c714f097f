"""Board pictures: the CPU time to draw and encode each kind, against the renderers before
boards were composed from cached sprites and bands (``bench.perf.render_baseline``), in one run.

    python -m bench.perf.render [--quick] [--cards] [--pool]

For each board kind (checkers board, Hearts table and hand, Quarters piles, Kabu table,
Quatorze grid) it plays seeded random games and draws positions from them:

- first: the first picture of the kind in the process (its palette and first sprites);
- fresh: the median over positions never drawn before in the run, after warm-up games with
  other seeds (the sprites of the kind, size and language are drawn; the bands of a new
  position are partly new); the picture cache is bypassed (``render.__wrapped__``);
- reused: the same positions again through the renderer (the picture cache);
- before: the frozen renderers on the same positions (fresh each time: they keep no pictures).

Then the encoder settings: the bands' zlib level, and what the renderers before did (an
adaptive palette a picture, then compress level 3) against ``optimize``. ``--cards``: the card
sprites' cost (drawn once, then cached). ``--pool``: a picture drawn in place against one drawn
through the bot's drawing pool (:mod:`bot.drawing`): the caller's CPU and the drawing process's.
Times are CPU time (``time.process_time``) medians:
the machine may be shared with other work, which inflates them all alike.
"""

from __future__ import annotations

import argparse
import inspect
import io
import os
import random
import statistics
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

from PIL import Image

import render.compose as compose
from bench.perf.render_baseline import checkers as old_checkers
from bench.perf.render_baseline import hearts as old_hearts
from bench.perf.render_baseline import kabu as old_kabu
from bench.perf.render_baseline import quarters as old_quarters
from bench.perf.render_baseline import quatorze as old_quatorze
from bot import drawing
from games.cards import Card, full_deck, shuffled_deck
from games.checkers import State as Checkers
from games.hearts import State as Hearts
from games.kabu import State as Kabu
from games.quarters import State as Quarters
from games.quarters import parse_move
from games.quatorze import State as Quatorze
from render.checkers import CHECKERS, render_checkers
from render.compose import Kind, frozen
from render.hearts import HAND, TABLE, render_hearts_hand, render_hearts_table
from render.kabu import KABU, render_kabu
from render.quarters import QUARTERS, render_quarters
from render.quatorze import QUATORZE, render_quatorze

Draw = Callable[[], object]
NAMES = {0: "Ann", 1: "Bartholomew Fitzgerald-Worthing", 2: "Computer (expert)", 3: "Di"}


# -- positions of seeded random games, as the renderers' arguments -------------------------------


def checkers_positions(seed: int) -> Iterator[tuple[tuple[Any, ...], dict[str, Any]]]:
    rng, state = random.Random(seed), Checkers.new()
    while not state.is_over() and len(state.view(None)["moves"] or ()) < 120:
        state.apply(state.to_act()[0], rng.choice(state.view(None)["legal_moves"]))
        yield (state.view(None),), {"flip": seed % 2 == 1}


def _hearts_game(seed: int) -> Iterator[Hearts]:
    rng, state = random.Random(seed), Hearts.new(seed=seed)
    while not state.is_over():
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        yield state


def hearts_table_positions(seed: int) -> Iterator[tuple[tuple[Any, ...], dict[str, Any]]]:
    for state in _hearts_game(seed):
        yield (state.view(None), NAMES), {"bottom": seed % 4}


def hearts_hand_positions(seed: int) -> Iterator[tuple[tuple[Any, ...], dict[str, Any]]]:
    for state in _hearts_game(seed):
        seat = state.to_act()[0] if state.to_act() else 0
        hand = list(state.hand(seat))
        legal = [Card.parse(a) for a in state.legal_actions(seat) if len(a) == 2]
        yield (hand, legal or None), {}


def quarters_positions(seed: int) -> Iterator[tuple[tuple[Any, ...], dict[str, Any]]]:
    rng = random.Random(seed)
    state = Quarters.new([rng.randint(1, 9) for _ in range(rng.randint(2, 5))])
    while not state.is_over():
        move = rng.choice(state.legal_actions(state.turn))
        pile, count = parse_move(move)
        size = state.piles[pile - 1]
        taking = {(pile, coin) for coin in range(size - count + 1, size + 1)}
        yield (state.view(None), taking), {}
        state.apply(state.turn, move)
        yield (state.view(None),), {}


def kabu_positions(seed: int) -> Iterator[tuple[tuple[Any, ...], dict[str, Any]]]:
    rng = random.Random(seed)
    state = Kabu.new(players=rng.randint(1, 5), seed=seed)
    names = {seat: NAMES[seat % 4] for seat in range(5)}
    while state.to_act():
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        yield (state.view(None), names), {}


def quatorze_positions(seed: int) -> Iterator[tuple[tuple[Any, ...], dict[str, Any]]]:
    rng, state = random.Random(seed), Quatorze.new(seed=seed)
    while not state.is_over():
        view = state.view(0)
        yield (view,), {}
        if view["pairs"]:
            yield (view, tuple(rng.choice(view["pairs"]))), {}
        state.apply(0, rng.choice(state.legal_actions(0)))


Board = tuple[Kind, Callable[..., Any], Callable[..., Any], Callable[..., Any]]
BOARDS: dict[str, Board] = {
    "checkers board": (
        CHECKERS, render_checkers, old_checkers.render_checkers, checkers_positions
    ),
    "hearts table": (
        TABLE, render_hearts_table, old_hearts.render_hearts_table, hearts_table_positions
    ),
    "hearts hand": (HAND, render_hearts_hand, old_hearts.render_hearts_hand, hearts_hand_positions),
    "quarters piles": (QUARTERS, render_quarters, old_quarters.render_quarters, quarters_positions),
    "kabu table": (KABU, render_kabu, old_kabu.render_kabu, kabu_positions),
    "quatorze grid": (
        QUATORZE, render_quatorze, old_quatorze.render_quatorze, quatorze_positions
    ),
}  # fmt: skip
"""Each board kind: its kind, its renderer, the frozen renderer, and its positions."""


def positions(make: Callable[[int], Iterator[Any]], seeds: range, limit: int) -> list[Any]:
    """Up to ``limit`` distinct positions from the games of ``seeds``."""
    found: dict[Any, Any] = {}
    for seed in seeds:
        for args in make(seed):
            found.setdefault(frozen(args), args)
            if len(found) >= limit:
                return list(found.values())
    return list(found.values())


def cpu(fn: Draw) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def median_ms(fn: Callable[..., Any], cases: list[Any]) -> float:
    return statistics.median(cpu(partial(fn, *a, **k)) for a, k in cases) * 1000


# -- the table -------------------------------------------------------------------------------


def boards(quick: bool) -> None:
    warm_n, measure_n = (150, 60) if quick else (600, 200)
    print("board pictures: CPU ms, medians (the machine may be shared with other work)")
    print(
        f"{'board':15} {'first':>7} {'fresh':>7} {'before':>7} {'ratio':>6} "
        f"{'reused':>7} {'KiB':>5} {'KiB before':>10}"
    )
    for name, (_, new, old, make) in BOARDS.items():
        warm = positions(make, range(1000, 1400), warm_n)
        seen = {frozen(args) for args in warm}
        fresh_cases = [a for a in positions(make, range(1, 400), measure_n * 2)]
        fresh_cases = [a for a in fresh_cases if frozen(a) not in seen][:measure_n]
        draw = inspect.unwrap(new)
        first = cpu(partial(draw, *warm[0][0], **warm[0][1])) * 1000
        for args, kwargs in warm:
            draw(*args, **kwargs)
        fresh = median_ms(draw, fresh_cases)
        before = median_ms(old, fresh_cases)
        for args, kwargs in fresh_cases:
            new(*args, **kwargs)  # into the picture cache (it keeps the latest 64)
        reused = median_ms(new, fresh_cases[-32:])
        size = statistics.mean(len(draw(*a, **k).png) for a, k in fresh_cases[:20]) / 1024
        size_before = statistics.mean(len(old(*a, **k).png) for a, k in fresh_cases[:20]) / 1024
        print(
            f"{name:15} {first:7.1f} {fresh:7.3f} {before:7.2f} {fresh / before:6.3f} "
            f"{reused:7.4f} {size:5.1f} {size_before:10.1f}"
        )


def encoder(quick: bool) -> None:
    """The bands' zlib level; and the whole-picture encoding the renderers before used."""
    n = 40 if quick else 120
    print("\nencoder settings: fresh CPU ms and KiB, medians")
    print(f"{'board':15} {'setting':30} {'ms':>7} {'KiB':>6}")
    for name, (kind, new, old, make) in BOARDS.items():
        warm = positions(make, range(1000, 1400), n)
        cases = [a for a in positions(make, range(1, 400), n)]
        for level in (1, 3, 6):
            compose.COMPRESS_LEVEL = level
            kind.bands.clear()
            for args, kwargs in warm:
                inspect.unwrap(new)(*args, **kwargs)
            ms = median_ms(inspect.unwrap(new), cases)
            kib = statistics.median(len(inspect.unwrap(new)(*a, **k).png) for a, k in cases) / 1024
            print(f"{name:15} {f'bands, zlib level {level}':30} {ms:7.3f} {kib:6.1f}")
        compose.COMPRESS_LEVEL = 1
        kind.bands.clear()
        image = _decoded(old(*cases[len(cases) // 2][0], **cases[len(cases) // 2][1]).png)
        rgb = image.convert("RGB")
        for label, save in (
            ("before: adaptive palette, level 3", {"compress_level": 3}),
            ("adaptive palette, level 1", {"compress_level": 1}),
            ("adaptive palette, optimize", {"optimize": True}),
        ):
            ms = statistics.median(cpu(partial(_encode, rgb, save)) for _ in range(9)) * 1000
            print(f"{name:15} {label:30} {ms:7.3f} {len(_encode(rgb, save)) / 1024:6.1f}")


def _decoded(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGB")


def _encode(image: Image.Image, options: dict[str, Any]) -> bytes:
    out = io.BytesIO()
    image.quantize(256, method=Image.Quantize.FASTOCTREE).save(out, format="PNG", **options)
    return out.getvalue()


def cards(quick: bool) -> None:
    """Card sprites: one drawn from scratch (what a kind's first pictures pay), a cache hit."""
    from render.cards import _sprite, card_image

    repeats = 3 if quick else 9
    print("\ncard sprites: CPU us, medians")
    deck = [*full_deck(), None]
    hand = sorted(shuffled_deck(1)[:13])
    for width in (52, 92, 100):

        def uncached(w: int = width) -> None:
            _sprite.cache_clear()
            for card in deck:
                card_image(card, w)

        drawn = statistics.median(cpu(uncached) for _ in range(repeats)) / len(deck)
        card_image(hand[0], width)
        hit = statistics.median(cpu(partial(card_image, hand[0], width)) for _ in range(99))
        print(f"w={width:3} one sprite drawn {drawn * 1e6:9.1f}   cache hit {hit * 1e6:6.2f}")


def _worker_cpu(pool: drawing.Drawing) -> float:
    """CPU seconds the pool's drawing processes used so far (from /proc)."""
    total = 0.0
    for pid in pool.pids():
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")
    return total


def through_pool(quick: bool) -> None:
    """Each kind drawn in place, and through a drawing pool of one process: the caller's CPU a
    picture (what the bot's process pays) and the drawing process's (means, fresh positions)."""
    n = 150 if quick else 400  # the drawing process's CPU is read in ticks of 10 ms
    drawing.start(1)
    pool = drawing.pool()
    assert pool is not None
    pool.wait_ready()
    print("\nthrough the drawing pool: CPU ms a picture, means (fresh positions)")
    print(f"{'board':15} {'in place':>9} {'caller':>8} {'drawing process':>16}")
    for name, (_, new, _, make) in BOARDS.items():
        cases = positions(make, range(2000, 2400), 2 * n)
        for args, kwargs in cases[n:]:  # the kind's sprites in both processes
            new(*args, **kwargs)
            pool.draw(new, *args, **kwargs)
        cases = cases[:n]
        start = time.process_time()
        for args, kwargs in cases:
            inspect.unwrap(new)(*args, **kwargs)
        here = (time.process_time() - start) / n * 1000
        start, worker = time.process_time(), _worker_cpu(pool)
        for args, kwargs in cases:
            pool.draw(new, *args, **kwargs)
        caller = (time.process_time() - start) / n * 1000
        there = (_worker_cpu(pool) - worker) / n * 1000
        print(f"{name:15} {here:9.3f} {caller:8.3f} {there:16.3f}")
    drawing.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer positions")
    parser.add_argument("--cards", action="store_true", help="also the card sprites")
    parser.add_argument("--pool", action="store_true", help="also through the drawing pool")
    args = parser.parse_args()
    boards(args.quick)
    encoder(args.quick)
    if args.cards:
        cards(args.quick)
    if args.pool:
        through_pool(args.quick)


if __name__ == "__main__":
    main()
