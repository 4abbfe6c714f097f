"""Starting and stopping what operators get, from the bot's start-up and shut-down.

self.ops = await start_ops(config.http, shards=lambda: discord_shards(self),
                           ping=db.schema_version)
...
await self.ops.stop()
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

from bot.ops.health import DB_TIMEOUT, Health, ShardState
from bot.ops.http import OpsServer
from bot.ops.lagreport import LagReport


@dataclass(slots=True)
class Ops:
    """The running lag monitor and, when ``PARLOUR_HTTP`` is set, the HTTP server."""

    lag: LagReport
    server: OpsServer | None = None

    async def stop(self) -> None:
        await self.lag.stop()
        if self.server is not None:
            await self.server.stop()


async def start_ops(
    http: tuple[str, int] | None,
    *,
    shards: Callable[[], Iterable[ShardState]],
    ping: Callable[[], Awaitable[object]],
    refresh: Callable[[], Awaitable[None]] | None = None,
    timeout: float = DB_TIMEOUT,
) -> Ops:
    """Start the lag monitor, and the HTTP server on ``http`` unless it is None."""
    lag = LagReport()  # samples every 0.1 s into the metrics, sums up in the log every 10 s
    lag.start()
    ops = Ops(lag)
    if http is not None:
        ops.server = OpsServer(*http, Health(shards, ping, timeout=timeout), refresh)
        try:
            await ops.server.start()
        except BaseException:
            await lag.stop()
            raise
    return ops
