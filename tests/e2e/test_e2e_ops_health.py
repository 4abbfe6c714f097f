"""/healthz reads a real discord.py client's gateway connection (against the fake Discord) and
asks the database, on SQLite and on PostgreSQL."""

from __future__ import annotations

import aiohttp
import pytest
from fake_discord_tinybot import TinyBot

from bot.ops.health import Health
from bot.ops.http import OpsServer
from bot.ops.probes import discord_shards
from storage import Database

pytestmark = pytest.mark.both_backends


async def status(server: OpsServer) -> tuple[int, dict]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{server.port}/healthz") as response,
    ):
        return response.status, await response.json()


async def test_healthz_follows_the_clients_gateway_connection(in_process, database_url):
    db = await Database.open(database_url)
    client = await in_process(TinyBot())
    health = Health(lambda: discord_shards(client), db.schema_version, timeout=10.0)
    server = OpsServer("127.0.0.1", 0, health)
    await server.start()
    try:
        code, body = await status(server)
        assert code == 200 and body["shards"] == {"0": True}
        await client.close()
        code, body = await status(server)
        assert code == 503 and "no gateway connection" in body["reason"]
    finally:
        await server.stop()
        await db.close()
