"""The client's helpers for sending a Discord request again (``bot/client/retry.py``)."""

from __future__ import annotations

import asyncio
import datetime as dt
import io
from types import SimpleNamespace

import aiohttp
import discord
import pytest

from bot.client.retry import (
    already_acknowledged,
    answer,
    answering,
    lost,
    may_retry,
    post_nonce,
    retrying,
    rewound,
)
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


class Response:
    """An interaction's ``response`` as discord.py has it: done once a callback was answered."""

    def __init__(self) -> None:
        self._response_type: discord.InteractionResponseType | None = None

    def is_done(self) -> bool:
        return self._response_type is not None


def interaction() -> SimpleNamespace:
    """An interaction created just now."""
    return SimpleNamespace(id=7, created_at=discord.utils.utcnow(), response=Response(), extras={})


UPDATE = discord.InteractionResponseType.message_update


async def test_a_callback_already_acknowledged_counts_as_answered(sleep: Sleeps) -> None:
    """discord.py repeated a callback whose answer was lost and met 40060: the first went
    through, so the interaction is answered, and what follows must be a follow-up or an edit."""
    clicked = interaction()
    send = Flaky(http_error(400, 40060))
    assert await answering(clicked, send, UPDATE, sleep=sleep) is None  # type: ignore[arg-type]
    assert send.tries == 1 and clicked.response.is_done()


async def test_a_callback_whose_connection_dropped_is_sent_again_within_the_3_s(
    sleep: Sleeps,
) -> None:
    clicked = interaction()
    send = Flaky(aiohttp.ServerDisconnectedError())
    assert await answering(clicked, send, UPDATE, sleep=sleep) == "ok"  # type: ignore[arg-type]
    assert send.tries == 2 and sleep.delays == [0.2] and clicked.response.is_done()


async def test_a_callback_past_its_3_s_is_not_sent_again(sleep: Sleeps) -> None:
    late = interaction()
    late.created_at -= dt.timedelta(seconds=3)
    send = Flaky(aiohttp.ServerDisconnectedError())
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await answering(late, send, UPDATE, sleep=sleep)  # type: ignore[arg-type]
    assert send.tries == 1 and not late.response.is_done()


async def test_an_answer_that_failed_is_logged_and_the_work_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """E.g. Discord no longer knows the interaction (10062): the member's move is still made."""
    clicked = interaction()
    send = Flaky(http_error(404, 10062))
    assert await answer(clicked, send, UPDATE) is False  # type: ignore[arg-type]
    assert send.tries == 1 and not clicked.response.is_done()
    [record] = caplog.records
    assert record.levelname == "WARNING" and "could not answer interaction 7" in record.message


def test_a_messages_files_are_read_from_their_start_by_each_try() -> None:
    picture = discord.File(io.BytesIO(b"the board"), filename="board.png")
    kwargs = {"content": "a board", "files": [picture]}
    assert picture.fp.read() == b"the board"  # the first try read it
    assert rewound(kwargs) is kwargs and picture.fp.read() == b"the board"


async def test_an_interaction_discord_forgot_gets_no_other_callback() -> None:
    """After 10062 (the 3 s passed) every other callback would be one more request answered
    404: the later answers of the same click ("Done.", a result) are not sent as callbacks."""
    clicked = interaction()
    send = Flaky(http_error(404, 10062))
    assert await answer(clicked, send, UPDATE) is False  # type: ignore[arg-type]
    assert await answer(clicked, send, UPDATE) is False  # type: ignore[arg-type]
    assert send.tries == 1 and lost(clicked)  # type: ignore[arg-type]
