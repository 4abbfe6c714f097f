"""Private hands kept as one message a member: shown, updated in place, replaced, closed.

An ephemeral message can be edited (or deleted) only through the interaction that made or last
touched it, for 15 minutes. So for each member's hand at a table this keeps the latest such
interaction and the message's id:

- when the table changes (a member's card, the computer's, a sweep), every hand whose summary
  changed is edited in place: it offers the legal cards as soon as it is the member's turn;
- a member who asks for their hand again gets a fresh message and the old one is deleted;
- once the game is over the hand shows its last state and is let go;
- a minute before the interaction expires the hand is closed (no cards, no buttons), so no
  stale hand lingers; the next **Your hand** opens a fresh one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.client.components import message_kwargs
from bot.tables.screens import Screen
from i18n import _, render

if TYPE_CHECKING:
    from bot.tables.service import TableService

log = logging.getLogger("parlour")

TOKEN_LIFE = 15 * 60.0  # seconds an interaction token may edit its messages
USABLE_FOR = TOKEN_LIFE - 60.0  # close the hand with a minute to spare
CLOSED = _(
    "This hand has closed: Discord lets the bot update a private message for 15 minutes. "
    "Press **Your hand** on the board for a fresh one."
)
ERRORS = (discord.HTTPException, aiohttp.ClientError, OSError)


@dataclass(slots=True)
class Hand:
    """The message showing one member's hand, and the interaction that may edit it."""

    interaction: discord.Interaction
    message_id: int
    key: str | None
    since: float
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    closer: asyncio.TimerHandle | None = None

    @property
    def usable(self) -> bool:
        return time.monotonic() - self.since < USABLE_FOR


class Hands:
    """Every member's private hand message, by (table, member)."""

    def __init__(self, service: TableService, spawn: Callable[[Any], Any]) -> None:
        self.service = service
        self.spawn = spawn
        self._hands: dict[tuple[int, int], Hand] = {}
        self._members: dict[int, set[int]] = {}  # table -> members with a hand shown

    def __len__(self) -> int:
        return len(self._hands)

    async def show(
        self,
        interaction: discord.Interaction,
        screen: Screen,
        table_id: int,
        key: str | None,
        *,
        in_place: bool,
    ) -> None:
        """Answer ``interaction`` with the member's hand: edit the message clicked on
        (``in_place``), or send a fresh one and delete the one it replaces."""
        user_id = interaction.user.id
        old = self._hands.get((table_id, user_id))
        kwargs = message_kwargs(screen, table_id, None, editing=in_place)
        if in_place and interaction.message is not None:
            if interaction.response.is_done():
                await interaction.edit_original_response(**kwargs)
            else:
                await interaction.response.edit_message(**kwargs)
            message_id = interaction.message.id
        elif interaction.response.is_done():
            sent = await interaction.followup.send(ephemeral=True, wait=True, **kwargs)
            message_id = sent.id
        else:
            callback = await interaction.response.send_message(ephemeral=True, **kwargs)
            message_id = callback.message_id or (await interaction.original_response()).id
        self._remember(table_id, user_id, Hand(interaction, message_id, key, time.monotonic()))
        if old is not None and old.message_id != message_id and old.usable:
            try:
                await old.interaction.followup.delete_message(old.message_id)
            except ERRORS as exc:
                log.warning("could not delete the replaced hand %s: %s", old.message_id, exc)

    def _remember(self, table_id: int, user_id: int, hand: Hand) -> None:
        old = self._hands.get((table_id, user_id))
        if old is not None:
            hand.lock = old.lock  # one edit at a time, across replacements
            if old.closer is not None:
                old.closer.cancel()
        loop = asyncio.get_running_loop()
        hand.closer = loop.call_later(
            USABLE_FOR, lambda: self.spawn(self._close(table_id, user_id, hand))
        )
        self._hands[(table_id, user_id)] = hand
        self._members.setdefault(table_id, set()).add(user_id)

    async def _close(self, table_id: int, user_id: int, hand: Hand) -> None:
        """The interaction is about to expire: empty the hand so no stale cards remain."""
        if self._hands.get((table_id, user_id)) is not hand:
            return
        self.forget(table_id, user_id)
        async with hand.lock:
            with contextlib.suppress(*ERRORS):
                closed = Screen(content=render(CLOSED, str(hand.interaction.locale)))
                await hand.interaction.followup.edit_message(
                    hand.message_id, **message_kwargs(closed, None, None, editing=True)
                )

    def refresh(self, table_id: int, *, except_user: int | None = None) -> None:
        """The table changed: bring the hands shown at it up to date (in the background)."""
        for user_id in list(self._members.get(table_id, ())):
            hand = self._hands.get((table_id, user_id))
            if hand is not None and user_id != except_user:
                self.spawn(self._refresh_one(table_id, user_id, hand))

    async def _refresh_one(self, table_id: int, user_id: int, hand: Hand) -> None:
        async with hand.lock:
            if self._hands.get((table_id, user_id)) is not hand or not hand.usable:
                return
            try:
                locale = str(hand.interaction.locale)
                update = await self.service.private_hand(table_id, user_id, hand.key, locale)
                if update.screen is not None:
                    kwargs = message_kwargs(update.screen, table_id, None, editing=True)
                    await hand.interaction.followup.edit_message(hand.message_id, **kwargs)
                    hand.key = update.key
                if update.final:  # the game is over: the hand shows its last state
                    self.forget(table_id, user_id)
            except discord.NotFound:  # the member dismissed it, or it was replaced meanwhile
                if self._hands.get((table_id, user_id)) is hand:
                    self.forget(table_id, user_id)
            except ERRORS as exc:
                log.warning(
                    "could not update the hand of %s at table %s: %s", user_id, table_id, exc
                )

    def forget(self, table_id: int, user_id: int) -> None:
        hand = self._hands.pop((table_id, user_id), None)
        if hand is not None and hand.closer is not None:
            hand.closer.cancel()
        members = self._members.get(table_id)
        if members is not None:
            members.discard(user_id)
            if not members:
                del self._members[table_id]
