"""The fake Discord's world and its history: guilds, channels, members, messages, interactions.

Everything here is plain data plus the JSON payloads Discord would send for it. The server
mutates it; tests read it (through :class:`fakediscord.driver.Driver` or directly).
"""

from __future__ import annotations

import copy
import datetime as dt
import itertools
import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

DISCORD_EPOCH_MS = 1_420_070_400_000

# Permission bits used by the default world.
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_APPLICATION_COMMANDS = 1 << 31
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
MENTION_EVERYONE = 1 << 17
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 53) - 1
EVERYONE_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS
)

# Channel types.
GUILD_TEXT, DM, GROUP_DM, PUBLIC_THREAD = 0, 1, 3, 11

# Message flags.
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_COMPONENTS_V2 = 1 << 15

# Component types.
ACTION_ROW = 1
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
SELECT_TYPES = (3, 5, 6, 7, 8)

#: Marks, in a client's User-Agent, the name that launch gives the process (for logs and tests).
CLIENT_NAME_MARK = "fakediscord-client/"


class Snowflakes:
    """Generates increasing Discord-style snowflakes based on the current time."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        """A fresh snowflake, strictly greater than every earlier one."""
        now = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(now, self._last + 1)
        return self._last


def iso(ts: float) -> str:
    """ISO 8601 timestamp as Discord writes it."""
    return dt.datetime.fromtimestamp(ts, tz=dt.UTC).isoformat()


@dataclass(slots=True)
class User:
    """A Discord user (a member's account or the bot)."""

    id: int
    name: str
    bot: bool = False
    locale: str = "en-US"  # the language of the member's Discord client (interaction.locale)

    def payload(self) -> dict[str, Any]:
        """The user object Discord sends."""
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": None if self.bot else self.name.title(),
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    @property
    def mention(self) -> str:
        """``<@id>``, as it appears in message content."""
        return f"<@{self.id}>"


@dataclass(slots=True)
class Role:
    """A guild role with a permission bit set."""

    id: int
    name: str
    permissions: int = 0
    position: int = 0

    def payload(self) -> dict[str, Any]:
        """The role object Discord sends."""
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(slots=True)
class Channel:
    """A guild text channel, a public thread (type 11), a DM (1) or a group DM (3).

    DMs and group DMs have no guild; ``recipients`` are their users' ids (the bot is one of a
    DM's, and a member of a group DM only when listed). ``name`` of a DM is the fake's handle
    for it ("dm-alice"); Discord sends none.
    """

    id: int
    guild_id: int | None
    name: str
    type: int = GUILD_TEXT
    position: int = 0
    recipients: list[int] = field(default_factory=list)
    parent_id: int | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    message_count: int = 0

    @property
    def private(self) -> bool:
        """Whether this is a DM or a group DM (no guild)."""
        return self.type in (DM, GROUP_DM)

    @property
    def thread(self) -> bool:
        """Whether this is a thread."""
        return self.type == PUBLIC_THREAD

    def payload(self) -> dict[str, Any]:
        """The channel object Discord sends."""
        if self.private:
            return self._private_payload()
        data: dict[str, Any] = {
            "id": str(self.id),
            "guild_id": str(self.guild_id),
            "name": self.name,
            "type": self.type,
            "position": self.position,
            "permission_overwrites": [],
            "nsfw": False,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "parent_id": None if self.parent_id is None else str(self.parent_id),
            "flags": 0,
        }
        if self.thread:
            del data["permission_overwrites"], data["position"], data["topic"]
            data["owner_id"] = str(self.owner_id)
            data["message_count"] = data["total_message_sent"] = self.message_count
            data["member_count"] = 1
            data["thread_metadata"] = {
                "archived": self.archived,
                "auto_archive_duration": 1440,
                "archive_timestamp": iso(time.time()),
                "locked": self.locked,
            }
        return data

    def _private_payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "last_message_id": None,
            "flags": 0,
            "recipients": [{"id": str(r)} for r in self.recipients],
        }
        if self.type == GROUP_DM:
            data.update(name=self.name, icon=None, owner_id=str(self.owner_id))
        return data

    @property
    def mention(self) -> str:
        """``<#id>``."""
        return f"<#{self.id}>"


@dataclass(slots=True)
class Member:
    """A user's membership in one guild."""

    user: User
    guild_id: int
    role_ids: list[int] = field(default_factory=list)
    joined_at: float = field(default_factory=time.time)

    @property
    def id(self) -> int:
        """The user's id."""
        return self.user.id

    @property
    def name(self) -> str:
        """The user's name."""
        return self.user.name

    @property
    def mention(self) -> str:
        """``<@id>``."""
        return self.user.mention

    def payload(self, *, with_user: bool = True, permissions: int | None = None) -> dict[str, Any]:
        """The guild member object Discord sends."""
        data: dict[str, Any] = {
            "roles": [str(r) for r in self.role_ids],
            "joined_at": iso(self.joined_at),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "premium_since": None,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass(slots=True)
class Guild:
    """A guild with its roles, channels and members."""

    id: int
    name: str
    owner_id: int
    roles: list[Role] = field(default_factory=list)
    channels: list[Channel] = field(default_factory=list)
    members: list[Member] = field(default_factory=list)
    threads: list[Channel] = field(default_factory=list)
    locale: str = "en-US"  # the server's language (interaction.guild_locale)

    def role(self, role_id: int) -> Role | None:
        """The role with this id."""
        return next((r for r in self.roles if r.id == role_id), None)

    def member(self, user_id: int) -> Member | None:
        """The member with this user id."""
        return next((m for m in self.members if m.id == user_id), None)

    def permissions(self, user_id: int) -> int:
        """Guild-level permissions of a member (owner and administrators get everything)."""
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        member = self.member(user_id)
        everyone = self.role(self.id)
        perms = everyone.permissions if everyone else 0
        if member is not None:
            for role_id in member.role_ids:
                role = self.role(role_id)
                if role is not None:
                    perms |= role.permissions
        if perms & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return perms

    def payload(self) -> dict[str, Any]:
        """The GUILD_CREATE payload."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "owner_id": str(self.owner_id),
            "unavailable": False,
            "large": False,
            "member_count": len(self.members),
            "roles": [r.payload() for r in self.roles],
            "channels": [c.payload() for c in self.channels],
            "members": [m.payload() for m in self.members],
            "threads": [t.payload() for t in self.threads if not t.archived],
            "voice_states": [],
            "presences": [],
            "emojis": [],
            "stickers": [],
            "features": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "joined_at": iso(time.time()),
            "preferred_locale": self.locale,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "application_id": None,
        }


@dataclass(slots=True)
class Attachment:
    """A file on a message, with its bytes (served back at :attr:`url`)."""

    id: int
    filename: str
    data: bytes
    description: str | None = None
    content_type: str | None = None
    url: str = ""

    def payload(self) -> dict[str, Any]:
        """The attachment object Discord sends."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
        }
        if self.description is not None:
            data["description"] = self.description
        if self.content_type is not None:
            data["content_type"] = self.content_type
        if self.data[:8] == b"\x89PNG\r\n\x1a\n" and len(self.data) >= 24:
            data["width"] = int.from_bytes(self.data[16:20], "big")
            data["height"] = int.from_bytes(self.data[20:24], "big")
        return data


@dataclass(slots=True)
class MessageVersion:
    """What a message looked like before one of its edits."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[Attachment]
    flags: int
    at: float


@dataclass(slots=True)
class Message:
    """A message in a channel (or an ephemeral message only one member sees).

    ``components`` and ``embeds`` are kept as the JSON the bot sent. Helpers find buttons and
    selects by label, placeholder or custom_id.
    """

    id: int
    channel_id: int
    guild_id: int | None
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    created_at: float = field(default_factory=time.time)
    edited_at: float | None = None
    deleted: bool = False
    ephemeral_for: int | None = None
    interaction_id: int | None = None
    interaction_type: int | None = None
    interaction_user: User | None = None
    application_id: int | None = None
    history: list[MessageVersion] = field(default_factory=list)
    nonce: str | None = None
    authorizing: dict[str, str] | None = None  # the creating interaction's integration owners

    @property
    def ephemeral(self) -> bool:
        """Whether only one member sees this message."""
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """Whether this is a deferred response still "thinking"."""
        return bool(self.flags & FLAG_LOADING)

    @property
    def edited(self) -> bool:
        """Whether the message was edited after it was first sent."""
        return self.edited_at is not None

    def snapshot(self) -> MessageVersion:
        """The current look of the message, for the edit history."""
        return MessageVersion(
            content=self.content,
            embeds=copy.deepcopy(self.embeds),
            components=copy.deepcopy(self.components),
            attachments=list(self.attachments),
            flags=self.flags,
            at=self.edited_at or self.created_at,
        )

    def all_components(self) -> list[dict[str, Any]]:
        """Every component at any depth (rows, buttons, selects, v2 containers...)."""
        return list(walk_components(self.components))

    def buttons(self) -> list[dict[str, Any]]:
        """All buttons, in order."""
        return [c for c in self.all_components() if c.get("type") == BUTTON]

    def selects(self) -> list[dict[str, Any]]:
        """All select menus, in order."""
        return [c for c in self.all_components() if c.get("type") in SELECT_TYPES]

    def button_labels(self) -> list[str]:
        """Labels of all buttons, in order (emoji-only buttons give "")."""
        return [b.get("label") or "" for b in self.buttons()]

    def text(self) -> str:
        """Content plus embed titles/descriptions/fields and v2 text displays, for asserts."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            for f in embed.get("fields", []):
                parts += [f.get("name", ""), f.get("value", "")]
            parts.append(embed.get("footer", {}).get("text", ""))
        for comp in self.all_components():
            if comp.get("type") == 10:
                parts.append(comp.get("content", ""))
        return "\n".join(p for p in parts if p)

    def payload(self) -> dict[str, Any]:
        """The message object Discord sends."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.created_at),
            "edited_timestamp": iso(self.edited_at) if self.edited_at else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components),
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.nonce is not None:
            data["nonce"] = self.nonce
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
            data["webhook_id"] = str(self.application_id)
        if self.interaction_id is not None and self.interaction_user is not None:
            data["interaction_metadata"] = {
                "id": str(self.interaction_id),
                "type": self.interaction_type or 2,
                "user": self.interaction_user.payload(),
                "authorizing_integration_owners": self.authorizing or {"0": str(self.guild_id)},
            }
        return data


def walk_components(components: list[dict[str, Any]]) -> Any:
    """Yield every component in a component tree, depth first."""
    for comp in components:
        if not isinstance(comp, dict):
            continue
        yield comp
        for key in ("components",):
            children = comp.get(key)
            if isinstance(children, list):
                yield from walk_components(children)
        accessory = comp.get("accessory")
        if isinstance(accessory, dict):
            yield from walk_components([accessory])
        inner = comp.get("component")
        if isinstance(inner, dict):
            yield from walk_components([inner])


@dataclass(slots=True)
class Interaction:
    """One interaction the driver sent and what the bot did with it."""

    id: int
    token: str
    type: int
    user: User
    guild_id: int | None
    channel_id: int
    payload: dict[str, Any]
    sent_at: float = field(default_factory=time.monotonic)
    responded_at: float | None = None
    response_type: int | None = None
    response_data: dict[str, Any] | None = None
    original_message_id: int | None = None
    component_message_id: int | None = None
    deferred_ephemeral: bool = False
    followup_ids: list[int] = field(default_factory=list)
    token_uses: int = 0
    rejected: str | None = None
    dispatched: bool = False  # sent to the bot (INTERACTION_CREATE)
    context: int = 0  # 0 a guild, 1 the bot's DM, 2 a private channel (group DM, other DMs)
    authorizing: dict[str, str] = field(default_factory=dict)
    lost_answers: int = 0  # callbacks that took effect but whose answer a fault lost

    @property
    def latency(self) -> float | None:
        """Seconds from INTERACTION_CREATE to the first callback."""
        if self.responded_at is None:
            return None
        return self.responded_at - self.sent_at

    @property
    def responded(self) -> bool:
        """Whether the bot sent the initial callback."""
        return self.response_type is not None


@dataclass(slots=True)
class Problem:
    """A limit violation, late response, unknown route or protocol misuse by the bot."""

    kind: str
    detail: str
    at: float = field(default_factory=time.time)

    def __str__(self) -> str:
        return f"[{self.kind}] {self.detail}"


@dataclass(slots=True)
class World:
    """The guilds, channels and members the fake serves, plus the bot's own account.

    :meth:`default` builds two guilds: "Parlour Test" (channels #games, #lobby; members olivia
    (owner), alice (Moderator: Manage Messages), bob, carol, dave, erin) and "Other Guild"
    (#general; olivia, alice, frank).
    """

    bot_user: User
    application_id: int
    guilds: list[Guild]
    token: str = "fake"
    private_channels: list[Channel] = field(default_factory=list)
    user_installs: set[int] = field(default_factory=set)  # users who installed the app

    @classmethod
    def default(cls) -> World:
        """The standard test world (fixed ids, so tests can name them)."""
        ids = itertools.count(100_000_000_000_000_001)
        bot_user = User(next(ids), "parlour", bot=True)
        app_id = bot_user.id
        users = {n: User(next(ids), n) for n in ("olivia", "alice", "bob", "carol", "dave")}
        users["erin"] = User(next(ids), "erin")
        users["frank"] = User(next(ids), "frank")

        g1 = next(ids)
        mod = Role(next(ids), "Moderator", MANAGE_MESSAGES, position=1)
        guild1 = Guild(
            id=g1,
            name="Parlour Test",
            owner_id=users["olivia"].id,
            roles=[Role(g1, "@everyone", EVERYONE_PERMISSIONS), mod],
            channels=[Channel(next(ids), g1, "games", position=0)],
        )
        guild1.channels.append(Channel(next(ids), g1, "lobby", position=1))
        for name in ("olivia", "alice", "bob", "carol", "dave", "erin"):
            roles = [mod.id] if name == "alice" else []
            guild1.members.append(Member(users[name], g1, roles))
        guild1.members.append(Member(bot_user, g1))

        g2 = next(ids)
        guild2 = Guild(
            id=g2,
            name="Other Guild",
            owner_id=users["olivia"].id,
            roles=[Role(g2, "@everyone", EVERYONE_PERMISSIONS)],
            channels=[Channel(next(ids), g2, "general")],
        )
        for name in ("olivia", "alice", "frank"):
            guild2.members.append(Member(users[name], g2))
        guild2.members.append(Member(bot_user, g2))
        world = cls(bot_user=bot_user, application_id=app_id, guilds=[guild1, guild2])
        friends = [users[n] for n in ("alice", "bob", "carol", "dave")]
        world.add_private_places(friends, ids)
        return world

    def add_private_places(self, friends: list[User], ids: Iterator[int]) -> None:
        """A DM with the bot for each friend ("dm-alice"), their group DM "friends" (the bot
        not a member, the first friend its owner), and the app installed to their accounts."""
        for user in friends:
            self.private_channels.append(
                Channel(next(ids), None, f"dm-{user.name}", DM, recipients=[user.id])
            )
        self.private_channels.append(
            Channel(
                next(ids),
                None,
                "friends",
                GROUP_DM,
                recipients=[u.id for u in friends],
                owner_id=friends[0].id,
            )
        )
        self.user_installs.update(u.id for u in friends)

    def member_guilds(self) -> list[Guild]:
        """The guilds the bot is a member of (the gateway tells it only of these)."""
        return [g for g in self.guilds if g.member(self.bot_user.id) is not None]

    def add_guild_without_bot(self, name: str, members: list[str], ids: Iterator[int]) -> Guild:
        """A guild that never added the app (#chat; ``members``, the first its owner): the
        bot is not a member and sees none of it; members who installed the app to their
        account still use it there.

        >>> world = World.default()
        >>> guild = world.add_guild_without_bot("Elsewhere", ["alice"], iter(range(1, 9)))
        >>> guild.name in [g.name for g in world.member_guilds()], world.bot_sees(guild.channels[0])
        (False, False)
        """
        users = [self.user(n) for n in members]
        guild_id = next(ids)
        guild = Guild(
            id=guild_id,
            name=name,
            owner_id=users[0].id,
            roles=[Role(guild_id, "@everyone", EVERYONE_PERMISSIONS)],
            channels=[Channel(next(ids), guild_id, "chat")],
        )
        guild.members.extend(Member(u, guild_id) for u in users)
        self.guilds.append(guild)
        return guild

    def bot_sees(self, channel: Channel) -> bool:
        """Whether the bot is a member where the channel is (its guild, its DM, a group DM
        listing it): elsewhere Discord answers its channel routes 403 Missing Access."""
        if channel.type == DM:
            return True
        if channel.type == GROUP_DM:
            return self.bot_user.id in channel.recipients
        guild = next((g for g in self.guilds if g.id == channel.guild_id), None)
        return guild is not None and guild.member(self.bot_user.id) is not None

    def spread_over_shards(self, count: int) -> World:
        """Give the guilds new ids so that guild ``i`` is on shard ``i % count``; returns self.

        >>> [(g.id >> 22) % 2 for g in World.default().spread_over_shards(2).guilds]
        [0, 1]
        """
        high = self.guilds[0].id >> 22
        for index, guild in enumerate(self.guilds):
            step = index // count * count + (index % count - high) % count
            new_id = ((high + step) << 22) + index + 1
            for role in guild.roles:
                if role.id == guild.id:
                    role.id = new_id
            for channel in guild.channels:
                channel.guild_id = new_id
            for member in guild.members:
                member.guild_id = new_id
            guild.id = new_id
        return self

    def guild(self, key: int | str) -> Guild:
        """A guild by id or name."""
        for g in self.guilds:
            if key in (g.id, g.name):
                return g
        raise KeyError(f"no guild {key!r}")

    def channel(self, key: int | str | Channel) -> Channel:
        """A channel by id, name ("games") or qualified name ("Other Guild/general")."""
        if isinstance(key, Channel):
            return key
        guild_name, _, chan_name = key.rpartition("/") if isinstance(key, str) else ("", "", "")
        for g in self.guilds:
            if guild_name and g.name != guild_name:
                continue
            for c in g.channels + g.threads:
                if key == c.id or (chan_name and c.name == chan_name):
                    return c
        for c in self.private_channels:
            if key in (c.id, c.name):
                return c
        raise KeyError(f"no channel {key!r}")

    def user(self, key: int | str | User | Member) -> User:
        """A user by id or name."""
        if isinstance(key, User):
            return key
        if isinstance(key, Member):
            return key.user
        for g in self.guilds:
            for m in g.members:
                if key in (m.id, m.name):
                    return m.user
        raise KeyError(f"no user {key!r}")

    def ready_payload(self, session_id: str, resume_url: str) -> dict[str, Any]:
        """The READY dispatch (guilds unavailable; GUILD_CREATEs follow)."""
        return {
            "v": 10,
            "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in self.guilds],
            "session_id": session_id,
            "resume_gateway_url": resume_url,
            "shard": [0, 1],
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
        }

    def application_payload(self) -> dict[str, Any]:
        """GET /oauth2/applications/@me."""
        return {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "Parlour (fake Discord)",
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": User(1, "owner").payload(),
            "verify_key": "0" * 64,
            "flags": 0,
            "team": None,
            "interactions_endpoint_url": None,
            "redirect_uris": [],
            "tags": [],
        }


def new_token() -> str:
    """A random interaction token."""
    return "tok-" + secrets.token_urlsafe(24)
