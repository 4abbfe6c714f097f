"""A small stand-in for Discord's API, for end-to-end tests and the playground.

It serves, on 127.0.0.1, the parts of Discord that the real discord.py client talks to: the
gateway websocket (hello, identify, heartbeats, READY, GUILD_CREATE, resume) and the REST routes a
bot uses (login, application commands, interaction callbacks, webhooks for follow-ups, channel
messages). It records what every member would see, checks each payload the bot sends against
Discord's documented limits, and lets tests act as members through :class:`Driver` and make
Discord go away through ``fake.faults`` (REST failures and delays per route, gateway closes,
reconnect and invalid-session opcodes).

Nothing in the bot's normal code paths imports this package.

Modules:
    state    -- the world (guilds, channels, members) and everything that happened in it
    limits   -- pure functions checking payloads against Discord's limits
    gateway  -- the gateway websocket (zlib-stream, heartbeats, sessions, resume)
    faults   -- Discord going away: REST failures and delays per route, closes, op 7, op 9
    server   -- the aiohttp application with the REST routes (:class:`FakeDiscord`)
    driver   -- acts as members: slash commands, clicks, selects, autocomplete (:class:`Driver`)
    launch   -- ``python -m fakediscord.launch --api-base URL -- bot`` runs a bot against it
"""

from __future__ import annotations

from fakediscord.driver import Driver, DriverError, Response
from fakediscord.server import FakeDiscord
from fakediscord.state import (
    Attachment,
    Channel,
    Guild,
    Interaction,
    Member,
    Message,
    Role,
    User,
    World,
)

__all__ = [
    "Attachment",
    "Channel",
    "Driver",
    "DriverError",
    "FakeDiscord",
    "Guild",
    "Interaction",
    "Member",
    "Message",
    "Response",
    "Role",
    "User",
    "World",
]
