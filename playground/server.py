"""The playground's web side: the page, its JSON API and the websocket that keeps it live.

Served only on 127.0.0.1. Members and channels are named ("alice", "games"); message ids are
strings (snowflakes do not fit a JavaScript number).

- ``GET  /``                               the page (``static/``: index.html, app.js, style.css)
- ``GET  /api/state``                      server, channels, members, the bot, its commands
- ``GET  /api/messages?member=&channel=``  what that member sees in that channel
- ``POST /api/command``      ``{member, channel, command: "quarters start", options: {...}}``
- ``POST /api/click``        ``{member, message_id, custom_id}``
- ``POST /api/select``       ``{member, message_id, custom_id, values: [...]}``
- ``POST /api/autocomplete`` ``{member, channel, command, options, focused}`` -> ``{choices}``
- ``POST /api/modal``        ``{member, modal_id, values: {custom_id: text}}``
- ``GET  /api/ws``           send ``{member, channel}``; receive ``{type: "update", ...}`` (the
  same body as ``/api/messages``) whenever what that member sees changes
- ``GET  /attachments/<id>/<filename>``    the files on messages (board images)

An action answers ``{ok: true, type, ephemeral, message_id}`` once the bot answered (``modal``
and ``modal_id`` when it opened one), or ``{ok: false, error}`` with status 400 saying what a
member would have been told, e.g. "The application did not respond."
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web
from yarl import URL

from fakediscord import DriverError, Response
from playground.viewers import ActionError, Viewer

if TYPE_CHECKING:
    from playground.playground import Playground

STATIC = Path(__file__).resolve().parent / "static"
STATIC_FILES = {
    "app.js": "text/javascript",
    "style.css": "text/css",
}
LOCAL_HOSTS = {"127.0.0.1", "localhost"}

Action = Callable[[dict[str, Any]], Awaitable[Any]]


def build_app(pg: Playground) -> web.Application:
    """The aiohttp application serving ``pg``'s page and API."""
    routes = Routes(pg)
    app = web.Application(middlewares=[local_only])
    app.router.add_get("/", routes.index)
    app.router.add_get("/static/{name}", routes.static)
    app.router.add_get("/attachments/{id}/{filename}", routes.attachment)
    app.router.add_get("/api/state", routes.state)
    app.router.add_get("/api/messages", routes.messages)
    app.router.add_get("/api/ws", routes.websocket)
    app.router.add_post("/api/command", routes.command)
    app.router.add_post("/api/click", routes.click)
    app.router.add_post("/api/select", routes.select)
    app.router.add_post("/api/autocomplete", routes.autocomplete)
    app.router.add_post("/api/modal", routes.modal)
    app.router.add_post("/api/language", routes.language)
    app.on_shutdown.append(routes.close_sockets)
    return app


@web.middleware
async def local_only(request: web.Request, handler: Any) -> web.StreamResponse:
    """Answer only requests for 127.0.0.1 from the page itself: another host name (a web page
    trying DNS rebinding) or another site's page (a cross-site websocket or form) is refused."""
    here = URL(f"http://{request.host}")
    origin = request.headers.get("Origin")
    if here.host not in LOCAL_HOSTS or (origin is not None and not _same_origin(origin, here)):
        return web.Response(status=403, text="The playground answers only its own page.")
    return await handler(request)


def _same_origin(origin: str, here: URL) -> bool:
    try:
        return URL(origin).origin() == here
    except ValueError:  # "null" (a sandboxed page), or garbage
        return False


class Routes:
    """The request handlers, over one :class:`Playground`."""

    def __init__(self, pg: Playground) -> None:
        self.pg = pg
        self.sockets: set[web.WebSocketResponse] = set()

    # ----------------------------------------------------------------- files

    async def index(self, request: web.Request) -> web.StreamResponse:
        return _file(STATIC / "index.html", "text/html")

    async def static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if name not in STATIC_FILES:
            raise web.HTTPNotFound()
        return _file(STATIC / name, STATIC_FILES[name])

    async def attachment(self, request: web.Request) -> web.StreamResponse:
        try:
            att = self.pg.fake.attachments.get(int(request.match_info["id"]))
        except ValueError:
            att = None
        if att is None or att.filename != request.match_info["filename"]:
            raise web.HTTPNotFound()
        return web.Response(
            body=att.data,
            content_type=att.content_type or "application/octet-stream",
            headers={"Cache-Control": "max-age=86400, immutable"},
        )

    # ----------------------------------------------------------------- reading

    async def state(self, request: web.Request) -> web.Response:
        return web.json_response(self.pg.state())

    async def messages(self, request: web.Request) -> web.Response:
        try:
            view = self.pg.view(request.query.get("member", ""), request.query.get("channel", ""))
        except ActionError as exc:
            return web.json_response({"ok": False, "error": str(exc)}, status=400)
        return web.json_response(view)

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(heartbeat=30)
        await ws.prepare(request)
        viewer = Viewer(ws.send_str)
        self.sockets.add(ws)
        self.pg.watch(viewer)
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                with contextlib.suppress(ValueError, AttributeError):
                    data = json.loads(msg.data)
                    viewer.member = str(data.get("member") or "")
                    viewer.channel = str(data.get("channel") or "")
                    viewer.last = ""
                    await self.pg.push(viewer)
        finally:
            self.pg.unwatch(viewer)
            self.sockets.discard(ws)
        return ws

    async def close_sockets(self, app: web.Application) -> None:
        for ws in list(self.sockets):
            with contextlib.suppress(Exception):
                await ws.close()

    # ----------------------------------------------------------------- acting

    async def _act(self, request: web.Request, action: Action) -> web.Response:
        try:
            body = await request.json()
            if not isinstance(body, dict):
                raise ValueError("Send a JSON object.")
            result = await action(body)
        except (DriverError, ActionError, KeyError, ValueError, TypeError) as exc:
            return web.json_response({"ok": False, "error": _plain(exc)}, status=400)
        if isinstance(result, Response):
            result = self.pg.answer(result)
        return web.json_response(result)

    async def command(self, request: web.Request) -> web.Response:
        async def run(b: dict[str, Any]) -> Response:
            options = dict(b.get("options") or {})
            return await self.pg.run_command(
                b["member"], b.get("channel") or "games", str(b["command"]), options
            )

        return await self._act(request, run)

    async def click(self, request: web.Request) -> web.Response:
        async def run(b: dict[str, Any]) -> Response:
            return await self.pg.click(b["member"], str(b["message_id"]), str(b["custom_id"]))

        return await self._act(request, run)

    async def select(self, request: web.Request) -> web.Response:
        async def run(b: dict[str, Any]) -> Response:
            values = [str(v) for v in b["values"]]
            return await self.pg.choose(
                b["member"], str(b["message_id"]), str(b["custom_id"]), values
            )

        return await self._act(request, run)

    async def autocomplete(self, request: web.Request) -> web.Response:
        async def run(b: dict[str, Any]) -> dict[str, Any]:
            choices = await self.pg.autocomplete(
                b["member"],
                b.get("channel") or "games",
                str(b["command"]),
                dict(b.get("options") or {}),
                str(b["focused"]),
            )
            return {"ok": True, "choices": choices}

        return await self._act(request, run)

    async def modal(self, request: web.Request) -> web.Response:
        async def run(b: dict[str, Any]) -> Response:
            values = {str(k): str(v) for k, v in dict(b.get("values") or {}).items()}
            return await self.pg.submit_modal(b["member"], str(b["modal_id"]), values)

        return await self._act(request, run)

    async def language(self, request: web.Request) -> web.Response:
        """Switch a member's language (``member``) or the server's (no ``member``)."""

        async def run(b: dict[str, Any]) -> dict[str, Any]:
            self.pg.set_language(b.get("member"), b["locale"])
            return {"ok": True, **self.pg.state()}

        return await self._act(request, run)


def _file(path: Path, content_type: str) -> web.Response:
    return web.Response(
        body=path.read_bytes(),
        content_type=content_type,
        charset="utf-8" if content_type.startswith("text/") else None,
        headers={"Cache-Control": "no-cache"},
    )


def _plain(exc: Exception) -> str:
    """What the page shows for a failed action."""
    if isinstance(exc, KeyError):
        return f"The request lacks {exc.args[0]!r}." if exc.args else "The request lacks a field."
    text = str(exc)
    if isinstance(exc, DriverError) and ("did not answer" in text or "no answer within" in text):
        return "The application did not respond."
    return text
