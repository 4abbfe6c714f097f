"""Charts: the plotted dots sit where the scale puts the numbers, the axis matches the scale,
and the alt text says the same numbers in words."""

from __future__ import annotations

import doctest
import importlib
import io
import itertools
from collections import deque
from collections.abc import Callable
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from bot.tables.wording import GAME_NAMES
from i18n import LANGUAGES
from render.base import Picture, text_boxes
from render.charts import (
    AXIS,
    GRID,
    WIDTH,
    games_chart,
    has_games,
    has_ratings,
    hearts_layout,
    hearts_totals_chart,
    nice_range,
    rating_chart,
    rating_layout,
    rating_series,
    scoreboard_chart,
    stats_chart,
    time_ticks,
)
from storage.models import PlaceKind, RatingPoint

DAY = 86400.0
T0 = 1_767_225_600.0  # 1 Jan 2026, 00:00 UTC
RATINGS = {
    "Parlour HQ": [(T0, 1216.0), (T0 + 3 * DAY, 1198.5), (T0 + 7 * DAY, 1230.0)],
    "Board gamers": [(T0 + 1 * DAY, 1184.0), (T0 + 5 * DAY, 1250.0)],
}


def _image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _bright_blobs(image: Image.Image, box: tuple[int, int, int, int]) -> list[tuple[float, float]]:
    """Centres of the groups of near-white pixels inside ``box`` (pixels up to 3 apart group
    together, so a dot's thin rim is one group): inside the plot only the dots' white rims are
    that bright, and the dots are further apart than that."""
    left, top, right, bottom = box
    pixels = image.load()
    bright = {
        (x, y) for x in range(left, right) for y in range(top, bottom) if min(pixels[x, y]) > 200
    }
    centres = []
    while bright:
        queue = deque([bright.pop()])
        blob = []
        while queue:
            x, y = queue.popleft()
            blob.append((x, y))
            for near in [(x + dx, y + dy) for dx in range(-3, 4) for dy in range(-3, 4)]:
                if near in bright:
                    bright.remove(near)
                    queue.append(near)
        centres.append((sum(p[0] for p in blob) / len(blob), sum(p[1] for p in blob) / len(blob)))
    return sorted(centres)


def _close(found: list[tuple[float, float]], expected: list[tuple[float, float]]) -> bool:
    """One found dot within a pixel and a half of each expected one (the dots are drawn at
    twice the size and scaled down, so a rim's centre moves by up to about a pixel)."""
    if len(found) != len(expected):
        return False
    left = list(found)
    for ex, ey in expected:
        near = min(left, key=lambda p: (p[0] - ex) ** 2 + (p[1] - ey) ** 2)
        if abs(near[0] - ex) > 1.5 or abs(near[1] - ey) > 1.5:
            return False
        left.remove(near)
    return True


def test_the_rating_scale_covers_the_ratings_and_runs_straight_along_the_axis() -> None:
    layout = rating_layout(RATINGS)
    left, top, right, bottom = layout.box
    ys = [r for points in RATINGS.values() for _, r in points]
    assert layout.y.lo <= min(ys) and layout.y.hi >= max(ys) and layout.y.lo <= 1200
    assert layout.y.px(layout.y_ticks[0]) == bottom and layout.y.px(layout.y_ticks[-1]) == top
    # equal rating steps are equal pixel steps, higher ratings higher up
    assert (
        abs((layout.y.px(1250) - layout.y.px(1200)) - (layout.y.px(1200) - layout.y.px(1150)))
        < 1e-9
    )
    assert layout.y.px(1250) < layout.y.px(1200)
    per_point = (layout.y.px(1200) - layout.y.px(1250)) / 50
    assert abs(layout.y.px(1216) - (layout.y.px(1200) - 16 * per_point)) < 1e-9
    # first and last game at the ends of the time axis (inside a small margin)
    assert left < layout.x.px(T0) < layout.x.px(T0 + 7 * DAY) < right


def test_a_rating_chart_draws_its_grid_lines_where_the_scale_puts_the_ticks() -> None:
    image = _image(rating_chart(RATINGS).png)
    layout = rating_layout(RATINGS)
    for tick in layout.y_ticks[1:-1]:
        y = round(layout.y.px(tick))
        row = [image.getpixel((x, yy)) for x in (layout.box[0] + 4,) for yy in (y - 1, y, y + 1)]
        # a grid line, or the dashed line of the starting rating drawn over it
        assert any(
            all(abs(a - b) <= 12 for a, b in zip(p, colour, strict=True))
            for p in row
            for colour in (GRID, AXIS)
        )


def test_a_rating_chart_has_its_dots_where_the_ratings_and_dates_say() -> None:
    layout = rating_layout(RATINGS)
    image = _image(rating_chart(RATINGS).png)
    expected = [(layout.x.px(t), layout.y.px(r)) for pts in RATINGS.values() for t, r in pts]
    found = _bright_blobs(image, layout.box)
    assert _close(found, expected), (found, sorted(expected))


def test_the_rating_alt_text_carries_the_numbers() -> None:
    text = rating_chart(RATINGS, "Ann's checkers rating").description
    assert text == (
        "Ann's checkers rating. Parlour HQ: 3 rated games from Jan 1, 2026 to Jan 8, 2026; "
        "after the first 1216, now 1230, highest 1230, lowest 1198.5. Board gamers: 2 rated "
        "games from Jan 2, 2026 to Jan 6, 2026; after the first 1184, now 1250, highest 1250, "
        "lowest 1184."
    )
    assert rating_chart({}).description == "Checkers rating: no rated games yet."


def test_hearts_running_totals_have_a_dot_a_player_a_hand_at_the_totals() -> None:
    per_hand = [[5, 20, 35, 50], [0, 0, 0, 26], [40, 0, 0, 0], [0, 0, 26, 0]]
    names = ["Ann", "Bob", "Cy", "Di"]
    picture = hearts_totals_chart(per_hand, names)
    layout = hearts_layout(per_hand)
    totals = [[5, 20, 35, 50], [5, 20, 35, 76], [45, 20, 35, 76], [45, 20, 61, 76]]
    expected = [
        (layout.x.px(h + 1), layout.y.px(row[s])) for h, row in enumerate(totals) for s in range(4)
    ]
    found = _bright_blobs(_image(picture.png), layout.box)
    assert _close(found, expected), (found, expected)
    assert picture.description == (
        "Hearts running totals over 4 hands (the game ends at 100). Ann's totals: 5, 5, 45, 45. "
        "Bob's totals: 20, 20, 20, 20. Cy's totals: 35, 35, 35, 61. "
        "Di's totals: 50, 76, 76, 76. Lowest total: Bob with 20."
    )


def test_the_scoreboard_chart_names_the_top_ten_in_order() -> None:
    rows = [(f"P{i}", 1300.0 - 10 * i) for i in range(12)]
    picture = scoreboard_chart("Checkers", rows, "rating")
    assert picture.description.startswith("Checkers, top 10 by rating: 1. P0 1300; 2. P1 1290;")
    assert picture.description.endswith("10. P9 1210.")
    assert (
        _image(picture.png).height
        < _image(scoreboard_chart("Checkers", rows[:3], "rating").png).height + 300
    )


def test_stats_puts_the_rating_and_the_games_in_one_picture() -> None:
    picture = stats_chart("Ann", RATINGS, [("Checkers", 5, 3), ("Hearts", 2, 0)])
    assert picture.description.startswith("Ann's record. Checkers rating. Parlour HQ: 3 rated")
    assert picture.description.endswith(
        "Games played and won: Checkers 5 played, 3 won; Hearts 2 played, 0 won."
    )
    assert _image(picture.png).width == WIDTH


def test_with_no_rated_game_stats_draws_no_empty_rating_chart_and_says_so() -> None:
    """``/stats`` of a member with no rated game: the caller learns there is nothing to chart
    (to say it in a sentence) and the picture holds only the games, no empty plot."""
    rows = [("Checkers", 5, 3), ("Hearts", 2, 0)]
    assert not has_ratings({}) and not has_ratings({"HQ": []}) and has_ratings(RATINGS)
    assert has_games(rows) and not has_games([]) and not has_games([("Kabu", 0, 0)])
    unrated = _image(stats_chart("Ann", {"HQ": []}, rows).png)
    assert unrated.size == _image(games_chart(rows).png).size
    assert unrated.height < _image(stats_chart("Ann", RATINGS, rows).png).height / 2
    assert "Checkers rating: no rated games yet." in stats_chart("Ann", {}, rows).description


def test_a_chart_with_nothing_to_chart_is_one_sentence_not_an_empty_plot() -> None:
    for picture in (rating_chart({}), scoreboard_chart("Kabu", [], "wins")):
        assert _image(picture.png).height < 60  # one line of text, no axes
    assert scoreboard_chart("Kabu", [], "wins").description.endswith("no games finished yet.")


@given(st.floats(-5000, 5000), st.floats(0, 3000))
def test_nice_ticks_cover_the_range_in_equal_round_steps(low: float, span: float) -> None:
    ticks = nice_range(low, low + span)
    assert ticks[0] <= low + 1e-6 and ticks[-1] >= low + span - 1e-6
    steps = {round(b - a, 6) for a, b in itertools.pairwise(ticks)}
    assert len(steps) == 1 and 2 <= len(ticks) <= 12


@given(st.floats(T0 - 400 * DAY, T0), st.floats(3600, 900 * DAY))
def test_time_ticks_are_in_order_inside_the_range(start: float, span: float) -> None:
    ticks = time_ticks(start, start + span)
    moments = [t for t, _ in ticks]
    assert moments == sorted(moments) and len(moments) <= 7
    assert all(start <= t <= start + span for t in moments)


@pytest.mark.parametrize("name", ["render.charts", "render.replay", "render.animation"])
def test_the_picture_modules_examples_hold(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and (result.attempted > 0 or name == "render.animation")


def test_rating_points_group_into_a_series_a_server() -> None:
    points = [
        SimpleNamespace(guild_id=1, finished_at=20.0, rating=1190.0),
        SimpleNamespace(guild_id=2, finished_at=10.0, rating=1216.0),
        SimpleNamespace(guild_id=1, finished_at=5.0, rating=1216.0),
    ]
    assert rating_series(points, {1: "HQ"}) == {
        "HQ": [(5.0, 1216.0), (20.0, 1190.0)],
        "Other server 1": [(10.0, 1216.0)],
    }


def test_a_rating_chart_names_no_other_server() -> None:
    """Servers other than the one asking are numbered, never named nor identified."""
    points = [
        SimpleNamespace(guild_id=900, finished_at=3.0, rating=1210.0),
        SimpleNamespace(guild_id=800, finished_at=1.0, rating=1200.0),
        SimpleNamespace(guild_id=900, finished_at=4.0, rating=1220.0),
    ]
    series = rating_series(points, {1: "HQ"})
    assert series == {
        "Other server 1": [(1.0, 1200.0)],
        "Other server 2": [(3.0, 1210.0), (4.0, 1220.0)],
    }
    assert not any("800" in name or "900" in name for name in series)


def test_a_group_chat_and_the_dms_with_parlour_are_called_what_they_are() -> None:
    """A place outside servers is never called a server, in the series and on the chart."""
    points = [
        RatingPoint(55, 1, 1.0, 1210.0, PlaceKind.CHAT),
        RatingPoint(77, 2, 2.0, 1190.0, PlaceKind.DM),
        RatingPoint(900, 3, 3.0, 1220.0, PlaceKind.SERVER),
        RatingPoint(66, 4, 4.0, 1230.0, PlaceKind.CHAT),
        RatingPoint(55, 5, 5.0, 1215.0, PlaceKind.CHAT),
    ]
    series = rating_series(points, {1: "HQ"})
    assert series == {
        "Group chat 1": [(1.0, 1210.0), (5.0, 1215.0)],
        "DMs with Parlour": [(2.0, 1190.0)],
        "Other server 1": [(3.0, 1220.0)],
        "Group chat 2": [(4.0, 1230.0)],
    }
    named = rating_series(points, {55: "This chat"})  # the asker's own place, by its id
    assert list(named) == ["This chat", "DMs with Parlour", "Other server 1", "Group chat 1"]
    assert list(rating_series(points[:2], lang="de")) == ["Gruppenchat 1", "DNs mit Parlour"]
    with text_boxes() as boxes:
        stats_chart("Ann", series, [("Checkers", 5, 3)])
    drawn = {box.text for box in boxes}
    assert {"Group chat 1", "Group chat 2", "DMs with Parlour", "Other server 1"} <= drawn


# -- titles whole, every text inside its picture, in every language ---------------------------

LONG = "Bartholomew Fitzgerald-Worthing"  # Discord names are at most 32 characters
WIDE = "W" * 32


def _every_chart(lang: str, name: str, other: str) -> dict[str, Callable[[], Picture]]:
    """Every kind of chart, its words in ``lang``: ``name`` is the member, one of the places and
    one of the players, ``other`` another player."""
    places = {"Parlour HQ": RATINGS["Parlour HQ"], name: RATINGS["Board gamers"]}
    games = [("Quarters", 12, 7), ("Checkers", 390, 210), ("Kabu", 5, 1), ("Hearts", 4, 1)]
    rows = [(GAME_NAMES.get(game, game), played, won) for game, played, won in games]
    board = [(name, 1290.0), (other, 1278.5), ("Cy", 1267.0)]
    per_hand = [[26, 0, 0, 0], [0, 13, 13, 0], [5, 20, 1, 0], [0, 0, 0, 26]] * 5
    players = [name, other, "Computer (expert)", "dave"]
    return {
        "stats": lambda: stats_chart(name, places, rows, lang=lang),
        "stats-unrated": lambda: stats_chart(name, {}, rows[:2], lang=lang),
        "stats-empty": lambda: stats_chart(name, {}, [], lang=lang),
        "rating": lambda: rating_chart(places, f"{name} · checkers rating", lang=lang),
        "rating-none": lambda: rating_chart({}, lang=lang),
        "games": lambda: games_chart(rows, lang=lang),
        "scoreboard-rating": lambda: scoreboard_chart(
            f"{name} scoreboard", board, "rating", lang=lang
        ),
        "scoreboard-wins": lambda: scoreboard_chart("Quarters", [(other, 12.0)], "wins", lang=lang),
        "scoreboard-empty": lambda: scoreboard_chart("Kabu", [], "wins", lang=lang),
        "hearts-totals": lambda: hearts_totals_chart(per_hand, players, lang=lang),
    }


TITLED = {"stats", "stats-unrated", "stats-empty", "rating", "scoreboard-rating"}  # by name


@pytest.mark.parametrize("lang", [language.code for language in LANGUAGES])
def test_no_chart_cuts_a_title_or_label_and_every_text_is_inside_the_picture(lang: str) -> None:
    """With ordinary names nothing is shortened; with the longest names a title still says the
    name whole, on more lines, and only a name in a column of names (a legend's, a bar's) is
    shortened: the alt text has it whole."""
    for name, other in (("Ann", "Bob"), (WIDE, LONG)):
        for kind, make in _every_chart(lang, name, other).items():
            with text_boxes() as boxes:
                width, height = _image(make().png).size
            texts = [box.text for box in boxes]
            outside = [
                box.text
                for box in boxes
                if min(box.box[0], box.box[1]) < -0.5
                or box.box[2] > width + 0.5
                or box.box[3] > height + 0.5
            ]
            assert not outside, (kind, outside)
            cut = [text for text in texts if "…" in text]
            assert name != "Ann" or not cut, (kind, cut)
            assert all(
                text.endswith("…") and (name.startswith(text[:-1]) or other.startswith(text[:-1]))
                for text in cut
            ), (kind, cut)
            if kind in TITLED:
                assert name.replace(" ", "") in "".join(texts).replace(" ", ""), (kind, texts)
