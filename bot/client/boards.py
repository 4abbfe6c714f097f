"""Board messages: posting a table's board, editing it (coalesced and paced, see
:mod:`bot.client.coalesce`) through the interaction of the last click on it while its token is
fresh, else through the channel, re-posting an old one, retiring old controls."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.client.coalesce import BoardEdits, Rerouted, Via
from bot.client.common import jump_url
from bot.client.components import message_kwargs
from bot.client.outside import alive
from bot.client.places import bot_is_member
from bot.client.retry import FAILURES, post, show_answer
from bot.tables.controller import channel_language
from bot.tables.core.events import Answer, BoardChanged
from bot.tables.wording import moved_on

if TYPE_CHECKING:
    from bot.client.outside import Tokens
    from bot.tables.service import TableService

log = logging.getLogger("parlour")

REPOST_AFTER = dt.timedelta(minutes=50)  # edits of old channel messages have their own quota
RIDERS = 2000  # boards whose last click's interaction is kept (about 11 KiB each, the oldest go)
GONE = (401, 403, 404)  # an interaction's webhook refusing an edit: its token is no use now


class BoardMessages:
    """The client's part that owns board messages (a mixin of the bot's client)."""

    service: TableService
    board_edits: BoardEdits[tuple[int, Answer]]
    outside_tokens: Tokens  # see bot.client.outside
    riders: dict[int, discord.Interaction[Any]]  # board message -> the interaction it answered

    if TYPE_CHECKING:  # discord.Client's, which the bot's client also is

        def get_partial_messageable(
            self, id: int, *, guild_id: int | None = None, type: discord.ChannelType | None = None
        ) -> discord.PartialMessageable: ...

        def board_kwargs(
            self, interaction: discord.Interaction[Any], kwargs: dict[str, Any]
        ) -> dict[str, Any]: ...

    def init_boards(self) -> None:
        self.riders = {}
        self.board_edits = BoardEdits(
            self._send_board_edit, rider=self.rider, ride=self._ride_board_edit
        )

    def ride_on(self, message_id: int, interaction: discord.Interaction[Any]) -> None:
        """The board ``message_id`` is ``interaction``'s original response (the member clicked
        on it and was answered in place, or the board was posted as the answer): its next
        edits may go through that interaction's webhook. Not where the bot is not a member:
        :mod:`bot.client.outside` does that there."""
        if not bot_is_member(interaction):
            return
        self.riders.pop(message_id, None)  # the newest last, so the oldest go first
        self.riders[message_id] = interaction
        while True:  # the oldest first: those whose token ran out go at once
            key, oldest = next(iter(self.riders.items()))
            if alive(oldest) and len(self.riders) <= RIDERS:
                break
            del self.riders[key]

    def rider(self, message_id: int) -> Via | None:
        """The fresh interaction that may edit the board message, if any."""
        interaction = self.riders.get(message_id)
        if interaction is None:
            return None
        if not alive(interaction):
            del self.riders[message_id]
            return None
        return interaction.id, interaction

    async def _ride_board_edit(
        self, message_id: int, item: tuple[int, Answer], interaction: discord.Interaction[Any]
    ) -> None:
        """Edit the board through the interaction whose original response it is; a token Discord
        no longer takes is forgotten and the edit goes through the channel (:class:`Rerouted`)."""
        answer = item[1]
        assert answer.board is not None
        kwargs = message_kwargs(answer.board, answer.table_id, answer.version, editing=True)
        try:
            await interaction.edit_original_response(**kwargs)
        except discord.HTTPException as exc:
            if exc.status not in GONE:
                raise
            if self.riders.get(message_id) is interaction:
                del self.riders[message_id]
            raise Rerouted(f"interaction {interaction.id}: {exc}") from exc

    async def post_board(self, interaction: discord.Interaction, answer: Answer) -> None:
        """Post the board as the interaction's answer and remember its message. After a defer
        the deferred message becomes the board: an edit, the same however often it is sent
        (a follow-up repeated after its answer was lost would be a second board)."""
        message_id, answered = await self._answer_with_board(interaction, answer)
        old = answer.board_message_id
        if answered:  # the interaction's own message: its edits may go through it
            self.outside_tokens.owns(message_id, interaction)
            self.ride_on(message_id, interaction)
        if answer.table_id is not None:
            await self.service.board_posted(answer.table_id, message_id)
        if old and old != message_id:
            self.board_edits.forget(old)  # replaced: it gets no more board edits
            self.riders.pop(old, None)
        if old and old != message_id and interaction.channel_id:
            newest = jump_url(interaction.guild_id, interaction.channel_id, message_id)
            changed = next((e for e in answer.events if isinstance(e, BoardChanged)), None)
            same_game = changed is None or changed.same_game
            lang = await self.board_language(answer.table_id)
            await self.retire(interaction.channel_id, old, newest if same_game else None, lang)

    async def _answer_with_board(
        self, interaction: discord.Interaction, answer: Answer
    ) -> tuple[int, bool]:
        """The board as the interaction's answer: its message's id, and whether that message is
        the interaction's original response. When Discord no longer
        takes that answer (the interaction expired while the bot was slow, or every try
        failed), the board is posted in the channel instead: the game it shows has begun, and
        a game without a board could not be played (nor another started in the channel)."""
        assert answer.board is not None
        deferred = interaction.response.is_done()
        channel_id = interaction.channel_id
        try:
            shown = await show_answer(
                interaction,
                answer.board,
                answer.table_id,
                answer.version,
                lambda kwargs: self.board_kwargs(interaction, kwargs),
            )
            return shown.id, True
        except FAILURES as error:
            if channel_id is None or channel_id in self.outside_tokens.outside:
                raise  # no channel the bot may post in
            log.warning(
                "could not answer interaction %s with its board (%r): posting it in the channel",
                interaction.id,
                error,
            )
        if not deferred:  # a callback whose answer was lost may have gone through after all
            with contextlib.suppress(*FAILURES):
                return (await interaction.original_response()).id, True
        channel = self.get_partial_messageable(channel_id)
        message = await post(
            channel,
            answer.board,
            *("interaction", interaction.id, "board"),
            table_id=answer.table_id,
            version=answer.version,
        )
        return message.id, False

    async def board_language(self, table_id: int | None) -> str:
        """The language a table's channel reads (English when the table is unknown)."""
        table = await self.service.db.get_table(table_id) if table_id is not None else None
        return "en" if table is None else channel_language(table)

    async def retire(
        self, channel_id: int, message_id: int, newest: str | None = None, lang: str = "en"
    ) -> None:
        """Take the controls off an old board message (best effort); ``newest``: the link to
        the board that replaces it, and the old one says it moved on (in ``lang``)."""
        channel = self.get_partial_messageable(channel_id)
        old = channel.get_partial_message(message_id)
        try:
            if newest is None:
                await old.edit(view=None)
            else:
                await old.edit(content=moved_on(newest, lang), view=None)
        except (discord.HTTPException, aiohttp.ClientError, OSError) as exc:
            log.warning("could not retire board message %s: %s", message_id, exc)

    def edit_board(self, channel_id: int | None, answer: Answer) -> asyncio.Future[None]:
        """Queue an edit of the board message through the channel, coalesced with the other
        edits of that message; await the result to wait until this state or a newer one is
        shown."""
        if channel_id is None or answer.board is None or answer.board_message_id is None:
            done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            done.set_result(None)
            return done
        return self.board_edits.submit(
            channel_id, answer.board_message_id, answer.version, (channel_id, answer)
        )

    async def _send_board_edit(self, message_id: int, item: tuple[int, Answer]) -> None:
        await self.edit_board_now(*item)  # BoardEdits tries again, or logs the failure

    async def edit_board_now(self, channel_id: int, answer: Answer) -> None:
        """Edit the board message through the channel (or re-post it when it is old)."""
        board, message_id = answer.board, answer.board_message_id
        assert board is not None and message_id is not None
        channel = self.get_partial_messageable(channel_id)
        age = discord.utils.utcnow() - discord.utils.snowflake_time(message_id)
        # a repost is named by the message it replaces, so a repeated try posts it once
        again = ("board", message_id, answer.version or 0)
        outside = channel_id in self.outside_tokens.outside  # no reposts: only edits reach it
        if age > REPOST_AFTER and board.rows and not outside:
            message = await post(
                channel, board, *again, table_id=answer.table_id, version=answer.version
            )
            if answer.table_id is not None:
                await self.service.board_posted(answer.table_id, message.id)
            newest = message.jump_url if message.guild is not None else None
            lang = await self.board_language(answer.table_id)
            await self.retire(channel_id, message_id, newest, lang)
            return
        kwargs = message_kwargs(board, answer.table_id, answer.version, editing=True)
        try:
            await channel.get_partial_message(message_id).edit(**kwargs)
        except discord.NotFound:
            message = await post(
                channel, board, *again, table_id=answer.table_id, version=answer.version
            )
            if answer.table_id is not None:
                await self.service.board_posted(answer.table_id, message.id)
