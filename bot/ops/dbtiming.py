"""Timing every repository call of a :class:`storage.Database` for the metrics.

``instrument(db)`` wraps each public coroutine method of the database object (not its class)
so that its duration, waiting for the connection included, goes to
``parlour_db_query_seconds{operation="<method name>"}``. The storage layer stays unaware.
"""

from __future__ import annotations

import functools
import inspect
import time
from collections.abc import Callable
from typing import Any

from bot.ops import metrics

SKIP = frozenset({"open", "close"})


def _timed(name: str, method: Callable[..., Any], observe: Callable[[str, float], None]) -> Any:
    @functools.wraps(method)
    async def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return await method(*args, **kwargs)
        finally:
            observe(name, time.perf_counter() - start)

    return timed


def instrument(db: Any, observe: Callable[[str, float], None] = metrics.observe_query) -> Any:
    """Time ``db``'s repository calls from now on; returns ``db``."""
    for name, _ in inspect.getmembers(type(db), inspect.iscoroutinefunction):
        if name.startswith("_") or name in SKIP:
            continue
        setattr(db, name, _timed(name, getattr(db, name), observe))
    return db
