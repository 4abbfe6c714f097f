"""The operator's HTTP endpoint: ``GET /healthz`` and ``GET /metrics`` (aiohttp)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from bot.ops import metrics
from bot.ops.health import Health

log = logging.getLogger("parlour.ops")


class OpsServer:
    """Serves :class:`Health` and the metrics registry on ``host:port``.

    ``await server.start()``; ``server.port`` is the bound port (useful with port 0);
    ``await server.stop()``. ``refresh`` runs before each scrape, to set gauges that are read
    rather than counted (open tables); a failure there is logged and the scrape goes on.
    """

    def __init__(
        self,
        host: str,
        port: int,
        health: Health,
        refresh: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.host = host
        self.port = port
        self.health = health
        self.refresh = refresh
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics)
        self._runner = web.AppRunner(app, access_log=None)

    async def start(self) -> None:
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        log.info("health and metrics on http://%s:%d (/healthz, /metrics)", self.host, self.port)

    async def stop(self) -> None:
        await self._runner.cleanup()

    async def _healthz(self, request: web.Request) -> web.Response:
        verdict = await self.health.check()
        if not verdict.healthy:
            log.warning("health check failed: %s", verdict.body.get("reason"))
        return web.json_response(verdict.body, status=200 if verdict.healthy else 503)

    async def _metrics(self, request: web.Request) -> web.Response:
        metrics.set_shards((s.id, s.connected, s.latency) for s in self.health.shards())
        if self.refresh is not None:
            try:
                await asyncio.wait_for(self.refresh(), self.health.timeout)
            except Exception as exc:
                log.warning("metrics refresh failed: %s: %s", type(exc).__name__, exc)
        # Formatting a few hundred samples takes milliseconds: off the event loop.
        body = await asyncio.to_thread(metrics.exposition)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})
