"""Acts as members against :class:`~fakediscord.server.FakeDiscord`.

The driver does what a member's Discord client does: it builds interactions from the commands
the bot registered (so an unsynced command or a wrong option fails like it would for a user),
clicks buttons and chooses in selects found by label or placeholder on a message the member can
see, and waits for the bot's answer (following a defer to its follow-up).

>>> # d = Driver(fake)
>>> # r = await d.slash("alice", "quarters start", opponent="bob", piles="3,4,5")
>>> # r = await d.click("bob", r.message, label="Accept")
>>> # d.last_message("games").text(); d.ephemerals("alice")
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import aiohttp

from fakediscord.places import context_of
from fakediscord.server import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    DEFERRED_MESSAGE,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    FakeDiscord,
)
from fakediscord.state import (
    BUTTON,
    Attachment,
    Channel,
    Interaction,
    Member,
    Message,
    Role,
    User,
)

DEFAULT_TIMEOUT = 10.0
SUBCOMMAND, SUBCOMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = (
    3,
    4,
    5,
    6,
    7,
    8,
    9,
    10,
    11,
)

MemberRef = str | int | User | Member
ChannelRef = str | int | Channel


class DriverError(AssertionError):
    """Something a member could not do, or the bot did not answer as Discord requires."""


@dataclass(slots=True)
class Response:
    """The bot's answer to one interaction, as the member sees it (always current)."""

    interaction: Interaction
    fake: FakeDiscord

    @property
    def type(self) -> int | None:
        """Callback type: 4 message, 5 deferred, 6 deferred update, 7 update, 8, 9 modal."""
        return self.interaction.response_type

    @property
    def message(self) -> Message | None:
        """The original response message (for a click: the clicked message), current."""
        mid = self.interaction.original_message_id
        return None if mid is None else self.fake.messages.get(mid)

    @property
    def followups(self) -> list[Message]:
        """Follow-up messages (a follow-up that replaced a deferred message counts too)."""
        return [self.fake.messages[m] for m in self.interaction.followup_ids]

    @property
    def messages(self) -> list[Message]:
        """The original response and follow-ups, without duplicates, oldest first."""
        found = {m.id: m for m in ([self.message] if self.message else []) + self.followups}
        return [found[k] for k in sorted(found)]

    @property
    def ephemeral(self) -> bool:
        """Whether the original response is visible to the member only."""
        return bool(self.message and self.message.ephemeral)

    @property
    def content(self) -> str:
        """Content of the original response."""
        return self.message.content if self.message else ""

    def text(self) -> str:
        """All text of the original response (content, embeds, text displays)."""
        return self.message.text() if self.message else ""

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete choices (callback type 8)."""
        return list((self.interaction.response_data or {}).get("choices", []))

    @property
    def modal(self) -> dict[str, Any] | None:
        """The modal the bot opened (callback type 9)."""
        return self.interaction.response_data if self.type == MODAL else None

    @property
    def latency(self) -> float | None:
        """Seconds to the first callback."""
        return self.interaction.latency


class Driver:
    """Members' hands and eyes on the fake Discord."""

    def __init__(
        self, fake: FakeDiscord, *, channel: ChannelRef = "games", timeout: float = DEFAULT_TIMEOUT
    ) -> None:
        self.fake = fake
        self.default_channel = channel
        self.timeout = timeout

    # ----------------------------------------------------------------- lookups

    def user(self, member: MemberRef) -> User:
        """A user by name ("alice"), id, User or Member."""
        return self.fake.world.user(member)

    def channel(self, channel: ChannelRef | None = None) -> Channel:
        """A channel by name ("games", "Other Guild/general"), id or Channel."""
        return self.fake.world.channel(self.default_channel if channel is None else channel)

    def channel_messages(self, channel: ChannelRef | None = None) -> list[Message]:
        """What everyone sees in the channel, oldest first."""
        return self.fake.channel_messages(self.channel(channel))

    def last_message(self, channel: ChannelRef | None = None) -> Message:
        """The newest message everyone sees in the channel."""
        messages = self.channel_messages(channel)
        if not messages:
            raise DriverError(f"#{self.channel(channel).name} has no messages")
        return messages[-1]

    def ephemerals(self, member: MemberRef, channel: ChannelRef | None = None) -> list[Message]:
        """Ephemeral messages only this member sees, oldest first."""
        return self.fake.ephemerals(member, None if channel is None else self.channel(channel))

    def last_ephemeral(self, member: MemberRef) -> Message:
        """The member's newest ephemeral message."""
        messages = self.ephemerals(member)
        if not messages:
            raise DriverError(f"{self.user(member).name} has no ephemeral messages")
        return messages[-1]

    def visible(self, member: MemberRef, channel: ChannelRef | None = None) -> list[Message]:
        """Everything the member sees in a channel: public messages and their ephemerals."""
        chan = self.channel(channel)
        found = self.channel_messages(chan) + self.ephemerals(member, chan)
        return sorted(found, key=lambda m: m.id)

    async def attachment_bytes(self, message: Message, index: int = 0) -> bytes:
        """Download an attachment of a message through its URL, as a client would."""
        if not 0 <= index < len(message.attachments):
            raise DriverError(f"message has {len(message.attachments)} attachments, not #{index}")
        async with (
            aiohttp.ClientSession() as session,
            session.get(message.attachments[index].url) as resp,
        ):
            if resp.status != 200:
                raise DriverError(f"attachment URL answered {resp.status}")
            return await resp.read()

    async def wait_for(
        self,
        predicate: Callable[[], Any],
        timeout: float | None = None,
        what: str = "condition",
    ) -> Any:
        """Wait until ``predicate()`` is truthy (checked after every change in the fake)."""
        try:
            return await self.fake.wait_for(predicate, timeout or self.timeout, what)
        except TimeoutError as exc:
            raise DriverError(str(exc)) from None

    async def wait_for_message(
        self,
        channel: ChannelRef | None = None,
        predicate: Callable[[Message], bool] = lambda m: True,
        *,
        after: int = 0,
        timeout: float | None = None,
    ) -> Message:
        """Wait for a public message in the channel with id > ``after`` matching ``predicate``."""

        def find() -> Message | None:
            for m in reversed(self.channel_messages(channel)):
                if m.id > after and not m.loading and predicate(m):
                    return m
            return None

        return await self.wait_for(find, timeout, "a matching message")

    # ----------------------------------------------------------------- slash commands

    def _find_command(
        self, channel: Channel, member: User | None, words: list[str]
    ) -> dict[str, Any]:
        scoped = [] if channel.guild_id is None else self.fake.commands(channel.guild_id)
        for command in scoped + self.fake.commands(None):
            if command.get("name") == words[0] and command.get("type", 1) == 1:
                self._check_reachable(command, channel, member, words[0])
                return command
        known = sorted(c["name"] for c in scoped + self.fake.commands(None))
        raise DriverError(f"/{words[0]} is not a registered command (registered: {known})")

    def _check_reachable(
        self, command: dict[str, Any], channel: Channel, member: User | None, name: str
    ) -> None:
        """Discord's client offers a command only in the contexts it declares, and where the
        bot is not a member only when it declares the user install and the member has it."""
        context = context_of(self.fake.world, channel)
        contexts = command.get("contexts")
        if contexts is not None and context not in contexts:
            raise DriverError(f"/{name} is not offered in context {context} (has {contexts})")
        if command.get("guild_id") is None and not self.fake.world.bot_sees(channel):
            if 1 not in (command.get("integration_types") or [0]):
                raise DriverError(f"/{name} is not offered where the bot is not a member")
            if member is not None and member.id not in self.fake.world.user_installs:
                raise DriverError(f"{member.name} has not installed the app")

    def _option_value(
        self,
        spec: dict[str, Any],
        value: Any,
        resolved: dict[str, dict[str, Any]],
        guild_id: int | None,
    ) -> Any:
        otype = spec["type"]
        name = spec["name"]
        guild = self.fake.world.guild(guild_id) if guild_id is not None else None
        if otype in (USER, MENTIONABLE) and not isinstance(value, Role):
            user = self.user(value)
            member = None if guild is None else guild.member(user.id)
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            if guild is not None and member is not None:
                resolved.setdefault("members", {})[str(user.id)] = member.payload(
                    with_user=False, permissions=guild.permissions(user.id)
                )
            return str(user.id)
        if otype in (ROLE, MENTIONABLE):
            if guild is None:
                raise DriverError(f"option {name}: no roles outside a server")
            role = (
                value
                if isinstance(value, Role)
                else next((r for r in guild.roles if value in (r.id, r.name)), None)
            )
            if role is None:
                raise DriverError(f"option {name}: no role {value!r}")
            resolved.setdefault("roles", {})[str(role.id)] = role.payload()
            return str(role.id)
        if otype == CHANNEL:
            if guild is None:
                raise DriverError(f"option {name}: no channels to pick outside a server")
            chan = self.channel(value)
            resolved.setdefault("channels", {})[str(chan.id)] = {
                "id": str(chan.id),
                "name": chan.name,
                "type": chan.type,
                "permissions": str(guild.permissions(self.fake.world.bot_user.id)),
                "guild_id": str(chan.guild_id),
                "parent_id": None,
                "position": chan.position,
                "flags": 0,
            }
            return str(chan.id)
        if otype == ATTACHMENT:
            if isinstance(value, Attachment):
                att = value
            elif isinstance(value, tuple):
                att = self.fake.add_attachment(value[0], value[1])
            else:
                att = self.fake.add_attachment("upload.bin", bytes(value))
            resolved.setdefault("attachments", {})[str(att.id)] = att.payload()
            return str(att.id)
        converted: Any
        if otype == INTEGER:
            converted = int(value)
        elif otype == NUMBER:
            converted = float(value)
        elif otype == BOOLEAN:
            converted = bool(value)
        else:
            converted = str(value)
        choices = spec.get("choices") or []
        if choices:
            for choice in choices:
                if converted == choice["value"] or value == choice["name"]:
                    return choice["value"]
            names = [c["name"] for c in choices]
            raise DriverError(f"option {name}: {value!r} is not one of the choices {names}")
        if otype in (INTEGER, NUMBER):
            if spec.get("min_value") is not None and converted < spec["min_value"]:
                raise DriverError(f"option {name}: {converted} < min {spec['min_value']}")
            if spec.get("max_value") is not None and converted > spec["max_value"]:
                raise DriverError(f"option {name}: {converted} > max {spec['max_value']}")
        if otype == STRING:
            if spec.get("min_length") is not None and len(converted) < spec["min_length"]:
                raise DriverError(f"option {name}: shorter than {spec['min_length']}")
            if spec.get("max_length") is not None and len(converted) > spec["max_length"]:
                raise DriverError(f"option {name}: longer than {spec['max_length']}")
        return converted

    def _command_data(
        self,
        command: str,
        channel: Channel,
        values: dict[str, Any],
        *,
        member: User | None = None,
        focused: str | None = None,
    ) -> dict[str, Any]:
        words = command.strip().lstrip("/").split()
        if not words:
            raise DriverError("empty command")
        spec = self._find_command(channel, member, words)
        data: dict[str, Any] = {"id": spec["id"], "name": spec["name"], "type": 1}
        if spec.get("guild_id"):
            data["guild_id"] = spec["guild_id"]
        resolved: dict[str, dict[str, Any]] = {}
        container = data
        level = spec
        for word in words[1:]:
            sub = next(
                (
                    o
                    for o in level.get("options") or []
                    if o["name"] == word and o["type"] in (SUBCOMMAND, SUBCOMMAND_GROUP)
                ),
                None,
            )
            if sub is None:
                raise DriverError(f"/{' '.join(words)}: no subcommand {word!r}")
            node: dict[str, Any] = {"name": word, "type": sub["type"], "options": []}
            container.setdefault("options", []).append(node)
            container = node
            level = sub
        specs = [
            o for o in level.get("options") or [] if o["type"] not in (SUBCOMMAND, SUBCOMMAND_GROUP)
        ]
        if any(o["type"] in (SUBCOMMAND, SUBCOMMAND_GROUP) for o in level.get("options") or []):
            raise DriverError(f"/{' '.join(words)} needs a subcommand")
        by_name = {o["name"]: o for o in specs}
        unknown = sorted(set(values) - set(by_name))
        if unknown:
            raise DriverError(f"/{' '.join(words)} has no options {unknown} (has {list(by_name)})")
        options = container.setdefault("options", [])
        for opt in specs:
            name = opt["name"]
            if name not in values:
                if opt.get("required") and focused is None:
                    raise DriverError(f"/{' '.join(words)}: required option {name!r} missing")
                continue
            if name == focused:
                item = {
                    "name": name,
                    "type": opt["type"],
                    "value": str(values[name]),
                    "focused": True,
                }
            else:
                value = self._option_value(opt, values[name], resolved, channel.guild_id)
                item = {"name": name, "type": opt["type"], "value": value}
            options.append(item)
        if focused is not None and focused not in values:
            raise DriverError(f"focused option {focused!r} needs a value")
        if resolved:
            data["resolved"] = resolved
        return data

    async def slash(
        self,
        member: MemberRef,
        command: str,
        /,
        *,
        channel: ChannelRef | None = None,
        options: dict[str, Any] | None = None,
        timeout: float | None = None,
        **kwargs: Any,
    ) -> Response:
        """Run ``/command [sub ...]`` as ``member`` with options, and wait for the answer.

        Option values are converted to the registered option's type: members by name for user
        options, channels by name, ``(filename, bytes)`` for attachments, choice names or
        values for options with choices. Options that clash with this signature's names go
        in ``options``.
        """
        chan = self.channel(channel)
        values = {**(options or {}), **kwargs}
        data = self._command_data(command, chan, values, member=self.user(member))
        interaction = self.fake.new_interaction(
            itype=APPLICATION_COMMAND, user=self.user(member), channel=chan, data=data
        )
        return await self._send(interaction, timeout, f"/{command}")

    async def autocomplete(
        self,
        member: MemberRef,
        command: str,
        /,
        *,
        focused: str,
        channel: ChannelRef | None = None,
        options: dict[str, Any] | None = None,
        timeout: float | None = None,
        **kwargs: Any,
    ) -> list[dict[str, Any]]:
        """Type into option ``focused`` of ``/command``; return the bot's choices."""
        chan = self.channel(channel)
        values = {**(options or {}), **kwargs}
        data = self._command_data(command, chan, values, member=self.user(member), focused=focused)
        interaction = self.fake.new_interaction(
            itype=AUTOCOMPLETE, user=self.user(member), channel=chan, data=data
        )
        response = await self._send(interaction, timeout, f"autocomplete /{command} {focused}")
        return response.choices

    # ----------------------------------------------------------------- components

    def _visible_message(self, member: User, message: Message | int) -> Message:
        msg = self.fake.messages.get(message if isinstance(message, int) else message.id)
        if msg is None or msg.deleted:
            raise DriverError("that message does not exist (any more)")
        if msg.ephemeral_for is not None and msg.ephemeral_for != member.id:
            raise DriverError(f"{member.name} cannot see someone else's ephemeral message")
        if msg.loading:
            raise DriverError("the message is still loading (deferred, not answered yet)")
        return msg

    @staticmethod
    def _pick(found: list[dict[str, Any]], what: str, available: Sequence[Any]) -> dict[str, Any]:
        if not found:
            raise DriverError(f"no {what} on the message (has {list(available)})")
        if len(found) > 1:
            raise DriverError(f"{len(found)} components match {what}; pass index= or custom_id=")
        return found[0]

    async def click(
        self,
        member: MemberRef,
        message: Message | int,
        /,
        label: str | None = None,
        *,
        custom_id: str | None = None,
        index: int | None = None,
        timeout: float | None = None,
    ) -> Response:
        """Click the button with this label (or custom_id, or position) on a message."""
        user = self.user(member)
        msg = self._visible_message(user, message)
        buttons = msg.buttons()
        if index is not None:
            matching = [b for b in buttons if label is None or b.get("label") == label]
            if not 0 <= index < len(matching):
                raise DriverError(f"no button #{index} (labels {msg.button_labels()})")
            button = matching[index]
        elif custom_id is not None:
            button = self._pick(
                [b for b in buttons if b.get("custom_id") == custom_id],
                f"button with custom_id {custom_id!r}",
                [b.get("custom_id") for b in buttons],
            )
        else:
            button = self._pick(
                [b for b in buttons if b.get("label") == label],
                f"button labelled {label!r}",
                msg.button_labels(),
            )
        if button.get("disabled"):
            raise DriverError(f"button {button.get('label')!r} is disabled")
        if button.get("style") in (5, 6):
            raise DriverError(f"button {button.get('label')!r} is a link/premium button")
        data = {"custom_id": button["custom_id"], "component_type": BUTTON}
        return await self._component(user, msg, data, timeout, f"click {button.get('label')!r}")

    async def select(
        self,
        member: MemberRef,
        message: Message | int,
        /,
        values: Sequence[Any],
        *,
        placeholder: str | None = None,
        custom_id: str | None = None,
        timeout: float | None = None,
    ) -> Response:
        """Choose ``values`` in a select (found by placeholder or custom_id; the only one).

        For string selects, values may be option values or option labels.
        """
        user = self.user(member)
        msg = self._visible_message(user, message)
        selects = msg.selects()
        if custom_id is not None:
            found = [s for s in selects if s.get("custom_id") == custom_id]
        elif placeholder is not None:
            found = [s for s in selects if s.get("placeholder") == placeholder]
        else:
            found = selects
        select = self._pick(found, "select", [s.get("placeholder") for s in selects])
        if select.get("disabled"):
            raise DriverError("the select is disabled")
        chosen: list[str] = []
        data: dict[str, Any] = {"custom_id": select["custom_id"], "component_type": select["type"]}
        if select["type"] == 3:
            options = select.get("options") or []
            for value in values:
                option = next(
                    (o for o in options if value in (o.get("value"), o.get("label"))), None
                )
                if option is None:
                    raise DriverError(
                        f"{value!r} is not an option (options {[o.get('label') for o in options]})"
                    )
                chosen.append(option["value"])
        else:
            resolved: dict[str, dict[str, Any]] = {}
            for value in values:
                spec = {
                    "type": {5: USER, 6: ROLE, 7: MENTIONABLE, 8: CHANNEL}[select["type"]],
                    "name": "select",
                }
                chosen.append(self._option_value(spec, value, resolved, msg.guild_id))
            data["resolved"] = resolved
        low, high = select.get("min_values", 1), select.get("max_values", 1)
        if not low <= len(chosen) <= high:
            raise DriverError(f"choose {low}-{high} values, not {len(chosen)}")
        data["values"] = chosen
        return await self._component(user, msg, data, timeout, f"select {chosen}")

    async def submit_modal(
        self,
        member: MemberRef,
        opened: Response,
        values: dict[str, str],
        *,
        timeout: float | None = None,
    ) -> Response:
        """Fill and submit the modal the bot opened in ``opened`` (text inputs by custom_id)."""
        modal = opened.modal
        if modal is None:
            raise DriverError("that response did not open a modal")
        user = self.user(member)
        rows: list[dict[str, Any]] = []
        for comp in modal.get("components") or []:
            inputs = list(comp.get("components") or [])
            if isinstance(comp.get("component"), dict):
                inputs.append(comp["component"])
            filled = [
                {"type": 4, "custom_id": i["custom_id"], "value": values.get(i["custom_id"], "")}
                for i in inputs
                if i.get("type") == 4
            ]
            if comp.get("type") == 18 and filled:
                rows.append({"type": 18, "component": filled[0]})
            elif filled:
                rows.append({"type": 1, "components": filled})
        data = {"custom_id": modal["custom_id"], "components": rows}
        source = opened.interaction
        msg = self.fake.messages.get(source.component_message_id or 0)
        interaction = self.fake.new_interaction(
            itype=MODAL_SUBMIT,
            user=user,
            channel=self.fake.world.channel(source.channel_id),
            data=data,
            message=msg,
        )
        return await self._send(interaction, timeout, "modal submit")

    async def _component(
        self, user: User, msg: Message, data: dict[str, Any], timeout: float | None, what: str
    ) -> Response:
        interaction = self.fake.new_interaction(
            itype=MESSAGE_COMPONENT,
            user=user,
            channel=self.fake.world.channel(msg.channel_id),
            data=data,
            message=msg,
        )
        return await self._send(interaction, timeout, what)

    # ----------------------------------------------------------------- sending

    async def _send(self, interaction: Interaction, timeout: float | None, what: str) -> Response:
        gateway = self.fake.gateway
        if not gateway.connected_for(interaction.guild_id):
            await self.wait_for(
                lambda: gateway.connected_for(interaction.guild_id),
                timeout,
                "the bot to be connected",
            )
        await self.fake.send_interaction(interaction)
        limit = timeout or self.timeout
        start = time.monotonic()
        try:
            await self.fake.wait_for(
                lambda: interaction.responded or interaction.rejected,
                limit,
                f"the bot to answer {what}",
            )
        except TimeoutError:
            raise DriverError(
                f"the bot did not answer {what} within {limit}s "
                f"(bot connected: {gateway.connected_for(interaction.guild_id)})"
            ) from None
        if interaction.rejected:
            raise DriverError(f"{what}: the bot's answer was rejected ({interaction.rejected})")
        response = Response(interaction, self.fake)
        if interaction.response_type == DEFERRED_MESSAGE:
            remaining = max(0.1, limit - (time.monotonic() - start))
            try:
                await self.fake.wait_for(
                    lambda: (
                        response.message is None
                        or not response.message.loading
                        or response.message.deleted
                    ),
                    remaining,
                    f"the deferred answer to {what}",
                )
            except TimeoutError:
                raise DriverError(f"{what}: deferred, but no answer within {limit}s") from None
        return response

    # ----------------------------------------------------------------- faults

    async def drop_connection(self, *, code: int = 4000) -> None:
        """Drop the bot's gateway connection (it should reconnect and RESUME)."""
        await self.fake.gateway.drop(code=code)
