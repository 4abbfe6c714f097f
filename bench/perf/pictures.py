"""Replays and charts: GIF against animated WebP for a 150-ply checkers replay, the cost of
drawing the frames and the charts, and what a plotting library would cost the bot.

Run from the repo root: ``python -m bench.perf.pictures [--quick] [--memory]`` (``--memory``:
only the memory and import figures). Prints medians, sizes and
ratios against the baseline measured in the same run (our GIF encoder, and importing Pillow).
The machine's load distorts seconds; the bytes do not depend on it.
"""

from __future__ import annotations

import io
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial

from PIL import Image

from games.checkers import State
from render.animation import encode_gif
from render.charts import hearts_totals_chart, rating_chart, scoreboard_chart, stats_chart
from render.checkers import render_checkers
from render.replay import checkers_reel, checkers_views, replay_checkers

PLIES = 150
DISCORD_LIMIT = 10 * 1024 * 1024  # bytes a member without Nitro may upload


def _median(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def long_game(plies: int = PLIES, seed: int = 111) -> list[str]:
    """A random game of ``plies`` moves from a fixed seed (the one the tests use)."""
    rng = random.Random(seed)
    state = State.new()
    moves: list[str] = []
    while len(moves) < plies and not state.is_over():
        move = rng.choice(state.view(None)["legal_moves"])
        state.apply(state.to_act()[0], move)
        moves.append(move)
    if len(moves) < plies:
        raise SystemExit(f"seed {seed} ends after {len(moves)} plies")
    return moves


def _gif_per_frame_palette(frames: Sequence[Image.Image], durations: Sequence[int]) -> bytes:
    buffer = io.BytesIO()
    frames[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=list(durations),
        loop=0,
    )
    return buffer.getvalue()


def _webp(**options: object) -> Callable[[Sequence[Image.Image], Sequence[int]], bytes]:
    def encode(frames: Sequence[Image.Image], durations: Sequence[int]) -> bytes:
        buffer = io.BytesIO()
        frames[0].save(
            buffer,
            format="WEBP",
            save_all=True,
            append_images=frames[1:],
            duration=list(durations),
            loop=0,
            **options,
        )
        return buffer.getvalue()

    return encode


ENCODERS: dict[str, Callable[[Sequence[Image.Image], Sequence[int]], bytes]] = {
    "GIF, one palette, unchanged pixels transparent (ours)": encode_gif,
    "GIF, Pillow's default (a palette a frame)": _gif_per_frame_palette,
    "WebP lossless, method 0": _webp(lossless=True, quality=0, method=0),
    "WebP lossless, method 4": _webp(lossless=True, quality=50, method=4),
    "WebP lossy q80, method 0": _webp(quality=80, method=0),
    "WebP lossy q80, method 4": _webp(quality=80, method=4),
}


def _frames_decoded(data: bytes) -> int:
    with Image.open(io.BytesIO(data)) as image:
        return getattr(image, "n_frames", 1)  # animated formats' plugins add it


def bench_encoders(frames: list[Image.Image], durations: Sequence[int], repeats: int) -> None:
    print(
        f"\n{PLIES}-ply checkers replay: {len(frames)} frames of "
        f"{frames[0].width}x{frames[0].height}; medians of {repeats}"
    )
    print(f"{'encoder':56} {'KiB':>7} {'x size':>7} {'s':>7} {'x time':>7} {'frames':>6}")
    base_size = base_time = 0.0
    for name, encode in ENCODERS.items():
        data = encode(frames, durations)
        seconds = _median(partial(encode, frames, durations), repeats)
        if not base_size:
            base_size, base_time = len(data), seconds
        print(
            f"{name:56} {len(data) / 1024:7.0f} {len(data) / base_size:7.2f} "
            f"{seconds:7.2f} {seconds / base_time:7.2f} {_frames_decoded(data):6}"
        )
    print(f"(Discord's upload limit: {DISCORD_LIMIT // 1024} KiB)")


def bench_drawing(moves: list[str], repeats: int) -> None:
    print(f"\nDrawing the {PLIES}-ply replay, medians of {repeats}")
    views = checkers_views(moves)
    one_png = _median(lambda: [render_checkers(v) for v in views[:20]], repeats) / 20
    reel_time = _median(lambda: list(checkers_reel(moves).frames()), repeats)
    encode_time = _median(lambda: replay_checkers(moves), repeats)
    print(f"{'baseline: render_checkers, one position (PNG)':56} {one_png * 1e3:8.1f} ms  1.00")
    per_frame = reel_time / (len(views) + 1)
    print(
        f"{'one replay frame (board PNG decoded + caption strip)':56} "
        f"{per_frame * 1e3:8.1f} ms {per_frame / one_png:5.2f}"
    )
    print(f"{'all frames':56} {reel_time:8.2f} s")
    print(f"{'frames + GIF encoding (the whole replay)':56} {encode_time:8.2f} s")


_PEAK = """
def peak_mib():
    # VmHWM: this process's peak resident memory since exec (ru_maxrss would also count the
    # parent's memory at fork time)
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
"""


def _peak_rss(code: str) -> tuple[float, float]:
    """Seconds and peak MiB of a fresh interpreter running ``code``."""
    script = (
        "import time\n"
        f"{_PEAK}\n"
        "start = time.perf_counter()\n"
        f"{code}\n"
        "took = time.perf_counter() - start\n"
        "print(took, peak_mib())\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout.split()
    return float(out[0]), float(out[1])


def bench_memory() -> None:
    print("\nPeak memory of a fresh process (MiB) and its time")
    cases = [
        ("baseline: import PIL.Image, PIL.ImageDraw", "import PIL.Image, PIL.ImageDraw"),
        ("import render.charts (the Pillow charts)", "import render.charts"),
        (
            "import matplotlib (Agg) + pyplot",
            "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot",
        ),
        (
            "150-ply replay, drawn and encoded as GIF",
            "from bench.perf.pictures import long_game\n"
            "from render.replay import replay_checkers\n"
            "replay_checkers(long_game())",
        ),
    ]
    base_time = base_rss = 0.0
    for name, code in cases:
        try:
            seconds, rss = _peak_rss(code)
        except subprocess.CalledProcessError:
            print(f"{name:56} (not installed)")
            continue
        if not base_rss:
            base_time, base_rss = seconds, rss
        print(
            f"{name:56} {rss:7.1f} MiB {rss / base_rss:5.2f}   {seconds:6.3f} s "
            f"{seconds / base_time:6.1f}"
        )


def bench_charts(repeats: int) -> None:
    print(f"\nCharts, medians of {repeats}")
    day = 86400.0
    rng = random.Random(1)
    series = {}
    for server in ("Parlour HQ", "Board gamers"):
        rating, points = 1200.0, []
        for i in range(40):
            rating += rng.uniform(-16, 16)
            points.append((1.767e9 + i * day, rating))
        series[server] = points
    games = [("Quarters", 12, 7), ("Checkers", 33, 20), ("Kabu", 5, 1), ("Hearts", 4, 1)]
    per_hand = [[rng.randint(0, 13) for _ in range(4)] for _ in range(9)]
    cases = {
        "rating over time (2 servers, 80 games)": lambda: rating_chart(series),
        "/stats: rating + games": lambda: stats_chart("Ann", series, games),
        "scoreboard top ten": lambda: scoreboard_chart(
            "Checkers", [(f"P{i}", 1300 - 9 * i) for i in range(10)], "rating"
        ),
        "hearts running totals (9 hands)": lambda: hearts_totals_chart(per_hand, "ABCD"),
    }
    for name, draw in cases.items():
        seconds = _median(draw, repeats)
        print(f"{name:56} {seconds * 1e3:8.1f} ms {len(draw().png) / 1024:6.0f} KiB")


def main() -> None:
    quick = "--quick" in sys.argv
    repeats = 1 if quick else 3
    bench_memory()
    if "--memory" in sys.argv:
        return
    moves = long_game()
    reel = checkers_reel(moves)
    bench_encoders(list(reel.frames()), reel.durations, repeats)
    bench_drawing(moves, repeats)
    bench_charts(3 if quick else 9)


if __name__ == "__main__":
    main()
