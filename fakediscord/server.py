"""The fake Discord server: an aiohttp app on 127.0.0.1 with the gateway and the REST routes.

>>> # async with FakeDiscord() as fake:   # serves on an ephemeral port
>>> #     fake.url  -> "http://127.0.0.1:PORT"; give it to the launcher as --api-base

Every request the bot makes goes through :meth:`FakeDiscord._route`. Unknown routes answer 404
with a JSON error and are recorded as problems, as are limit violations (answered 400 like
Discord's "Invalid Form Body"), late first responses to interactions (after 3 s; answered 404
"Unknown interaction") and protocol misuse (responding twice, updating a message on a slash
command...). :meth:`FakeDiscord.problems` lists them; the test fixture fails on any.

Like Discord, a channel message created with ``nonce`` and ``enforce_nonce`` is created once:
the same nonce again (within :data:`NONCE_WINDOW`) returns the first message. Faults armed on
``fake.faults`` (:mod:`fakediscord.faults`) fail or delay requests of a route.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import BodyPartReader, web

from fakediscord import limits
from fakediscord.faults import Faults
from fakediscord.gateway import HEARTBEAT_INTERVAL_MS, Gateway
from fakediscord.places import (
    INVALID_TOKEN,
    TOKEN_LIFETIME,
    USER_INSTALL,
    USER_INSTALL_FOLLOWUPS,
    PlaceError,
    authorizing_owners,
    channel_payload,
    check_channel_access,
    check_post,
    context_of,
    dm_with,
    edit_thread,
    location_payload,
    open_thread,
)
from fakediscord.ratelimits import RateLimits
from fakediscord.state import (
    CLIENT_NAME_MARK,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    Attachment,
    Channel,
    Interaction,
    Message,
    Problem,
    Snowflakes,
    User,
    World,
    new_token,
)

_log = logging.getLogger(__name__)

API_PREFIX = "/api/v10"
RESPONSE_DEADLINE = 3.0
# How long a message's nonce is remembered for ``enforce_nonce`` (Discord: "the past few
# minutes"; the fake's reading is the short end, so a client cannot lean on a long window).
NONCE_WINDOW = 120.0
ARRIVED = web.RequestKey("fake_arrived", float)  # when a REST request reached the fake

# Interaction types and callback types.
APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
CHANNEL_MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9
ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {CHANNEL_MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL},
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE},
}

Handler = Callable[..., Awaitable[web.StreamResponse]]


class ApiError(Exception):
    """An error answered to the bot as Discord would (status, JSON code and message)."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def _json(data: Any, status: int = 200) -> web.Response:
    # discord.py decodes JSON only when Content-Type is exactly "application/json".
    body = json.dumps(data).encode()
    return web.Response(body=body, status=status, headers={"Content-Type": "application/json"})


def _no_content() -> web.Response:
    return web.Response(status=204)


class FakeDiscord:
    """The fake Discord API (gateway + REST) for one bot, with everything it recorded.

    Use as ``async with FakeDiscord() as fake:`` or call :meth:`start` / :meth:`stop`.
    """

    def __init__(
        self,
        world: World | None = None,
        *,
        response_deadline: float = RESPONSE_DEADLINE,
        reject_invalid: bool = True,
        port: int = 0,
        host: str = "127.0.0.1",
        recommended_shards: int | None = None,
        heartbeat_interval_ms: int = HEARTBEAT_INTERVAL_MS,
    ) -> None:
        self.world = world or World.default()
        self.recommended_shards = recommended_shards
        self.response_deadline = response_deadline
        self.reject_invalid = reject_invalid
        self.host = host
        self.port = port
        self.snowflakes = Snowflakes()
        self.messages: dict[int, Message] = {}
        self.attachments: dict[int, Attachment] = {}
        self.interactions: dict[str, Interaction] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.command_syncs: list[tuple[int | None, int]] = []
        self.requests: list[tuple[str, str, int]] = []
        self.client_requests: list[tuple[str, str, str, int]] = []  # client, method, path, status
        self.client_events: list[str] = []
        self.problems_found: list[Problem] = []
        self.expected_problems: list[str] = []
        self._event = asyncio.Event()
        self._version = 0
        self.gateway = Gateway(
            self.world,
            resume_url=lambda: self.ws_url,
            on_problem=self.problem,
            on_change=self.changed,
            heartbeat_interval_ms=heartbeat_interval_ms,
        )
        self._runner: web.AppRunner | None = None
        self._templates: dict[re.Pattern[str], str] = {}
        self._routes = self._build_routes()
        self.rate_limits: RateLimits | None = None
        self.faults = Faults(
            self.gateway,
            [(method, self._templates[pattern]) for method, pattern, _ in self._routes],
            on_change=self.changed,
        )
        self._nonces: dict[tuple[int, str], tuple[float, int]] = {}  # -> (when, message id)
        self.clock_offset = 0.0  # seconds tests moved the fake's clock forward

    def now(self) -> float:
        """The fake's clock (monotonic, plus what :meth:`advance_clock` added): interaction
        deadlines and token lifetimes run on it."""
        return time.monotonic() + self.clock_offset

    def advance_clock(self, seconds: float) -> None:
        """Move the fake's clock forward (a test's way to let interaction tokens expire)."""
        self.clock_offset += seconds
        self.changed()

    # ----------------------------------------------------------------- lifecycle

    @property
    def url(self) -> str:
        """Base URL of the fake (give it to the launcher as ``--api-base``)."""
        return f"http://{self.host}:{self.port}"

    @property
    def api_url(self) -> str:
        """What discord.py's ``Route.BASE`` must be."""
        return self.url + API_PREFIX

    @property
    def ws_url(self) -> str:
        """The gateway websocket URL."""
        return f"ws://{self.host}:{self.port}/gateway"

    async def start(self) -> FakeDiscord:
        """Serve on ``host:port`` (port 0 picks a free one)."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/attachments/{id}/{filename}", self._serve_attachment)
        app.router.add_post("/_fake/client-event", self._client_event)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._route)
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        app.on_shutdown.append(self._close_gateway)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]  # the port the system gave, when asked for 0
        return self

    async def stop(self) -> None:
        """Stop serving: no new connection is taken, then the gateway's are closed (a bot
        reconnecting meanwhile would otherwise keep the fake waiting on its handler)."""
        self.faults.release()
        if self._runner is not None:
            await self._runner.cleanup()  # stops listening, then _close_gateway
            self._runner = None
        else:  # never started: nothing listens
            await self.gateway.close()

    async def _close_gateway(self, app: web.Application) -> None:
        await self.gateway.close()

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def enable_rate_limits(self, rate_limits: RateLimits | None = None) -> RateLimits:
        """Apply Discord's rate limits from now on (off by default); returns the buckets, whose
        ``hits`` list every 429 answered."""
        self.rate_limits = rate_limits or RateLimits()
        return self.rate_limits

    # ----------------------------------------------------------------- bookkeeping

    def problem(self, kind: str, detail: str) -> None:
        """Record a problem (limit violation, late response, unknown route, misuse)."""
        _log.warning("fake discord problem [%s] %s", kind, detail)
        self.problems_found.append(Problem(kind, detail))
        self.changed()

    def problems(self) -> list[Problem]:
        """Problems recorded so far, minus those a test declared with :meth:`expect_problem`."""
        return [
            p
            for p in self.problems_found
            if not any(pattern in str(p) for pattern in self.expected_problems)
        ]

    def expect_problem(self, substring: str) -> None:
        """Declare that problems containing ``substring`` are what the test wants."""
        self.expected_problems.append(substring)

    def changed(self) -> None:
        """Wake everything waiting in :meth:`wait_for`."""
        self._version += 1
        event, self._event = self._event, asyncio.Event()
        event.set()

    async def wait_for(
        self, predicate: Callable[[], Any], timeout: float = 10.0, what: str = "condition"
    ) -> Any:
        """Wait until ``predicate()`` is truthy (re-checked after every change); return it."""
        deadline = time.monotonic() + timeout
        while True:
            event = self._event
            result = predicate()
            if result:
                return result
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout}s waiting for {what}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(remaining, 0.5))

    async def wait_bot_ready(self, timeout: float = 20.0) -> None:
        """Wait until the bot identified/resumed and (when run by the launcher) said 'ready'."""
        await self.wait_for(lambda: self.gateway.connected, timeout, "the bot to connect")

    async def wait_client_event(self, event: str, count: int = 1, timeout: float = 20.0) -> None:
        """Wait for the launcher's report of a discord.py event ('ready', 'resumed')."""
        await self.wait_for(
            lambda: self.client_events.count(event) >= count, timeout, f"client event {event!r}"
        )

    def channel_messages(self, channel: Channel | int | str) -> list[Message]:
        """Messages everyone sees in a channel, oldest first (not deleted, not ephemeral)."""
        cid = self.world.channel(channel).id
        return [
            m
            for m in self.messages.values()
            if m.channel_id == cid and not m.ephemeral and not m.deleted
        ]

    def ephemerals(self, user: Any, channel: Channel | int | str | None = None) -> list[Message]:
        """Ephemeral messages a member sees, oldest first (optionally in one channel)."""
        uid = self.world.user(user).id
        cid = None if channel is None else self.world.channel(channel).id
        return [
            m
            for m in self.messages.values()
            if m.ephemeral_for == uid and not m.deleted and cid in (None, m.channel_id)
        ]

    def commands(self, guild: int | None = None) -> list[dict[str, Any]]:
        """Registered commands (global, or of one guild)."""
        return self.global_commands if guild is None else self.guild_commands.get(guild, [])

    def sync_count(self, guild: int | None = None) -> int:
        """How many bulk overwrites (PUT) of commands happened, globally or for one guild."""
        return sum(1 for g, _ in self.command_syncs if g == guild)

    # ----------------------------------------------------------------- routing

    def _build_routes(self) -> list[tuple[str, re.Pattern[str], Handler]]:
        table: list[tuple[str, str, Handler]] = [
            ("GET", "/users/@me", self._get_me),
            ("POST", "/users/@me/channels", self._open_dm),
            ("GET", "/users/{user}", self._get_user),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/applications/@me", self._get_application),
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway_bot),
            ("GET", "/applications/{app}/commands", self._list_commands),
            ("PUT", "/applications/{app}/commands", self._put_commands),
            ("POST", "/applications/{app}/commands", self._post_command),
            ("GET", "/applications/{app}/guilds/{guild}/commands", self._list_commands),
            ("PUT", "/applications/{app}/guilds/{guild}/commands", self._put_commands),
            ("POST", "/applications/{app}/guilds/{guild}/commands", self._post_command),
            ("POST", "/interactions/{iid}/{token}/callback", self._callback),
            ("POST", "/webhooks/{app}/{token}", self._followup),
            ("GET", "/webhooks/{app}/{token}/messages/{mid}", self._get_webhook_message),
            ("PATCH", "/webhooks/{app}/{token}/messages/{mid}", self._edit_webhook_message),
            ("DELETE", "/webhooks/{app}/{token}/messages/{mid}", self._delete_webhook_message),
            ("GET", "/channels/{channel}", self._get_channel),
            ("PATCH", "/channels/{channel}", self._edit_channel),
            ("POST", "/channels/{channel}/messages/{mid}/threads", self._thread_from_message),
            ("GET", "/channels/{channel}/messages", self._history),
            ("POST", "/channels/{channel}/messages", self._create_message),
            ("GET", "/channels/{channel}/messages/{mid}", self._get_message),
            ("PATCH", "/channels/{channel}/messages/{mid}", self._edit_message),
            ("DELETE", "/channels/{channel}/messages/{mid}", self._delete_message),
            ("POST", "/channels/{channel}/typing", self._typing),
            ("GET", "/guilds/{guild}", self._get_guild),
            ("GET", "/guilds/{guild}/channels", self._get_guild_channels),
            ("GET", "/guilds/{guild}/members/{user}", self._get_member),
        ]
        compiled = []
        for method, path, handler in table:
            pattern = re.escape(path)
            pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", pattern)
            regex = re.compile(f"^{pattern}$")
            self._templates[regex] = path
            compiled.append((method, regex, handler))
        return compiled

    async def _route(self, request: web.Request) -> web.StreamResponse:
        request[ARRIVED] = self.now()
        path = "/" + request.match_info["tail"]
        for method, pattern, handler in self._routes:
            match = pattern.match(path)
            if match and method == request.method:
                if request.headers.get("Authorization") != f"Bot {self.world.token}" and not (
                    path.startswith(("/webhooks/", "/interactions/"))
                ):
                    self._record(request, path, 401)
                    return _json({"message": "401: Unauthorized", "code": 0}, 401)
                headers: dict[str, str] = {}
                if self.rate_limits is not None:
                    verdict = self.rate_limits.check(
                        method, self._templates[pattern], match.groupdict(), path
                    )
                    headers = verdict.headers
                    if not verdict.allowed:
                        self._record(request, path, 429)
                        self.changed()
                        body = {
                            "message": "You are being rate limited.",
                            "retry_after": verdict.retry_after,
                            "global": verdict.scope == "global",
                        }
                        response = _json(body, 429)
                        response.headers.update(headers)
                        return response
                fault = self.faults.take(method, self._templates[pattern])
                if fault is not None and not fault.slow_reply:
                    await self.faults.hold(fault)
                    if not fault.after_processing:
                        failed = self.faults.fail(fault, request, path)
                        if failed is not None:
                            self._record(request, path, 0 if fault.disconnect else failed.status)
                            return failed
                try:
                    response = await handler(request, **match.groupdict())
                except (ApiError, PlaceError) as exc:
                    response = _json({"message": exc.message, "code": exc.code}, exc.status)
                if fault is not None and fault.slow_reply:
                    self.faults.fail(fault, request, path)  # noted; the answer comes late
                    self.changed()  # members see the change before the bot reads its answer
                    await self.faults.hold(fault)
                elif fault is not None and fault.after_processing:
                    self._answer_lost(match.groupdict())
                    failed = self.faults.fail(fault, request, path)
                    assert failed is not None  # after_processing always fails
                    response = failed
                response.headers.update(headers)
                lost = fault is not None and fault.disconnect
                self._record(request, path, 0 if lost else response.status)
                self.changed()
                return response
        return await self._unknown(request)

    def _answer_lost(self, params: dict[str, str]) -> None:
        """An interaction callback took effect but its answer is lost: the client may send it
        once more to learn the outcome (Discord answers "already acknowledged")."""
        interaction = self.interactions.get(params.get("token", ""))
        if interaction is not None and "iid" in params:
            interaction.lost_answers += 1

    def _record(self, request: web.Request, path: str, status: int) -> None:
        self.requests.append((request.method, path, status))
        agent = request.headers.get("User-Agent", "")
        client = agent.split(CLIENT_NAME_MARK, 1)[1] if CLIENT_NAME_MARK in agent else ""
        self.client_requests.append((client, request.method, path, status))

    def requests_from(self, client: str) -> list[tuple[str, str, int]]:
        """(method, path, status) of the REST calls of the bot process launched with
        ``FAKEDISCORD_CLIENT_NAME=client``."""
        return [(m, p, s) for c, m, p, s in self.client_requests if c == client]

    async def _unknown(self, request: web.Request) -> web.StreamResponse:
        self._record(request, request.path, 404)
        self.problem("unknown-route", f"{request.method} {request.path_qs}")
        return _json({"message": "404: Not Found (fake Discord has no such route)", "code": 0}, 404)

    async def _client_event(self, request: web.Request) -> web.Response:
        data = await request.json()
        self.client_events.append(str(data.get("event")))
        self.changed()
        return _no_content()

    async def _serve_attachment(self, request: web.Request) -> web.Response:
        att = self.attachments.get(int(request.match_info["id"]))
        if att is None or att.filename != request.match_info["filename"]:
            raise web.HTTPNotFound()
        return web.Response(
            body=att.data, content_type=att.content_type or "application/octet-stream"
        )

    # ----------------------------------------------------------------- helpers

    def _violations(self, where: str, found: list[str]) -> None:
        for detail in found:
            self.problem("limit", f"{where}: {detail}")
        if found and self.reject_invalid:
            raise ApiError(400, 50035, "Invalid Form Body: " + "; ".join(found))

    async def _read_body(self, request: web.Request) -> tuple[dict[str, Any], list[Attachment]]:
        """JSON or multipart (payload_json + files[n]) -> payload and new attachments."""
        files: dict[int, tuple[str, bytes, str | None]] = {}
        if request.content_type.startswith("multipart/"):
            payload: dict[str, Any] = {}
            reader = await request.multipart()
            async for part in reader:
                if not isinstance(part, BodyPartReader):  # Discord's uploads nest no multipart
                    self.problem("protocol", "a nested multipart body")
                    continue
                name = part.name or ""
                if name == "payload_json":
                    payload = json.loads(await part.text())
                elif m := re.fullmatch(r"files\[(\d+)\]", name):
                    data = await part.read()
                    ctype = part.headers.get("Content-Type")
                    files[int(m.group(1))] = (part.filename or "file", bytes(data), ctype)
                else:
                    self.problem("protocol", f"unexpected multipart field {name!r}")
        elif request.can_read_body:
            payload = await request.json()
        else:
            payload = {}
        # The "message" of a callback carries the attachment list.
        inner = payload.get("data") if "type" in payload and "data" in payload else payload
        attachments: list[Attachment] = []
        described = {
            a.get("id"): a for a in (inner or {}).get("attachments", []) if isinstance(a, dict)
        }
        for index, (filename, data, ctype) in sorted(files.items()):
            meta = described.get(index, described.get(str(index), {}))
            att_id = self.snowflakes.next()
            name = meta.get("filename") or filename
            att = Attachment(
                id=att_id,
                filename=name,
                data=data,
                description=meta.get("description"),
                content_type=_guess_type(name, ctype),
                url=f"{self.url}/attachments/{att_id}/{name}",
            )
            attachments.append(att)
        return payload, attachments

    def _final_attachments(
        self,
        payload: dict[str, Any],
        uploaded: list[Attachment],
        existing: list[Attachment] | None,
    ) -> list[Attachment]:
        """The attachments a message has after a create/edit with these uploads."""
        if "attachments" not in payload:
            return (existing or []) + uploaded
        kept: list[Attachment] = []
        known = {a.id: a for a in existing or []}
        for item in payload.get("attachments") or []:
            try:
                att_id = int(item.get("id"))
            except (TypeError, ValueError):
                continue
            if att_id in known:
                kept.append(known[att_id])
        return kept + uploaded

    def _check(
        self,
        where: str,
        payload: dict[str, Any],
        final_attachments: list[Attachment],
        *,
        creating: bool,
    ) -> None:
        found = limits.check_message(
            payload,
            attachment_names={a.filename for a in final_attachments},
            creating=creating and not final_attachments,
        )
        self._violations(where, found)

    def _new_message(
        self,
        channel_id: int,
        payload: dict[str, Any],
        attachments: list[Attachment],
        *,
        interaction: Interaction | None = None,
        flags: int | None = None,
    ) -> Message:
        channel = self.world.channel(channel_id)
        message = Message(
            id=self.snowflakes.next(),
            channel_id=channel_id,
            guild_id=channel.guild_id,
            author=self.world.bot_user,
            content=payload.get("content") or "",
            embeds=copy.deepcopy(payload.get("embeds") or []),
            components=copy.deepcopy(payload.get("components") or []),
            attachments=attachments,
            flags=(payload.get("flags") or 0) if flags is None else flags,
        )
        if interaction is not None:
            message.application_id = self.world.application_id
            message.interaction_id = interaction.id
            message.interaction_type = interaction.type
            message.interaction_user = interaction.user
            message.authorizing = dict(interaction.authorizing)
            message.type = 20 if interaction.type == APPLICATION_COMMAND else 19
            if message.flags & FLAG_EPHEMERAL:
                message.ephemeral_for = interaction.user.id
        for att in attachments:
            self.attachments[att.id] = att
        self.messages[message.id] = message
        return message

    def _apply_edit(
        self, message: Message, payload: dict[str, Any], attachments: list[Attachment]
    ) -> None:
        if not message.loading:
            message.history.append(message.snapshot())
            message.edited_at = time.time()
        else:
            message.flags &= ~FLAG_LOADING
        if "content" in payload:
            message.content = payload["content"] or ""
        if "embeds" in payload:
            message.embeds = copy.deepcopy(payload["embeds"] or [])
        if "components" in payload:
            message.components = copy.deepcopy(payload["components"] or [])
        if "flags" in payload and payload["flags"] is not None:
            keep = message.flags & (FLAG_EPHEMERAL | FLAG_LOADING)
            message.flags = (payload["flags"] & ~FLAG_EPHEMERAL) | keep
        message.attachments = attachments
        for att in attachments:
            self.attachments[att.id] = att

    def _message(self, message_id: int) -> Message:
        message = self.messages.get(message_id)
        if message is None or message.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return message

    def _interaction(self, token: str, app: str | None = None) -> Interaction:
        interaction = self.interactions.get(token)
        if interaction is None or (app is not None and app != str(self.world.application_id)):
            raise ApiError(404, 10015, "Unknown Webhook")
        age = self.now() - interaction.sent_at
        if interaction.dispatched and age > TOKEN_LIFETIME:
            self.problem(
                "expired-token", f"interaction {interaction.id}: token used {age / 60:.1f} min on"
            )
            raise ApiError(*INVALID_TOKEN)
        return interaction

    # ----------------------------------------------------------------- simple routes

    async def _get_me(self, request: web.Request) -> web.Response:
        return _json({**self.world.bot_user.payload(), "verified": True, "mfa_enabled": False})

    async def _get_user(self, request: web.Request, user: str) -> web.Response:
        try:
            return _json(self.world.user(int(user)).payload())
        except (KeyError, ValueError):
            raise ApiError(404, 10013, "Unknown User") from None

    async def _get_application(self, request: web.Request) -> web.Response:
        return _json(self.world.application_payload())

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return _json({"url": self.ws_url})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        return _json(
            {
                "url": self.ws_url,
                "shards": self.shards_to_recommend(),
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    def shards_to_recommend(self) -> int:
        """What ``GET /gateway/bot`` recommends: the given count, else one shard per 1,000
        guilds as Discord does."""
        if self.recommended_shards is not None:
            return self.recommended_shards
        return max(1, -(-len(self.world.guilds) // 1000))

    async def _get_guild(self, request: web.Request, guild: str) -> web.Response:
        try:
            return _json(self.world.guild(int(guild)).payload())
        except (KeyError, ValueError):
            raise ApiError(404, 10004, "Unknown Guild") from None

    async def _get_guild_channels(self, request: web.Request, guild: str) -> web.Response:
        try:
            return _json([c.payload() for c in self.world.guild(int(guild)).channels])
        except (KeyError, ValueError):
            raise ApiError(404, 10004, "Unknown Guild") from None

    async def _get_member(self, request: web.Request, guild: str, user: str) -> web.Response:
        try:
            member = self.world.guild(int(guild)).member(int(user))
        except (KeyError, ValueError):
            member = None
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return _json(member.payload())

    async def _get_channel(self, request: web.Request, channel: str) -> web.Response:
        return _json(channel_payload(self.world, self._channel(channel)))

    def _channel(self, channel: str) -> Channel:
        """The channel of a channel route; 403 Missing Access where the bot is not a member
        (recorded as a problem: the bot must answer there through the interaction)."""
        try:
            found = self.world.channel(int(channel))
        except (KeyError, ValueError):
            raise ApiError(404, 10003, "Unknown Channel") from None
        try:
            check_channel_access(self.world, found)
        except PlaceError:
            self.problem("missing-access", f"channel route on {found.name} (bot not a member)")
            raise
        return found

    async def _open_dm(self, request: web.Request) -> web.Response:
        payload = await request.json()
        try:
            channel = dm_with(self.world, int(payload["recipient_id"]), self.snowflakes.next())
        except (KeyError, ValueError, TypeError):
            raise ApiError(400, 50035, "Invalid Form Body: recipient_id") from None
        return _json(channel_payload(self.world, channel))

    async def _edit_channel(self, request: web.Request, channel: str) -> web.Response:
        chan = self._channel(channel)
        if not chan.thread:
            raise ApiError(403, 50013, "Missing Permissions")
        payload = await request.json()
        edit_thread(self.world, self.world.guild(chan.guild_id or 0), chan, payload)
        await self.gateway.dispatch("THREAD_UPDATE", chan.payload())
        return _json(chan.payload())

    async def _thread_from_message(
        self, request: web.Request, channel: str, mid: str
    ) -> web.Response:
        parent = self._channel(channel)
        message = self._channel_message(channel, mid)
        payload = await request.json()
        name = str(payload.get("name") or "")
        if not name:
            raise ApiError(400, 50035, "Invalid Form Body: name")
        thread = open_thread(self.world, parent, message, name, self.world.bot_user)
        await self.gateway.dispatch("THREAD_CREATE", {**thread.payload(), "newly_created": True})
        return _json(thread.payload(), 201)

    async def _typing(self, request: web.Request, channel: str) -> web.Response:
        self._channel(channel)
        return _no_content()

    # ----------------------------------------------------------------- commands

    def _command_payload(self, data: dict[str, Any], guild_id: int | None) -> dict[str, Any]:
        stored = copy.deepcopy(data)
        stored["id"] = str(self.snowflakes.next())
        stored["application_id"] = str(self.world.application_id)
        stored["version"] = str(self.snowflakes.next())
        stored.setdefault("type", 1)
        stored.setdefault("description", "")
        stored.setdefault("default_member_permissions", None)
        if guild_id is not None:
            stored["guild_id"] = str(guild_id)
        return stored

    def _guild_id(self, guild: str | None) -> int | None:
        if guild is None:
            return None
        try:
            return self.world.guild(int(guild)).id
        except (KeyError, ValueError):
            raise ApiError(404, 10004, "Unknown Guild") from None

    async def _list_commands(
        self, request: web.Request, app: str, guild: str | None = None
    ) -> web.Response:
        return _json(self.commands(self._guild_id(guild)))

    async def _put_commands(
        self, request: web.Request, app: str, guild: str | None = None
    ) -> web.Response:
        guild_id = self._guild_id(guild)
        payload = await request.json()
        where = "PUT commands" + (f" (guild {guild_id})" if guild_id else "")
        self._violations(where, limits.check_commands(payload))
        stored = [self._command_payload(c, guild_id) for c in payload]
        if guild_id is None:
            self.global_commands = stored
        else:
            self.guild_commands[guild_id] = stored
        self.command_syncs.append((guild_id, len(stored)))
        return _json(stored)

    async def _post_command(
        self, request: web.Request, app: str, guild: str | None = None
    ) -> web.Response:
        guild_id = self._guild_id(guild)
        payload = await request.json()
        self._violations("POST command", limits.check_command(payload))
        stored = self._command_payload(payload, guild_id)
        target = (
            self.global_commands
            if guild_id is None
            else self.guild_commands.setdefault(guild_id, [])
        )
        target[:] = [c for c in target if c["name"] != stored["name"]] + [stored]
        return _json(stored, 201)

    # ----------------------------------------------------------------- interactions

    async def _callback(self, request: web.Request, iid: str, token: str) -> web.Response:
        interaction = self.interactions.get(token)
        if interaction is None or str(interaction.id) != iid:
            self.problem("protocol", f"callback for unknown interaction {iid}")
            raise ApiError(404, 10062, "Unknown interaction")
        # The 3 s run to the request's arrival: a Discord slow to answer is not the bot's fault.
        now = request.get(ARRIVED, self.now())
        payload, uploaded = await self._read_body(request)
        ctype = payload.get("type")
        data = payload.get("data") or {}
        where = f"interaction {interaction.id} callback type {ctype}"
        if interaction.responded:
            if interaction.lost_answers:  # asking again is how the client learns it went through
                interaction.lost_answers -= 1
            else:
                self.problem("protocol", f"{where}: interaction already acknowledged")
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        latency = now - interaction.sent_at
        if latency > self.response_deadline:
            interaction.rejected = f"late by {latency:.2f}s"
            self.problem(
                "late-response",
                f"{where}: first response after {latency:.2f}s "
                f"(deadline {self.response_deadline}s)",
            )
            raise ApiError(404, 10062, "Unknown interaction")
        if ctype not in ALLOWED_CALLBACKS.get(interaction.type, set()):
            self.problem(
                "protocol", f"{where}: not allowed for interaction type {interaction.type}"
            )
            raise ApiError(400, 50035, "Invalid Form Body: interaction response type")

        message: Message | None = None
        if ctype in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
            base = None
            if ctype == UPDATE_MESSAGE:
                base = self._message(interaction.component_message_id or 0)
            final = self._final_attachments(data, uploaded, base.attachments if base else None)
            self._check(where, data, final, creating=ctype == CHANNEL_MESSAGE)
            if base is None:
                message = self._new_message(
                    interaction.channel_id, data, final, interaction=interaction
                )
                interaction.original_message_id = message.id
            else:
                self._apply_edit(base, data, final)
                message = base
                interaction.original_message_id = base.id
        elif ctype == DEFERRED_MESSAGE:
            flags = FLAG_LOADING | ((data.get("flags") or 0) & FLAG_EPHEMERAL)
            message = self._new_message(
                interaction.channel_id, {}, [], interaction=interaction, flags=flags
            )
            interaction.deferred_ephemeral = bool(flags & FLAG_EPHEMERAL)
            interaction.original_message_id = message.id
        elif ctype == DEFERRED_UPDATE:
            interaction.original_message_id = interaction.component_message_id
        elif ctype == AUTOCOMPLETE_RESULT:
            self._violations(where, limits.check_autocomplete(data))
        elif ctype == MODAL:
            self._violations(where, limits.check_modal(data))

        interaction.responded_at = now
        interaction.response_type = ctype
        interaction.response_data = data
        result: dict[str, Any] = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.type,
                "response_message_loading": ctype == DEFERRED_MESSAGE,
                "response_message_ephemeral": bool(message and message.ephemeral),
            }
        }
        if message is not None:
            result["interaction"]["response_message_id"] = str(message.id)
            result["resource"] = {"type": ctype, "message": message.payload()}
        return _json(result)

    async def _followup(self, request: web.Request, app: str, token: str) -> web.Response:
        interaction = self._interaction(token, app)
        payload, uploaded = await self._read_body(request)
        where = f"interaction {interaction.id} follow-up"
        if not interaction.responded:
            self.problem("protocol", f"{where} before the interaction was acknowledged")
            raise ApiError(404, 10015, "Unknown Webhook")
        if (
            set(interaction.authorizing) == {USER_INSTALL}
            and len(interaction.followup_ids) >= USER_INSTALL_FOLLOWUPS
        ):
            self.problem("protocol", f"{where}: more than {USER_INSTALL_FOLLOWUPS} follow-ups")
            raise ApiError(400, 40094, "Maximum number of follow up messages hit")
        interaction.token_uses += 1
        original = self.messages.get(interaction.original_message_id or 0)
        final = self._final_attachments(payload, uploaded, None)
        self._check(where, payload, final, creating=True)
        if original is not None and original.loading and not original.deleted:
            # The first follow-up after a deferred response replaces the "thinking" message
            # and keeps the defer's visibility.
            self._apply_edit(original, payload, final)
            message = original
        else:
            message = self._new_message(
                interaction.channel_id, payload, final, interaction=interaction
            )
        interaction.followup_ids.append(message.id)
        if request.query.get("wait") in ("true", "1", "True"):
            return _json(message.payload())
        return _no_content()

    def _webhook_target(self, interaction: Interaction, mid: str) -> Message:
        if mid == "@original":
            if interaction.original_message_id is None:
                raise ApiError(404, 10008, "Unknown Message")
            return self._message(interaction.original_message_id)
        message = self._message(int(mid))
        if message.id not in interaction.followup_ids and message.id != (
            interaction.original_message_id
        ):
            raise ApiError(404, 10008, "Unknown Message")
        return message

    async def _get_webhook_message(
        self, request: web.Request, app: str, token: str, mid: str
    ) -> web.Response:
        interaction = self._interaction(token, app)
        return _json(self._webhook_target(interaction, mid).payload())

    async def _edit_webhook_message(
        self, request: web.Request, app: str, token: str, mid: str
    ) -> web.Response:
        interaction = self._interaction(token, app)
        message = self._webhook_target(interaction, mid)
        payload, uploaded = await self._read_body(request)
        interaction.token_uses += 1
        final = self._final_attachments(payload, uploaded, message.attachments)
        self._check(f"interaction {interaction.id} edit {mid}", payload, final, creating=False)
        self._apply_edit(message, payload, final)
        return _json(message.payload())

    async def _delete_webhook_message(
        self, request: web.Request, app: str, token: str, mid: str
    ) -> web.Response:
        interaction = self._interaction(token, app)
        message = self._webhook_target(interaction, mid)
        interaction.token_uses += 1
        message.deleted = True
        return _no_content()

    # ----------------------------------------------------------------- channel messages

    async def _create_message(self, request: web.Request, channel: str) -> web.Response:
        chan = self._channel(channel)
        check_post(self.world, chan)
        payload, uploaded = await self._read_body(request)
        final = self._final_attachments(payload, uploaded, None)
        self._check(f"POST #{chan.name} message", payload, final, creating=True)
        if chan.thread:
            chan.message_count += 1
            if chan.archived:  # a post into an archived, unlocked thread unarchives it
                chan.archived = False
                await self.gateway.dispatch("THREAD_UPDATE", chan.payload())
        if (payload.get("flags") or 0) & FLAG_EPHEMERAL:
            self._violations("POST message", ["ephemeral flag on a channel message"])
        earlier = self._same_nonce(payload)
        if earlier is not None:
            return _json(earlier.payload())
        message = self._new_message(chan.id, payload, final)
        if payload.get("nonce") is not None:
            message.nonce = str(payload["nonce"])
            key = (message.author.id, message.nonce)
            self._nonces[key] = (time.monotonic(), message.id)
        return _json(message.payload())

    def _same_nonce(self, payload: dict[str, Any]) -> Message | None:
        """With ``enforce_nonce``, the bot's message created with this nonce in the last
        :data:`NONCE_WINDOW` seconds (Discord returns it and creates none)."""
        nonce = payload.get("nonce")
        if nonce is None or payload.get("enforce_nonce") is not True:
            return None
        now = time.monotonic()
        for key, (at, _) in list(self._nonces.items()):
            if now - at > NONCE_WINDOW:
                del self._nonces[key]
        found = self._nonces.get((self.world.bot_user.id, str(nonce)))
        return None if found is None else self.messages.get(found[1])

    def _channel_message(self, channel: str, mid: str) -> Message:
        chan = self._channel(channel)
        message = self._message(int(mid))
        if message.channel_id != chan.id or message.ephemeral:
            raise ApiError(404, 10008, "Unknown Message")
        return message

    async def _get_message(self, request: web.Request, channel: str, mid: str) -> web.Response:
        return _json(self._channel_message(channel, mid).payload())

    async def _history(self, request: web.Request, channel: str) -> web.Response:
        chan = self._channel(channel)
        limit = int(request.query.get("limit", 50))
        messages = list(reversed(self.channel_messages(chan.id)))
        if "before" in request.query:
            messages = [m for m in messages if m.id < int(request.query["before"])]
        if "after" in request.query:
            messages = [m for m in messages if m.id > int(request.query["after"])]
        return _json([m.payload() for m in messages[:limit]])

    async def _edit_message(self, request: web.Request, channel: str, mid: str) -> web.Response:
        message = self._channel_message(channel, mid)
        if message.author.id != self.world.bot_user.id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        payload, uploaded = await self._read_body(request)
        final = self._final_attachments(payload, uploaded, message.attachments)
        self._check(f"PATCH message {mid}", payload, final, creating=False)
        self._apply_edit(message, payload, final)
        return _json(message.payload())

    async def _delete_message(self, request: web.Request, channel: str, mid: str) -> web.Response:
        message = self._channel_message(channel, mid)
        message.deleted = True
        return _no_content()

    # ----------------------------------------------------------------- driver hooks

    def new_interaction(
        self,
        *,
        itype: int,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        message: Message | None = None,
    ) -> Interaction:
        """Build (not send) an interaction from ``user`` in ``channel`` with ``data``.

        A component interaction carries the integration owners of its message's interaction.
        Raises :class:`KeyError` where the member cannot reach the app (not in the guild, or
        neither the guild nor the member installed it).
        """
        owners = authorizing_owners(self.world, user, channel)
        if message is not None and message.authorizing:
            owners = dict(message.authorizing)
        if not owners:
            raise KeyError(f"{user.name} cannot use the app in {channel.name}: not installed")
        interaction_id = self.snowflakes.next()
        token = new_token()
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.world.application_id),
            "type": itype,
            "data": data,
            **location_payload(self.world, user, channel, owners),
            "token": token,
            "version": 1,
            "locale": user.locale,
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if message is not None:
            payload["message"] = message.payload()
        interaction = Interaction(
            id=interaction_id,
            token=token,
            type=itype,
            user=user,
            guild_id=channel.guild_id,
            channel_id=channel.id,
            payload=payload,
            component_message_id=message.id if message is not None else None,
            sent_at=self.now(),
            context=context_of(self.world, channel),
            authorizing=owners,
        )
        self.interactions[token] = interaction
        return interaction

    def unanswered(self) -> list[Interaction]:
        """Interactions dispatched to the bot that it never answered (nor answered late)."""
        return [
            i
            for i in self.interactions.values()
            if i.dispatched and not i.responded and not i.rejected
        ]

    async def send_interaction(self, interaction: Interaction) -> None:
        """Dispatch INTERACTION_CREATE; the 3-second clock starts now."""
        interaction.sent_at = self.now()
        interaction.dispatched = True
        await self.gateway.dispatch("INTERACTION_CREATE", interaction.payload)
        self.changed()

    def add_attachment(
        self, filename: str, data: bytes, description: str | None = None
    ) -> Attachment:
        """Store a member-uploaded file (for attachment options)."""
        att_id = self.snowflakes.next()
        att = Attachment(
            id=att_id,
            filename=filename,
            data=data,
            description=description,
            content_type=_guess_type(filename, None),
            url=f"{self.url}/attachments/{att_id}/{filename}",
        )
        self.attachments[att_id] = att
        return att


def _guess_type(filename: str, given: str | None) -> str | None:
    lowered = filename.lower()
    for ext, ctype in (
        (".png", "image/png"),
        (".jpg", "image/jpeg"),
        (".gif", "image/gif"),
        (".txt", "text/plain"),
        (".json", "application/json"),
    ):
        if lowered.endswith(ext):
            return ctype
    return given if given and given != "application/octet-stream" else None
