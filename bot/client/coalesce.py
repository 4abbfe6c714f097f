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
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

log = logging.getLogger("parlour")

T = TypeVar("T")
KEEP = 5000  # idle boards whose shown version is remembered


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
        self._sent: dict[int, deque[float]] = {}

    def wait(self, channel_id: int) -> float:
        """Seconds until the channel has a free slot (0 when it has one now)."""
        now = self.clock()
        overall = 0.0
        if self.total is not None:
            while self._all and self._all[0] <= now - 1.0:
                self._all.popleft()
            if len(self._all) >= self.total:
                overall = self._all[0] + 1.0 - now
        return max(overall, self._channel_wait(channel_id, now))

    def _channel_wait(self, channel_id: int, now: float) -> float:
        sent = self._sent.get(channel_id)
        if sent is None:
            return 0.0
        while sent and sent[0] <= now - self.per:
            sent.popleft()
        if not sent:
            del self._sent[channel_id]
            return 0.0
        return 0.0 if len(sent) < self.count else sent[0] + self.per - now

    async def slot(self, channel_id: int) -> None:
        """Wait for a free slot in the channel and take it."""
        while (delay := self.wait(channel_id)) > 0:
            await self.sleep(delay)
        self._sent.setdefault(channel_id, deque()).append(self.clock())
        if self.total is not None:
            self._all.append(self.clock())


@dataclass(slots=True)
class _Board(Generic[T]):
    waiting: T | None = None
    version: int | None = None
    shown: int | None = None
    channel_id: int = 0
    task: asyncio.Task[None] | None = None
    done: list[asyncio.Future[None]] = field(default_factory=list)


class BoardEdits(Generic[T]):
    """``edits.submit(message_id, version, state)``: edit soon, newest first, never stale.

    ``send(message_id, state)`` does the edit; ``sent`` counts the edits made and ``dropped``
    the states that were superseded before their turn.
    """

    def __init__(
        self, send: Callable[[int, T], Awaitable[None]], pace: ChannelPace | None = None
    ) -> None:
        self._send = send
        self.pace = pace or ChannelPace()
        self._boards: dict[int, _Board[T]] = {}
        self.sent = 0
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
        board.waiting, board.version = state, version
        board.done.append(done)
        if board.task is None or board.task.done():
            board.task = asyncio.get_running_loop().create_task(self._run(message_id, board))
        return done

    def free(self, channel_id: int, message_id: int) -> bool:
        """Whether an edit of the message submitted now would go out at once."""
        board = self._boards.get(message_id)
        busy = board is not None and board.task is not None and not board.task.done()
        return not busy and self.pace.wait(channel_id) == 0

    def shown(self, message_id: int, version: int | None) -> None:
        """The message was edited to ``version`` another way (an interaction's answer)."""
        board = self._boards.setdefault(message_id, _Board())
        if version is not None and (board.shown is None or version > board.shown):
            board.shown = version
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
        try:
            while board.waiting is not None:
                await self.pace.slot(board.channel_id)
                if board.waiting is None:
                    break
                state, version, done = board.waiting, board.version, board.done
                board.waiting, board.version, board.done = None, None, []
                if version is not None and board.shown is not None and version <= board.shown:
                    self.dropped += 1
                else:
                    try:
                        await self._send(message_id, state)
                        self.sent += 1
                        if version is not None:
                            board.shown = max(version, board.shown or version)
                    except asyncio.CancelledError:
                        raise
                    except Exception:
                        log.exception("editing board message %s failed", message_id)
                for future in done:
                    if not future.done():
                        future.set_result(None)
        finally:
            board.task = None
            for future in board.done:
                if not future.done():
                    future.set_result(None)
            self._prune()


def _older(version: int | None, than: int | None) -> bool:
    return version is not None and than is not None and version < than
