"""Boards show their deadlines as Discord timestamps that count down in every client."""

from __future__ import annotations

import re

from support import member

from bot.tables.deadlines import stamp

ALICE, BOB = member(1, "Alice"), member(2, "Bob")
STAMP = re.compile(r"<t:(\d+):R>")


def stamps(text: str) -> list[int]:
    return [int(s) for s in STAMP.findall(text)]


def test_a_stamp_is_a_relative_discord_timestamp() -> None:
    assert stamp(1_700_000_123.9) == "<t:1700000123:R>"


async def test_a_challenge_lapses_and_a_waiting_member_may_claim_at_the_shown_time(
    service, clock
) -> None:
    reply = await service.start(ALICE, "checkers", {"color": "black"}, opponent=BOB)
    assert "lapses" in reply.board.content
    assert stamps(reply.board.content) == [int(clock.now + 5 * 60)]

    reply = await service.act(BOB, reply.table_id, reply.version, "accept")
    clock.advance(30)
    reply = await service.act(ALICE, reply.table_id, reply.version, "m=11-15")
    assert reply.error is None
    line = next(ln for ln in reply.board.content.splitlines() if ln.startswith("⏳"))
    assert "Bob has not moved" in line and "Alice may claim" in line
    assert stamps(line) == [int(clock.now + 10 * 60)]  # the server's default: 10 minutes

    await service.set_setting(ALICE.guild_id, "idle_claim_minutes", 3)
    shown = await service.show(ALICE)
    assert stamps(shown.board.content) == [int(clock.now + 3 * 60)]


async def test_hearts_shows_when_the_computer_plays_for_a_member_and_games_vs_it_show_none(
    service, clock
) -> None:
    reply = await service.start(ALICE, "hearts", {"delay": 0})
    assert len(stamps(reply.board.content)) == 1  # the lobby's own closing time, once
    reply = await service.act(ALICE, reply.table_id, reply.version, "start")
    line = next(ln for ln in reply.board.content.splitlines() if ln.startswith("⏳"))
    assert "plays for Alice" in line
    assert stamps(line) == [int(clock.now + 120)]

    other = member(3, "Carol", channel=4000)
    reply = await service.start(other, "quarters", {"piles": "3,4"})
    assert "⏳" not in reply.board.content and not stamps(reply.board.content)
