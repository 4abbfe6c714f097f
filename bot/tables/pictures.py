"""Replays and charts for the table service: what to draw from stored tables and results, drawn
in the AI's process pool (a 150-ply replay is seconds of CPU), cached by what they show.

The drawing functions here are top-level and take plain data, so a process pool can run them;
each returns an :class:`~bot.tables.screens.Attachment` (bytes, file name, alt text).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Mapping, Sequence
from typing import Any

from bot.tables.screens import Attachment
from render import charts
from render.hearts_replay import replay_hearts_hand
from render.replay import replay_checkers, replay_quarters

REPLAYABLE = ("checkers", "quarters")
CACHE_SIZE = 32


def draw_replay(
    kind: str, state: Mapping[str, Any], names: Sequence[str], outcome: Mapping[str, Any] | None
) -> Attachment:
    """The animated replay of a finished checkers or Quarters game (stored state)."""
    if kind == "checkers":
        animation = replay_checkers(state["moves"], state.get("fen"), names=names, outcome=outcome)
    elif kind == "quarters":
        animation = replay_quarters(
            state["start"], state["moves"], state.get("first", 0), names=names, outcome=outcome
        )
    else:
        raise ValueError(f"no replay for {kind}")
    return Attachment.of(animation)


def draw_hearts_hand(
    state: Mapping[str, Any], number: int, names: Sequence[str], bottom: int
) -> Attachment:
    """Hand ``number`` (from 1) of a finished Hearts game, face up, trick by trick."""
    return Attachment.of(replay_hearts_hand(state, number, names, bottom=bottom))


def draw_hearts_totals(per_hand: Sequence[Sequence[int]], names: Sequence[str]) -> Attachment:
    """A Hearts game's running totals, hand by hand."""
    return Attachment.of(charts.hearts_totals_chart(per_hand, names))


def draw_stats(
    name: str, series: Mapping[str, Sequence[tuple[float, float]]], games: Sequence[Any]
) -> Attachment:
    """``/stats``: the checkers rating per server over time, and games played and won."""
    return Attachment.of(charts.stats_chart(name, series, games))


def draw_scoreboard(title: str, rows: Sequence[tuple[str, float]], measure: str) -> Attachment:
    """``/scoreboard chart``: the top ten as bars."""
    return Attachment.of(charts.scoreboard_chart(title, rows, measure))


class PictureCache:
    """The last :data:`CACHE_SIZE` pictures, by key (a finished table's id and version and what
    was drawn, or the numbers a chart shows). Two requests for one picture draw it once."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._done: OrderedDict[Hashable, Attachment] = OrderedDict()
        self._drawing: dict[Hashable, asyncio.Future[Attachment]] = {}
        self.drawn = 0  # how many pictures were actually drawn (for tests and metrics)

    async def get(self, key: Hashable, draw: Callable[[], Awaitable[Attachment]]) -> Attachment:
        found = self._done.get(key)
        if found is not None:
            self._done.move_to_end(key)
            return found
        pending = self._drawing.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Attachment] = asyncio.get_running_loop().create_future()
        self._drawing[key] = future
        try:
            picture = await draw()
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: no "never retrieved" warning when nobody waits
            raise
        finally:
            self._drawing.pop(key, None)
        self.drawn += 1
        future.set_result(picture)
        self._done[key] = picture
        while len(self._done) > self.size:
            self._done.popitem(last=False)
        return picture
