"""The playground: Parlour in a browser, without Discord.

``python -m bot --playground [--port 8080]`` runs the real bot, unchanged, against the fake
Discord of :mod:`fakediscord` (the one the end-to-end tests use) and serves a page at
``http://127.0.0.1:8080`` that looks and works like a Discord channel: messages with images,
embeds, buttons and selects, ephemeral answers only for the member who caused them, a command
box listing the bot's slash commands with their options, and a switch to act as one of four
members, so two- and four-player games can be tried from one browser.

Modules:
    world       -- the playground's server: #games and #lobby; alice, bob, carol, dave
    playground  -- :class:`Playground`: the fake Discord, the bot, acting as members, live views
    server      -- the page, its JSON API and websocket (aiohttp, 127.0.0.1 only)
    snapshot    -- messages and commands as the page gets them
    store       -- the channels and commands kept beside the database across restarts
    cli         -- ``python -m bot --playground``
    static/     -- index.html, style.css, app.js: plain HTML, CSS and JavaScript, no build step
"""

from __future__ import annotations

from playground.cli import run
from playground.playground import Playground

__all__ = ["Playground", "run"]
