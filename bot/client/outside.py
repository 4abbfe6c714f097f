"""Playing where the bot is not a member: a group DM, or a server that did not add Parlour.

There Discord answers every channel route with 403 Missing Access; the bot speaks only through
interactions: the response, follow-ups, and edits of the messages an interaction created or
was clicked on, for 15 minutes after the member acted (the token's life). So:

- every interaction in such a place is remembered, with the messages it may edit (the board it
  posted or the board that was clicked);
- the board is edited, and results are posted, through the freshest interaction that still
  lives there; a computer's turn that follows a click rides on that click's token;
- what happens with no live token (a deadline, the computer taking over an absent seat much
  later) is already stored by the table core and is shown at the next click, which edits the
  board it is on with the current state; the board says so ("updates when someone acts").

:class:`OutsidePlaces` is mixed into the bot: :meth:`get_partial_messageable` hands out an
:class:`InteractionChannel` for such a place, so the bot's channel code reaches members
through interactions there without knowing it.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

import discord

from bot.client.components import message_kwargs
from bot.client.customid import parse
from bot.client.places import bot_is_member
from bot.client.threads import ThreadPosts, game_thread_parent
from bot.tables.service import TableService
from i18n import _, render

log = logging.getLogger(__name__)

TOKEN_LIFE = dt.timedelta(minutes=15)
MARGIN = dt.timedelta(seconds=30)  # a token this close to its end is not started on
UPDATES = (
    discord.InteractionResponseType.message_update,
    discord.InteractionResponseType.deferred_message_update,
)
UPDATES_ON_ACTION = _("This board updates when someone acts.")


def alive(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction's token may still be used."""
    return discord.utils.utcnow() - interaction.created_at < TOKEN_LIFE - MARGIN


def with_note(kwargs: dict[str, Any], locale: str) -> dict[str, Any]:
    """A board's message arguments with the line saying it changes only when someone acts."""
    if "content" in kwargs and (kwargs.get("embed") is not None or kwargs.get("content")):
        note = render(UPDATES_ON_ACTION, locale)
        kwargs["content"] = f"{kwargs['content'] or ''}\n-# {note}".strip()[:2000]
    return kwargs


async def answer_thinking(interaction: discord.Interaction[Any]) -> None:
    """Discord makes the first follow-up of a deferred "thinking" answer replace it, with the
    defer's visibility: after a private defer (a slow ``/game resign``) a post for the whole
    place would be seen by one member only. So a private answer still thinking is answered
    first, and the post becomes a message of its own."""
    if interaction.response.type is not discord.InteractionResponseType.deferred_channel_message:
        return
    original = await interaction.original_response()
    if original.flags.loading and original.flags.ephemeral:
        await interaction.edit_original_response(
            content=render(_("Done."), str(interaction.locale))
        )


def may_edit(interaction: discord.Interaction[Any], message_id: int) -> bool:
    """Whether the interaction's token may edit the message: it posted it (its response or a
    follow-up), or it was a click on it answered by updating it. A click answered with a new
    message (a private hand, a hint) may edit only that one."""
    clicked = interaction.message
    if clicked is None or clicked.id != message_id:
        return True  # noted by :meth:`Tokens.owns`: it posted the message
    return interaction.response.type in UPDATES


class Tokens:
    """The interactions of the places where the bot is not a member, newest first."""

    KEEP = 8  # interactions kept per message: the newest that may still edit it is used

    def __init__(self) -> None:
        self.outside: set[int] = set()  # channel ids
        self._latest: dict[int, discord.Interaction[Any]] = {}  # channel id -> newest
        self._owners: dict[int, list[discord.Interaction[Any]]] = {}  # message id -> newest last

    def note(self, interaction: discord.Interaction[Any]) -> None:
        """Remember an interaction if it comes from a place where the bot is not a member."""
        channel_id = interaction.channel_id
        if channel_id is None or bot_is_member(interaction):
            return
        self.outside.add(channel_id)
        self._latest[channel_id] = interaction
        if interaction.message is not None and not interaction.message.flags.ephemeral:
            self._add(interaction.message.id, interaction)
        self._forget_dead()

    def owns(self, message_id: int, interaction: discord.Interaction[Any]) -> None:
        """``interaction`` posted ``message_id`` (its response or a follow-up of it)."""
        if interaction.channel_id in self.outside:
            self._add(message_id, interaction)

    def latest(self, channel_id: int) -> discord.Interaction[Any] | None:
        """The newest interaction of the place whose token still lives."""
        found = self._latest.get(channel_id)
        return found if found is not None and alive(found) else None

    def owner(self, message_id: int) -> discord.Interaction[Any] | None:
        """The newest live interaction that may edit the message: a hand's card played in a
        group DM updates the public board through the board's own interaction (the one that
        posted it, or the last click that updated it) while its token lives."""
        for found in reversed(self._owners.get(message_id, ())):
            if alive(found) and may_edit(found, message_id):
                return found
        return None

    def _add(self, message_id: int, interaction: discord.Interaction[Any]) -> None:
        kept = [i for i in self._owners.get(message_id, ()) if i is not interaction]
        self._owners[message_id] = [*kept, interaction][-self.KEEP :]

    def _forget_dead(self) -> None:
        for key, kept in list(self._owners.items()):
            living = [i for i in kept if alive(i)]
            if living:
                self._owners[key] = living
            else:
                del self._owners[key]


class _Message:
    """The part of a partial message the bot uses: edit it through an interaction."""

    def __init__(self, tokens: Tokens, message_id: int) -> None:
        self.tokens = tokens
        self.id = message_id

    async def edit(self, **kwargs: Any) -> None:
        """Edit through the live interaction that posted or was clicked on the message; with
        none, the next click shows the current state."""
        interaction = self.tokens.owner(self.id)
        if interaction is None:
            log.info("message %s waits for the next click to show the current state", self.id)
            return
        clicked = (
            interaction.message is not None
            and interaction.message.id == self.id
            and interaction.response.type in UPDATES
        )
        kwargs = with_note(kwargs, str(interaction.locale))
        try:
            if clicked:
                await interaction.edit_original_response(**kwargs)
            else:
                await interaction.followup.edit_message(self.id, **kwargs)
        except discord.HTTPException as exc:  # the token ran out between check and use
            log.info("could not edit message %s through its interaction: %s", self.id, exc)


class InteractionChannel:
    """A channel the bot is not a member of, reached through its members' interactions."""

    def __init__(self, tokens: Tokens, channel_id: int) -> None:
        self.tokens = tokens
        self.id = channel_id

    def get_partial_message(self, message_id: int) -> _Message:
        """A message of the place, editable through the interaction that may edit it."""
        return _Message(self.tokens, message_id)

    async def send(self, **kwargs: Any) -> discord.WebhookMessage | None:
        """A follow-up of the place's newest live interaction (None when there is none)."""
        interaction = self.tokens.latest(self.id)
        if interaction is None or not interaction.response.is_done():
            log.info("a message to channel %s waits: no live interaction there", self.id)
            return None
        kwargs.pop("nonce", None)
        kwargs.pop("enforce_nonce", None)
        try:
            await answer_thinking(interaction)
            sent = await interaction.followup.send(wait=True, **kwargs)
        except discord.HTTPException as exc:
            log.info("could not send to channel %s through its interaction: %s", self.id, exc)
            return None
        self.tokens.owns(sent.id, interaction)
        return sent


class OutsidePlaces:
    """Mixed into the bot: channels where it is not a member go through interactions."""

    outside_tokens: Tokens
    service: TableService

    def get_partial_messageable(self, id: int, **kwargs: Any) -> Any:
        """discord.py's partial messageable; an :class:`InteractionChannel` where the bot is
        not a member; a :class:`~bot.client.threads.ThreadPosts` for a game's thread."""
        tokens = self.__dict__.get("outside_tokens")
        if tokens is not None and id in tokens.outside:
            return InteractionChannel(tokens, id)
        plain = super().get_partial_messageable  # type: ignore[misc]
        parent = game_thread_parent(self, id)
        if parent is not None:  # a game's own thread: its result goes to the channel
            return ThreadPosts(self, plain(id, **kwargs), plain(parent))
        return plain(id, **kwargs)

    def board_kwargs(
        self, interaction: discord.Interaction[Any], kwargs: dict[str, Any]
    ) -> dict[str, Any]:
        """A board's message arguments; where the bot is not a member, with the note that it
        updates only when someone acts."""
        if bot_is_member(interaction):
            return kwargs
        return with_note(kwargs, str(interaction.locale))

    async def refresh_clicked_board(self, interaction: discord.Interaction[Any]) -> bool:
        """Where the bot is not a member, a click on the board that does not change it (a
        refusal, a private answer) first shows the current board on that message: the board's
        edits without a click wait for one. True if it did."""
        clicked = interaction.message
        if bot_is_member(interaction) or clicked is None or interaction.response.is_done():
            return False
        control = parse(str((interaction.data or {}).get("custom_id", "")))
        if clicked.flags.ephemeral or control is None:
            return False
        reply = await self.service.current_board(interaction.channel_id or 0)
        if reply is None or reply.board is None or reply.table_id != control.table_id:
            return False
        # None: the board was just posted and its id is being stored (a quick first click)
        if reply.board_message_id not in (None, clicked.id):
            return False
        kwargs = message_kwargs(reply.board, reply.table_id, reply.version, editing=True)
        await interaction.response.edit_message(**self.board_kwargs(interaction, kwargs))
        return True
