"""Showing a table's :class:`~bot.tables.core.events.Answer` as the reply to an interaction:
one short function per event kind, called in the order a member should see them (the board,
their private screen, the channel's new messages, then the computer's turn)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot.client.common import jump_url, send_private
from bot.client.components import message_kwargs
from bot.client.customid import parse
from bot.client.retry import CHANNEL, Dress, answer, show_on_message
from bot.client.retry import post as post_once
from bot.client.threads import game_thread_parent
from bot.ops import interactions
from bot.tables.core.events import (
    Answer,
    BoardChanged,
    ComputerTurnDue,
    Posted,
    PrivateScreen,
    Refused,
)
from bot.tables.screens import Screen
from i18n import _, render

if TYPE_CHECKING:
    from bot.client.app import ParlourBot

E = TypeVar("E")
BOARD_FIRST_WAIT = 0.5  # seconds a member's answer waits for a board edit that can go at once


@dataclass
class Showing:
    """One answer being shown in reply to one interaction."""

    bot: ParlourBot
    interaction: discord.Interaction[Any]
    answer: Answer
    new_board: bool = False
    board_edit: asyncio.Future[None] | None = None  # the board's queued edit, if any

    @property
    def done(self) -> bool:
        return self.interaction.response.is_done()

    async def edit_clicked(self, screen: Screen, dress: Dress | None = None) -> bool:
        """Replace the message the member clicked on (the board, or their private message);
        whether it was (see :func:`bot.client.retry.show_on_message`)."""
        answer, interaction = self.answer, self.interaction
        if dress is None:
            return await show_on_message(interaction, screen, answer.table_id, answer.version)
        return await show_on_message(interaction, screen, answer.table_id, answer.version, dress)

    async def answer_with(self, make: Callable[[], dict[str, Any]]) -> bool:
        """The interaction's first answer, a new message (checked, not blindly repeated;
        ``make`` gives its arguments anew for each try, as a file is read once)."""
        send = self.interaction.response.send_message
        return await answer(self.interaction, lambda: send(**make()), CHANNEL)

    def clicked_private(self) -> bool:
        message = self.interaction.message
        return message is not None and message.flags.ephemeral


async def show(
    bot: ParlourBot, interaction: discord.Interaction[Any], answer: Answer, *, new_board: bool
) -> None:
    """Show every event of ``answer``; an interaction nothing answered gets a short "Done."."""
    interactions.note(table=answer.table_id, outcome="refused" if answer.error else "applied")
    showing = Showing(bot, interaction, answer, new_board)
    if answer.error or answer.board is None:
        await bot.refresh_clicked_board(interaction)  # where only clicks update it
    refused = [e for e in answer.events if isinstance(e, Refused)]
    if refused:
        await refuse(showing, refused[0])
        return
    for changed in of(answer, BoardChanged):
        await board(showing, changed)
    for screen in of(answer, PrivateScreen):
        await private(showing, screen)
    await board_before_posts(showing)
    for index, posted in enumerate(of(answer, Posted)):
        await post(showing, posted, index)
    if not showing.done:
        await showing.answer_with(lambda: done_answer(interaction))
    if answer.table_id is not None and (answer.board is not None or answer.hand_key):
        bot.hands.refresh(
            answer.table_id, except_user=interaction.user.id if answer.hand_key else None
        )
    for due in of(answer, ComputerTurnDue):
        await computer_turn(showing, due)


def done_answer(interaction: discord.Interaction[Any]) -> dict[str, Any]:
    """The short private answer to an interaction nothing else answered, in the member's
    language."""
    return {"content": render(_("Done."), str(interaction.locale)), "ephemeral": True}


def of(answer: Answer, kind: type[E]) -> list[E]:
    """The events of one kind, in order."""
    return [e for e in answer.events if isinstance(e, kind)]


async def refuse(showing: Showing, event: Refused) -> None:
    """Only the member sees a refusal, with a link to the board; a board that changed all the
    same (a lapsed challenge says so) is edited through the channel."""
    interaction = showing.interaction
    locale = str(interaction.locale)
    text = render(event.reason, locale)
    if event.board_message_id and interaction.guild_id and interaction.channel_id:
        link = jump_url(interaction.guild_id, interaction.channel_id, event.board_message_id)
        text += "\n" + render(_("[Go to the board]({link})", link=link), locale)
    await send_private(interaction, text)
    if showing.answer.board is not None:
        await showing.bot.edit_board(interaction.channel_id, showing.answer)


async def board(showing: Showing, event: BoardChanged) -> None:
    """The board posted anew, edited in place as the answer to a click on it, or edited through
    the channel's pace (the member's answer waits for it when it goes at once)."""
    bot, interaction, answer = showing.bot, showing.interaction, showing.answer
    message = interaction.message
    on_board = (
        message is not None
        and not message.flags.ephemeral
        and event.message_id in (None, message.id)
        and interaction.response.type
        is not discord.InteractionResponseType.deferred_channel_message
    )
    in_place = any(isinstance(e, PrivateScreen) and e.in_place for e in answer.events)
    if showing.new_board or event.repost:
        await bot.post_board(interaction, answer)
    elif on_board and not in_place:
        assert message is not None
        # the board as its message shows it, for the channel's edits (see BoardEdits.shown)
        on_message = Answer(
            (replace(event, message_id=message.id),), answer.table_id, answer.version
        )
        channel_id = interaction.channel_id
        if await showing.edit_clicked(event.screen, lambda kw: bot.board_kwargs(interaction, kw)):
            state = (channel_id, on_message) if channel_id else None
            bot.board_edits.shown(message.id, answer.version, state, clicked_version(interaction))
            bot.ride_on(message.id, interaction)  # the computer's reply rides on this click
        else:  # the move is made all the same: the board is brought up to date by the channel
            showing.board_edit = bot.edit_board(channel_id, on_message)
    elif event.message_id is not None and interaction.channel_id is not None:
        free = bot.board_edits.free(interaction.channel_id, event.message_id)
        showing.board_edit = bot.edit_board(interaction.channel_id, answer)
        if free:
            await asyncio.wait({showing.board_edit}, timeout=BOARD_FIRST_WAIT)
    if showing.board_edit is None or showing.board_edit.done():
        interactions.board_updated()


def clicked_version(interaction: discord.Interaction[Any]) -> int | None:
    """The table version of the control the member clicked: what the message showed then."""
    data: dict[str, Any] = dict(interaction.data or {})
    control = parse(str(data.get("custom_id", "")))
    return None if control is None else control.version


async def private(showing: Showing, event: PrivateScreen) -> None:
    """A screen only the member sees: their hand (kept up to date), a private message they
    clicked on replaced, or a new private message."""
    answer, interaction = showing.answer, showing.interaction
    in_place = event.in_place and showing.clicked_private()
    if event.hand_key is not None and answer.table_id:
        await showing.bot.hands.show(
            interaction, event.screen, answer.table_id, event.hand_key, in_place=in_place
        )
        return
    if in_place:
        await showing.edit_clicked(event.screen)
        return
    await send_private(interaction, **message_kwargs(event.screen, answer.table_id, answer.version))


async def board_before_posts(showing: Showing) -> None:
    """A queued board edit can take longer than Discord's 3 s (a busy channel's edits are
    paced): the member is answered first; the channel's posts follow the board."""
    edit = showing.board_edit
    if edit is None:
        return
    if not showing.done and not edit.done():
        await asyncio.wait({edit}, timeout=BOARD_FIRST_WAIT)
        if not edit.done():
            await showing.answer_with(lambda: done_answer(showing.interaction))
    await edit
    interactions.board_updated()  # (when it was not shown before the answer)


async def post(showing: Showing, event: Posted, index: int) -> None:
    """A new message in the channel: the interaction's answer when nothing answered it yet
    (not in a game's thread: the answer would stay in the thread, and a result line goes to
    its channel); else posted with a nonce naming it (the ``index``-th post of this
    interaction), retried."""
    channel_id = showing.interaction.channel_id
    in_thread = channel_id is not None and game_thread_parent(showing.bot, channel_id) is not None
    if (
        not in_thread
        and not showing.done
        and await showing.answer_with(lambda: message_kwargs(event.screen, None, None))
    ):
        return
    if channel_id:  # through the bot: a game's thread posts to its channel, a group DM
        channel = showing.bot.get_partial_messageable(channel_id)  # follows up
        await post_once(channel, event.screen, "interaction", showing.interaction.id, index)


async def computer_turn(showing: Showing, event: ComputerTurnDue) -> None:
    """The computer plays its turns at the table, shown as they come."""
    table_id, channel_id = showing.answer.table_id, showing.interaction.channel_id
    if table_id is not None and channel_id:
        showing.bot.start_computer(table_id, channel_id, event.delay)
