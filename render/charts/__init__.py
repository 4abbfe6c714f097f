"""Charts drawn with Pillow: rating over time, games played and won, a top-ten bar chart and a
Hearts game's running totals. Pure functions from numbers to a :class:`~render.base.Picture`
whose alt text carries the same facts in words.

Charts are drawn for a phone, 400 px wide (:mod:`render.charts.layout`). With nothing to chart,
a chart is not drawn empty: :func:`has_ratings` and :func:`has_games` tell the caller to say so
in a sentence instead. A title is never cut: when it is too long for its line it takes the
lines it needs.

A plotting library would add ~0.5 s of import and tens of MB to the bot for four simple charts
(``python -m bench.perf.pictures`` measures it); these are lines, dots, bars and labels.

>>> pic = scoreboard_chart("Checkers", [("Ann", 1262.0), ("Bob", 1190.5)], "rating")
>>> pic.png[:4], pic.description
(b'\\x89PNG', 'Checkers, top 2 by rating: 1. Ann 1262; 2. Bob 1190.5.')
>>> has_ratings({"HQ": []}), has_games([("Kabu", 0, 0)])
(False, False)
"""

from __future__ import annotations

from render.charts.games import (
    GAMES_TITLE,
    GamesRows,
    describe_games,
    games_chart,
    has_games,
    stats_chart,
)
from render.charts.hearts import (
    HEARTS_SIZE,
    describe_hearts_totals,
    hearts_layout,
    hearts_totals_chart,
)
from render.charts.layout import AXIS, GRID, SERIES, WIDTH, LineLayout
from render.charts.rating import (
    DEFAULT_RATING,
    RATING_SIZE,
    RATING_TITLE,
    RatingSeries,
    describe_ratings,
    has_ratings,
    rating_chart,
    rating_layout,
    rating_series,
)
from render.charts.scales import Scale, nice_range, nice_step, time_ticks
from render.charts.scoreboard import scoreboard_chart

__all__ = [
    "AXIS",
    "DEFAULT_RATING",
    "GAMES_TITLE",
    "GRID",
    "HEARTS_SIZE",
    "RATING_SIZE",
    "RATING_TITLE",
    "SERIES",
    "WIDTH",
    "GamesRows",
    "LineLayout",
    "RatingSeries",
    "Scale",
    "describe_games",
    "describe_hearts_totals",
    "describe_ratings",
    "games_chart",
    "has_games",
    "has_ratings",
    "hearts_layout",
    "hearts_totals_chart",
    "nice_range",
    "nice_step",
    "rating_chart",
    "rating_layout",
    "rating_series",
    "scoreboard_chart",
    "stats_chart",
    "time_ticks",
]
