"""The bot as ``python -m bot`` runs it, plus a sampler for :mod:`bench.soak`.

Every ``SOAK_SAMPLE_EVERY`` seconds (environment) the sampler appends one JSON line to the file
``SOAK_SAMPLES``: the bot's RSS (alone and with its AI workers), the event loop's lag over the
period (a 100 ms timer's lateness: p99 and max) and the sizes of the structures a long-running
bot keeps per table, member or message. The bot's own code is unchanged: this module wraps its
start-up hook and runs ``bot`` as ``__main__``.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import runpy
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

TICK = 0.1  # seconds: the lag timer's period

# (name, attribute path from the bot): each is sized with len() when it is there.
STRUCTURES = (
    ("table locks", "service.locks|service._locks"),
    ("hands", "hands._hands"),
    ("hand members", "hands._members"),
    ("board edits", "board_edits._boards"),
    ("channel paces", "board_edits.pace._sent"),
    ("pictures cached", "service.pictures.cache._done"),
    ("pictures drawing", "service.pictures.cache._drawing"),
    ("computer tasks", "_computer_tasks"),
    ("background tasks", "_background"),
    ("interactions open", "tracker._open"),
    ("tables' games", "tracker._games"),
    ("stored views", "_connection._view_store._views"),
    ("message views", "_connection._view_store._synced_message_views"),
    ("cached messages", "_connection._messages"),
)


def _size(root: Any, paths: str) -> int | None:
    """``len()`` of the object at the first of ``paths`` (``a.b|c.d``) found from ``root``,
    None when none is there."""
    for path in paths.split("|"):
        value = root
        for part in path.split("."):
            value = getattr(value, part, None)
            if value is None:
                break
        else:
            try:
                return len(value)
            except TypeError:
                continue
    return None


RENDER_CACHES = (
    "pictures kept",
    "pictures kept KiB",
    "sprites",
    "bands",
    "band KiB",
    "render lru entries",
)


def render_caches() -> dict[str, int]:
    """The pictures' caches in this process: the drawing pool's finished pictures (and their
    KiB), every picture kind's sprites and bands (and the bands' compressed KiB; pictures are
    drawn in the pool's processes, so these stay small here), and the entries of the render
    modules' ``lru_cache``s."""
    from bot import drawing
    from render.compose import Kind

    sizes = dict.fromkeys(RENDER_CACHES, 0)
    pool = drawing.pool()
    if pool is not None:
        kept = list(pool._kept.values())
        sizes["pictures kept"] = len(kept)
        sizes["pictures kept KiB"] = sum(len(getattr(p, "png", b"")) for p in kept) // 1024
    seen: set[int] = set()
    for name, module in list(sys.modules.items()):
        if not name.startswith("render.") or module is None:
            continue
        for value in list(vars(module).values()):
            if id(value) in seen:
                continue
            seen.add(id(value))
            if isinstance(value, Kind):
                sizes["sprites"] += len(value.sprites)
                sizes["bands"] += len(value.bands)
                sizes["band KiB"] += sum(len(b.data) for b in value.bands.values()) // 1024
            elif callable(getattr(value, "cache_info", None)):
                sizes["render lru entries"] += value.cache_info().currsize
    return sizes


def _rss_mib(pid: int) -> tuple[float, float]:
    from bench.perf.load import rss_mib

    return rss_mib(pid)


def sample(bot: Any, lags: list[float], started: float) -> dict[str, Any]:
    """One line of the curve, from the bot and the lags measured since the last one."""
    ordered = sorted(lags)
    rss, with_workers = _rss_mib(os.getpid())
    sizes: dict[str, int | None] = {name: _size(bot, path) for name, path in STRUCTURES}
    sizes.update(render_caches())
    tasks = asyncio.all_tasks()
    objects = gc.get_objects()
    sizes["asyncio tasks"] = len(tasks)
    return {
        "t": round(time.monotonic() - started, 1),
        "rss_mib": round(rss, 1),
        "rss_workers_mib": round(with_workers, 1),
        "lag_p99_ms": round(ordered[int(0.99 * (len(ordered) - 1))] * 1000, 1) if lags else 0.0,
        "lag_max_ms": round(ordered[-1] * 1000, 1) if lags else 0.0,
        "gc_objects": len(objects),
        "objects_by_type": dict(Counter(type(o).__name__ for o in objects).most_common(8)),
        "sizes": sizes,
        "tasks_by_name": dict(Counter(_task_name(t) for t in tasks).most_common(5)),
    }


def _task_name(task: asyncio.Task[Any]) -> str:
    """What a task runs: its coroutine's qualified name."""
    coro = task.get_coro()
    return getattr(coro, "__qualname__", None) or type(coro).__name__


async def sample_forever(bot: Any, out: Path, every: float) -> None:
    """Measure the loop's lag every :data:`TICK` and write a sample every ``every`` seconds."""
    loop = asyncio.get_running_loop()
    started = time.monotonic()
    next_sample = started + every
    lags: list[float] = []
    while True:
        before = loop.time()
        await asyncio.sleep(TICK)
        lags.append(max(0.0, loop.time() - before - TICK))
        if time.monotonic() >= next_sample:
            line = sample(bot, lags, started)
            with out.open("a") as f:
                f.write(json.dumps(line) + "\n")
            lags.clear()
            next_sample += every


def install(out: Path, every: float) -> None:
    """Make every ParlourBot start the sampler once it has set up."""
    from bot.client.app import ParlourBot

    setup = ParlourBot.setup_hook

    async def setup_hook(self: Any) -> None:
        await setup(self)
        self.spawn(sample_forever(self, out, every))

    ParlourBot.setup_hook = setup_hook  # type: ignore[method-assign]


if __name__ == "__main__":
    install(Path(os.environ["SOAK_SAMPLES"]), float(os.environ.get("SOAK_SAMPLE_EVERY", "60")))
    runpy.run_module("bot", run_name="__main__", alter_sys=True)
