"""Run a bot module against the fake Discord, exactly as ``python -m <module>`` would.

    python -m fakediscord.launch --api-base http://127.0.0.1:PORT [-- bot [args...]]

It points discord.py at the fake (REST base URL, gateway URL, CDN URL), then runs the module
with ``runpy`` as ``__main__``. The bot's own code is unchanged. Two small additions help tests:

- ``--guild-ready-timeout`` (default 0.25 s): how long discord.py waits for more GUILD_CREATEs
  before firing ``on_ready`` (2 s by default); the fake sends them all at once.
- The discord.py events ``ready`` and ``resumed`` are reported to the fake
  (``POST /_fake/client-event``), so tests know when the bot is ready.
- ``FAKEDISCORD_CLIENT_NAME`` (environment) is appended to the bot's User-Agent, so the fake
  can tell which of several bot processes made a REST call (:meth:`FakeDiscord.requests_from`),
  interaction callbacks and webhook edits (which discord.py sends without it) included.
- Errors logged by discord.py (e.g. "Ignoring exception in command") are also written to
  stderr, even when the bot configures no logging (discord.py installs a NullHandler), so a
  test can find them in the bot's output.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import runpy
import sys
from typing import Any

from fakediscord.state import CLIENT_NAME_MARK

_settings: dict[str, Any] = {"base": None, "guild_ready_timeout": None, "patched": False}


def configure(api_base: str, *, guild_ready_timeout: float | None = 0.25) -> None:
    """Point discord.py (imported here) at the fake Discord served at ``api_base``.

    Safe to call again (in-process tests): it only updates the settings the patches read.
    """
    import discord
    import discord.gateway
    import discord.http
    import discord.state
    import discord.webhook.async_
    import yarl

    base = api_base.rstrip("/")
    _settings["base"] = base
    _settings["guild_ready_timeout"] = guild_ready_timeout
    discord.http.Route.BASE = base + "/api/v10"
    ws = "ws" + base.removeprefix("http") + "/gateway"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(ws)
    discord.Asset.BASE = base + "/cdn"
    if _settings["patched"]:
        return
    _settings["patched"] = True

    original_init = discord.state.ConnectionState.__init__

    def init(self: Any, *args: Any, **options: Any) -> None:
        original_init(self, *args, **options)
        timeout = _settings["guild_ready_timeout"]
        if timeout is not None and "guild_ready_timeout" not in options:
            self.guild_ready_timeout = timeout

    # Pointing discord.py at the fake means patching its methods, which mypy refuses.
    discord.state.ConnectionState.__init__ = init  # type: ignore[method-assign]  # a patch

    original_dispatch = discord.Client.dispatch
    tasks: set[asyncio.Task[None]] = set()

    def dispatch(self: Any, event: str, /, *args: Any, **kwargs: Any) -> None:
        original_dispatch(self, event, *args, **kwargs)
        if event in ("ready", "resumed"):
            task = asyncio.get_running_loop().create_task(_report(_settings["base"], event))
            tasks.add(task)
            task.add_done_callback(tasks.discard)

    discord.Client.dispatch = dispatch  # type: ignore[method-assign]  # a patch, as above

    original_http_init = discord.http.HTTPClient.__init__

    def http_init(self: Any, *args: Any, **kwargs: Any) -> None:
        original_http_init(self, *args, **kwargs)
        name = os.environ.get("FAKEDISCORD_CLIENT_NAME")
        if name:
            self.user_agent += f" {CLIENT_NAME_MARK}{name}"

    discord.http.HTTPClient.__init__ = http_init  # type: ignore[method-assign]  # a patch, as above

    adapter = discord.webhook.async_.AsyncWebhookAdapter
    original_request = adapter.request

    async def webhook_request(self: Any, route: Any, session: Any, **kwargs: Any) -> Any:
        name = os.environ.get("FAKEDISCORD_CLIENT_NAME")
        named = _Named(session, name) if name else session
        return await original_request(self, route, named, **kwargs)

    adapter.request = webhook_request  # type: ignore[method-assign]  # a patch, as above


class _Named:
    """An aiohttp session whose requests carry the client's name in their User-Agent."""

    def __init__(self, session: Any, name: str) -> None:
        self._session = session
        self._agent = f"DiscordBot {CLIENT_NAME_MARK}{name}"

    def request(self, *args: Any, headers: dict[str, str] | None = None, **kwargs: Any) -> Any:
        headers = {**(headers or {}), "User-Agent": self._agent}
        return self._session.request(*args, headers=headers, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)


# The names discord.py gives the tasks it starts for an event's handlers and for the callbacks
# of buttons, select menus and modals: tasks of their own, which nothing awaits.
HANDLER_TASKS = ("discord.py: ", "discord-ui-")


async def finish_client_events(timeout: float = 5.0) -> None:
    """Wait for the event handlers and component callbacks discord.py started to end, and for
    those they start in turn; cancel what still runs after ``timeout`` seconds.

    Call it once the client reads no more gateway events, and before ``close()``: discord.py
    drops its loop on ``close()``, so a handler that dispatches an event after that leaves
    behind a coroutine that never runs (and the warning that says so).
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    mine = asyncio.current_task()
    while True:
        pending = {
            task
            for task in asyncio.all_tasks()
            if task is not mine and task.get_name().startswith(HANDLER_TASKS)
        }
        if not pending:
            return
        left = deadline - loop.time()
        if left <= 0:
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
            return
        await asyncio.wait(pending, timeout=left)


async def _report(base: str, event: str) -> None:
    import aiohttp

    try:
        async with aiohttp.ClientSession() as session:
            await session.post(base + "/_fake/client-event", json={"event": event})
    except aiohttp.ClientError:
        pass


def main(argv: list[str] | None = None) -> None:
    """Parse arguments, configure discord.py, run the module as ``__main__``."""
    args = sys.argv[1:] if argv is None else argv
    rest: list[str] = []
    if "--" in args:
        cut = args.index("--")
        args, rest = args[:cut], args[cut + 1 :]
    parser = argparse.ArgumentParser(prog="python -m fakediscord.launch")
    parser.add_argument("--api-base", required=True, help="fake Discord URL, http://host:port")
    parser.add_argument("--guild-ready-timeout", type=float, default=0.25)
    options = parser.parse_args(args)
    module, *module_args = rest or ["bot"]
    configure(options.api_base, guild_ready_timeout=options.guild_ready_timeout)
    handler = logging.StreamHandler(sys.stderr)
    handler.setLevel(logging.ERROR)
    handler.setFormatter(
        logging.Formatter("[fakediscord.launch] %(levelname)s %(name)s: %(message)s")
    )
    logging.getLogger("discord").addHandler(handler)
    sys.argv = [module, *module_args]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
