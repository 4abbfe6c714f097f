"""The client's helpers for sending a Discord request again (``bot/client/retry.py``)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import aiohttp
import discord
import pytest

from bot.client.retry import already_acknowledged, may_retry, post_nonce, retrying
from fakediscord.limits import check_nonce


def http_error(status: int, code: int = 0) -> discord.HTTPException:
    """The exception discord.py raises for an answer with ``status`` and Discord's ``code``."""
    response = SimpleNamespace(status=status, reason="reason")
    kind = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
    if status >= 500:
        kind = discord.DiscordServerError
    return kind(response, {"code": code, "message": "message"})  # type: ignore[arg-type]


class Flaky:
    """A request failing with each of ``errors`` in turn, then answering ``"ok"``."""

    def __init__(self, *errors: BaseException, hang: bool = False) -> None:
        self.errors = list(errors)
        self.hang = hang
        self.tries = 0

    async def __call__(self) -> str:
        self.tries += 1
        if self.hang and self.tries == 1:
            await asyncio.Event().wait()  # never answers
        if self.errors:
            raise self.errors.pop(0)
        return "ok"


class Sleeps:
    """Stands in for ``asyncio.sleep``: records the delays, waits for none."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


@pytest.fixture
def sleep() -> Sleeps:
    return Sleeps()


def test_a_post_keeps_its_nonce_and_no_other_post_shares_it() -> None:
    first = post_nonce("table", 12, 7, 0)
    assert post_nonce("table", 12, 7, 0) == first
    others = {post_nonce("table", 12, 7, 1), post_nonce("table", 1, 27, 0)}
    others |= {post_nonce("table", 127, 0), post_nonce("interaction", 12, 7, 0)}
    assert first not in others and len(others) == 4
    assert check_nonce({"nonce": first, "enforce_nonce": True}) == []


async def test_a_request_failing_on_discords_side_is_sent_again_after_each_delay(
    sleep: Sleeps,
) -> None:
    send = Flaky(http_error(503), aiohttp.ServerDisconnectedError())
    assert await retrying(send, sleep=sleep) == "ok"
    assert send.tries == 3 and sleep.delays == [0.5, 1.5]


async def test_a_request_that_does_not_answer_in_time_is_sent_again(sleep: Sleeps) -> None:
    send = Flaky(hang=True)
    assert await retrying(send, timeout=0.01, sleep=sleep) == "ok"
    assert send.tries == 2


async def test_the_last_failure_is_raised_once_the_delays_are_spent(sleep: Sleeps) -> None:
    send = Flaky(http_error(500), http_error(502), http_error(503), http_error(504))
    with pytest.raises(discord.DiscordServerError) as raised:
        await retrying(send, sleep=sleep)
    assert raised.value.status == 503 and send.tries == 3


@pytest.mark.parametrize("status", [400, 403, 404])
async def test_a_refusal_is_not_sent_again(status: int, sleep: Sleeps) -> None:
    send = Flaky(http_error(status))
    with pytest.raises(discord.HTTPException):
        await retrying(send, sleep=sleep)
    assert send.tries == 1 and sleep.delays == []


def test_what_may_be_sent_again() -> None:
    assert may_retry(http_error(503)) and may_retry(http_error(500))
    assert may_retry(aiohttp.ClientOSError()) and may_retry(TimeoutError())
    assert may_retry(ConnectionResetError())
    assert not may_retry(http_error(429)) and not may_retry(ValueError())


def test_already_acknowledged_is_discords_answer_to_a_second_callback() -> None:
    assert already_acknowledged(http_error(400, 40060))
    assert not already_acknowledged(http_error(400, 50035))
    assert not already_acknowledged(aiohttp.ServerDisconnectedError())
