"""The fake gateway websocket: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, RESUME.

discord.py 2.x connects with ``?v=10&encoding=json&compress=zlib-stream`` (or ``zstd-stream``
when a zstd module is installed); this gateway implements zlib-stream (one compressor per
connection, every message ends with a Z_SYNC_FLUSH) and plain JSON text frames otherwise.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from bot.fakediscord.state import World

_log = logging.getLogger(__name__)

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE_STATE = 0, 1, 2, 3, 4
RESUME, RECONNECT, REQUEST_MEMBERS, INVALIDATE_SESSION, HELLO, HEARTBEAT_ACK = 6, 7, 8, 9, 10, 11

HEARTBEAT_INTERVAL_MS = 41_250


@dataclass(slots=True)
class Session:
    """One identified gateway session (survives dropped connections until re-IDENTIFY)."""

    id: str
    intents: int
    seq: int = 0
    sent: list[dict[str, Any]] = field(default_factory=list)
    identified_at: float = 0.0


class Connection:
    """One websocket connection with its compressor and a send lock (frames stay in order)."""

    def __init__(self, ws: web.WebSocketResponse, *, zlib_stream: bool) -> None:
        self.ws = ws
        self.compressor = zlib.compressobj() if zlib_stream else None
        self.lock = asyncio.Lock()
        self.session: Session | None = None

    async def send(self, message: dict[str, Any]) -> None:
        """Send one gateway message (compressed when the client asked for zlib-stream)."""
        text = json.dumps(message, separators=(",", ":"))
        async with self.lock:
            if self.ws.closed:
                return
            if self.compressor is not None:
                data = self.compressor.compress(text.encode()) + self.compressor.flush(
                    zlib.Z_SYNC_FLUSH
                )
                await self.ws.send_bytes(data)
            else:
                await self.ws.send_str(text)


class Gateway:
    """Serves the gateway websocket for one bot and dispatches events to it."""

    def __init__(
        self,
        world: World,
        *,
        resume_url: Callable[[], str],
        on_problem: Callable[[str, str], None],
        on_change: Callable[[], None],
    ) -> None:
        self.world = world
        self._resume_url = resume_url
        self._on_problem = on_problem
        self._on_change = on_change
        self.session: Session | None = None
        self.connection: Connection | None = None
        self.identify_count = 0
        self.resume_count = 0
        self.connect_count = 0
        self.ready = asyncio.Event()
        self.received: list[dict[str, Any]] = []

    @property
    def connected(self) -> bool:
        """Whether a bot is connected with an identified (or resumed) session."""
        c = self.connection
        return c is not None and c.session is not None and not c.ws.closed

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """aiohttp handler for ``GET /gateway`` (the websocket upgrade)."""
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        compress = request.query.get("compress")
        if compress not in (None, "zlib-stream"):
            self._on_problem("gateway", f"unsupported compress={compress!r}")
            await ws.close(code=4000)
            return ws
        conn = Connection(ws, zlib_stream=compress == "zlib-stream")
        self.connect_count += 1
        await conn.send({"op": HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
        try:
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self._received(conn, json.loads(msg.data))
                elif msg.type == WSMsgType.BINARY:
                    self._on_problem("gateway", "client sent a binary frame")
                elif msg.type == WSMsgType.ERROR:
                    break
        finally:
            if self.connection is conn:
                self.connection = None
                self.ready.clear()
                self._on_change()
        return ws

    async def _received(self, conn: Connection, message: dict[str, Any]) -> None:
        self.received.append(message)
        op = message.get("op")
        data = message.get("d")
        if op == HEARTBEAT:
            await conn.send({"op": HEARTBEAT_ACK})
        elif op == IDENTIFY:
            await self._identify(conn, data or {})
        elif op == RESUME:
            await self._resume(conn, data or {})
        elif op == REQUEST_MEMBERS:
            await self._request_members(conn, data or {})
        elif op in (PRESENCE, VOICE_STATE):
            pass
        else:
            self._on_problem("gateway", f"unknown opcode {op}")

    async def _identify(self, conn: Connection, data: dict[str, Any]) -> None:
        if data.get("token") != self.world.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        session = Session(id=secrets.token_hex(16), intents=int(data.get("intents") or 0))
        self.identify_count += 1
        self.session = session
        conn.session = session
        await self._replace_connection(conn)
        await self._dispatch_on(
            conn, "READY", self.world.ready_payload(session.id, self._resume_url())
        )
        for guild in self.world.guilds:
            await self._dispatch_on(conn, "GUILD_CREATE", guild.payload())
        self.ready.set()
        self._on_change()

    async def _resume(self, conn: Connection, data: dict[str, Any]) -> None:
        session = self.session
        if (
            session is None
            or data.get("session_id") != session.id
            or data.get("token") != self.world.token
        ):
            await conn.send({"op": INVALIDATE_SESSION, "d": False})
            return
        conn.session = session
        await self._replace_connection(conn)
        seq = int(data.get("seq") or 0)
        for message in session.sent:
            if message["s"] > seq:
                await conn.send(message)
        self.resume_count += 1
        await self._dispatch_on(conn, "RESUMED", {})
        self.ready.set()
        self._on_change()

    async def _replace_connection(self, conn: Connection) -> None:
        old = self.connection
        self.connection = conn
        if old is not None and old is not conn and not old.ws.closed:
            await old.ws.close(code=4000)

    async def _request_members(self, conn: Connection, data: dict[str, Any]) -> None:
        guild = self.world.guild(int(data["guild_id"]))
        payload: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in guild.members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce"):
            payload["nonce"] = data["nonce"]
        await self._dispatch_on(conn, "GUILD_MEMBERS_CHUNK", payload)

    async def _dispatch_on(self, conn: Connection, event: str, data: dict[str, Any]) -> None:
        session = conn.session
        assert session is not None
        session.seq += 1
        message = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.sent.append(message)
        await conn.send(message)

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a dispatch to the bot; kept for replay if the connection is down."""
        session = self.session
        if session is None:
            self._on_problem("driver", f"{event} dispatched but no bot ever identified")
            return
        session.seq += 1
        message = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.sent.append(message)
        conn = self.connection
        if conn is not None and conn.session is session:
            await conn.send(message)

    async def drop(self, *, code: int = 4000) -> None:
        """Close the bot's websocket as a network failure would; the session stays resumable."""
        conn = self.connection
        if conn is None:
            return
        self.connection = None
        self.ready.clear()
        await conn.ws.close(code=code)
        self._on_change()

    async def send_reconnect(self) -> None:
        """Ask the bot to reconnect and resume (opcode 7), as Discord does now and then."""
        if self.connection is not None:
            await self.connection.send({"op": RECONNECT, "d": None})

    async def close(self) -> None:
        """Close the current connection (server shutdown)."""
        conn = self.connection
        self.connection = None
        if conn is not None and not conn.ws.closed:
            await conn.ws.close(code=1001)
