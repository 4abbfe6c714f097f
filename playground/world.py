"""The playground's server: one guild, two channels, four members and the bot."""

from __future__ import annotations

import itertools

from fakediscord.state import (
    DM,
    EVERYONE_PERMISSIONS,
    GROUP_DM,
    MANAGE_MESSAGES,
    Channel,
    Guild,
    Member,
    Role,
    User,
    World,
)

MEMBERS = ("alice", "bob", "carol", "dave")
CHANNELS = ("games", "lobby")
GUILD_NAME = "Parlour Playground"
GROUP_DM_NAME = "friends"


def playground_world() -> World:
    """alice (owner), bob (Moderator: Manage Messages), carol and dave in #games and #lobby,
    the four of them in the group DM "friends" (the bot not a member), and each one's DM with
    the bot ("dm-alice").

    The ids are fixed, so games kept in the database find their channel again after a restart.

    >>> [m.name for m in playground_world().guilds[0].members]
    ['alice', 'bob', 'carol', 'dave', 'Parlour']
    """
    ids = itertools.count(900_000_000_000_000_001)
    bot_user = User(next(ids), "Parlour", bot=True)
    users = [User(next(ids), name) for name in MEMBERS]
    guild_id = next(ids)
    moderator = Role(next(ids), "Moderator", MANAGE_MESSAGES, position=1)
    guild = Guild(
        id=guild_id,
        name=GUILD_NAME,
        owner_id=users[0].id,
        roles=[Role(guild_id, "@everyone", EVERYONE_PERMISSIONS), moderator],
        channels=[
            Channel(next(ids), guild_id, name, position=i) for i, name in enumerate(CHANNELS)
        ],
    )
    for user in users:
        guild.members.append(Member(user, guild_id, [moderator.id] if user.name == "bob" else []))
    guild.members.append(Member(bot_user, guild_id))
    world = World(
        bot_user=bot_user,
        application_id=bot_user.id,
        guilds=[guild],
        token="playground",
    )
    # The four in a group DM of their own, where the bot is not a member: Parlour is installed
    # to their accounts and answers there only through their clicks.
    world.private_channels.append(
        Channel(
            next(ids),
            None,
            GROUP_DM_NAME,
            GROUP_DM,
            recipients=[u.id for u in users],
            owner_id=users[0].id,
        )
    )
    # Each member's DM with the bot (after the group DM, so the ids kept before stay).
    for user in users:
        world.private_channels.append(
            Channel(next(ids), None, f"dm-{user.name}", DM, recipients=[user.id])
        )
    world.user_installs.update(u.id for u in users)
    return world
