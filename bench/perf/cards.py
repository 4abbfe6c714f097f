"""Card rendering cost: one sprite drawn from scratch, a cache hit, a composed hand.

Run from the repo root: ``python -m bench.perf.cards [--quick]``. Prints medians and ratios
against a baseline measured in the same run (a blank rounded card drawn at 4x and downscaled,
the least any sprite can cost).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from functools import partial

from PIL import Image

from games.cards import full_deck, shuffled_deck
from render.base import to_picture
from render.cards import PAPER, SUPERSAMPLE, _blank, _sprite, card_height, card_image, hand_image


def _median(fn: Callable[[], object], repeats: int) -> float:
    """Median seconds of ``repeats`` calls of ``fn``."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _baseline(width: int) -> None:
    height = card_height(width)
    image, _ = _blank(width * SUPERSAMPLE, height * SUPERSAMPLE, PAPER)
    image.resize((width, height), Image.Resampling.LANCZOS)


def _uncached_deck(width: int) -> Callable[[], None]:
    """Draw all 52 faces and the back with an empty cache."""

    def run() -> None:
        _sprite.cache_clear()
        for card in [*full_deck(), None]:
            card_image(card, width)

    return run


def main() -> None:
    quick = "--quick" in sys.argv
    repeats = 3 if quick else 9
    print(f"card rendering, medians of {repeats}+ runs")
    print(f"{'what':46} {'us':>10} {'x base':>8}")
    deck = full_deck()
    hand = sorted(shuffled_deck(1)[:13])
    for width in (60, 80, 120):
        base = _median(partial(_baseline, width), repeats * 5)
        per_card = _median(_uncached_deck(width), repeats) / 53
        card_image(deck[0], width)
        hit = _median(partial(card_image, deck[0], width), repeats * 50)
        for card in hand:
            card_image(card, width)
        composed = _median(
            partial(hand_image, hand, width, dim=hand[::3], raised=hand[:1]), repeats * 5
        )
        image = hand_image(hand, width, dim=hand[::3], raised=hand[:1])
        encoded = _median(partial(to_picture, image, "hand.png", "a hand"), repeats)
        size = len(to_picture(image, "hand.png", "a hand").png)
        rows = [
            (f"w={width} baseline: blank card at 4x + downscale", base),
            (f"w={width} one card sprite, uncached (mean of 53)", per_card),
            (f"w={width} one card sprite, cache hit", hit),
            (f"w={width} 13-card hand, sprites cached", composed),
            (f"w={width} 13-card hand -> PNG ({size // 1024} KiB)", encoded),
        ]
        for name, seconds in rows:
            print(f"{name:46} {seconds * 1e6:10.1f} {seconds / base:8.3f}")


if __name__ == "__main__":
    main()
