"""Charts drawn with Pillow: rating over time, games played and won, a top-ten bar chart and a
Hearts game's running totals. Pure functions from numbers to a :class:`~render.base.Picture`
whose alt text carries the same facts in words.

A plotting library would add ~0.5 s of import and tens of MB to the bot for four simple charts
(``python -m bench.perf.pictures`` measures it); these are lines, dots, bars and labels.

>>> pic = scoreboard_chart("Checkers", [("Ann", 1262.0), ("Bob", 1190.5)], "rating")
>>> pic.png[:4], pic.description
(b'\\x89PNG', 'Checkers, top 2 by rating: 1. Ann 1262; 2. Bob 1190.5.')
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from PIL import Image, ImageDraw

from render.base import BACKGROUND, GOLD, INK, MUTED, Picture, font, to_picture

SS = 2  # drawn at twice the size and scaled down, for smooth lines and dots
WIDTH = 720
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


_TIME_STEPS = (
    (3600, "%H:%M"),
    (3 * 3600, "%H:%M"),
    (6 * 3600, "%d %b %H:%M"),
    (12 * 3600, "%d %b %H:%M"),
    (DAY, "%d %b"),
    (2 * DAY, "%d %b"),
    (7 * DAY, "%d %b"),
    (14 * DAY, "%d %b"),
)
_MONTH_STEPS = (1, 2, 3, 6, 12, 24, 60)


def time_ticks(lo: float, hi: float, count: int = 6) -> list[tuple[float, str]]:
    """Round instants (UTC) between ``lo`` and ``hi`` with their labels, at most ``count``."""
    span = hi - lo
    for step, pattern in _TIME_STEPS:
        if span / step <= count:
            first = math.ceil(lo / step) * step
            ticks = []
            t = first
            while t <= hi:
                ticks.append((t, _strftime(datetime.fromtimestamp(t, UTC), pattern)))
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
        pattern = "%b %Y" if every < 12 else "%Y"
        ticks.append((moment.timestamp(), moment.strftime(pattern)))
        index += every


def _number(value: float) -> str:
    """``1262`` or ``1190.5``: whole numbers without a decimal point."""
    rounded = round(value, 1)
    return str(int(rounded)) if rounded == int(rounded) else f"{rounded:.1f}"


def _strftime(moment: datetime, pattern: str) -> str:
    """``strftime`` with the day of the month written without a leading zero (``4 Dec``)."""
    return moment.strftime(pattern.replace("%d", str(moment.day)))


def _day(moment: float) -> str:
    return _strftime(datetime.fromtimestamp(moment, UTC), "%d %b %Y")


# -- drawing helpers --------------------------------------------------------------------------


class _Canvas:
    """An image drawn at ``SS`` times its size; coordinates are given at the final size."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.image = Image.new("RGB", (width * SS, height * SS), BACKGROUND)
        self.draw = ImageDraw.Draw(self.image)

    def text(
        self, xy: Point, text: str, size: int = 14, fill: Colour = INK, anchor: str = "la"
    ) -> None:
        self.draw.text(
            (xy[0] * SS, xy[1] * SS), text, font=font(size * SS), fill=fill, anchor=anchor
        )

    def text_width(self, text: str, size: int = 14) -> float:
        return font(size * SS).getlength(text) / SS

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

    def done(self) -> Image.Image:
        return self.image.resize((self.width, self.height), Image.Resampling.LANCZOS)


@dataclass(frozen=True, slots=True)
class LineLayout:
    """Where a line chart puts its data: the plot box and the two scales."""

    box: tuple[int, int, int, int]  # left, top, right, bottom (final pixels)
    x: Scale
    y: Scale
    y_ticks: tuple[float, ...]


def _line_layout(
    xs: Sequence[float],
    ys: Sequence[float],
    size: tuple[int, int],
    *,
    x_pad: float,
    y_extra: Sequence[float] = (),
    y_pad: float = 10.0,
    legend_width: int = 0,
) -> LineLayout:
    width, height = size
    box = (64, 52, width - 24 - legend_width, height - 40)
    low, high = min([*ys, *y_extra]), max([*ys, *y_extra])
    margin = (high - low) * 0.04  # keeps the dots off the plot's edges
    ticks = nice_range(low - margin, high + margin, pad=y_pad)
    lo, hi = min(xs), max(xs)
    if hi - lo < 1e-9:
        lo, hi = lo - x_pad, hi + x_pad
    x = Scale(lo, hi, box[0] + 12, box[2] - 12)
    y = Scale(ticks[0], ticks[-1], box[3], box[1])
    return LineLayout(box, x, y, tuple(ticks))


def _draw_axes(canvas: _Canvas, layout: LineLayout, x_ticks: Sequence[tuple[float, str]]) -> None:
    left, top, right, bottom = layout.box
    canvas.rect((left, top, right, bottom), fill=PANEL, radius=6)
    for value in layout.y_ticks:
        y = layout.y.px(value)
        canvas.line([(left, y), (right, y)], GRID)
        canvas.text((left - 8, y), _number(value), 13, MUTED, "rm")
    for value, label in x_ticks:
        x = layout.x.px(value)
        canvas.line([(x, bottom), (x, bottom + 5)], AXIS)
        canvas.text((x, bottom + 8), label, 12, MUTED, "ma")


def _legend(
    canvas: _Canvas, items: Sequence[tuple[str, str, tuple[int, int, int]]], x: float, y: float
) -> None:
    for name, value, colour in items:
        canvas.dot(x + 6, y + 8, colour, 5)
        canvas.text((x + 18, y + 8), name, 14, INK, "lm")
        canvas.text((x + 18, y + 25), value, 12, MUTED, "lm")
        y += 40


def _fit(canvas: _Canvas, text: str, size: int, width: float) -> str:
    if canvas.text_width(text, size) <= width:
        return text
    while text and canvas.text_width(text + "…", size) > width:
        text = text[:-1]
    return text + "…"


# -- rating over time -------------------------------------------------------------------------

RatingSeries = Mapping[str, Sequence[tuple[float, float]]]
RATING_SIZE = (WIDTH, 340)
LEGEND_WIDTH = 150
MARKERS_UP_TO = 60  # a series with more games is drawn as a line only


def rating_series(
    points: Iterable[Any], server_names: Mapping[int, str] | None = None
) -> dict[str, list[tuple[float, float]]]:
    """Group rating points (anything with ``guild_id``, ``finished_at`` and ``rating``, such as
    the repository's ``rating_history``) into one series a server, named by ``server_names``.
    A server not named there is "Other server N", numbered by its first game: a chart never
    tells which other servers a member plays on.

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
            name = names[point.guild_id] = f"Other server {others}"
        series.setdefault(name, []).append((point.finished_at, point.rating))
    return {name: sorted(values) for name, values in series.items()}


def rating_layout(series: RatingSeries, size: tuple[int, int] = RATING_SIZE) -> LineLayout:
    """The scales :func:`rating_chart` plots ``series`` with (shared with the tests)."""
    xs = [t for points in series.values() for t, _ in points]
    ys = [r for points in series.values() for _, r in points]
    return _line_layout(
        xs, ys, size, x_pad=DAY, y_extra=[DEFAULT_RATING], legend_width=LEGEND_WIDTH
    )


def _draw_rating(canvas: _Canvas, series: RatingSeries, title: str, dy: int = 0) -> None:
    canvas.text((20, dy + 16), title, 20, INK)
    if not any(series.values()):
        canvas.text((WIDTH / 2, dy + RATING_SIZE[1] / 2), "No rated games yet", 16, MUTED, "mm")
        return
    layout = rating_layout(series)
    layout = LineLayout(
        (layout.box[0], layout.box[1] + dy, layout.box[2], layout.box[3] + dy),
        layout.x,
        Scale(layout.y.lo, layout.y.hi, layout.y.start + dy, layout.y.end + dy),
        layout.y_ticks,
    )
    _draw_axes(canvas, layout, time_ticks(layout.x.lo, layout.x.hi))
    left, _, right, _ = layout.box
    canvas.dashed(layout.y.px(DEFAULT_RATING), left, right, AXIS)
    legend = []
    for index, (name, points) in enumerate(series.items()):
        if not points:
            continue
        colour = SERIES[index % len(SERIES)]
        xy = [(layout.x.px(t), layout.y.px(r)) for t, r in points]
        if len(xy) > 1:
            canvas.line(xy, colour, 2.5)
        if len(xy) <= MARKERS_UP_TO:
            for x, y in xy:
                canvas.dot(x, y, colour)
        legend.append(
            (
                _fit(canvas, name, 14, LEGEND_WIDTH - 30),
                f"now {_number(points[-1][1])} · {len(points)} games",
                colour,
            )
        )
    _legend(canvas, legend, right + 16, layout.box[1])


def describe_ratings(series: RatingSeries, title: str) -> str:
    """The rating chart in words: per server, games, dates, first, last, best and worst."""
    parts = [f"{title}."]
    if not any(series.values()):
        return f"{title}: no rated games yet."
    for name, points in series.items():
        if not points:
            continue
        ratings = [r for _, r in points]
        if len(points) == 1:
            parts.append(
                f"{name}: 1 rated game on {_day(points[0][0])}, rating after it "
                f"{_number(ratings[0])}."
            )
            continue
        games = f"{len(points)} rated games"
        parts.append(
            f"{name}: {games} from {_day(points[0][0])} to {_day(points[-1][0])}; "
            f"after the first {_number(ratings[0])}, now {_number(ratings[-1])}, "
            f"highest {_number(max(ratings))}, lowest {_number(min(ratings))}."
        )
    return " ".join(parts)


def rating_chart(series: RatingSeries, title: str = "Checkers rating") -> Picture:
    """A member's rating over time, one line per server (``series``: name -> [(time, rating)],
    oldest first). The default rating is the dashed line; each game is a dot."""
    canvas = _Canvas(*RATING_SIZE)
    _draw_rating(canvas, series, title)
    return to_picture(canvas.done(), "rating.png", describe_ratings(series, title))


# -- games played and won ---------------------------------------------------------------------

GamesRows = Sequence[tuple[str, int, int]]  # game, played, won


def _games_height(rows: GamesRows) -> int:
    return 70 + 34 * max(1, len(rows))


def _draw_games(canvas: _Canvas, rows: GamesRows, title: str, dy: int = 0) -> None:
    canvas.text((20, dy + 16), title, 20, INK)
    canvas.dot(WIDTH - 200, dy + 26, PLAYED, 5)
    canvas.text((WIDTH - 188, dy + 26), "played", 13, MUTED, "lm")
    canvas.dot(WIDTH - 110, dy + 26, WON, 5)
    canvas.text((WIDTH - 98, dy + 26), "won", 13, MUTED, "lm")
    if not rows:
        canvas.text((WIDTH / 2, dy + 76), "No finished games yet", 16, MUTED, "mm")
        return
    left, right = 130, WIDTH - 70
    most = max(played for _, played, _ in rows) or 1
    scale = Scale(0, most, left, right)
    for i, (game, played, won) in enumerate(rows):
        y = dy + 56 + 34 * i
        canvas.text((left - 12, y + 12), game, 15, INK, "rm")
        canvas.rect((left, y, scale.px(played), y + 24), fill=PLAYED, radius=4)
        if won:
            canvas.rect((left, y + 6, scale.px(won), y + 18), fill=WON, radius=3)
        canvas.text((scale.px(played) + 8, y + 12), f"{won} of {played}", 13, MUTED, "lm")


def describe_games(rows: GamesRows, title: str = "Games played and won") -> str:
    if not rows:
        return f"{title}: no finished games yet."
    words = "; ".join(f"{game} {played} played, {won} won" for game, played, won in rows)
    return f"{title}: {words}."


def games_chart(rows: GamesRows, title: str = "Games played and won") -> Picture:
    """A bar a game: games played, with the games won inside it."""
    canvas = _Canvas(WIDTH, _games_height(rows))
    _draw_games(canvas, rows, title)
    return to_picture(canvas.done(), "games.png", describe_games(rows, title))


def stats_chart(
    name: str,
    ratings: RatingSeries,
    games: GamesRows,
    rating_title: str = "Checkers rating",
) -> Picture:
    """``/stats`` in one picture: the member's rating over time above games played and won."""
    height = RATING_SIZE[1] + _games_height(games)
    canvas = _Canvas(WIDTH, height)
    _draw_rating(canvas, ratings, f"{name} · {rating_title}")
    canvas.line([(20, RATING_SIZE[1] - 6), (WIDTH - 20, RATING_SIZE[1] - 6)], GRID)
    _draw_games(canvas, games, "Games played and won", dy=RATING_SIZE[1])
    text = f"{name}'s record. {describe_ratings(ratings, rating_title)} {describe_games(games)}"
    return to_picture(canvas.done(), "stats.png", text)


# -- scoreboard -------------------------------------------------------------------------------


def scoreboard_chart(
    title: str, rows: Sequence[tuple[str, float]], measure: str, *, limit: int = 10
) -> Picture:
    """The top ``limit`` of a scoreboard as bars (``rows``: name and value, best first)."""
    rows = list(rows)[:limit]
    height = 70 + 36 * max(1, len(rows))
    canvas = _Canvas(WIDTH, height)
    canvas.text((20, 16), f"{title} · top {len(rows)} by {measure}", 20, INK)
    if not rows:
        canvas.text((WIDTH / 2, 76), "No games finished yet", 16, MUTED, "mm")
    else:
        values = [value for _, value in rows]
        low = min(0.0, min(values))
        # ratings sit far from zero: start their bars a little under the lowest one
        if low == 0.0 and min(values) > 0.6 * max(values) and max(values) > 100:
            low = nice_range(min(values) - nice_step(max(values) - min(values)), max(values))[0]
        scale = Scale(low, max(values) if max(values) > low else low + 1, 200, WIDTH - 80)
        for place, (name, value) in enumerate(rows, start=1):
            y = 56 + 36 * (place - 1)
            colour = GOLD if place == 1 else SERIES[1] if place <= 3 else (96, 140, 170)
            canvas.text((20, y + 13), f"{place}.", 15, MUTED, "lm")
            canvas.text((48, y + 13), _fit(canvas, name, 15, 140), 15, INK, "lm")
            end = max(scale.px(value), 204)
            canvas.rect((200, y, end, y + 26), fill=colour, radius=4)
            canvas.text((end + 8, y + 13), _number(value), 14, INK, "lm")
        if low:
            canvas.text((WIDTH - 20, 22), f"bars start at {_number(low)}", 12, MUTED, "ra")
    words = "; ".join(f"{i}. {name} {_number(v)}" for i, (name, v) in enumerate(rows, start=1))
    text = f"{title}, top {len(rows)} by {measure}: {words or 'no games finished yet'}."
    return to_picture(canvas.done(), "scoreboard.png", text)


# -- hearts running totals --------------------------------------------------------------------

HEARTS_SIZE = (WIDTH, 360)


def hearts_layout(
    per_hand: Sequence[Sequence[int]], target: int = 100, size: tuple[int, int] = HEARTS_SIZE
) -> LineLayout:
    """The scales :func:`hearts_totals_chart` uses: hands 0..n across, totals up."""
    totals = _running(per_hand)
    ys = [v for row in totals for v in row]
    return _line_layout(
        list(range(len(totals))), ys, size, x_pad=1, y_extra=[0, target], legend_width=LEGEND_WIDTH
    )


def _running(per_hand: Sequence[Sequence[int]]) -> list[list[int]]:
    """Totals after each hand, starting from zeros: one row per hand, one column per seat."""
    rows = [[0] * (len(per_hand[0]) if per_hand else 4)]
    for scores in per_hand:
        rows.append([a + b for a, b in zip(rows[-1], scores, strict=True)])
    return rows


def hearts_totals_chart(
    per_hand: Sequence[Sequence[int]],
    names: Sequence[str],
    target: int = 100,
) -> Picture:
    """A Hearts game's running totals hand by hand, a line a player; the target dashed."""
    canvas = _Canvas(*HEARTS_SIZE)
    canvas.text((20, 16), "Hearts · running totals", 20, INK)
    totals = _running(per_hand)
    layout = hearts_layout(per_hand, target)
    hands = len(totals) - 1
    every = max(1, math.ceil(hands / 12))
    _draw_axes(canvas, layout, [(h, str(h)) for h in range(0, hands + 1, every)])
    canvas.text((layout.box[0] - 8, layout.box[3] + 8), "hand", 12, MUTED, "ra")
    left, top, right, _ = layout.box
    canvas.dashed(layout.y.px(target), left, right, (214, 40, 52))
    canvas.text((right - 4, layout.y.px(target) - 4), f"{target}", 12, (230, 120, 120), "rb")
    final = totals[-1]
    best = min(final)
    legend = []
    for seat, name in enumerate(names):
        colour = SERIES[seat % len(SERIES)]
        xy = [(layout.x.px(h), layout.y.px(row[seat])) for h, row in enumerate(totals)]
        canvas.line(xy, colour, 2.5)
        for x, y in xy[1:]:
            canvas.dot(x, y, colour, 4)
        won = " · wins" if final[seat] == best and max(final) >= target else ""
        legend.append((_fit(canvas, name, 14, LEGEND_WIDTH - 30), f"{final[seat]}{won}", colour))
    _legend(canvas, legend, right + 16, top)
    return to_picture(
        canvas.done(), "hearts-totals.png", describe_hearts_totals(per_hand, names, target)
    )


def describe_hearts_totals(
    per_hand: Sequence[Sequence[int]], names: Sequence[str], target: int = 100
) -> str:
    totals = _running(per_hand)
    final = totals[-1]
    best = min(final)
    if not per_hand:
        return "Hearts running totals: no hands played yet."
    lines = [f"Hearts running totals over {len(per_hand)} hands (the game ends at {target})."]
    for seat, name in enumerate(names):
        path = ", ".join(str(row[seat]) for row in totals[1:])
        lines.append(f"{name}: {path}.")
    winners = [names[s] for s in range(len(names)) if final[s] == best]
    over = max(final) >= target
    lines.append(f"{'Winner' if over else 'Lowest total'}: {' and '.join(winners)} with {best}.")
    return " ".join(lines)
