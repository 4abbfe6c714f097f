"""Sum up a py-spy profile (``--format raw``: collapsed stacks) of the bot.

    python -m bench.perf.profile_summary PROFILE [--top 25]

Prints the share of samples per process (the bot, its AI workers), the functions with the most
samples of their own ("self") and in all (with what they call: "total"), and a few areas that
the capacity work cares about (PNG encoding, drawing, JSON, the database, discord.py, aiohttp).
"""

from __future__ import annotations

import argparse
import importlib.util
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


# Threads blocked in a call py-spy cannot tell from work (``--nonblocking`` keeps idle threads):
# aiosqlite's thread waiting for the next query, a caller waiting for a drawing process's
# picture. (module, function, the source of the waiting line)
WAITING_LINES = (
    ("aiosqlite.core", "_connection_worker_thread", "tx.get()"),
    ("multiprocessing.connection", "_recv", "read(handle, remaining)"),
)


def waiting_sites() -> set[str]:
    """The raw leaf frames (``fn (path/module.py:LINE)``) of :data:`WAITING_LINES` in the
    versions installed here (their line numbers move between versions)."""
    sites = set()
    for module, function, needle in WAITING_LINES:
        spec = importlib.util.find_spec(module)
        if spec is None or spec.origin is None:
            continue
        path = Path(spec.origin)
        short = f"{path.parent.name}/{path.name}"
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if needle in line:
                sites.add(f"{short}:{number}:{function}")
    return sites


def is_waiting(raw_leaf: str, sites: set[str]) -> bool:
    """Whether a leaf frame (as py-spy writes it) waits: a selector, a lock, a queue, or one
    of the ``sites`` of :func:`waiting_sites`."""
    if AREAS["idle (waiting)"].search(frame_name(raw_leaf)):
        return True
    m = re.match(r"(?:\S+\.)?(\w+) \((?:.*/)?([^/]+/[^/]+\.py):(\d+)\)$", raw_leaf)
    return m is not None and f"{m[2]}:{m[3]}:{m[1]}" in sites


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
    sites = waiting_sites()
    for line in args.profile.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        raw = stack.split(";")
        frames = [frame_name(f) for f in raw]
        proc = frames[0] if frames[0].startswith("process") else "?"
        frames = [f for f in frames if not f.startswith(("process", "thread"))]
        process[proc.split(":")[0] + (" (worker)" if "spawn_main" in stack else "")] += n
        if not frames:
            continue
        leaf = frames[-1]
        if is_waiting(raw[-1], sites):
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
