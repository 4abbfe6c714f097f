"""Reading a discord.py client's gateway connections as :class:`~bot.ops.health.ShardState`."""

from __future__ import annotations

from typing import Any

from bot.ops.health import ShardState


def _open(ws: Any) -> bool:
    try:
        return ws is not None and bool(ws.open)
    except AttributeError:
        return False


def discord_shards(client: Any) -> list[ShardState]:
    """The process's shards: every shard of an ``AutoShardedClient``, else the one connection.

    A shard counts as connected when the client has had its READY and the shard's websocket is
    open. Before the first READY the list is empty (a sharded client) or not connected.
    """
    if client.is_closed():
        return []
    ready = client.is_ready()
    shards = getattr(client, "shards", None)
    if isinstance(shards, dict):
        return [
            ShardState(shard_id, ready and not info.is_closed(), info.latency)
            for shard_id, info in sorted(shards.items())
        ]
    ws = getattr(client, "ws", None)
    latency = client.latency if ws is not None else None
    return [ShardState(client.shard_id or 0, ready and _open(ws), latency)]
