"""The health check: every shard of the process connected, and the database answering."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

DB_TIMEOUT = 1.0  # seconds the database has to answer


@dataclass(frozen=True, slots=True)
class ShardState:
    """One gateway connection of this process."""

    id: int
    connected: bool
    latency: float | None = None


@dataclass(frozen=True, slots=True)
class Verdict:
    healthy: bool
    body: dict[str, Any]


class Health:
    """Answers "is this process fit to serve?" from two small callables the bot hands in.

    ``shards`` returns the process's gateway connections; ``ping`` runs one cheap database
    query (raising when the database is unreachable). Both are read at every check, so the
    bot can swap its connection or reconnect a shard without telling this object.
    """

    def __init__(
        self,
        shards: Callable[[], Iterable[ShardState]],
        ping: Callable[[], Awaitable[object]],
        *,
        timeout: float = DB_TIMEOUT,
    ) -> None:
        self.shards = shards
        self.ping = ping
        self.timeout = timeout

    async def check(self) -> Verdict:
        shards = list(self.shards())
        reasons: list[str] = []
        if not shards:
            reasons.append("no gateway connection yet")
        down = [s.id for s in shards if not s.connected]
        if down:
            reasons.append(f"shard {', '.join(map(str, down))} not connected")
        start = time.perf_counter()
        database: dict[str, Any]
        try:
            await asyncio.wait_for(self.ping(), self.timeout)
        except TimeoutError:
            reasons.append(f"database did not answer within {self.timeout:g} s")
            database = {"ok": False}
        except Exception as exc:
            reasons.append(f"database unreachable: {type(exc).__name__}: {exc}")
            database = {"ok": False}
        else:
            database = {"ok": True, "ms": round((time.perf_counter() - start) * 1000, 1)}
        body: dict[str, Any] = {
            "status": "unavailable" if reasons else "ok",
            "shards": {str(s.id): s.connected for s in shards},
            "database": database,
        }
        if reasons:
            body["reason"] = "; ".join(reasons)
        return Verdict(not reasons, body)
