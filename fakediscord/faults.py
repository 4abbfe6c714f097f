"""Discord going away, for the fake: REST failures and delays per route, gateway closes, op 7, op 9.

Off unless a test arms a fault (``fake.faults``), like the rate limits. REST faults are armed per
route and hit the next matching requests, so a test chooses the moment by arming one just before
the step it wants to disturb (``skip`` lets the first few through)::

    fake.faults.rest("POST /channels/{channel}/messages", status=500, after_processing=True)
    fake.faults.rest("PATCH /channels/{channel}/messages/{mid}", status=503, times=2)
    fake.faults.rest("POST /interactions/{iid}/{token}/callback", delay=1.0)
    fake.faults.rest("PATCH /webhooks/{app}/{token}/messages/{mid}", disconnect=True, delay=2.0)
    await fake.faults.close(4009)
    await fake.faults.reconnect()
    await fake.faults.invalid_session(resumable=False)

A REST fault holds the request ``delay`` seconds, then (unless it is only a delay) answers
``status`` or closes the connection without an answer (``disconnect``: a timeout or a reset, the
client never learns the outcome). With ``after_processing`` the fake first does what the request
asks (creates the message, applies the edit, answers the interaction) and only then fails: the
case where a blind retry does it twice. ``after_processing`` with only a ``delay`` is a slow
reply: the change is made (members see it) and its answer comes ``delay`` seconds later, as
when a busy bot reads the answer late.

The gateway faults act as Discord documents for each close code and opcode (see
:data:`fakediscord.gateway.CLOSE_CODES`): a session survives only the closes Discord lets a
client resume, and a RESUME of an ended session is answered with op 9 ``false``.

Every fault the fake applied is in :attr:`Faults.log`, so a test can check its fault happened.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass

from aiohttp import web

from fakediscord.gateway import CLOSE_CODES, Gateway

Shard = tuple[int, int]
REASONS = {500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable"}


@dataclass(slots=True)
class RestFault:
    """What happens to the next ``times`` requests of one route (after ``skip`` go through)."""

    method: str
    template: str
    status: int | None = None
    delay: float = 0.0
    disconnect: bool = False
    after_processing: bool = False
    times: int | None = 1  # None: every request, until cleared
    skip: int = 0
    hits: int = 0

    @property
    def route(self) -> str:
        """``METHOD /template``, as it was armed."""
        return f"{self.method} {self.template}"

    @property
    def slow_reply(self) -> bool:
        """Whether the request takes effect at once and only its answer is held."""
        return self.after_processing and self.status is None and not self.disconnect

    @property
    def spent(self) -> bool:
        """Whether it hit as many requests as it was armed for."""
        return self.times is not None and self.hits >= self.times

    def describe(self) -> str:
        """A short description for the log ("500 after processing", "disconnect after 2.0s")."""
        parts = []
        if self.delay:
            parts.append(f"held {self.delay:g}s")
        if self.status is not None:
            parts.append(f"answered {self.status}")
        if self.disconnect:
            parts.append("disconnected")
        if self.after_processing:
            parts.append("after processing")
        return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class Injected:
    """One fault the fake applied: ``kind`` is ``rest`` or ``gateway``."""

    kind: str
    what: str
    detail: str
    at: float


class Faults:
    """The faults armed on one :class:`~fakediscord.server.FakeDiscord`, and those it applied."""

    def __init__(
        self,
        gateway: Gateway,
        routes: Collection[tuple[str, str]],
        *,
        on_change: Callable[[], None],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._gateway = gateway
        self._routes = set(routes)
        self._on_change = on_change
        self.clock = clock
        self.armed: list[RestFault] = []
        self.log: list[Injected] = []
        self._released = asyncio.Event()  # set when the fake stops: held requests let go

    # ----------------------------------------------------------------- REST

    def rest(
        self,
        route: str,
        *,
        status: int | None = None,
        delay: float = 0.0,
        disconnect: bool = False,
        after_processing: bool = False,
        times: int | None = 1,
        skip: int = 0,
    ) -> RestFault:
        """Arm a fault on ``route`` ("METHOD /template", a template of the fake's routes).

        ``status`` (a 5xx) or ``disconnect`` says how the request fails; ``delay`` alone makes a
        slow answer. ``after_processing``: the request takes effect before it fails.
        """
        method, _, template = route.partition(" ")
        if (method, template) not in self._routes:
            known = sorted(f"{m} {t}" for m, t in self._routes)
            raise ValueError(f"the fake has no route {route!r} (routes: {known})")
        if status is not None and not 500 <= status <= 599:
            raise ValueError(f"a fault answers a server error (5xx), not {status}")
        if status is not None and disconnect:
            raise ValueError("a fault either answers a status or disconnects, not both")
        if after_processing and status is None and not disconnect and delay <= 0:
            raise ValueError("after_processing needs a status, disconnect or delay")
        if status is None and not disconnect and delay <= 0:
            raise ValueError("a fault needs a status, disconnect or a delay")
        if times is not None and times < 1:
            raise ValueError("times is at least 1 (None: until cleared)")
        fault = RestFault(
            method, template, status, delay, disconnect, after_processing, times, max(0, skip)
        )
        self.armed.append(fault)
        return fault

    def clear(self) -> None:
        """Disarm every REST fault."""
        self.armed.clear()

    def take(self, method: str, template: str) -> RestFault | None:
        """The fault hitting this request, if one is armed for its route (counted as a hit)."""
        for fault in self.armed:
            if fault.method != method or fault.template != template or fault.spent:
                continue
            if fault.skip:
                fault.skip -= 1
                return None
            fault.hits += 1
            if fault.spent:
                self.armed.remove(fault)
            return fault
        return None

    async def hold(self, fault: RestFault) -> None:
        """Wait out the fault's delay (a slow Discord), or until the fake stops."""
        if fault.delay > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._released.wait(), fault.delay)

    def release(self) -> None:
        """Let every held request go on at once (the fake is stopping)."""
        self._released.set()

    def fail(self, fault: RestFault, request: web.Request, path: str) -> web.Response | None:
        """The failed answer to ``request`` (None: the fault was only a delay; answer normally).

        A disconnect closes the connection: the response returned is never sent.
        """
        self.note("rest", f"{request.method} {path}", fault.describe())
        if fault.status is None and not fault.disconnect:
            return None
        if fault.disconnect:
            if request.transport is not None:
                request.transport.close()
            return web.Response(status=204)
        assert fault.status is not None
        reason = REASONS.get(fault.status, "Server Error")
        # discord.py decodes JSON only when Content-Type is exactly "application/json".
        body = json.dumps({"message": f"{fault.status}: {reason}", "code": 0}).encode()
        return web.Response(
            body=body, status=fault.status, headers={"Content-Type": "application/json"}
        )

    # ----------------------------------------------------------------- gateway

    async def close(self, code: int, *, shard: Shard | None = None) -> None:
        """Close the bot's gateway connection (one shard's, or all) with ``code``; the session
        survives only when Discord lets a client resume after that code."""
        _, resumable = CLOSE_CODES.get(code, (True, True))
        self.note("gateway", f"close {code}", "resumable" if resumable else "session ended")
        await self._gateway.close_connections(code, shard=shard, resumable=resumable)

    async def reconnect(self, *, shard: Shard | None = None) -> None:
        """Send op 7 (Reconnect): the bot should reconnect and resume."""
        self.note("gateway", "op 7", "reconnect")
        await self._gateway.send_reconnect(shard=shard)

    async def invalid_session(self, resumable: bool, *, shard: Shard | None = None) -> None:
        """Send op 9 (Invalid Session) with ``d = resumable``; with ``False`` the session ends
        and the bot must identify again."""
        self.note("gateway", "op 9", f"d={str(resumable).lower()}")
        await self._gateway.invalidate_session(resumable, shard=shard)

    # ----------------------------------------------------------------- record

    def note(self, kind: str, what: str, detail: str) -> None:
        """Record an applied fault."""
        self.log.append(Injected(kind, what, detail, self.clock()))
        self._on_change()

    def applied(self, kind: str | None = None) -> list[Injected]:
        """The faults applied so far (optionally of one kind: ``rest`` or ``gateway``)."""
        return [i for i in self.log if kind is None or i.kind == kind]
