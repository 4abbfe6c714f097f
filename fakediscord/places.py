"""Where an interaction happens: guild channels, threads, DMs with the bot, group DMs.

What Discord documents and the fake follows:

- An interaction carries ``context`` (0 a guild, 1 the DM with the app's bot user, 2 any other
  private channel such as a group DM) and ``authorizing_integration_owners``: ``"0"`` (the app
  installed to a guild) maps to that guild's id, or to ``"0"`` in the DM with the bot; ``"1"``
  (installed to a member's account) maps to the id of the member who installed it. A component
  interaction carries the owners of the interaction that created its message.
- ``app_permissions`` are the bot's permissions there; where the bot is not a member (a group
  DM, a guild that did not add it) only ``ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE``.
- Where the bot is not a member, channel routes answer 403 ``{"code": 50001, "message":
  "Missing Access"}``; the bot talks only through the interaction (response, follow-ups,
  editing the message a component is on), and an interaction authorized by a member's own
  install alone may send at most five follow-ups.
- An interaction token lives 15 minutes; afterwards its webhook routes answer 401
  ``{"code": 50027, "message": "Invalid Webhook Token"}``. The fake's clock
  (:meth:`FakeDiscord.advance_clock`) moves it without sleeping.
- Threads: ``POST /channels/{id}/messages/{mid}/threads`` opens a public thread off a message
  (its id is the message's; needs ``CREATE_PUBLIC_THREADS``), messages in it need
  ``SEND_MESSAGES_IN_THREADS``, ``PATCH /channels/{thread}`` archives it; the gateway sends
  THREAD_CREATE and THREAD_UPDATE.
"""

from __future__ import annotations

from typing import Any

from fakediscord.state import (
    ATTACH_FILES,
    CREATE_PUBLIC_THREADS,
    DM,
    EMBED_LINKS,
    EVERYONE_PERMISSIONS,
    GROUP_DM,
    MANAGE_THREADS,
    MENTION_EVERYONE,
    PUBLIC_THREAD,
    SEND_MESSAGES_IN_THREADS,
    Channel,
    Guild,
    Message,
    User,
    World,
)

GUILD_CONTEXT, BOT_DM_CONTEXT, PRIVATE_CHANNEL_CONTEXT = 0, 1, 2
GUILD_INSTALL, USER_INSTALL = "0", "1"
TOKEN_LIFETIME = 15 * 60.0
USER_INSTALL_FOLLOWUPS = 5
#: What an app may do where its bot is not a member (Discord's documented set).
OUTSIDE_PERMISSIONS = ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE
BOT_DM_PERMISSIONS = EVERYONE_PERMISSIONS | MENTION_EVERYONE


class PlaceError(Exception):
    """Discord's answer when the bot may not do this here (status, JSON code, message)."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


MISSING_ACCESS = (403, 50001, "Missing Access")
MISSING_PERMISSIONS = (403, 50013, "Missing Permissions")
ARCHIVED_THREAD = (400, 50083, "Thread is archived")
INVALID_TOKEN = (401, 50027, "Invalid Webhook Token")


def context_of(world: World, channel: Channel) -> int:
    """The interaction context of a channel."""
    if channel.type == DM:
        return BOT_DM_CONTEXT
    if channel.type == GROUP_DM:
        return PRIVATE_CHANNEL_CONTEXT
    return GUILD_CONTEXT


def authorizing_owners(world: World, user: User, channel: Channel) -> dict[str, str]:
    """``authorizing_integration_owners`` of a new interaction by ``user`` in ``channel``;
    empty when the app cannot be used there (not in the guild, not installed to the user)."""
    owners: dict[str, str] = {}
    if channel.type == DM:
        owners[GUILD_INSTALL] = "0"
    elif not channel.private and world.bot_sees(channel):
        owners[GUILD_INSTALL] = str(channel.guild_id)
    if user.id in world.user_installs:
        owners[USER_INSTALL] = str(user.id)
    return owners


def location_payload(
    world: World, user: User, channel: Channel, owners: dict[str, str]
) -> dict[str, Any]:
    """The fields of an interaction that say where it happened and who is acting."""
    data: dict[str, Any] = {
        "channel_id": str(channel.id),
        "channel": channel_payload(world, channel),
        "context": context_of(world, channel),
        "authorizing_integration_owners": owners,
    }
    if channel.private:
        if user.id not in channel.recipients:
            raise KeyError(f"{user.name} is not in {channel.name}")
        data["user"] = user.payload()
        data["app_permissions"] = str(
            BOT_DM_PERMISSIONS if channel.type == DM else OUTSIDE_PERMISSIONS
        )
        return data
    guild = world.guild(channel.guild_id or 0)
    member = guild.member(user.id)
    if member is None:
        raise KeyError(f"{user.name} is not a member of {guild.name}")
    bot_member = guild.member(world.bot_user.id) is not None
    data.update(
        guild_id=str(guild.id),
        guild={"id": str(guild.id), "locale": guild.locale, "features": []},
        guild_locale=guild.locale,
        member=member.payload(permissions=guild.permissions(user.id)),
        app_permissions=str(
            guild.permissions(world.bot_user.id) if bot_member else OUTSIDE_PERMISSIONS
        ),
    )
    return data


def check_channel_access(world: World, channel: Channel) -> None:
    """Raise 403 Missing Access where the bot is not a member."""
    if not world.bot_sees(channel):
        raise PlaceError(*MISSING_ACCESS)


def check_post(world: World, channel: Channel) -> None:
    """What Discord checks before the bot posts in a channel (threads: the permission and an
    unlocked thread; an archived, unlocked thread is unarchived by the post)."""
    check_channel_access(world, channel)
    if not channel.thread:
        return
    guild = world.guild(channel.guild_id or 0)
    if not guild.permissions(world.bot_user.id) & SEND_MESSAGES_IN_THREADS:
        raise PlaceError(*MISSING_PERMISSIONS)
    if channel.locked:
        raise PlaceError(*ARCHIVED_THREAD)


def open_thread(world: World, parent: Channel, message: Message, name: str, bot: User) -> Channel:
    """A public thread off ``message`` in ``parent`` (raises 403 without the permission)."""
    check_channel_access(world, parent)
    guild = world.guild(parent.guild_id or 0)
    if parent.private or parent.thread:
        raise PlaceError(400, 50024, "Cannot execute action on this channel type")
    if not guild.permissions(bot.id) & CREATE_PUBLIC_THREADS:
        raise PlaceError(*MISSING_PERMISSIONS)
    if any(t.id == message.id for t in guild.threads):
        raise PlaceError(400, 160004, "A thread has already been created for this message")
    thread = Channel(
        message.id, guild.id, name[:100], PUBLIC_THREAD, parent_id=parent.id, owner_id=bot.id
    )
    guild.threads.append(thread)
    return thread


def edit_thread(world: World, guild: Guild, thread: Channel, changes: dict[str, Any]) -> None:
    """Apply ``PATCH /channels/{thread}`` (name, archived, locked); the bot may archive the
    threads it opened, others need MANAGE_THREADS."""
    check_channel_access(world, thread)
    own = thread.owner_id == world.bot_user.id
    if not own and not guild.permissions(world.bot_user.id) & MANAGE_THREADS:
        raise PlaceError(*MISSING_PERMISSIONS)
    if changes.get("name"):
        thread.name = str(changes["name"])[:100]
    if "archived" in changes:
        thread.archived = bool(changes["archived"])
    if "locked" in changes:
        thread.locked = bool(changes["locked"])


def dm_with(world: World, user_id: int, new_id: int) -> Channel:
    """The bot's DM with a user (``POST /users/@me/channels``), opened when first asked."""
    for channel in world.private_channels:
        if channel.type == DM and channel.recipients == [user_id]:
            return channel
    user = world.user(user_id)
    channel = Channel(new_id, None, f"dm-{user.name}", DM, recipients=[user_id])
    world.private_channels.append(channel)
    return channel


def channel_payload(world: World, channel: Channel) -> dict[str, Any]:
    """The channel object with a private channel's recipients as full users (the bot left
    out, as Discord does)."""
    data = channel.payload()
    if channel.private:
        data["recipients"] = [
            world.user(uid).payload() for uid in channel.recipients if uid != world.bot_user.id
        ]
    return data
