"""The fake gateway websocket: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, RESUME.

Sessions end as Discord documents: a close from either side with 1000 or 1001, a close by the
gateway with a code Discord lets no client resume after (:data:`CLOSE_CODES`), or an op 9 with
``d = false``. A RESUME of an ended (or unknown) session is answered with op 9 ``false``, and
the client must IDENTIFY again; what was dispatched to the ended session is lost.

Sharding works as Discord's does: IDENTIFY may carry ``shard: [id, count]``; that session's READY
lists only the guilds with ``(guild_id >> 22) % count == id``, and guild events (interactions)
go only to the session that owns the guild. A shard outside ``0 <= id < count`` closes the
socket with 4010 (Invalid shard). Without ``shard`` a session is shard ``[0, 1]``: every guild.

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

from fakediscord.state import World

_log = logging.getLogger(__name__)

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE_STATE = 0, 1, 2, 3, 4
RESUME, RECONNECT, REQUEST_MEMBERS, INVALIDATE_SESSION, HELLO, HEARTBEAT_ACK = 6, 7, 8, 9, 10, 11

HEARTBEAT_INTERVAL_MS = 41_250
# A heartbeat's ACK goes out after this round trip, off the read loop. discord.py records when it
# sent a heartbeat only after its keep-alive thread wakes up from the send; an ACK that arrives
# before that is measured against the previous heartbeat, and the bot logs "Can't keep up,
# websocket is 41.3s behind" on every beat. Discord's own network latency hides that race.
HEARTBEAT_ACK_DELAY = 0.05
INVALID_SHARD = 4010

# Close codes: (may the client reconnect, may it resume its session). Discord's table of gateway
# close event codes; 1000 and 1001 end the session (Discord documents it for a client's close,
# and a gateway that closes with them does not take a RESUME either).
CLOSE_CODES: dict[int, tuple[bool, bool]] = {
    1000: (True, False),
    1001: (True, False),
    4000: (True, True),  # unknown error
    4001: (True, False),  # unknown opcode
    4002: (True, True),  # decode error
    4003: (True, False),  # not authenticated
    4004: (False, False),  # authentication failed
    4005: (True, False),  # already authenticated
    4007: (True, False),  # invalid seq
    4008: (True, True),  # rate limited
    4009: (True, False),  # session timed out
    4010: (False, False),  # invalid shard
    4011: (False, False),  # sharding required
    4012: (False, False),  # invalid API version
    4013: (False, False),  # invalid intents
    4014: (False, False),  # disallowed intents
}
SESSION_ENDING_CLOSES = (1000, 1001)


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends ``guild_id``'s events on."""
    return (guild_id >> 22) % shard_count


@dataclass(slots=True)
class Session:
    """One identified gateway session (survives dropped connections until re-IDENTIFY)."""

    id: str
    intents: int
    shard: tuple[int, int] = (0, 1)  # (id, count)
    seq: int = 0
    sent: list[dict[str, Any]] = field(default_factory=list)
    identified_at: float = 0.0
    ended: bool = False  # no RESUME accepted; dispatches to it are lost

    def owns(self, guild_id: int) -> bool:
        """Whether this session's shard carries the guild's events."""
        shard_id, count = self.shard
        return shard_of(guild_id, count) == shard_id


class Connection:
    """One websocket connection with its compressor and a send lock (frames stay in order)."""

    def __init__(self, ws: web.WebSocketResponse, *, zlib_stream: bool) -> None:
        self.ws = ws
        self.compressor = zlib.compressobj() if zlib_stream else None
        self.lock = asyncio.Lock()
        self.session: Session | None = None
        self.closed_by_gateway = False

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
    """Serves the gateway websocket for one bot (one or several shards) and dispatches events."""

    def __init__(
        self,
        world: World,
        *,
        resume_url: Callable[[], str],
        on_problem: Callable[[str, str], None],
        on_change: Callable[[], None],
        heartbeat_interval_ms: int = HEARTBEAT_INTERVAL_MS,
        heartbeat_ack_delay: float = HEARTBEAT_ACK_DELAY,
    ) -> None:
        self.world = world
        self._resume_url = resume_url
        self._on_problem = on_problem
        self._on_change = on_change
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.heartbeat_ack_delay = heartbeat_ack_delay
        self.sessions: dict[tuple[int, int], Session] = {}  # the latest session of each shard
        self.connections: dict[tuple[int, int], Connection] = {}
        self.shard_count = 1  # of the latest IDENTIFY
        self.identify_count = 0
        self.resume_count = 0
        self.resume_refused = 0  # RESUMEs answered with op 9 false
        self.connect_count = 0
        self.lost: list[dict[str, Any]] = []  # dispatches to an ended session
        self.ready = asyncio.Event()
        self.received: list[dict[str, Any]] = []
        self._acks: set[asyncio.Task[None]] = set()

    @property
    def session(self) -> Session | None:
        """The session of shard 0 (the only one of an unsharded bot)."""
        return self.sessions.get((0, self.shard_count))

    @property
    def connection(self) -> Connection | None:
        """The live connection of shard 0."""
        return self.connections.get((0, self.shard_count))

    @property
    def connected(self) -> bool:
        """Whether every shard of the latest shard count has an identified (or resumed), open
        connection (for an unsharded bot: whether the bot is connected)."""
        return all(self._live((i, self.shard_count)) for i in range(self.shard_count))

    def connected_for(self, guild_id: int | None) -> bool:
        """Whether the connection that carries ``guild_id``'s events is up."""
        shard = self.shard_for(guild_id)
        return self._live(shard)

    def shard_for(self, guild_id: int | None) -> tuple[int, int]:
        """(id, count) of the shard owning the guild (shard 0 for events without a guild)."""
        count = self.shard_count
        return (0 if guild_id is None else shard_of(guild_id, count), count)

    def _live(self, shard: tuple[int, int]) -> bool:
        c = self.connections.get(shard)
        return c is not None and c.session is not None and not c.session.ended and not c.ws.closed

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
        await conn.send({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
        try:
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self._received(conn, json.loads(msg.data))
                elif msg.type == WSMsgType.BINARY:
                    self._on_problem("gateway", "client sent a binary frame")
                elif msg.type == WSMsgType.ERROR:
                    break
        finally:
            if (
                conn.session is not None
                and not conn.closed_by_gateway
                and ws.close_code in SESSION_ENDING_CLOSES
            ):
                conn.session.ended = True  # the client said goodbye
            for shard, live in list(self.connections.items()):
                if live is conn:
                    del self.connections[shard]
                    self.ready.clear()
                    self._on_change()
        return ws

    async def _received(self, conn: Connection, message: dict[str, Any]) -> None:
        self.received.append(message)
        op = message.get("op")
        data = message.get("d")
        if op == HEARTBEAT:
            task = asyncio.create_task(self._ack(conn))
            self._acks.add(task)
            task.add_done_callback(self._acks.discard)
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

    async def _ack(self, conn: Connection) -> None:
        """Acknowledge a heartbeat after the simulated round trip, without holding up reads."""
        await asyncio.sleep(self.heartbeat_ack_delay)
        await conn.send({"op": HEARTBEAT_ACK})

    async def _identify(self, conn: Connection, data: dict[str, Any]) -> None:
        if data.get("token") != self.world.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        shard = _valid_shard(data.get("shard", [0, 1]))
        if shard is None:
            await conn.ws.close(code=INVALID_SHARD, message=b"Invalid shard.")
            return
        session = Session(
            id=secrets.token_hex(16), intents=int(data.get("intents") or 0), shard=shard
        )
        self.identify_count += 1
        if shard[1] != self.shard_count:
            self.shard_count = shard[1]
            self.sessions = {k: v for k, v in self.sessions.items() if k[1] == shard[1]}
        self.sessions[shard] = session
        conn.session = session
        await self._replace_connection(shard, conn)
        guilds = [g for g in self.world.member_guilds() if session.owns(g.id)]
        ready = self.world.ready_payload(session.id, self._resume_url())
        ready["shard"] = list(shard)
        ready["guilds"] = [{"id": str(g.id), "unavailable": True} for g in guilds]
        await self._dispatch_on(conn, "READY", ready)
        for guild in guilds:
            await self._dispatch_on(conn, "GUILD_CREATE", guild.payload())
        self.ready.set()
        self._on_change()

    async def _resume(self, conn: Connection, data: dict[str, Any]) -> None:
        session = next((s for s in self.sessions.values() if s.id == data.get("session_id")), None)
        if session is None or session.ended or data.get("token") != self.world.token:
            self.resume_refused += 1
            await conn.send({"op": INVALIDATE_SESSION, "d": False})
            self._on_change()
            return
        conn.session = session
        await self._replace_connection(session.shard, conn)
        seq = int(data.get("seq") or 0)
        for message in session.sent:
            if message["s"] > seq:
                await conn.send(message)
        self.resume_count += 1
        await self._dispatch_on(conn, "RESUMED", {})
        self.ready.set()
        self._on_change()

    async def _replace_connection(self, shard: tuple[int, int], conn: Connection) -> None:
        old = self.connections.get(shard)
        self.connections[shard] = conn
        if old is not None and old is not conn and not old.ws.closed:
            old.closed_by_gateway = True
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
        """Send a dispatch to the session owning its guild (``data["guild_id"]``; shard 0 for
        events without one); kept for replay if that connection is down."""
        guild_id = data.get("guild_id")
        shard = self.shard_for(int(guild_id) if guild_id is not None else None)
        session = self.sessions.get(shard)
        if session is None:
            self._on_problem(
                "driver", f"{event} dispatched but shard {list(shard)} never identified"
            )
            return
        session.seq += 1
        message = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        if session.ended:  # Discord has nowhere to send it, now or on a RESUME
            self.lost.append(message)
            return
        session.sent.append(message)
        conn = self.connections.get(shard)
        if conn is not None and conn.session is session:
            await conn.send(message)

    def dispatched(self, shard: tuple[int, int], event: str | None = None) -> list[dict[str, Any]]:
        """The dispatches a shard's latest session was sent (optionally of one event)."""
        session = self.sessions.get(shard)
        sent = session.sent if session is not None else []
        return [m for m in sent if event is None or m["t"] == event]

    async def drop(self, *, code: int = 4000, shard: tuple[int, int] | None = None) -> None:
        """Close the bot's websocket (one shard's, or all) as a network failure would; the
        sessions stay resumable."""
        await self.close_connections(code, shard=shard, resumable=True)

    async def close_connections(
        self, code: int, *, shard: tuple[int, int] | None = None, resumable: bool
    ) -> None:
        """Close the bot's websocket (one shard's, or all) with ``code``; unless ``resumable``,
        the session ends with it."""
        for key in [shard] if shard is not None else list(self.connections):
            conn = self.connections.pop(key, None)
            if conn is None:
                continue
            if conn.session is not None and not resumable:
                conn.session.ended = True
            conn.closed_by_gateway = True
            self.ready.clear()
            await conn.ws.close(code=code)
            self._on_change()

    async def send_reconnect(self, *, shard: tuple[int, int] | None = None) -> None:
        """Ask the bot to reconnect and resume (opcode 7), as Discord does now and then."""
        for conn in self._targets(shard):
            await conn.send({"op": RECONNECT, "d": None})

    async def invalidate_session(
        self, resumable: bool, *, shard: tuple[int, int] | None = None
    ) -> None:
        """Send op 9 (Invalid Session) with ``d = resumable``; unless resumable, the session
        ends (the client must IDENTIFY again)."""
        for conn in self._targets(shard):
            if conn.session is not None and not resumable:
                conn.session.ended = True
                self.ready.clear()
                self._on_change()
            await conn.send({"op": INVALIDATE_SESSION, "d": resumable})

    def _targets(self, shard: tuple[int, int] | None) -> list[Connection]:
        if shard is None:
            return list(self.connections.values())
        conn = self.connections.get(shard)
        return [] if conn is None else [conn]

    async def close(self) -> None:
        """Close every connection (server shutdown)."""
        for task in list(self._acks):
            task.cancel()
        conns = list(self.connections.values())
        self.connections.clear()
        for conn in conns:
            if not conn.ws.closed:
                await conn.ws.close(code=1001)


def _valid_shard(value: Any) -> tuple[int, int] | None:
    """``[id, count]`` as a tuple when Discord would accept it, else None."""
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        and value[1] >= 1
        and 0 <= value[0] < value[1]
    ):
        return int(value[0]), int(value[1])
    return None
