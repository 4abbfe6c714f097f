"""One record per interaction: its log line and its metrics, written from one place.

The bot wraps the handling of each interaction in :meth:`Tracker.track`; the handlers fill in
what they learn on the way with :func:`note` (the game, the table, the action, a refusal) and
:func:`board_updated`; when the block ends, :meth:`Tracker.track` writes the INFO line and the
metrics (:func:`bot.ops.metrics.record_interaction`). Discord's first response is seen at the
HTTP level (an ``aiohttp`` trace on the client's session, :meth:`Tracker.trace_config`): the
end of the interaction's callback request, whichever code sent it.
"""

from __future__ import annotations

import contextvars
import re
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import aiohttp

from bot.ops import metrics
from bot.ops.drain import Drain, Overloaded, Stopping

# discord's interaction types and component types, as numbers (no discord import here).
_APPLICATION_COMMAND, _COMPONENT, _AUTOCOMPLETE, _MODAL = 2, 3, 4, 5
_SELECTS = {3, 5, 6, 7, 8}
_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")
_KNOWN_TABLES = 10_000  # table id -> game, remembered for the metrics' game label, at most
# Interactions open at once beyond which a new one is refused at once ("very busy"): about 3 s
# of work at the most a process answers, so the refused would have been answered too late.
MAX_OPEN = 400
_KNOWN_FOR = 120.0  # seconds a table's game is remembered after the table's last interaction


@dataclass(slots=True)
class Record:
    """What is known about one interaction so far."""

    interaction_id: int
    kind: str
    guild: int | None
    channel: int | None
    start: float
    game: str | None = None
    table: int | None = None
    action: str = ""
    outcome: str = "applied"
    first_response: float | None = None
    board_update: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)


_current: contextvars.ContextVar[Record | None] = contextvars.ContextVar(
    "parlour_interaction", default=None
)


def current() -> Record | None:
    """The interaction being handled by this task, if any."""
    return _current.get()


def age() -> float:
    """Seconds since the interaction being handled by this task arrived (0 outside one)."""
    record = _current.get()
    return 0.0 if record is None else time.perf_counter() - record.start


def note(
    *,
    game: str | None = None,
    table: int | None = None,
    action: str | None = None,
    outcome: str | None = None,
) -> None:
    """Tell the running interaction's record what the handler learnt (no-op outside one)."""
    record = _current.get()
    if record is None:
        return
    if game is not None:
        record.game = game
    if table is not None:
        record.table = table
    if action is not None:
        record.action = action
    if outcome is not None and record.outcome != "error":
        record.outcome = outcome


def board_updated() -> None:
    """The running interaction's table board now shows the new state."""
    record = _current.get()
    if record is not None and record.board_update is None:
        record.board_update = time.perf_counter() - record.start


def kind_of(interaction: Any) -> str:
    """``command``, ``button``, ``select``, ``modal`` or ``autocomplete``."""
    itype = int(getattr(interaction.type, "value", interaction.type))
    if itype == _AUTOCOMPLETE:
        return "autocomplete"
    if itype == _MODAL:
        return "modal"
    if itype == _COMPONENT:
        data = interaction.data or {}
        return "select" if data.get("component_type") in _SELECTS else "button"
    return "command"


class Tracker:
    """Tracks the interactions in flight; ``lookup`` finds a table's game when a click names
    only the table (its answer is remembered, a table's game never changes)."""

    def __init__(
        self,
        drain: Drain | None = None,
        lookup: Callable[[int], Awaitable[str | None]] | None = None,
        clock: Callable[[], float] = time.monotonic,
        limit: int = MAX_OPEN,
    ) -> None:
        self.drain = drain or Drain()
        self.limit = limit
        self.lookup = lookup
        self.clock = clock
        self._open: dict[int, Record] = {}
        # table id -> (game, last use), least recently used first: only tables in play are kept
        self._games: OrderedDict[int, tuple[str, float]] = OrderedDict()

    def remember(self, table_id: int, game: str) -> None:
        """Keep ``table_id``'s game for :data:`_KNOWN_FOR` seconds from now, and forget the
        tables not seen for that long (a finished or abandoned table is not seen again)."""
        now = self.clock()
        self._games[table_id] = (game, now)
        self._games.move_to_end(table_id)
        while self._games:
            oldest = next(iter(self._games.values()))
            if len(self._games) <= _KNOWN_TABLES and oldest[1] > now - _KNOWN_FOR:
                break
            self._games.popitem(last=False)

    async def _game_of(self, table_id: int) -> str | None:
        known = self._games.get(table_id)
        game = None if known is None else known[0]
        if game is None and self.lookup is not None:
            try:
                game = await self.lookup(table_id)
            except Exception:  # a metrics label is not worth failing anything for
                game = None
        if game is not None:
            self.remember(table_id, game)  # seen now
        return game

    def trace_config(self) -> aiohttp.TraceConfig:
        """An aiohttp trace noting when Discord accepted each interaction's first response."""
        trace = aiohttp.TraceConfig()

        async def on_end(session: aiohttp.ClientSession, ctx: SimpleNamespace, params: Any) -> None:
            match = _CALLBACK.search(params.url.path)
            if match is None:
                return
            record = self._open.get(int(match[1]))
            if record is not None and record.first_response is None:
                record.first_response = time.perf_counter() - record.start

        trace.on_request_end.append(on_end)
        return trace

    @asynccontextmanager
    async def track(self, interaction: Any) -> AsyncIterator[Record]:
        """Around the handling of ``interaction``: counts it as work in flight for the drain
        (raising :class:`~bot.ops.drain.Stopping` once the bot is stopping, and
        :class:`~bot.ops.drain.Overloaded` when ``limit`` interactions are open already), then
        logs it and records its metrics. An exception marks the outcome ``error`` and
        propagates."""
        record = Record(
            interaction_id=interaction.id,
            kind=kind_of(interaction),
            guild=interaction.guild_id,
            channel=interaction.channel_id,
            start=time.perf_counter(),
        )
        token = _current.set(record)
        self._open[record.interaction_id] = record
        try:
            if len(self._open) > self.limit:
                raise Overloaded
            async with self.drain.work():
                yield record
        except Stopping as exc:
            record.outcome = "refused"
            record.action = record.action or ("busy" if isinstance(exc, Overloaded) else "stopping")
            raise
        except BaseException:
            record.outcome = "error"
            raise
        finally:
            _current.reset(token)
            self._open.pop(record.interaction_id, None)
            await self._record(record)

    async def _record(self, record: Record) -> None:
        if record.game is None and record.table is not None:
            record.game = await self._game_of(record.table)
        elif record.game is not None and record.table is not None:
            self.remember(record.table, record.game)
        latency = time.perf_counter() - record.start
        metrics.record_interaction(
            game=record.game,
            kind=record.kind,
            outcome=record.outcome,
            latency=latency,
            guild=record.guild,
            channel=record.channel,
            table=record.table,
            action=record.action or "unknown",
            first_response=record.first_response,
        )
        if record.kind != "autocomplete":
            metrics.observe_first_response(
                record.game,
                record.first_response if record.first_response is not None else latency,
            )
        if record.board_update is not None:
            metrics.observe_board_update(record.game, record.board_update)
