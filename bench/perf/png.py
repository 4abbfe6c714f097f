"""PNG settings for the images the bot sends: bytes and encode time side by side.

    python -m bench.perf.png [--repeats 15]

For a typical picture of each game (a checkers board mid-game, a Hearts table and hand,
Quarters piles, drawn whole in RGB by the renderers before boards were composed from cached
sprites: ``bench.perf.render_baseline``), encodes the same image as RGB at ``compress_level=3``,
and as palette images ('P' mode: quantized to the picture's colours) at several levels, and
prints the median CPU time of the encoding (quantizing included), the bytes, and both as ratios to
the baseline. The baseline is measured in the same run.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any
from unittest.mock import patch

from PIL import Image

from bench.perf.render_baseline.checkers import render_checkers
from bench.perf.render_baseline.hearts import render_hearts_hand, render_hearts_table
from bench.perf.render_baseline.quarters import render_quarters
from games.cards import Card
from games.checkers import State as CheckersState
from games.hearts import State as HeartsState
from games.quarters import State as QuartersState
from render.samples import sample_checkers_moves


def captured(draw: Callable[[], object]) -> Image.Image:
    """The image a render function hands to ``to_picture`` (caught where it is quantized or,
    if it is not, saved)."""
    seen: list[Image.Image] = []
    save, quantize = Image.Image.save, Image.Image.quantize

    def keep_saved(self: Image.Image, *args: Any, **kwargs: Any) -> None:
        if self.mode != "P":
            seen.append(self.copy())
        save(self, *args, **kwargs)

    def keep_quantized(self: Image.Image, *args: Any, **kwargs: Any) -> Image.Image:
        seen.append(self.copy())
        return quantize(self, *args, **kwargs)

    with (
        patch.object(Image.Image, "save", keep_saved),
        patch.object(Image.Image, "quantize", keep_quantized),
    ):
        draw()
    return seen[-1]


def images() -> dict[str, Image.Image]:
    checkers = CheckersState.new()
    for move in sample_checkers_moves(20):
        checkers.apply(checkers.to_act()[0], move)
    hearts = HeartsState.new(seed=5)
    rng = random.Random(5)
    for _ in range(4 * 3 + 17):
        seat = hearts.to_act()[0]
        hearts.apply(seat, rng.choice(hearts.legal_actions(seat)))
    quarters = QuartersState.new((5, 5, 7, 4))
    for move in ("1-2", "4-2"):
        quarters.apply(quarters.to_act()[0], move)
    view = hearts.view(0)
    hand = [Card.parse(c) if isinstance(c, str) else c for c in view["hand"]]
    return {
        "checkers board": captured(lambda: render_checkers(checkers.view(None))),
        "hearts table": captured(lambda: render_hearts_table(view)),
        "hearts hand": captured(lambda: render_hearts_hand(hand)),
        "quarters piles": captured(lambda: render_quarters(quarters.view())),
    }


def encode(image: Image.Image, mode: str, level: int) -> bytes:
    out = io.BytesIO()
    if mode == "P":
        image = image.convert("RGB").quantize(256, method=Image.Quantize.FASTOCTREE)
    image.save(out, format="PNG", compress_level=level)
    return out.getvalue()


def median_time(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.process_time()  # CPU time: the machine is shared, wall time is noisy
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    settings = [("RGB", 3), ("RGB", 1), ("P", 1), ("P", 3), ("P", 6)]
    print(f"{'picture':16} {'setting':12} {'ms':>7} {'KiB':>7} {'x time':>7} {'x bytes':>8}")
    for name, image in images().items():
        base_t = base_b = 0.0
        for mode, level in settings:
            t = median_time(partial(encode, image, mode, level), args.repeats)
            size = len(encode(image, mode, level))
            if (mode, level) == settings[0]:
                base_t, base_b = t, size
            label = f"{mode} level {level}"
            print(
                f"{name:16} {label:12} {t * 1000:7.2f} {size / 1024:7.1f} "
                f"{t / base_t:7.2f} {size / base_b:8.2f}"
            )
        print(f"{'':16} ({image.width}x{image.height} {image.mode})")


if __name__ == "__main__":
    main()
