"""Games played and won, a bar a game, and ``/stats``: the rating chart above the games."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from i18n import _p, render, sentences
from i18n.messages import Text
from render.base import GOLD, INK, MUTED, Picture, to_picture
from render.charts.layout import (
    GRID,
    NAME,
    PAD,
    SERIES,
    TEXT,
    TITLE,
    TITLE_LINE,
    WIDTH,
    Canvas,
    below_title,
    draw_title,
    title_lines,
    width_of,
)
from render.charts.rating import (
    RATING_TITLE,
    RatingSeries,
    describe_ratings,
    draw_rating,
    has_ratings,
    rating_height,
)
from render.charts.scales import Scale

GamesRows = Sequence[tuple[Text, int, int]]  # game (a name or its message), played, won
GAME_ROW = 30
GAMES_TITLE = _p("games chart", "Games played and won")
PLAYED, WON = SERIES[1], GOLD


def has_games(rows: GamesRows) -> bool:
    """Whether ``rows`` hold a finished game to chart (if not, say "no finished games yet")."""
    return any(played for _, played, _ in rows)


@dataclass(frozen=True, slots=True)
class _Head:
    """The games chart's title and its legend ("played", "won"): the title beside the legend
    where it fits, else whole on its own lines above it."""

    lines: tuple[str, ...]
    played: str
    won: str
    legend_x: float  # where the legend starts
    legend_y: float  # the middle of the legend's line
    extra: int  # how much further down than a title beside the legend the bars start


def _head(title: str, lang: str) -> _Head:
    played = render(_p("games chart", "played"), lang)
    won = render(_p("games chart", "won"), lang)
    legend_x = WIDTH - PAD - width_of(won) - 16 - width_of(played) - 32
    if width_of(title, TITLE) <= legend_x - 2 * PAD:
        return _Head((title,), played, won, legend_x, 22, 0)
    lines = tuple(title_lines(title))
    extra = below_title(lines) + TITLE_LINE
    return _Head(lines, played, won, legend_x, 22 + extra, extra)


def _games_height(rows: GamesRows, head: _Head) -> int:
    return 52 + GAME_ROW * max(1, len(rows)) + 6 + head.extra


def _draw_games(
    canvas: Canvas, rows: GamesRows, head: _Head, dy: int = 0, lang: str = "en"
) -> None:
    draw_title(canvas, head.lines, dy)
    x, y = head.legend_x, dy + head.legend_y
    canvas.dot(x + 6, y, PLAYED, 5)
    canvas.text((x + 16, y), head.played, TEXT, MUTED, "lm")
    won_x = x + 16 + canvas.text_width(head.played) + 16
    canvas.dot(won_x + 6, y, WON, 5)
    canvas.text((won_x + 16, y), head.won, TEXT, MUTED, "lm")
    top = dy + 48 + head.extra  # the first bar
    if not rows:
        none = render(_p("games chart", "No finished games yet"), lang)
        canvas.text(
            (WIDTH / 2, top + 19), canvas.fit(none, NAME, WIDTH - 2 * PAD), NAME, MUTED, "mm"
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
        y = top + GAME_ROW * i
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
    head = _head(render(title, lang), lang)
    canvas = Canvas(WIDTH, _games_height(rows, head))
    _draw_games(canvas, rows, head, lang=lang)
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
        head = _head(render(_p("stats chart", "{name} · games", name=name), lang), lang)
        canvas = Canvas(WIDTH, _games_height(games, head))
        _draw_games(canvas, games, head, lang=lang)
        return to_picture(canvas.done(), "stats.png", text)
    top = rating_height(ratings)
    head = _head(render(GAMES_TITLE, lang), lang)
    canvas = Canvas(WIDTH, top + _games_height(games, head))
    heading = render(rating_title, lang)
    title = render(_p("stats chart", "{name} · {title}", name=name, title=heading), lang)
    draw_rating(canvas, ratings, title, lang=lang)
    canvas.line([(PAD, top - 4), (WIDTH - PAD, top - 4)], GRID)
    _draw_games(canvas, games, head, dy=top, lang=lang)
    return to_picture(canvas.done(), "stats.png", text)
