"""Charts drawn with Pillow: rating over time, games played and won, a top-ten bar chart and a
Hearts game's running totals. Pure functions from numbers to a :class:`~render.base.Picture`
whose alt text carries the same facts in words.

Charts are drawn for a phone: 400 px wide (shown about 330 px wide, every text 14 px or more is
11.5 px or more there). With nothing to chart, a chart is not drawn empty: :func:`has_ratings`
and :func:`has_games` tell the caller to say so in a sentence instead.

A plotting library would add ~0.5 s of import and tens of MB to the bot for four simple charts
(``python -m bench.perf.pictures`` measures it); these are lines, dots, bars and labels.

>>> pic = scoreboard_chart("Checkers", [("Ann", 1262.0), ("Bob", 1190.5)], "rating")
>>> pic.png[:4], pic.description
(b'\\x89PNG', 'Checkers, top 2 by rating: 1. Ann 1262; 2. Bob 1190.5.')
>>> has_ratings({"HQ": []}), has_games([("Kabu", 0, 0)])
(False, False)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from babel.numbers import format_decimal
from PIL import Image, ImageDraw

from i18n import Message, _np, _p, render, resolve, sentences
from i18n.formats import Date, Listing, Skeleton, Time
from i18n.messages import Text
from render.base import (
    BACKGROUND,
    GOLD,
    INK,
    MUTED,
    Box,
    Picture,
    face,
    legible_size,
    note_box,
    recording,
    to_picture,
)

SS = 2  # drawn at twice the size and scaled down, for smooth lines and dots
WIDTH = 400
PAD = 16  # the margin left and right
TEXT = legible_size(WIDTH)  # the smallest text: axis labels, legends, values
NAME = TEXT + 1  # names beside bars
TITLE = TEXT + 3
LINE = 24  # a legend's line
GRID = (64, 68, 75)
AXIS = (110, 115, 124)
PANEL = (49, 51, 56)
MARKER_RIM = (250, 250, 250)
MARKER_RADIUS = 5
# Okabe-Ito colours: told apart with any colour vision, and clear on Discord's dark theme.
SERIES = (
    (230, 159, 0),
    (86, 180, 233),
    (0, 158, 115),
    (240, 228, 66),
    (213, 94, 0),
    (204, 121, 167),
    (0, 114, 178),
)
PLAYED, WON = (86, 180, 233), GOLD
DEFAULT_RATING = 1200.0
DAY = 86400.0
Colour = tuple[int, int, int]
Point = tuple[float, float]


# -- scales -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Scale:
    """A linear map from values ``lo..hi`` to pixels ``start..end`` (end < start for y)."""

    lo: float
    hi: float
    start: float
    end: float

    def px(self, value: float) -> float:
        return self.start + (value - self.lo) / (self.hi - self.lo) * (self.end - self.start)


def nice_step(span: float, count: int = 5) -> float:
    """A round step (1, 2, 2.5 or 5 times a power of ten) giving about ``count`` intervals.

    >>> nice_step(100), nice_step(37, 4), nice_step(0.3)
    (20.0, 10.0, 0.1)
    """
    raw = max(span, 1e-9) / count
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * power * 1.0001:
            return float(factor * power)
    return float(10 * power)


def nice_range(lo: float, hi: float, count: int = 5, pad: float = 10.0) -> list[float]:
    """Tick values covering ``lo..hi`` on round numbers (the first and last are the axis ends).

    >>> nice_range(1183, 1262)
    [1180.0, 1200.0, 1220.0, 1240.0, 1260.0, 1280.0]
    """
    if hi - lo < 1e-9:
        lo, hi = lo - pad, hi + pad
    step = nice_step(hi - lo, count)
    first = math.floor(lo / step + 1e-9) * step
    last = math.ceil(hi / step - 1e-9) * step
    return [round(first + i * step, 10) for i in range(round((last - first) / step) + 1)]


_TIME_STEPS = (  # a step, and whether its labels carry the time of day (else the day)
    (3600, "time"),
    (3 * 3600, "time"),
    (6 * 3600, "day-time"),
    (12 * 3600, "day-time"),
    (DAY, "day"),
    (2 * DAY, "day"),
    (7 * DAY, "day"),
    (14 * DAY, "day"),
)
_MONTH_STEPS = (1, 2, 3, 6, 12, 24, 60)


def _tick_label(moment: datetime, kind: str, lang: str) -> str:
    """A time axis label in the language ``lang`` (Babel): "06:00"/"6:00 AM", "Dec 4",
    "4 déc. 06:00", "Dec 2026", "2026"."""
    if kind == "time":
        return render(Time(moment), lang)
    skeleton = {"day-time": "MMMd", "day": "MMMd", "month": "yMMM"}.get(kind, "y")
    return render(Skeleton(moment, skeleton, with_time=kind == "day-time"), lang)


def time_ticks(lo: float, hi: float, count: int = 6, lang: str = "en") -> list[tuple[float, str]]:
    """Round instants (UTC) between ``lo`` and ``hi`` with their labels in the language
    ``lang``, at most ``count``."""
    span = hi - lo
    for step, kind in _TIME_STEPS:
        if span / step <= count:
            first = math.ceil(lo / step) * step
            ticks = []
            t = first
            while t <= hi:
                ticks.append((t, _tick_label(datetime.fromtimestamp(t, UTC), kind, lang)))
                t += step
            return ticks
    start = datetime.fromtimestamp(lo, UTC)
    months = span / (30.44 * DAY)
    every = next((m for m in _MONTH_STEPS if months / m <= count), _MONTH_STEPS[-1])
    index = start.year * 12 + start.month - 1
    index = (index // every + 1) * every  # the first month boundary on the step after lo
    ticks = []
    while True:
        moment = datetime(index // 12, index % 12 + 1, 1, tzinfo=UTC)
        if moment.timestamp() > hi:
            return ticks
        label = _tick_label(moment, "month" if every < 12 else "year", lang)
        ticks.append((moment.timestamp(), label))
        index += every


def _number(value: float, lang: str = "en") -> str:
    """``1262`` or ``1190.5`` (``1190,5`` in German): whole numbers without a decimal sign,
    no grouping (ratings and scores read as they are)."""
    rounded = round(value, 1)
    return format_decimal(rounded, format="0.#", locale=resolve(lang).formats)


def _day(moment: float) -> Date:
    return Date(datetime.fromtimestamp(moment, UTC).date())


# -- drawing helpers --------------------------------------------------------------------------


class _Canvas:
    """An image drawn at ``SS`` times its size; coordinates are given at the final size."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.image = Image.new("RGB", (width * SS, height * SS), BACKGROUND)
        self.draw = ImageDraw.Draw(self.image)

    def text(
        self,
        xy: Point,
        text: str,
        size: int = TEXT,
        fill: Colour = INK,
        anchor: str = "la",
        within: Box | None = None,
    ) -> None:
        big, typeface = (xy[0] * SS, xy[1] * SS), face(size * SS, text)
        self.draw.text(big, text, font=typeface, fill=fill, anchor=anchor)
        if recording():
            box = self.draw.textbbox(big, text, font=typeface, anchor=anchor)
            x0, y0, x1, y1 = (v / SS for v in box)
            note_box(text, (x0, y0, x1, y1), size, within)

    def text_width(self, text: str, size: int = TEXT) -> float:
        return face(size * SS, text).getlength(text) / SS

    def line(self, points: Sequence[Point], fill: Colour, width: float = 1.0) -> None:
        self.draw.line(
            [(x * SS, y * SS) for x, y in points],
            fill=fill,
            width=max(1, round(width * SS)),
            joint="curve",
        )

    def rect(
        self,
        box: tuple[float, float, float, float],
        fill: Colour | None = None,
        outline: Colour | None = None,
        radius: float = 0.0,
    ) -> None:
        x0, y0, x1, y1 = (v * SS for v in box)
        self.draw.rounded_rectangle(
            (x0, y0, x1, y1), radius=radius * SS, fill=fill, outline=outline
        )

    def dot(self, x: float, y: float, fill: Colour, radius: float = MARKER_RADIUS) -> None:
        r, x, y = radius * SS, x * SS, y * SS
        self.draw.ellipse((x - r, y - r, x + r, y + r), fill=MARKER_RIM)
        inner = r - 1.6 * SS
        self.draw.ellipse((x - inner, y - inner, x + inner, y + inner), fill=fill)

    def dashed(self, y: float, x0: float, x1: float, fill: Colour) -> None:
        x = x0
        while x < x1:
            self.line([(x, y), (min(x + 6, x1), y)], fill)
            x += 10

    def fit(self, text: str, size: int, width: float) -> str:
        """``text`` cut with an ellipsis to at most ``width`` pixels at ``size``."""
        if self.text_width(text, size) <= width:
            return text
        while text and self.text_width(text.rstrip() + "…", size) > width:
            text = text[:-1]
        return text.rstrip() + "…"

    def done(self) -> Image.Image:
        return self.image.resize((self.width, self.height), Image.Resampling.LANCZOS)


@dataclass(frozen=True, slots=True)
class LineLayout:
    """Where a line chart puts its data: the plot box and the two scales."""

    box: tuple[int, int, int, int]  # left, top, right, bottom (final pixels)
    x: Scale
    y: Scale
    y_ticks: tuple[float, ...]


PLOT_TOP = 44  # under the title
PLOT_LEFT = 58  # room for the value labels left of the plot
AXIS_LABELS = 30  # under the plot, for the labels of the x axis


def _line_layout(
    xs: Sequence[float],
    ys: Sequence[float],
    size: tuple[int, int],
    *,
    x_pad: float,
    y_extra: Sequence[float] = (),
    y_pad: float = 10.0,
) -> LineLayout:
    """The plot of a line chart ``size`` big (its legend goes under it, outside ``size``)."""
    width, height = size
    box = (PLOT_LEFT, PLOT_TOP, width - PAD, height - AXIS_LABELS)
    low, high = min([*ys, *y_extra]), max([*ys, *y_extra])
    margin = (high - low) * 0.04  # keeps the dots off the plot's edges
    bottom = low - margin if low < 0 or low - margin >= 0 else 0.0  # no negative axis for none
    ticks = nice_range(bottom, high + margin, count=4, pad=y_pad)
    lo, hi = min(xs), max(xs)
    if hi - lo < 1e-9:
        lo, hi = lo - x_pad, hi + x_pad
    x = Scale(lo, hi, box[0] + 12, box[2] - 12)
    y = Scale(ticks[0], ticks[-1], box[3], box[1])
    return LineLayout(box, x, y, tuple(ticks))


def _spaced(canvas: _Canvas, ticks: Sequence[tuple[float, str]], scale: Scale) -> bool:
    """Whether the labels of ``ticks`` fit side by side, each inside the picture."""
    right_edge = -1e9
    for value, label in ticks:
        half = canvas.text_width(label) / 2
        x = scale.px(value)
        if x - half < right_edge + 10 or x - half < 2 or x + half > canvas.width - 2:
            return False
        right_edge = x + half
    return True


def _time_axis(canvas: _Canvas, layout: LineLayout, lang: str) -> list[tuple[float, str]]:
    """Round instants for the x axis: as many as have room for their labels."""
    for count in (6, 5, 4, 3, 2, 1):
        ticks = time_ticks(layout.x.lo, layout.x.hi, count, lang)
        if _spaced(canvas, ticks, layout.x):
            return ticks
    return []


def _draw_axes(
    canvas: _Canvas,
    layout: LineLayout,
    x_ticks: Sequence[tuple[float, str]],
    dy: float = 0,
    lang: str = "en",
) -> None:
    left, right = layout.box[0], layout.box[2]
    top, bottom = layout.box[1] + dy, layout.box[3] + dy
    canvas.rect((left, top, right, bottom), fill=PANEL, radius=6)
    for value in layout.y_ticks:
        y = layout.y.px(value) + dy
        canvas.line([(left, y), (right, y)], GRID)
        canvas.text((left - 8, y), _number(value, lang), TEXT, MUTED, "rm")
    for value, label in x_ticks:
        x = layout.x.px(value)
        canvas.line([(x, bottom), (x, bottom + 5)], AXIS)
        canvas.text((x, bottom + 7), label, TEXT, MUTED, "ma")


def _legend(canvas: _Canvas, items: Sequence[tuple[str, str, Colour]], y: float) -> None:
    """A line an item under a chart: its colour's dot, its name, and its value on the right."""
    for name, value, colour in items:
        canvas.dot(PAD + 6, y + LINE / 2, colour, 5)
        canvas.text((canvas.width - PAD, y + LINE / 2), value, TEXT, MUTED, "rm")
        room = canvas.width - 2 * PAD - 20 - canvas.text_width(value) - 10
        canvas.text((PAD + 20, y + LINE / 2), canvas.fit(name, NAME, room), NAME, INK, "lm")
        y += LINE


def _title(canvas: _Canvas, text: str, dy: float = 0) -> None:
    canvas.text((PAD, dy + 12), canvas.fit(text, TITLE, canvas.width - 2 * PAD), TITLE, INK)


def _sentence_picture(text: str, filename: str, description: str) -> Picture:
    """A picture of one sentence, for a chart with nothing to chart (callers should rather
    say it in their message: see :func:`has_ratings`, :func:`has_games`)."""
    canvas = _Canvas(WIDTH, 48)
    canvas.text((WIDTH / 2, 24), canvas.fit(text, NAME, WIDTH - 2 * PAD), NAME, MUTED, "mm")
    return to_picture(canvas.done(), filename, description)


# -- rating over time -------------------------------------------------------------------------

RatingSeries = Mapping[str, Sequence[tuple[float, float]]]
RATING_SIZE = (WIDTH, 250)
"""The rating chart's title and plot; the legend, a line a server, goes under it."""
MARKERS_UP_TO = 60  # a series with more games is drawn as a line only


def has_ratings(series: RatingSeries) -> bool:
    """Whether ``series`` holds a rated game to chart (if not, say "no rated games yet")."""
    return any(series.values())


def rating_series(
    points: Iterable[Any], server_names: Mapping[int, str] | None = None, lang: str = "en"
) -> dict[str, list[tuple[float, float]]]:
    """Group rating points (anything with ``guild_id``, ``finished_at`` and ``rating``, such as
    the repository's ``rating_history``) into one series a server, named by ``server_names``.
    A server not named there is "Other server N" (in the language ``lang``), numbered by its
    first game: a chart never tells which other servers a member plays on.

    >>> from types import SimpleNamespace as P
    >>> rating_series([P(guild_id=1, finished_at=5.0, rating=1216.0)], {1: "HQ"})
    {'HQ': [(5.0, 1216.0)]}
    >>> rating_series([P(guild_id=7, finished_at=1.0, rating=1190.0)], {1: "HQ"})
    {'Other server 1': [(1.0, 1190.0)]}
    """
    names = dict(server_names or {})
    series: dict[str, list[tuple[float, float]]] = {}
    others = 0
    for point in sorted(points, key=lambda p: p.finished_at):
        name = names.get(point.guild_id)
        if not name:
            others += 1
            other = render(_p("rating chart", "Other server {n}", n=others), lang)
            name = names[point.guild_id] = other
        series.setdefault(name, []).append((point.finished_at, point.rating))
    return {name: sorted(values) for name, values in series.items()}


def rating_layout(series: RatingSeries, size: tuple[int, int] = RATING_SIZE) -> LineLayout:
    """The scales :func:`rating_chart` plots ``series`` with (shared with the tests)."""
    xs = [t for points in series.values() for t, _ in points]
    ys = [r for points in series.values() for _, r in points]
    return _line_layout(xs, ys, size, x_pad=DAY, y_extra=[DEFAULT_RATING])


def _rating_height(series: RatingSeries) -> int:
    return RATING_SIZE[1] + LINE * sum(1 for points in series.values() if points) + 8


def _draw_rating(
    canvas: _Canvas, series: RatingSeries, title: str, dy: int = 0, lang: str = "en"
) -> None:
    _title(canvas, title, dy)
    layout = rating_layout(series)
    _draw_axes(canvas, layout, _time_axis(canvas, layout, lang), dy, lang)
    left, _left, right, _right = layout.box
    canvas.dashed(layout.y.px(DEFAULT_RATING) + dy, left, right, AXIS)
    legend = []
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
            rating=_number(points[-1][1], lang),
        )  # fmt: skip
        legend.append((name, render(now, lang), colour))
    _legend(canvas, legend, dy + RATING_SIZE[1])


RATING_TITLE = _p("rating chart", "Checkers rating")


def describe_ratings(series: RatingSeries, title: Text, lang: str = "en") -> str:
    """The rating chart in words: per server, games, dates, first, last, best and worst."""
    if not any(series.values()):
        return render(_p("rating chart", "{title}: no rated games yet.", title=title), lang)
    parts: list[Message] = [_p("rating chart", "{title}.", title=title)]
    for name, points in series.items():
        if not points:
            continue
        ratings = [_number(r, lang) for _, r in points]
        if len(points) == 1:
            parts.append(
                _p(
                    "rating chart", "{server}: 1 rated game on {day}, rating after it {rating}.",
                    server=name, day=_day(points[0][0]), rating=ratings[0],
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
                first=_day(points[0][0]),
                last=_day(points[-1][0]),
                start=ratings[0],
                now=ratings[-1],
                high=_number(max(values), lang),
                low=_number(min(values), lang),
            )
        )
    return render(sentences(*parts), lang)


def rating_chart(series: RatingSeries, title: Text = RATING_TITLE, lang: str = "en") -> Picture:
    """A member's rating over time, one line per server (``series``: name -> [(time, rating)],
    oldest first), its words and dates in the language ``lang``. The default rating is the
    dashed line; each game is a dot. With no rated game (:func:`has_ratings`) it is a picture
    of that sentence only."""
    description = describe_ratings(series, title, lang)
    if not has_ratings(series):
        none = render(_p("rating chart", "No rated games yet"), lang)
        return _sentence_picture(none, "rating.png", description)
    canvas = _Canvas(WIDTH, _rating_height(series))
    _draw_rating(canvas, series, render(title, lang), lang=lang)
    return to_picture(canvas.done(), "rating.png", description)


# -- games played and won ---------------------------------------------------------------------

GamesRows = Sequence[tuple[Text, int, int]]  # game (a name or its message), played, won
GAME_ROW = 30


def has_games(rows: GamesRows) -> bool:
    """Whether ``rows`` hold a finished game to chart (if not, say "no finished games yet")."""
    return any(played for _, played, _ in rows)


def _games_height(rows: GamesRows) -> int:
    return 52 + GAME_ROW * max(1, len(rows)) + 6


GAMES_TITLE = _p("games chart", "Games played and won")


def _draw_games(
    canvas: _Canvas, rows: GamesRows, title: str, dy: int = 0, lang: str = "en"
) -> None:
    played = render(_p("games chart", "played"), lang)
    won = render(_p("games chart", "won"), lang)
    legend_x = WIDTH - PAD - canvas.text_width(won) - 16 - canvas.text_width(played) - 32
    canvas.text((PAD, dy + 12), canvas.fit(title, TITLE, legend_x - 2 * PAD), TITLE, INK)
    canvas.dot(legend_x + 6, dy + 22, PLAYED, 5)
    canvas.text((legend_x + 16, dy + 22), played, TEXT, MUTED, "lm")
    won_x = legend_x + 16 + canvas.text_width(played) + 16
    canvas.dot(won_x + 6, dy + 22, WON, 5)
    canvas.text((won_x + 16, dy + 22), won, TEXT, MUTED, "lm")
    if not rows:
        none = render(_p("games chart", "No finished games yet"), lang)
        canvas.text(
            (WIDTH / 2, dy + 67), canvas.fit(none, NAME, WIDTH - 2 * PAD), NAME, MUTED, "mm"
        )
        return
    games = [render(game, lang) for game, _played, _won in rows]
    counts = [
        render(_p("games chart", "{won} of {played}", won=w, played=p), lang) for _g, p, w in rows
    ]
    left = PAD + min(max(canvas.text_width(game, NAME) for game in games), 150) + 10
    right = WIDTH - PAD - max(canvas.text_width(count) for count in counts) - 8
    most = max(p for _game, p, _won in rows) or 1
    scale = Scale(0, most, left, right)
    for i, ((_, p, w), game, count) in enumerate(zip(rows, games, counts, strict=True)):
        y = dy + 48 + GAME_ROW * i
        canvas.text((left - 10, y + 11), canvas.fit(game, NAME, left - 10 - PAD), NAME, INK, "rm")
        canvas.rect((left, y, max(scale.px(p), left + 2), y + 22), fill=PLAYED, radius=4)
        if w:
            canvas.rect((left, y + 6, scale.px(w), y + 16), fill=WON, radius=3)
        canvas.text((max(scale.px(p), left + 2) + 8, y + 11), count, TEXT, MUTED, "lm")


def describe_games(rows: GamesRows, title: Text = GAMES_TITLE, lang: str = "en") -> str:
    """The games chart in words, in the language ``lang``."""
    if not rows:
        return render(_p("games chart", "{title}: no finished games yet.", title=title), lang)
    each = [
        render(
            _p("games chart", "{game} {played} played, {won} won", game=g, played=p, won=w), lang
        )
        for g, p, w in rows
    ]
    return render(_p("games chart", "{title}: {games}.", title=title, games="; ".join(each)), lang)


def games_chart(rows: GamesRows, title: Text = GAMES_TITLE, lang: str = "en") -> Picture:
    """A bar a game: games played, with the games won inside it; its words in ``lang``."""
    canvas = _Canvas(WIDTH, _games_height(rows))
    _draw_games(canvas, rows, render(title, lang), lang=lang)
    return to_picture(canvas.done(), "games.png", describe_games(rows, title, lang))


def stats_chart(
    name: str,
    ratings: RatingSeries,
    games: GamesRows,
    rating_title: Text = RATING_TITLE,
    lang: str = "en",
) -> Picture:
    """``/stats`` in one picture: the member's rating over time above games played and won,
    its words and dates in the language ``lang``.

    Without a rated game (:func:`has_ratings`) only the games are drawn, under a title with the
    member's name; the caller says "no rated games yet" in its message.
    """
    said = sentences(
        _p("stats chart", "{name}'s record.", name=name),
        describe_ratings(ratings, rating_title, lang),
        describe_games(games, GAMES_TITLE, lang),
    )
    text = render(said, lang)
    if not has_ratings(ratings):
        canvas = _Canvas(WIDTH, _games_height(games))
        title = render(_p("stats chart", "{name} · games", name=name), lang)
        _draw_games(canvas, games, title, lang=lang)
        return to_picture(canvas.done(), "stats.png", text)
    top = _rating_height(ratings)
    canvas = _Canvas(WIDTH, top + _games_height(games))
    heading = render(rating_title, lang)
    tail = render(_p("stats chart", "{name} · {title}", name="", title=heading), lang)
    who = canvas.fit(name, TITLE, WIDTH - 2 * PAD - canvas.text_width(tail, TITLE))
    said_title = render(_p("stats chart", "{name} · {title}", name=who, title=heading), lang)
    _draw_rating(canvas, ratings, said_title, lang=lang)
    canvas.line([(PAD, top - 4), (WIDTH - PAD, top - 4)], GRID)
    _draw_games(canvas, games, render(GAMES_TITLE, lang), dy=top, lang=lang)
    return to_picture(canvas.done(), "stats.png", text)


# -- scoreboard -------------------------------------------------------------------------------

BOARD_ROW = 30


def scoreboard_chart(
    title: str,
    rows: Sequence[tuple[str, float]],
    measure: str,
    *,
    limit: int = 10,
    lang: str = "en",
) -> Picture:
    """The top ``limit`` of a scoreboard as bars (``rows``: name and value, best first), its
    words in the language ``lang`` (``measure``: "rating", "wins" or "points", as the
    scoreboard ranks).

    With no rows it is a picture of the sentence "No games finished yet" only.
    """
    rows = list(rows)[:limit]
    ranked = "; ".join(
        f"{i}. {name} {_number(v, lang)}" for i, (name, v) in enumerate(rows, start=1)
    )
    by = _MEASURES.get(measure, measure)
    if rows:
        said = _p(
            "scoreboard chart", "{title}, top {count} by {measure}: {rows}.",
            title=title, count=len(rows), measure=by, rows=ranked,
        )  # fmt: skip
    else:
        said = _p(
            "scoreboard chart", "{title}, by {measure}: no games finished yet.",
            title=title, measure=by,
        )  # fmt: skip
    text = render(said, lang)
    if not rows:
        none = render(_p("scoreboard chart", "No games finished yet"), lang)
        return _sentence_picture(none, "scoreboard.png", text)
    values = [value for _, value in rows]
    low = min(0.0, min(values))
    # ratings sit far from zero: start their bars a little under the lowest one
    if low == 0.0 and min(values) > 0.6 * max(values) and max(values) > 100:
        low = nice_range(min(values) - nice_step(max(values) - min(values)), max(values))[0]
    top = 40 + (22 if low else 0)
    canvas = _Canvas(WIDTH, top + BOARD_ROW * len(rows) + 8)
    heading = _p(
        "scoreboard chart", "{title} · top {count} by {measure}",
        title=title, count=len(rows), measure=by,
    )  # fmt: skip
    _title(canvas, render(heading, lang))
    if low:
        start = render(
            _p("scoreboard chart", "bars start at {value}", value=_number(low, lang)), lang
        )
        canvas.text((PAD, 38), canvas.fit(start, TEXT, WIDTH - 2 * PAD), TEXT, MUTED)
    place_w = canvas.text_width(f"{len(rows)}.")
    names_x = PAD + place_w + 8
    left = names_x + 124
    right = WIDTH - PAD - max(canvas.text_width(_number(v, lang)) for v in values) - 8
    scale = Scale(low, max(values) if max(values) > low else low + 1, left, right)
    for place, (name, value) in enumerate(rows, start=1):
        y = top + BOARD_ROW * (place - 1)
        colour = GOLD if place == 1 else SERIES[1] if place <= 3 else (96, 140, 170)
        canvas.text((PAD, y + 11), f"{place}.", TEXT, MUTED, "lm")
        canvas.text((names_x, y + 11), canvas.fit(name, NAME, left - names_x - 8), NAME, INK, "lm")
        end = max(scale.px(value), left + 4)
        canvas.rect((left, y, end, y + 22), fill=colour, radius=4)
        canvas.text((end + 8, y + 11), _number(value, lang), TEXT, INK, "lm")
    return to_picture(canvas.done(), "scoreboard.png", text)


_MEASURES = {  # what a scoreboard ranks by, in each language
    "rating": _p("scoreboard measure", "rating"),
    "wins": _p("scoreboard measure", "wins"),
    "points": _p("scoreboard measure", "points"),
}


# -- hearts running totals --------------------------------------------------------------------

HEARTS_SIZE = (WIDTH, 250)
"""The running totals' title and plot; the legend, a line a player, goes under it."""


def hearts_layout(
    per_hand: Sequence[Sequence[int]], target: int = 100, size: tuple[int, int] = HEARTS_SIZE
) -> LineLayout:
    """The scales :func:`hearts_totals_chart` uses: hands 0..n across, totals up."""
    totals = _running(per_hand)
    ys = [v for row in totals for v in row]
    return _line_layout(list(range(len(totals))), ys, size, x_pad=1, y_extra=[0, target])


def _running(per_hand: Sequence[Sequence[int]]) -> list[list[int]]:
    """Totals after each hand, starting from zeros: one row per hand, one column per seat."""
    rows = [[0] * (len(per_hand[0]) if per_hand else 4)]
    for scores in per_hand:
        rows.append([a + b for a, b in zip(rows[-1], scores, strict=True)])
    return rows


def _hand_ticks(canvas: _Canvas, layout: LineLayout, hands: int) -> list[tuple[float, str]]:
    """Hand numbers along the x axis, every one or every few, as room allows."""
    for every in (1, 2, 5, 10, 20, 50):
        ticks = [(float(h), str(h)) for h in range(0, hands + 1, every)]
        if _spaced(canvas, ticks, layout.x):
            return ticks
    return [(0.0, "0")]


def hearts_totals_chart(
    per_hand: Sequence[Sequence[int]],
    names: Sequence[str],
    target: int = 100,
    lang: str = "en",
) -> Picture:
    """A Hearts game's running totals hand by hand, a line a player; the target dashed; its
    words in the language ``lang``."""
    canvas = _Canvas(WIDTH, HEARTS_SIZE[1] + LINE * len(names) + 8)
    _title(canvas, render(_p("hearts chart", "Hearts · running totals"), lang))
    totals = _running(per_hand)
    layout = hearts_layout(per_hand, target)
    hands = len(totals) - 1
    _draw_axes(canvas, layout, _hand_ticks(canvas, layout, hands), lang=lang)
    left, _top, right, bottom = layout.box
    axis = canvas.fit(render(_p("hearts chart", "hand"), lang), TEXT, left - 8)
    canvas.text((left - 8, bottom + 7), axis, TEXT, MUTED, "ra")
    target_y = layout.y.px(target)
    canvas.dashed(target_y, left, right, (214, 40, 52))
    canvas.text((left + 4, target_y - 3), f"{target}", TEXT, (230, 120, 120), "lb")
    final = totals[-1]
    best = min(final)
    legend = []
    for seat, name in enumerate(names):
        colour = SERIES[seat % len(SERIES)]
        xy = [(layout.x.px(h), layout.y.px(row[seat])) for h, row in enumerate(totals)]
        canvas.line(xy, colour, 2.5)
        for x, y in xy[1:]:
            canvas.dot(x, y, colour, 4)
        if final[seat] == best and max(final) >= target:
            shown = render(_p("hearts chart", "{total} · wins", total=final[seat]), lang)
        else:
            shown = str(final[seat])
        legend.append((name, shown, colour))
    _legend(canvas, legend, HEARTS_SIZE[1])
    return to_picture(
        canvas.done(), "hearts-totals.png", describe_hearts_totals(per_hand, names, target, lang)
    )


def describe_hearts_totals(
    per_hand: Sequence[Sequence[int]], names: Sequence[str], target: int = 100, lang: str = "en"
) -> str:
    """The running totals in words, in the language ``lang``."""
    totals = _running(per_hand)
    final = totals[-1]
    best = min(final)
    if not per_hand:
        return render(_p("hearts chart", "Hearts running totals: no hands played yet."), lang)
    parts: list[Message] = [
        _np(
            "hearts chart",
            "Hearts running totals over {n} hand (the game ends at {target}).",
            "Hearts running totals over {n} hands (the game ends at {target}).",
            len(per_hand),
            target=target,
        )
    ]
    for seat, name in enumerate(names):
        path = ", ".join(str(row[seat]) for row in totals[1:])  # numbers as notation
        parts.append(_p("hearts chart", "{name}'s totals: {totals}.", name=name, totals=path))
    winners = Listing(tuple(names[s] for s in range(len(names)) if final[s] == best))
    if max(final) >= target:
        parts.append(_p("hearts chart", "Winner: {names} with {total}.", names=winners, total=best))
    else:
        parts.append(
            _p("hearts chart", "Lowest total: {names} with {total}.", names=winners, total=best)
        )
    return render(sentences(*parts), lang)
