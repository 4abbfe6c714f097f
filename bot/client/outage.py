"""While the game store (the database) is away: what a member is told, and the computer's
turns picked up again once it answers.

The client calls :func:`answer_failure` wherever an interaction failed, and
:func:`when_store_back` when a computer turn could not be played; nothing else of the client
knows about outages.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.client.common import send_private
from bot.client.retry import UNKNOWN_INTERACTION
from bot.ops import interactions
from i18n import _, render
from storage import StoreUnavailable

log = logging.getLogger("parlour")

STORE_AWAY = _("The game store is restarting; try again in a moment.")
FAILED = _("Something went wrong on our side; please try again.")
RETRY_EVERY = 1.0  # seconds between asking a database that was away whether it is back


def store_away(exc: BaseException) -> bool:
    """Whether ``exc`` (or what it wraps: a command's error, a cause) is the store being away."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, StoreUnavailable):
            return True
        seen.add(id(current))
        current = getattr(current, "original", None) or current.__cause__
    return False


async def answer_failure(
    interaction: discord.Interaction[Any], exc: BaseException, what: str
) -> None:
    """Answer an interaction whose work raised ``exc``, privately: the store is restarting
    (logged as a warning), or a defect (logged with its traceback)."""
    locale = str(interaction.locale)
    if isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_INTERACTION:
        # answered after Discord's 3 s: no answer can reach the member any more
        interactions.note(outcome="error")
        log.warning("%s: Discord no longer knows the interaction (%s)", what, exc)
        return
    if store_away(exc):
        interactions.note(outcome="unavailable")
        log.warning("%s: the database is away (%s)", what, exc)
        await send_private(interaction, render(STORE_AWAY, locale))
        return
    interactions.note(outcome="error")
    log.error("%s failed", what, exc_info=exc)
    await send_private(interaction, render(FAILED, locale))


async def when_store_back(
    ping: Callable[[], Awaitable[object]], then: Callable[[], object]
) -> None:
    """Ask the database every :data:`RETRY_EVERY` seconds until it answers, then ``then()``:
    a computer turn due while the store was away is played once it is back."""
    while True:
        await asyncio.sleep(RETRY_EVERY)
        try:
            await ping()
        except StoreUnavailable:
            continue
        then()
        return
