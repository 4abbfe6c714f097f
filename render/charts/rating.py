"""A member's rating over time: a line a place (a server, a group chat, their DMs with
Parlour), a dot a game, the starting rating dashed; and the same in words."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from i18n import Message, _np, _p, render, sentences
from i18n.messages import Text
from render.base import Picture, to_picture
from render.charts.layout import (
    AXIS,
    LINE,
    PLOT_TOP,
    SERIES,
    WIDTH,
    Canvas,
    LineLayout,
    below_title,
    draw_axes,
    draw_title,
    legend,
    line_layout,
    sentence_picture,
    time_axis,
    title_lines,
)
from render.charts.scales import DAY, day, number

RatingSeries = Mapping[str, Sequence[tuple[float, float]]]
RATING_SIZE = (WIDTH, 250)
"""The rating chart's title and plot; the legend, a line a place, goes under it."""
MARKERS_UP_TO = 60  # a series with more games is drawn as a line only
DEFAULT_RATING = 1200.0
RATING_TITLE = _p("rating chart", "Checkers rating")


def _unnamed(kind: str, n: int) -> Message:
    """What a place the caller did not name is (``kind``: ``RatingPoint.place``), numbered
    ``n`` in its kind: a chart says what a place is, never which one."""
    if kind == "dm":
        return _p("rating chart", "DMs with Parlour")  # a member has one DM with Parlour
    if kind == "chat":
        return _p("rating chart", "Group chat {n}", n=n)
    return _p("rating chart", "Other server {n}", n=n)


def has_ratings(series: RatingSeries) -> bool:
    """Whether ``series`` holds a rated game to chart (if not, say "no rated games yet")."""
    return any(series.values())


def rating_series(
    points: Iterable[Any], server_names: Mapping[int, str] | None = None, lang: str = "en"
) -> dict[str, list[tuple[float, float]]]:
    """Group rating points (anything with ``guild_id``, ``finished_at`` and ``rating``, and the
    kind of place in ``place``, such as the repository's ``rating_history``) into one series a
    place, named by ``server_names`` (by the place's id). A place not named there is called
    what it is, in the language ``lang``: "Other server N" and "Group chat N" numbered by their
    first game, "DMs with Parlour": a chart never tells where else a member plays.

    >>> from types import SimpleNamespace as P
    >>> rating_series([P(guild_id=1, finished_at=5.0, rating=1216.0)], {1: "HQ"})
    {'HQ': [(5.0, 1216.0)]}
    >>> rating_series([P(guild_id=7, finished_at=1.0, rating=1190.0)], {1: "HQ"})
    {'Other server 1': [(1.0, 1190.0)]}
    >>> rating_series([P(guild_id=7, finished_at=1.0, rating=1190.0, place="chat")])
    {'Group chat 1': [(1.0, 1190.0)]}
    """
    given = dict(server_names or {})
    named: dict[tuple[str, int], str] = {}
    counts: dict[str, int] = {}
    series: dict[str, list[tuple[float, float]]] = {}
    for point in sorted(points, key=lambda p: p.finished_at):
        kind = str(getattr(point, "place", "server"))
        name = given.get(point.guild_id) or named.get((kind, point.guild_id))
        if not name:
            counts[kind] = counts.get(kind, 0) + 1
            name = named[(kind, point.guild_id)] = render(_unnamed(kind, counts[kind]), lang)
        series.setdefault(name, []).append((point.finished_at, point.rating))
    return {name: sorted(values) for name, values in series.items()}


def rating_layout(
    series: RatingSeries, size: tuple[int, int] = RATING_SIZE, top: int = PLOT_TOP
) -> LineLayout:
    """The scales :func:`rating_chart` plots ``series`` with, its plot from ``top`` down
    (shared with the tests)."""
    xs = [t for points in series.values() for t, _ in points]
    ys = [r for points in series.values() for _, r in points]
    return line_layout(xs, ys, size, x_pad=DAY, y_extra=[DEFAULT_RATING], top=top)


def rating_height(series: RatingSeries) -> int:
    """How tall the rating chart of ``series`` is: its plot and a legend line a place."""
    return RATING_SIZE[1] + LINE * sum(1 for points in series.values() if points) + 8


def draw_rating(
    canvas: Canvas, series: RatingSeries, title: str, dy: int = 0, lang: str = "en"
) -> None:
    """The rating chart onto ``canvas``, ``dy`` down; a title longer than a line takes the
    lines it needs and the plot gives them up."""
    lines = title_lines(title)
    draw_title(canvas, lines, dy)
    layout = rating_layout(series, top=PLOT_TOP + below_title(lines))
    draw_axes(canvas, layout, time_axis(canvas, layout, lang), dy, lang)
    left, _top, right, _bottom = layout.box
    canvas.dashed(layout.y.px(DEFAULT_RATING) + dy, left, right, AXIS)
    items = []
    for index, (name, points) in enumerate(series.items()):
        if not points:
            continue
        colour = SERIES[index % len(SERIES)]
        xy = [(layout.x.px(t), layout.y.px(r) + dy) for t, r in points]
        if len(xy) > 1:
            canvas.line(xy, colour, 2.5)
        if len(xy) <= MARKERS_UP_TO:
            for x, y in xy:
                canvas.dot(x, y, colour)
        now = _np(
            "rating chart", "now {rating} · {n} game", "now {rating} · {n} games", len(points),
            rating=number(points[-1][1], lang),
        )  # fmt: skip
        items.append((name, render(now, lang), colour))
    legend(canvas, items, dy + RATING_SIZE[1])


def describe_ratings(series: RatingSeries, title: Text, lang: str = "en") -> str:
    """The rating chart in words: per place, games, dates, first, last, best and worst."""
    if not any(series.values()):
        return render(_p("rating chart", "{title}: no rated games yet.", title=title), lang)
    parts: list[Message] = [_p("rating chart", "{title}.", title=title)]
    for name, points in series.items():
        if not points:
            continue
        ratings = [number(r, lang) for _, r in points]
        if len(points) == 1:
            parts.append(
                _p(
                    "rating chart", "{server}: 1 rated game on {day}, rating after it {rating}.",
                    server=name, day=day(points[0][0]), rating=ratings[0],
                )
            )  # fmt: skip
            continue
        values = [r for _, r in points]
        parts.append(
            _np(
                "rating chart",
                "{server}: {n} rated game from {first} to {last}; after the first {start}, "
                "now {now}, highest {high}, lowest {low}.",
                "{server}: {n} rated games from {first} to {last}; after the first {start}, "
                "now {now}, highest {high}, lowest {low}.",
                len(points),
                server=name,
                first=day(points[0][0]),
                last=day(points[-1][0]),
                start=ratings[0],
                now=ratings[-1],
                high=number(max(values), lang),
                low=number(min(values), lang),
            )
        )
    return render(sentences(*parts), lang)


def rating_chart(series: RatingSeries, title: Text = RATING_TITLE, lang: str = "en") -> Picture:
    """A member's rating over time, one line per place (``series``: name -> [(time, rating)],
    oldest first), its words and dates in the language ``lang``. The default rating is the
    dashed line; each game is a dot. With no rated game (:func:`has_ratings`) it is a picture
    of that sentence only."""
    description = describe_ratings(series, title, lang)
    if not has_ratings(series):
        none = render(_p("rating chart", "No rated games yet"), lang)
        return sentence_picture(none, "rating.png", description)
    canvas = Canvas(WIDTH, rating_height(series))
    draw_rating(canvas, series, render(title, lang), lang=lang)
    return to_picture(canvas.done(), "rating.png", description)
