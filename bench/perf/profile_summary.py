"""Sum up a py-spy profile (``--format raw``: collapsed stacks) of the bot.

    python -m bench.perf.profile_summary PROFILE [--top 25]

Prints the share of samples per process (the bot, its AI workers), the functions with the most
samples of their own ("self") and in all (with what they call: "total"), and a few areas that
the capacity work cares about (PNG encoding, drawing, JSON, the database, discord.py, aiohttp).
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

AREAS = {
    "PNG encoding (Pillow save)": re.compile(r"\b_save \(PIL/PngImagePlugin|ImageFile\.py|encode"),
    "drawing (render/)": re.compile(r"\(render/"),
    "JSON": re.compile(r"\(json/|to_dict|from_dict"),
    "database (storage/, sqlite)": re.compile(r"\(storage/|aiosqlite|sqlite3"),
    "discord.py": re.compile(r"\(discord/"),
    "aiohttp / sockets": re.compile(r"\(aiohttp/|selectors|ssl"),
    "game engines (games/)": re.compile(r"\(games/"),
    "idle (waiting)": re.compile(r"\b(select|poll|epoll|wait|_worker|get \(queue)"),
}


def frame_name(frame: str) -> str:
    """``fn (path/to/module.py:12)`` -> ``fn (module.py)``, short and line-free."""
    m = re.match(r"(.*) \((.*?):\d+\)$", frame)
    if not m:
        return frame
    path = m[2]
    for marker in ("site-packages/", "/lib/python3.11/", "/capacity/"):
        if marker in path:
            path = path.split(marker, 1)[1]
    return f"{m[1]} ({path})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("profile", type=Path)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    own: Counter[str] = Counter()
    total: Counter[str] = Counter()
    process: Counter[str] = Counter()
    areas: Counter[str] = Counter()
    busy = 0
    for line in args.profile.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        frames = [frame_name(f) for f in stack.split(";")]
        proc = frames[0] if frames[0].startswith("process") else "?"
        frames = [f for f in frames if not f.startswith(("process", "thread"))]
        process[proc.split(":")[0] + (" (worker)" if "spawn_main" in stack else "")] += n
        if not frames:
            continue
        leaf = frames[-1]
        if AREAS["idle (waiting)"].search(leaf):
            areas["idle (waiting)"] += n
            continue
        busy += n
        own[leaf] += n
        for f in set(frames):
            total[f] += n
        joined = ";".join(frames)
        for name, pattern in AREAS.items():
            if name != "idle (waiting)" and pattern.search(joined):
                areas[name] += n
    print(f"busy samples: {busy} (idle {areas['idle (waiting)']})")
    for name, n in process.most_common():
        print(f"  {n:7d}  {name}")
    print("\nareas (share of busy samples; a sample may count in several):")
    for name, n in areas.most_common():
        if name != "idle (waiting)":
            print(f"  {n / max(1, busy) * 100:5.1f}%  {name}")
    print(f"\ntop {args.top} by own samples:")
    for name, n in own.most_common(args.top):
        print(f"  {n / max(1, busy) * 100:5.1f}%  {name}")
    print(f"\ntop {args.top} by total samples (with callees):")
    for name, n in total.most_common(args.top):
        print(f"  {n / max(1, busy) * 100:5.1f}%  {name}")


if __name__ == "__main__":
    main()
