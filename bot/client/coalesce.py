"""Board edits coalesced per message: only the newest state is sent.

Discord limits a bot's edits of messages in one channel (5 per 5 s). A busy table (Hearts with
the computer playing three cards in a row, a flood of clicks) can change faster than that, and
discord.py waits on the bucket request by request, so each edit would queue behind the one
before and a player would see the board lag further and further behind the game.

:class:`BoardEdits` keeps, per board message, one sender and the newest state waiting to go:
a state submitted while an edit is in flight replaces the waiting one, and a state older than
what the message already shows (an interaction's answer may have drawn a newer one, see
:meth:`BoardEdits.shown`) is dropped when its turn comes. Callers do not wait for the edit.

Its turn comes when :class:`ChannelPace` has a slot for the channel: the bot keeps under
Discord's edit limit by itself, and picks the state to send only once it may send it, so an edit
never waits in discord.py's bucket while newer states pile up behind it.

A board a member has just clicked on can be edited through that click's interaction instead
(its webhook: a bucket per token, outside the channel's limit and Discord's global one): when
``rider`` names a fresh interaction for the message, the edit waits for that token's slot and
goes through ``ride``; with none it goes through the channel as above.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from bot.client.retry import FAILURES, REQUEST_TIMEOUT, RETRY_DELAYS, may_retry

log = logging.getLogger("parlour")

T = TypeVar("T")
Via = tuple[Hashable, Any]  # an interaction that may edit a message: (its key, itself)
KEEP = 5000  # idle boards whose shown version is remembered
TOKEN_EDITS = (5, 2.1)  # an interaction's webhook: Discord's 5 per 2 s, a little wider


class Rerouted(Exception):
    """Raised by ``ride`` when the interaction can no longer edit the message (its token ran
    out, Discord forgot it): the edit goes again at once, through the channel."""


class ChannelPace:
    """At most ``count`` edits per ``per`` seconds in any one channel (a sliding window, a
    little wider than Discord's fixed one so a request's travel time cannot break it), and at
    most ``total`` edits a second in all channels together: Discord's global limit (50 requests
    a second for a bot) less room for the bot's other requests (posts, retired boards).
    Interaction responses do not count: Discord exempts them from the global limit."""

    def __init__(
        self,
        count: int = 5,
        per: float = 5.25,
        total: int | None = 40,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.count = count
        self.per = per
        self.total = total
        self._all: deque[float] = deque()
        self.clock = clock
        self.sleep = sleep
        self._sent: dict[Hashable, deque[float]] = {}

    def wait(self, channel_id: Hashable) -> float:
        """Seconds until the channel has a free slot (0 when it has one now)."""
        now = self.clock()
        overall = 0.0
        if self.total is not None:
            while self._all and self._all[0] <= now - 1.0:
                self._all.popleft()
            if len(self._all) >= self.total:
                overall = self._all[0] + 1.0 - now
        return max(overall, self._channel_wait(channel_id, now))

    def _channel_wait(self, channel_id: Hashable, now: float) -> float:
        sent = self._sent.get(channel_id)
        if sent is None:
            return 0.0
        while sent and sent[0] <= now - self.per:
            sent.popleft()
        if not sent:
            del self._sent[channel_id]
            return 0.0
        return 0.0 if len(sent) < self.count else sent[0] + self.per - now

    async def slot(self, channel_id: Hashable) -> None:
        """Wait for a free slot in the channel and take it."""
        while (delay := self.wait(channel_id)) > 0:
            await self.sleep(delay)
        if len(self._sent) > KEEP:  # many keys (interaction tokens) used once: forget the idle
            now = self.clock()
            for key in [k for k, sent in self._sent.items() if sent[-1] <= now - self.per]:
                del self._sent[key]
        self._sent.setdefault(channel_id, deque()).append(self.clock())
        if self.total is not None:
            self._all.append(self.clock())


@dataclass(slots=True)
class _Board(Generic[T]):
    waiting: T | None = None
    version: int | None = None
    again: bool = False  # send ``waiting`` even though the message shows its version
    shown: int | None = None
    shown_state: T | None = None  # the state an interaction's answer drew (see shown())
    landed: int | None = None  # a version a member saw on the message: older edits landed
    channel_id: int = 0
    task: asyncio.Task[None] | None = None
    sending: asyncio.Future[None] | None = None  # the try in flight, and its version
    sending_version: int | None = None
    done: list[asyncio.Future[None]] = field(default_factory=list)


class BoardEdits(Generic[T]):
    """``edits.submit(message_id, version, state)``: edit soon, newest first, never stale.

    ``send(message_id, state)`` does the edit through the channel; ``rider(message_id)`` names
    a fresh interaction that may edit the message instead (or None), and
    ``ride(message_id, state, interaction)`` edits it so. ``sent`` counts the edits made
    (``ridden`` those through an interaction) and ``dropped`` the states that were superseded
    before their turn.

    An edit that fails in a way :func:`~bot.client.retry.may_retry` allows (Discord's 5xx, a
    dropped connection, no answer within ``timeout``) is tried again after each of ``delays``,
    with the newest state: the failed one is put back only when no newer one waits. An edit in
    flight when an interaction's answer shows a newer version is stopped (discord.py would
    repeat it with its old state after a 5xx) and the answer's state is sent after it, since the
    older edit may still land last.
    """

    def __init__(
        self,
        send: Callable[[int, T], Awaitable[None]],
        pace: ChannelPace | None = None,
        *,
        timeout: float = REQUEST_TIMEOUT,
        delays: Sequence[float] = RETRY_DELAYS,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        rider: Callable[[int], Via | None] | None = None,
        ride: Callable[[int, T, Any], Awaitable[None]] | None = None,
        token_pace: ChannelPace | None = None,
    ) -> None:
        self._send = send
        self.pace = pace or ChannelPace()
        self.rider = rider
        self.ride = ride
        self.token_pace = token_pace or ChannelPace(*TOKEN_EDITS, total=None)
        self.timeout = timeout
        self.delays = delays
        self.sleep = sleep
        self._boards: dict[int, _Board[T]] = {}
        self.sent = 0
        self.ridden = 0
        self.dropped = 0

    def submit(
        self, channel_id: int, message_id: int, version: int | None, state: T
    ) -> asyncio.Future[None]:
        """Queue ``state`` (drawn for table ``version``) for the message; returns a future done
        once this state or a newer one is on the message (or it was dropped)."""
        board = self._boards.setdefault(message_id, _Board())
        board.channel_id = channel_id
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if board.waiting is not None:
            if _older(version, board.version):  # a newer state is already waiting
                self.dropped += 1
                done.set_result(None)
                return done
            self.dropped += 1
        board.waiting, board.version, board.again = state, version, False
        board.done.append(done)
        self._start(message_id, board)
        return done

    def _start(self, message_id: int, board: _Board[T]) -> None:
        if board.task is None or board.task.done():
            board.task = asyncio.get_running_loop().create_task(self._run(message_id, board))

    def free(self, channel_id: int, message_id: int) -> bool:
        """Whether an edit of the message submitted now would go out at once."""
        board = self._boards.get(message_id)
        busy = board is not None and board.task is not None and not board.task.done()
        if busy:
            return False
        via = self._rider(message_id)
        return (self.token_pace.wait(via[0]) if via else self.pace.wait(channel_id)) == 0

    def _rider(self, message_id: int) -> Via | None:
        return None if self.rider is None or self.ride is None else self.rider(message_id)

    async def _slot(self, message_id: int, channel_id: int) -> Via | None:
        """Wait for a slot on the route the message's next edit takes, and take it: the
        interaction's token when ``rider`` names one, else the channel. That route."""
        via = self._rider(message_id)
        if via is not None:
            await self.token_pace.slot(via[0])
            fresh = self._rider(message_id)
            if fresh is not None and fresh[0] == via[0]:
                return via
        await self.pace.slot(channel_id)
        return None

    def shown(
        self,
        message_id: int,
        version: int | None,
        state: T | None = None,
        seen: int | None = None,
    ) -> None:
        """The message was edited to ``version`` another way (an interaction's answer), drawn
        as ``state``: an edit in flight with an older version is stopped, and ``state`` is sent
        once it has ended, in case it landed after the answer.

        ``seen``: the version the member clicked on. Discord showed it before the click, so an
        edit up to that version has landed: it is still stopped (discord.py may be about to
        repeat it), but not followed by the answer's state, which would be one more channel
        request for every click under load (the bot then reads an edit's reply only after the
        member has already clicked on the board it made)."""
        board = self._boards.setdefault(message_id, _Board())
        if seen is not None and (board.landed is None or seen > board.landed):
            board.landed = seen
        if version is not None and (board.shown is None or version > board.shown):
            board.shown = version
            if state is not None:
                board.shown_state = state
                sending = board.sending
                if sending is not None and _older(board.sending_version, version):
                    sending.cancel()
        self._prune()

    def _prune(self) -> None:
        """Forget idle boards (oldest first) beyond :data:`KEEP` remembered ones."""
        if len(self._boards) <= KEEP:
            return
        for key in list(self._boards)[: len(self._boards) - KEEP]:
            board = self._boards[key]
            if board.task is None and board.waiting is None:
                del self._boards[key]

    async def flush(self) -> None:
        """Wait until every queued edit was sent or dropped."""
        tasks = [b.task for b in self._boards.values() if b.task is not None]
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _run(self, message_id: int, board: _Board[T]) -> None:
        failures = 0
        try:
            while board.waiting is not None:
                via = await self._slot(message_id, board.channel_id)
                if board.waiting is None:
                    break
                state, version, done = board.waiting, board.version, board.done
                again, board.again = board.again, False
                board.waiting, board.version, board.done = None, None, []
                stale = version is not None and board.shown is not None and version <= board.shown
                if stale and not again:
                    self.dropped += 1
                else:
                    error = await self._try(message_id, board, state, version, via)
                    if isinstance(error, Rerouted):  # again at once, through the channel
                        self._put_back(board, state, version, again, done)
                        continue
                    if error is not None and may_retry(error) and failures < len(self.delays):
                        self._put_back(board, state, version, again, done)
                        await self.sleep(self.delays[failures])
                        failures += 1
                        continue
                    failures = 0
                    if error is not None:
                        _log_failure(message_id, error)
                for future in done:
                    if not future.done():
                        future.set_result(None)
        finally:
            board.task = None
            for future in board.done:
                if not future.done():
                    future.set_result(None)
            self._prune()

    async def _try(
        self,
        message_id: int,
        board: _Board[T],
        state: T,
        version: int | None,
        via: Via | None = None,
    ) -> BaseException | None:
        """Send ``state`` once (through the interaction ``via`` when given): the failure, if
        any (a try stopped by :meth:`shown` is none)."""
        shown_before = board.shown
        if via is not None and self.ride is not None:
            sending = self.ride(message_id, state, via[1])
        else:
            sending = self._send(message_id, state)
        attempt = asyncio.ensure_future(sending)
        board.sending, board.sending_version = attempt, version
        try:
            finished, _ = await asyncio.wait({attempt}, timeout=self.timeout)
        finally:
            board.sending = board.sending_version = None
            if not attempt.done():
                attempt.cancel()
        error: BaseException | None = None
        if not finished:
            error = TimeoutError(f"no answer within {self.timeout} s")
        elif not attempt.cancelled():
            error = attempt.exception()
        if error is None and not attempt.cancelled():
            self.sent += 1
            self.ridden += via is not None
            if version is not None:
                board.shown = max(version, board.shown or version)
        overtaken = board.shown != shown_before and _older(version, board.shown)
        if overtaken and not _has_landed(board, version):
            # an answer drew a newer board while this edit was out: it may have landed after
            # the answer, so the answer's state goes again (unless a newer one waits)
            newer_waits = board.waiting is not None and _older(board.shown, board.version)
            if board.shown_state is not None and not newer_waits:
                board.waiting, board.version, board.again = board.shown_state, board.shown, True
        return error

    def _put_back(
        self,
        board: _Board[T],
        state: T,
        version: int | None,
        again: bool,
        done: list[asyncio.Future[None]],
    ) -> None:
        """A failed state waits again, unless a newer one came meanwhile."""
        if board.waiting is None:
            board.waiting, board.version, board.again = state, version, again
        board.done = done + board.done


def _log_failure(message_id: int, error: BaseException) -> None:
    if isinstance(error, FAILURES):  # Discord failed, or did not answer
        log.warning("could not edit board message %s: %r", message_id, error)
    else:
        log.error("editing board message %s failed", message_id, exc_info=error)


def _has_landed(board: _Board[T], version: int | None) -> bool:
    """Whether a member already saw ``version`` (or a newer one) on the board's message."""
    return version is not None and board.landed is not None and version <= board.landed


def _older(version: int | None, than: int | None) -> bool:
    return version is not None and than is not None and version < than
