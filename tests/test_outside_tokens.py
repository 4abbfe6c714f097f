"""Which interaction may edit a public board where the bot is not a member
(``bot.client.outside.Tokens``), with stand-ins for the interactions; and the servers reached
only through members' installs, which the start-up check of departed servers leaves alone
(``bot.ops.departures``)."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace
from typing import Any

import discord

from bot.client.outside import TOKEN_LIFE, Tokens
from bot.ops.departures import Departures
from storage import Database, Seat, TableStatus

GROUP_DM = 500
BOARD, HAND = 601, 602
KIND = discord.InteractionResponseType


def interaction(
    clicked: int | None, answered: KIND | None, *, age: dt.timedelta = dt.timedelta()
) -> Any:
    """A stand-in for an interaction in a group DM: a click on ``clicked`` (None: a command)
    answered with ``answered``, made ``age`` ago."""
    message = None
    if clicked is not None:
        message = SimpleNamespace(id=clicked, flags=SimpleNamespace(ephemeral=clicked == HAND))
    return SimpleNamespace(
        channel_id=GROUP_DM,
        guild_id=None,
        context=SimpleNamespace(private_channel=True),
        message=message,
        response=SimpleNamespace(type=answered),
        created_at=discord.utils.utcnow() - age,
    )


def test_the_board_is_edited_through_an_interaction_that_may_edit_it() -> None:
    tokens = Tokens()
    start = interaction(None, KIND.channel_message)  # the command that posted the board
    tokens.note(start)
    tokens.owns(BOARD, start)
    assert tokens.owner(BOARD) is start
    # "Your hand", answered privately (deferred while busy): it may edit only the hand, so
    # a card played from the hand updates the board through the command's interaction.
    hand = interaction(BOARD, KIND.deferred_channel_message)
    tokens.note(hand)
    tokens.note(interaction(HAND, KIND.message_update))  # the card, on the private hand
    assert tokens.owner(BOARD) is start
    # A click on the board that updated it is the newest that may edit it.
    scores = interaction(BOARD, KIND.message_update)
    tokens.note(scores)
    assert tokens.owner(BOARD) is scores


def test_with_no_live_interaction_the_board_waits_for_the_next_click() -> None:
    tokens = Tokens()
    old = interaction(BOARD, KIND.message_update, age=TOKEN_LIFE)
    tokens.note(old)
    assert tokens.owner(BOARD) is None
    tokens.note(interaction(BOARD, KIND.channel_message))  # a private answer: no help
    assert tokens.owner(BOARD) is None


HOME, ELSEWHERE = 11, 12


async def open_table(db: Database, guild_id: int, channel_id: int) -> int:
    table = await db.create_table(
        guild_id=guild_id,
        channel_id=channel_id,
        kind="quarters",
        status=TableStatus.ACTIVE,
        seats=[Seat("bob", 2), Seat("Computer", None, "perfect")],
        options={},
        state={"piles": [3, 4, 5]},
        created_by=2,
    )
    return table.id


async def test_a_server_reached_by_members_installs_is_never_taken_for_one_the_bot_left() -> None:
    db = await Database.open(":memory:")
    try:
        home = await open_table(db, HOME, 101)
        elsewhere = await open_table(db, ELSEWHERE, 102)
        stopped: list[int] = []
        departures = Departures(db, 30, stop_tables=stopped.extend, clock=lambda: 5.0)
        await departures.reached(ELSEWHERE)
        assert await departures.user_installed(ELSEWHERE)
        await departures.reconcile([])  # the bot is in no server now
        assert stopped == [home]
        assert (await db.get_table(elsewhere)).status is TableStatus.ACTIVE
        # The server adds the bot later: from then on it is one of the bot's servers.
        await departures.joined(ELSEWHERE)
        assert not await departures.user_installed(ELSEWHERE)
        await departures.reconcile([])
        assert stopped == [home, elsewhere]
    finally:
        await db.close()
