"""The playground: the real bot, the fake Discord and the page, in one process and one loop.

>>> # async with Playground(database=Path("data/playground.db")) as pg:
>>> #     await pg.wait_ready(); pg.url -> "http://127.0.0.1:8080"

The fake Discord (:mod:`fakediscord`, the same one the end-to-end tests use) serves the
gateway and REST API on an ephemeral port of 127.0.0.1; discord.py is pointed at it, and the
unchanged :class:`bot.client.app.ParlourBot` connects to it with a database of its own. The
page (:mod:`playground.server`) acts as a member through :class:`fakediscord.Driver`
(slash commands, clicks, selects, autocomplete, modals), and every open page is pushed what its
member sees whenever anything changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
from aiohttp import web

from bot.config import Config
from fakediscord import Driver, FakeDiscord, Response
from fakediscord.launch import configure, finish_client_events
from fakediscord.state import Channel, User
from i18n import LANGUAGES
from playground import checks, snapshot, store
from playground.server import build_app
from playground.viewers import ActionError, Viewer
from playground.world import playground_world

__all__ = ["ActionError", "Playground", "Viewer"]

log = logging.getLogger("parlour.playground")

ANSWER_TIMEOUT = 15.0  # seconds an action waits for the bot (and for a deferred answer)
VISIBLE_MESSAGES = 100  # the newest messages a page shows
SAVE_AFTER = 2.0  # seconds of quiet before the channels are written to disk
PUSH_AFTER = 0.03  # coalesce a burst of changes into one push
# The languages a member or the server can be switched to: Discord locale and own name.
LANGUAGE_CHOICES = [
    {"locale": language.discord[0], "name": language.name} for language in LANGUAGES
]

ClientFactory = Callable[[Config], discord.Client]


class ChangeWatchingDiscord(FakeDiscord):
    """The fake Discord, telling its listeners about every change."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.listeners: list[Callable[[], None]] = []
        super().__init__(*args, **kwargs)

    def changed(self) -> None:
        super().changed()
        for listener in self.listeners:
            listener()


def parlour_bot(config: Config) -> discord.Client:
    """The real bot, unchanged."""
    from bot.client.app import ParlourBot

    return ParlourBot(config)


class Playground:
    """Use as ``async with Playground(database=...) as pg`` or :meth:`start` / :meth:`stop`.

    ``port=0`` picks a free port (tests). ``client_factory`` builds the discord.py client from
    a :class:`Config` (the real ParlourBot by default). With ``keep`` the channels and the
    registered commands are written beside the database and come back after a restart, as
    they would on Discord.
    """

    def __init__(
        self,
        *,
        database: Path | str,
        port: int = 8080,
        host: str = "127.0.0.1",
        ai_workers: int | None = None,
        client_factory: ClientFactory = parlour_bot,
        keep: bool = True,
    ) -> None:
        self.world = playground_world()
        self.guild = self.world.guilds[0]
        self.fake = ChangeWatchingDiscord(self.world)
        self.driver = Driver(self.fake, channel=self.guild.channels[0], timeout=ANSWER_TIMEOUT)
        self.config = Config(token=self.world.token, database=database, ai_workers=ai_workers)
        self.host = host
        self.port = port
        self.client_factory = client_factory
        self.store_file = store.store_path(database) if keep else None
        self.client: discord.Client | None = None
        self.client_error: str | None = None
        self.labels: dict[int, str | None] = {}
        self.modals: dict[str, Response] = {}
        self.viewers: set[Viewer] = set()
        self._changed = asyncio.Event()
        self._dirty = asyncio.Event()
        self._tasks: list[asyncio.Task[Any]] = []
        self._runner: web.AppRunner | None = None
        self._fake_started = False
        self.fake.listeners.append(self._on_change)

    # ----------------------------------------------------------------- lifecycle

    @property
    def url(self) -> str:
        """The page's address."""
        return f"http://{self.host}:{self.port}"

    async def start(self) -> Playground:
        """Serve the page, then start the fake Discord and the bot (without waiting for it)."""
        runner = web.AppRunner(build_app(self), access_log=None, handle_signals=False)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        try:
            await site.start()
        except OSError:
            await runner.cleanup()
            raise
        self._runner = runner
        self.port = runner.addresses[0][1]  # the port the system gave, when asked for port 0

        await self.fake.start()
        self._fake_started = True
        if self.store_file is not None:
            count = store.load(self.fake, self.labels, self.store_file)
            if count:
                log.info("brought back %d messages from %s", count, self.store_file)
        if not self.fake.commands(None) and not self.fake.commands(self.guild.id):
            await self._forget_command_sync()
        configure(self.fake.url)
        self.client = self.client_factory(self.config)
        self._tasks = [
            asyncio.create_task(self._run_client(self.client)),
            asyncio.create_task(self._push_forever()),
        ]
        if self.store_file is not None:
            self._tasks.append(asyncio.create_task(self._save_forever(self.store_file)))
        return self

    async def stop(self) -> None:
        """Stop the bot, save the channels, close the pages and the fake Discord.

        The bot first stops reading the gateway, then finishes the interactions it has begun,
        then closes (as a graceful stop of the real bot drains its work before it closes).
        """
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        if self.client is not None:
            await finish_client_events()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.client.close(), 10)
        if self.store_file is not None and self._fake_started:
            self._save(self.store_file)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._fake_started:
            await self.fake.stop()
            self._fake_started = False

    async def __aenter__(self) -> Playground:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def wait_ready(self, timeout: float = 30.0) -> None:
        """Wait until the bot is connected, its commands are registered and discord.py has
        called it ready (a moment after the last server arrives: a stop before that would leave
        discord.py's pending "ready" to fire on a closed client)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        await self.fake.wait_for(
            lambda: self.client_error or (self.online and self.commands()),
            timeout,
            "the bot to connect and register its commands",
        )
        if self.client_error:
            raise RuntimeError(f"the bot stopped: {self.client_error}")
        if self.client is not None:
            try:
                await asyncio.wait_for(
                    self.client.wait_until_ready(), max(0.0, deadline - loop.time())
                )
            except TimeoutError:
                raise TimeoutError(
                    f"timed out after {timeout}s waiting for the bot to be ready"
                ) from None

    @property
    def online(self) -> bool:
        """Whether the bot is connected to the fake Discord."""
        return self.fake.gateway.connected

    async def _run_client(self, client: discord.Client) -> None:
        try:
            await client.start(self.world.token)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.client_error = f"{type(exc).__name__}: {exc}"
            log.exception("the bot stopped")
            self.fake.changed()

    async def _forget_command_sync(self) -> None:
        """The stand-in knows no commands (a first start, or a database used with the real
        Discord before): drop the bot's note that it synced them, so it registers them here."""
        from storage import Database

        db = await Database.open(self.config.database)
        try:
            for key in ("command-hash:global", f"command-hash:{self.guild.id}"):
                if await db.get_meta(key):
                    await db.set_meta(key, "")
        finally:
            await db.close()

    # ----------------------------------------------------------------- change tracking

    def _on_change(self) -> None:
        self._changed.set()
        self._dirty.set()

    def watch(self, viewer: Viewer) -> None:
        """Start pushing updates to ``viewer``."""
        self.viewers.add(viewer)

    def unwatch(self, viewer: Viewer) -> None:
        """Stop pushing updates to ``viewer``."""
        self.viewers.discard(viewer)

    async def _push_forever(self) -> None:
        while True:
            await self._changed.wait()
            await asyncio.sleep(PUSH_AFTER)
            self._changed.clear()
            for viewer in list(self.viewers):
                await self.push(viewer)

    async def push(self, viewer: Viewer) -> None:
        """Send ``viewer`` what its member sees, unless it was sent exactly that already."""
        if viewer.member is None or viewer.channel is None:
            return
        try:
            update = {"type": "update", **self.view(viewer.member, viewer.channel)}
        except ActionError as exc:
            update = {"type": "error", "error": str(exc)}
        text = json.dumps(update)
        if text != viewer.last:
            viewer.last = text
            with contextlib.suppress(ConnectionError, RuntimeError):
                await viewer.send(text)

    async def _save_forever(self, path: Path) -> None:
        while True:
            await self._dirty.wait()
            await asyncio.sleep(SAVE_AFTER)
            self._dirty.clear()
            self._learn_labels()
            data = store.collect(self.fake, self.labels)
            try:
                await asyncio.to_thread(store.write, data, path)
            except OSError as exc:
                log.warning("could not keep the playground's channels in %s: %s", path, exc)

    def _save(self, path: Path) -> None:
        self._learn_labels()
        try:
            store.save(self.fake, self.labels, path)
        except OSError as exc:
            log.warning("could not keep the playground's channels in %s: %s", path, exc)

    # ----------------------------------------------------------------- what a page sees

    def commands(self) -> list[dict[str, Any]]:
        """The bot's registered slash commands (guild ones first), as the command box lists."""
        seen: dict[str, dict[str, Any]] = {}
        for command in self.fake.commands(self.guild.id) + self.fake.commands(None):
            seen.setdefault(command["name"], command)
        return snapshot.command_menu(list(seen.values()))

    def state(self) -> dict[str, Any]:
        """What a page needs once: the server, its channels and members, the bot's commands.

        Each member lists the commands Discord's client would hide from them (they lack the
        command's ``default_member_permissions``).
        """
        commands = self.commands()
        return {
            "guild": {
                "id": str(self.guild.id),
                "name": self.guild.name,
                "locale": self.guild.locale,
            },
            "languages": LANGUAGE_CHOICES,
            "bot": snapshot.user_json(self.world.bot_user),
            "channels": [{"id": str(c.id), "name": c.name} for c in self.channels()],
            "members": [
                {
                    **snapshot.user_json(m.user),
                    "owner": m.id == self.guild.owner_id,
                    "locale": m.user.locale,
                    "roles": [r.name for r in map(self.guild.role, m.role_ids) if r],
                    "hidden_commands": [c["path"] for c in commands if self._lacking(m.user, c)],
                }
                for m in self.guild.members
                if not m.user.bot
            ],
            "commands": commands,
            "online": self.online,
            "bot_error": self.client_error,
        }

    def view(self, member: str, channel: str) -> dict[str, Any]:
        """What ``member`` sees in ``channel`` (their own ephemeral messages included)."""
        user = self.member(member)
        chan = self.channel(channel, user)
        messages = sorted(
            self.fake.channel_messages(chan) + self.fake.ephemerals(user, chan),
            key=lambda m: m.id,
        )[-VISIBLE_MESSAGES:]
        return {
            "member": user.name,
            "channel": chan.name,
            "messages": [snapshot.message_json(m, self._label(m.interaction_id)) for m in messages],
            "online": self.online,
            "bot_error": self.client_error,
            "problems": [str(p) for p in self.fake.problems()[-5:]],
            "commands_version": len(self.fake.command_syncs),
        }

    def _label(self, interaction_id: int | None) -> str | None:
        if interaction_id is not None and interaction_id not in self.labels:
            self._learn_labels()
        return self.labels.get(interaction_id or 0)

    def _learn_labels(self) -> None:
        """Note the slash command of every interaction not seen yet (None for clicks)."""
        for interaction in self.fake.interactions.values():
            if interaction.id not in self.labels:
                self.labels[interaction.id] = snapshot.interaction_label(interaction)

    def set_language(self, member: Any, locale: Any) -> None:
        """Switch ``member``'s Discord language (``interaction.locale``), or with no member the
        server's (``interaction.guild_locale``), to the Discord locale ``locale``."""
        if locale not in {choice["locale"] for choice in LANGUAGE_CHOICES}:
            raise ActionError(f"The playground has no language {locale!r}.")
        if member:
            self.member(member).locale = locale
        else:
            self.guild.locale = locale

    def member(self, name: Any) -> User:
        """A member of the playground's server by name (the bot is not one you can be)."""
        found = next((m for m in self.guild.members if m.name == name and not m.user.bot), None)
        if found is None:
            raise ActionError(f"There is no member {name!r} in {self.guild.name}.")
        return found.user

    def channels(self) -> list[Channel]:
        """The server's channels and the games' threads, then the members' group DM and their
        DMs with the bot."""
        return self.guild.channels + self.guild.threads + self.world.private_channels

    def channel(self, name: Any, member: User | None = None) -> Channel:
        """A channel of the playground's server, a thread, the group DM or a DM with the bot,
        by name or id; with ``member``, only a private one they are in."""
        found = next((c for c in self.channels() if name in (c.name, str(c.id))), None)
        if found is None:
            raise ActionError(f"There is no channel #{name} in {self.guild.name}.")
        if member is not None and found.private and member.id not in found.recipients:
            raise ActionError(f"{member.name} is not in {found.name}.")
        return found

    # ----------------------------------------------------------------- acting as a member

    def _lacking(self, user: User, command: dict[str, Any]) -> list[str]:
        return checks.missing_permissions(command, self.guild.permissions(user.id))

    def check_command(
        self, user: User, command: str, values: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """The command ``user`` may run and ``values`` checked as Discord's client checks them
        (permissions, types, choices, ranges, lengths), or :class:`ActionError` saying why not.
        """
        found = next((c for c in self.commands() if c["path"] == command.strip("/ ")), None)
        if found is None:
            raise ActionError(f"/{command.strip('/ ')} is not one of the bot's commands.")
        lacking = self._lacking(user, found)
        if lacking:
            raise ActionError(
                f"You can't use /{found['path']}: it needs the {' and '.join(lacking)} "
                "permission. Ask a server admin (alice owns this server)."
            )
        try:
            checked = checks.check_command(
                found,
                values,
                members=[m.name for m in self.guild.members],
                channels=[c.name for c in self.guild.channels],
            )
        except checks.OptionError as exc:
            raise ActionError(str(exc)) from None
        return found, checked

    async def run_command(
        self, member: str, channel: str, command: str, options: dict[str, Any]
    ) -> Response:
        """``/command`` with ``options`` (empty ones left out), as ``member`` in ``channel``,
        once it passes the checks Discord's client makes (:meth:`check_command`)."""
        user = self.member(member)
        chan = self.channel(channel, user)
        found, values = self.check_command(user, command, options)
        return await self.driver.slash(user, found["path"], channel=chan, options=values)

    async def click(self, member: str, message_id: str, custom_id: str) -> Response:
        """Click the button ``custom_id`` on a message."""
        return await self.driver.click(self.member(member), int(message_id), custom_id=custom_id)

    async def choose(
        self, member: str, message_id: str, custom_id: str, values: list[str]
    ) -> Response:
        """Choose ``values`` in the select ``custom_id`` on a message."""
        return await self.driver.select(
            self.member(member), int(message_id), values, custom_id=custom_id
        )

    async def autocomplete(
        self, member: str, channel: str, command: str, options: dict[str, Any], focused: str
    ) -> list[dict[str, Any]]:
        """The bot's suggestions for option ``focused``, given what is typed so far."""
        user = self.member(member)
        chan = self.channel(channel, user)
        values = {k: v for k, v in options.items() if v not in (None, "")}
        values[focused] = str(options.get(focused) or "")
        return await self.driver.autocomplete(
            user, command, channel=chan, focused=focused, options=values
        )

    async def submit_modal(self, member: str, modal_id: str, values: dict[str, str]) -> Response:
        """Submit the modal the bot opened (``modal_id`` from :meth:`answer`)."""
        opened = self.modals.pop(modal_id, None)
        if opened is None:
            raise ActionError("That form is closed; open it again.")
        return await self.driver.submit_modal(self.member(member), opened, values)

    def answer(self, response: Response) -> dict[str, Any]:
        """The JSON answer to an action; a modal the bot opened is remembered for its submit."""
        result: dict[str, Any] = {
            "ok": True,
            "type": response.type,
            "ephemeral": response.ephemeral,
            "message_id": str(response.message.id) if response.message else None,
        }
        if response.modal is not None:
            modal_id = str(response.interaction.id)
            self.modals[modal_id] = response
            result["modal"] = response.modal
            result["modal_id"] = modal_id
        return result
