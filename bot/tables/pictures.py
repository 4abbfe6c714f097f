"""Replays and charts for the table service: what to draw from stored tables and results, drawn
in the AI's process pool (a 150-ply replay is seconds of CPU), cached by what they show; and
:class:`Replay`, the hook by which a game offers replays (see :class:`bot.tables.spec.GameSpec`).

The drawing functions here are top-level and take plain data, so a process pool can run them;
each returns an :class:`~bot.tables.screens.Attachment` (bytes, file name, alt text).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.tables.screens import Attachment
from i18n.messages import Text
from render import charts
from render.animation import Animation

CACHE_SIZE = 32


def moves_in(state: Mapping[str, Any]) -> int:
    """How many moves a stored game holds, where its state keeps them as a list, ``moves``.

    >>> moves_in({"moves": ["11-15", "23-19"]}), moves_in({})
    (2, 0)
    """
    return len(state.get("moves", ()))


@dataclass(frozen=True, slots=True)
class Replay:
    """A finished game's animated replay.

    - ``draw(state, names, outcome, lang)``: the animation of the stored state (``to_dict``),
      with the players' names and the stored outcome (``Outcome.to_dict``, or None), its words
      in the language ``lang``. A top-level function: it runs in the process pool, as a long
      replay is seconds of CPU.
    - ``moves(state)``: how many moves it shows, for its caption.
    """

    draw: Callable[[Mapping[str, Any], Sequence[str], Mapping[str, Any] | None, str], Animation]
    moves: Callable[[Mapping[str, Any]], int] = moves_in


def draw(fn: Callable[..., Any], *args: Any) -> Attachment:
    """What ``fn(*args)`` draws (a game's replay hook, say), as an attachment. ``fn`` is a
    top-level function, so that this runs in the process pool."""
    return Attachment.of(fn(*args))


def draw_stats(
    name: str,
    series: Mapping[str, Sequence[tuple[float, float]]],
    games: Sequence[Any],
    rating_title: Text,
    lang: str = "en",
) -> Attachment:
    """``/stats``: a rating per server over time (``rating_title``), and games played and
    won, its words and dates in the language ``lang``."""
    return Attachment.of(charts.stats_chart(name, series, games, rating_title, lang))


def draw_scoreboard(
    title: str, rows: Sequence[tuple[str, float]], measure: str, lang: str = "en"
) -> Attachment:
    """``/scoreboard chart``: the top ten as bars, its words in the channel's language."""
    return Attachment.of(charts.scoreboard_chart(title, rows, measure, lang=lang))


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
