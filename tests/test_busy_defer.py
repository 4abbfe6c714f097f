"""A busy bot defers a click at once instead of waiting DEFER_AFTER (bot.client.app)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord

from bot.client.app import BUSY, Acceptance, ParlourBot


class Response:
    def __init__(self) -> None:
        self.deferred: list[dict[str, Any]] = []
        self._response_type: discord.InteractionResponseType | None = None

    def is_done(self) -> bool:
        return bool(self.deferred)

    async def defer(self, **kwargs: Any) -> None:
        self.deferred.append(kwargs)


def interaction() -> SimpleNamespace:
    """An interaction created just now, as the bot sees it."""
    return SimpleNamespace(id=1, created_at=discord.utils.utcnow(), response=Response())


async def work() -> str:
    await asyncio.sleep(0.01)
    return "reply"


async def test_a_quiet_bot_answers_without_deferring() -> None:
    bot = SimpleNamespace(in_progress=0)
    click = interaction()
    reply = await ParlourBot.within_deadline(bot, click, work(), component=True)  # type: ignore[arg-type]
    assert reply == "reply" and click.response.deferred == [] and bot.in_progress == 0


async def test_a_busy_bot_defers_at_once() -> None:
    bot = SimpleNamespace(in_progress=BUSY - 1)  # this interaction makes BUSY
    click = interaction()
    command = interaction()
    assert await ParlourBot.within_deadline(bot, click, work(), component=True) == "reply"  # type: ignore[arg-type]
    assert click.response.deferred == [{}]
    await ParlourBot.within_deadline(bot, command, work(), component=False, ephemeral=True)  # type: ignore[arg-type]
    assert command.response.deferred == [{"thinking": True, "ephemeral": True}]
    assert bot.in_progress == BUSY - 1


async def refused_after_a_read() -> str:
    await asyncio.sleep(0.01)  # the table's checks (one read) refuse: nothing accepted it
    return "refused"


async def accepted_then_slow(accepted: Acceptance, private: bool) -> str:
    accepted(private)
    await asyncio.sleep(0.05)
    return "done"


async def test_a_busy_bot_answers_a_refused_click_itself_instead_of_deferring_an_update() -> None:
    bot = SimpleNamespace(in_progress=BUSY - 1)
    click = interaction()
    accepted = Acceptance()
    answer = await ParlourBot.within_deadline(  # type: ignore[arg-type]
        bot, click, refused_after_a_read(), component=True, accepted=accepted
    )
    assert answer == "refused" and click.response.deferred == []  # answered privately after


async def test_a_slow_click_is_deferred_once_accepted_privately_when_its_answer_is() -> None:
    bot = SimpleNamespace(in_progress=BUSY - 1)
    for private, deferred in ((True, {"thinking": True, "ephemeral": True}), (False, {})):
        click = interaction()
        accepted = Acceptance()
        work = accepted_then_slow(accepted, private)
        await ParlourBot.within_deadline(bot, click, work, component=True, accepted=accepted)  # type: ignore[arg-type]
        assert click.response.deferred == [deferred]
