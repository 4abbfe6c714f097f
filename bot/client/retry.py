"""Sending a Discord request again, safely: helpers for the client (``docs/reliability.md``).

discord.py repeats some failed requests by itself and not others. On channel routes it repeats
500, 502, 504 and 524 answers, but not 503, not a dropped connection and not a request that
hangs (it sets no timeout); on interaction routes (callbacks, follow-ups, webhook edits) it
repeats every 5xx, but not a dropped connection either. What it does not repeat, the client must,
and only where sending again is safe:

- an edit is the same however often it is sent, as long as each try sends the newest state
  (:func:`retrying` calls ``send`` anew for each try);
- a channel post is, when every try carries the same nonce: Discord then returns the first
  message and creates none (:func:`post_nonce`; discord.py gives each ``send()`` call a random
  nonce, which protects its own repeats but not a second call);
- an interaction callback is, when "already acknowledged" (:func:`already_acknowledged`) is taken
  to mean the first one went through;
- a follow-up is not (it has no nonce): after a defer, answer by editing the deferred message.

:func:`answer` sends an interaction callback that way and remembers that the interaction is
answered even when only "already acknowledged" said so; :func:`post` sends a channel post with
its nonce.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

import aiohttp
import discord

from bot.client.components import message_kwargs
from bot.tables.screens import Screen

T = TypeVar("T")
log = logging.getLogger("parlour")

ALREADY_ACKNOWLEDGED = 40060  # Discord's JSON error code for a second interaction callback
UNKNOWN_INTERACTION = 10062  # Discord's JSON error code for an interaction it no longer knows
LOST = "parlour_lost"  # the key in ``interaction.extras`` of an interaction Discord forgot
REQUEST_TIMEOUT = 5.0  # seconds a try may take before it counts as failed
RETRY_DELAYS = (0.5, 1.5)  # seconds before the second and the third try
ANSWER_WITHIN = 3.0  # seconds Discord gives an interaction's first answer (the callback)
ANSWER_DELAYS = (0.2, 0.4)  # seconds before a callback's second and third try
MIN_TRY = 1.0  # seconds a callback's try may take at least (the clocks may disagree)
UPDATE = discord.InteractionResponseType.message_update
CHANNEL = discord.InteractionResponseType.channel_message
FAILURES = (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError)


def post_nonce(*identity: int | str) -> str:
    """The nonce of one channel post: the same however often that post is sent, different for
    any other post, 24 characters (Discord takes up to 25).

    ``identity`` names the post by what made it and which of its posts it is, for example
    ``("table", table_id, version, index)`` for the posts of one change of a table, or
    ``("interaction", interaction_id, index)`` for a post answering a member. Two different
    posts must never share an identity: Discord would return the first instead of creating the
    second (it remembers nonces for a few minutes).

    >>> post_nonce("table", 12, 7, 0) == post_nonce("table", 12, 7, 0)
    True
    >>> post_nonce("table", 12, 7, 0) == post_nonce("table", 12, 7, 1)
    False
    >>> len(post_nonce("interaction", 1_300_000_000_000_000_000, 0))
    24
    """
    text = "\x1f".join(str(part) for part in identity)
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def may_retry(error: BaseException) -> bool:
    """Whether a request that failed with ``error`` may be sent again: Discord failed (5xx),
    the connection failed, or no answer came in time. A refusal (4xx) would be the same again.
    """
    if isinstance(error, discord.HTTPException):
        return error.status >= 500
    return isinstance(error, aiohttp.ClientError | OSError | TimeoutError)


def already_acknowledged(error: BaseException) -> bool:
    """Whether ``error`` is Discord saying the interaction was already answered: sent after a
    callback whose answer was lost, it means that callback went through."""
    return isinstance(error, discord.HTTPException) and error.code == ALREADY_ACKNOWLEDGED


async def retrying(
    send: Callable[[], Awaitable[T]],
    *,
    timeout: float = REQUEST_TIMEOUT,
    delays: Sequence[float] = RETRY_DELAYS,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> T:
    """``await send()``, each try cut off after ``timeout`` seconds, tried again after each of
    ``delays`` for as long as it fails in a way :func:`may_retry` allows; the last failure is
    raised.

    Only for a request that is safe to send again (see the module's docstring). ``send`` is
    called anew for each try, so an edit can send the newest state rather than a stale one.
    """
    for delay in (*delays, None):
        try:
            async with asyncio.timeout(timeout):  # no task of its own, unlike wait_for
                return await send()
        except Exception as error:
            if delay is None or not may_retry(error):
                raise
        await sleep(delay)
    raise AssertionError("unreachable: the last try returns or raises")


def mark_answered(interaction: discord.Interaction, kind: discord.InteractionResponseType) -> None:
    """Note on ``interaction`` that it was answered with a callback of ``kind``, so that
    ``interaction.response.is_done()`` says so and what follows goes as follow-ups or edits of
    the original response. discord.py notes it only for a callback whose answer it received."""
    interaction.response._response_type = kind


async def answering(
    interaction: discord.Interaction,
    send: Callable[[], Awaitable[T]],
    kind: discord.InteractionResponseType,
    *,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> T | None:
    """Send an interaction callback (``send`` calls one of ``interaction.response``'s methods),
    tried again while Discord's 3 s allow; "already acknowledged" is taken as success (an earlier
    try went through, its answer was lost: the result is then ``None``). Raises the last failure.
    """
    loop = asyncio.get_running_loop()
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    deadline = loop.time() + ANSWER_WITHIN - max(age, 0.0)
    result: T | None = None
    for delay in (*ANSWER_DELAYS, None):
        left = deadline - loop.time()
        try:
            async with asyncio.timeout(min(max(left, MIN_TRY), REQUEST_TIMEOUT)):
                result = await send()
            break
        except Exception as error:
            if already_acknowledged(error):
                break
            if delay is None or not may_retry(error) or left - delay < MIN_TRY / 2:
                raise
        await sleep(delay)
    mark_answered(interaction, kind)
    return result


def lost(interaction: discord.Interaction) -> bool:
    """Whether Discord answered that it no longer knows the interaction (its 3 s passed):
    no callback of it can succeed any more."""
    extras = getattr(interaction, "extras", None)
    return bool(extras and extras.get(LOST))


async def answer(
    interaction: discord.Interaction,
    send: Callable[[], Awaitable[object]],
    kind: discord.InteractionResponseType,
) -> bool:
    """:func:`answering`, for an answer the rest of the work must not wait on: whether it was
    sent. A failure is logged (a warning: Discord failed, not the bot) and the caller goes on.
    Once Discord said it no longer knows the interaction, no other callback is sent for it (each
    would be one more request answered 404)."""
    if lost(interaction):
        return False
    try:
        await answering(interaction, send, kind)
    except FAILURES as error:
        log.warning("could not answer interaction %s: %r", interaction.id, error)
        if isinstance(error, discord.HTTPException) and error.code == UNKNOWN_INTERACTION:
            extras = getattr(interaction, "extras", None)
            if isinstance(extras, dict):
                extras[LOST] = True
        return False
    return True


async def post(
    channel: discord.abc.Messageable,
    screen: Screen,
    *identity: int | str,
    table_id: int | None = None,
    version: int | None = None,
) -> discord.Message:
    """Post ``screen`` (with the controls of ``table_id`` at ``version``, if it has any) in
    ``channel`` with the nonce of ``identity`` (:func:`post_nonce`), tried again as
    :func:`retrying` does: posted once however often it is sent."""
    nonce = post_nonce(*identity)
    return await retrying(
        lambda: channel.send(nonce=nonce, **message_kwargs(screen, table_id, version))
    )


Dress = Callable[[dict[str, Any]], dict[str, Any]]  # a message's arguments, completed


def _as_is(kwargs: dict[str, Any]) -> dict[str, Any]:
    return kwargs


async def show_on_message(
    interaction: discord.Interaction,
    screen: Screen,
    table_id: int | None,
    version: int | None,
    dress: Dress = _as_is,
) -> bool:
    """Show ``screen`` (its arguments passed through ``dress``) on the message the member
    clicked (through the deferred answer, when the interaction was deferred); whether it was
    shown. Sent again as long as it may be: it is the same edit however often it is sent."""

    def kwargs() -> dict[str, Any]:
        return dress(message_kwargs(screen, table_id, version, editing=True))

    if not interaction.response.is_done():
        edit = interaction.response.edit_message
        return await answer(interaction, lambda: edit(**kwargs()), UPDATE)
    try:
        await retrying(lambda: interaction.edit_original_response(**kwargs()))
    except FAILURES as error:
        log.warning("could not edit the answer of interaction %s: %r", interaction.id, error)
        return False
    return True


async def show_answer(
    interaction: discord.Interaction,
    screen: Screen,
    table_id: int | None,
    version: int | None,
    dress: Dress = _as_is,
) -> discord.InteractionMessage:
    """Answer with ``screen`` (its arguments passed through ``dress``) as a new message and
    return it. After a defer the deferred message ("thinking…") becomes the answer: an edit,
    the same however often it is sent, where a follow-up repeated after its answer was lost
    would be a second message."""
    if interaction.response.is_done():
        return await retrying(
            lambda: interaction.edit_original_response(
                **dress(message_kwargs(screen, table_id, version, editing=True))
            )
        )
    send = interaction.response.send_message
    callback = await answering(
        interaction, lambda: send(**dress(message_kwargs(screen, table_id, version))), CHANNEL
    )
    message = callback and callback.resource
    if isinstance(message, discord.InteractionMessage):
        return message
    return await retrying(interaction.original_response)


def rewound(kwargs: dict[str, Any]) -> dict[str, Any]:
    """``kwargs`` of a message, its files rewound: each try of a request reads them anew."""
    for file in kwargs.get("files", ()):
        file.reset()
    return kwargs
