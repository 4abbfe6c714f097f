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

Nothing imports this module yet; the client will.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

import aiohttp
import discord

T = TypeVar("T")

ALREADY_ACKNOWLEDGED = 40060  # Discord's JSON error code for a second interaction callback
REQUEST_TIMEOUT = 5.0  # seconds a try may take before it counts as failed
RETRY_DELAYS = (0.5, 1.5)  # seconds before the second and the third try


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
            return await asyncio.wait_for(send(), timeout)
        except Exception as error:
            if delay is None or not may_retry(error):
                raise
        await sleep(delay)
    raise AssertionError("unreachable: the last try returns or raises")
