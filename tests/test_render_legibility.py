"""Every picture is legible on a phone, and no text in it collides or runs off.

Each renderer draws its text through ``render.base.draw_text`` (or notes the box of text drawn
into a sprite, like a card's index or a square number), so ``text_boxes()`` records every text
as drawn: its box, its font size and the area it must stay in. For every kind of picture
(boards in every kind of state, every frame of the replays, the charts), with long names and
long results, the tests check:

- size: each text is at least 11 px as a phone shows the picture (``PHONE_WIDTH`` wide at
  most, a narrower picture at its own width);
- room: each text lies inside the picture and inside its own area;
- overlap: no two texts overlap.
"""

from __future__ import annotations

import importlib
import inspect
import io
import itertools
import pkgutil
import random
from collections.abc import Callable, Sequence

import pytest
from PIL import Image, ImageDraw

import render
from bot.tables.wording import GAME_NAMES
from games.cards import Card
from games.checkers import State as Checkers
from games.hearts import State as Hearts
from games.kabu import State as Kabu
from games.quarters import State as Quarters
from games.quatorze import State as Quatorze
from i18n import ENGLISH, LANGUAGES
from render.animation import Reel
from render.base import (
    MIN_PHONE_TEXT,
    PHONE_WIDTH,
    Picture,
    TextBox,
    draw_text,
    shown_size,
    text_boxes,
)
from render.charts import (
    games_chart,
    hearts_totals_chart,
    rating_chart,
    scoreboard_chart,
    stats_chart,
)
from render.checkers import render_checkers
from render.hearts import render_hearts_hand, render_hearts_table
from render.hearts_replay import hearts_hand_reel
from render.kabu import render_kabu
from render.quarters import render_quarters
from render.quatorze import render_quatorze
from render.replay import checkers_reel, quarters_reel
from render.samples import sample_checkers_moves, sample_hearts

# Discord display names are at most 32 characters: a long real one and the widest possible.
LONG = "Bartholomew Fitzgerald-Worthing"
WIDE = "W" * 32
COMPUTER = "Computer (expert)"
HEARTS_NAMES = {0: LONG, 1: WIDE, 2: COMPUTER, 3: "dave"}
KABU_NAMES = {0: WIDE, 1: LONG, 2: "carol"}
DAY = 86400.0

Draw = Callable[[], Image.Image]


def _image(picture: Picture) -> Image.Image:
    return Image.open(io.BytesIO(picture.png))


def _picture(make: Callable[[], Picture]) -> Draw:
    return lambda: _image(make())


# -- boards ------------------------------------------------------------------------------------


def _quarters(lang: str = "en") -> dict[str, Draw]:
    start = Quarters.new((3, 5, 7))
    widest = Quarters.new((9, 9, 9, 9, 9))
    moved = Quarters.new((3, 5, 7))
    moved.apply(0, "3-2")
    over = Quarters.new((1, 1))
    over.apply(0, "1-1")
    return {
        "start": _picture(
            lambda: render_quarters(start.view(None), names=(WIDE, COMPUTER), lang=lang)
        ),
        "widest": _picture(
            lambda: render_quarters(widest.view(None), selected={(5, 8), (5, 9)}, lang=lang)
        ),
        "moved": _picture(lambda: render_quarters(moved.view(1), selected={(2, 1)}, lang=lang)),
        "over": _picture(lambda: render_quarters(over.view(None), lang=lang)),
    }


def _checkers(lang: str = "en") -> dict[str, Draw]:
    start = Checkers.new()
    capture = Checkers.new("B:W14,23,K30,20:B9,K1,5,6")
    capture.apply(0, "9x18x27")
    offer = Checkers.new()
    for move in ("11-15", "23-19", "8-11", "22-17", "9-13", "17-14", "10x17", "21x14"):
        offer.apply(offer.to_act()[0], move)
    offer.apply(offer.to_act()[0], "offer-draw")
    won = Checkers.new("W:W5:B1")
    agreed = Checkers.new()
    agreed.apply(0, "offer-draw")
    agreed.apply(0, "11-15")
    agreed.apply(1, "accept-draw")
    long_game = Checkers.new()
    for move in sample_checkers_moves(60, seed=4):
        long_game.apply(long_game.to_act()[0], move)
    return {
        "start": _picture(lambda: render_checkers(start.view(None), lang=lang)),
        "capture-flipped": _picture(lambda: render_checkers(capture.view(1), flip=True, lang=lang)),
        "draw-offer": _picture(lambda: render_checkers(offer.view(None), lang=lang)),
        "won": _picture(lambda: render_checkers(won.view(None), lang=lang)),
        "draw": _picture(lambda: render_checkers(agreed.view(None), lang=lang)),
        "long-game": _picture(lambda: render_checkers(long_game.view(None), lang=lang)),
    }


def _kabu(lang: str = "en") -> dict[str, Draw]:
    pick = Kabu.new(players=3, seed=5)
    draw = Kabu.new(players=3, seed=5)
    for seat, action in ((0, "pick-1"), (1, "pick-3"), (2, "pick-5")):
        draw.apply(seat, action)
    done = Kabu.from_dict(draw.to_dict())
    while done.to_act():
        seat = done.to_act()[0]
        done.apply(
            seat, "draw" if "draw" in done.legal_actions(seat) else done.legal_actions(seat)[0]
        )
    full = Kabu.new(players=5, seed=11)
    for seat in range(5):
        full.apply(seat, f"pick-{seat + 1}")
    five = {seat: name for seat, name in enumerate((WIDE, LONG, COMPUTER, "dave", "Eve"))}
    return {
        "pick": _picture(lambda: render_kabu(pick.view(None), KABU_NAMES, lang)),
        "draw": _picture(lambda: render_kabu(draw.view(0), KABU_NAMES, lang)),
        "done": _picture(lambda: render_kabu(done.view(None), KABU_NAMES, lang)),
        "five": _picture(lambda: render_kabu(full.view(None), five, lang)),
        "seats": _picture(lambda: render_kabu(full.view(None), {}, lang)),
    }


def _quatorze(lang: str = "en") -> dict[str, Draw]:
    playing = Quatorze.new(seed=5)
    pair = tuple(playing.view(0)["pairs"][0])
    over = Quatorze.new(seed=5)
    while not over.is_over():
        over.apply(0, over.legal_actions(0)[0])
    gave_up = Quatorze.new(seed=7)
    gave_up.apply(0, "give-up")
    won = Quatorze.from_dict({**playing.to_dict(), "status": "won"})
    return {
        "playing": _picture(lambda: render_quatorze(playing.view(0), lang=lang)),
        "selected": _picture(lambda: render_quatorze(playing.view(0), selected=pair, lang=lang)),
        "over": _picture(lambda: render_quatorze(over.view(0), lang=lang)),
        "gave-up": _picture(lambda: render_quatorze(gave_up.view(0), lang=lang)),
        "won": _picture(lambda: render_quatorze(won.view(0), lang=lang)),
    }


def _hearts(lang: str = "en") -> dict[str, Draw]:
    passing = Hearts.new(seed=3)
    passing.apply(1, passing.legal_actions(1)[0])
    playing = Hearts.new(seed=21)
    for seat in range(4):
        playing.apply(seat, playing.legal_actions(seat)[0])
    for _ in range(6):
        playing.apply(playing.turn, playing.legal_actions(playing.turn)[0])
    over = Hearts.from_dict(
        {**playing.to_dict(), "phase": "game-over", "turn": None, "totals": [101, 40, 40, 60]}
    )
    codes = ["2C", "9C", "TC", "KC", "4D", "8D", "JD", "QS", "AS", "3H", "7H", "TH", "AH"]
    hand = [Card.parse(t) for t in codes]
    pictures = {
        "hand-full": lambda: render_hearts_hand(hand, legal=hand[:4], lang=lang),
        "hand-pass": lambda: render_hearts_hand(hand, selected=hand[7:10], lang=lang),
        "hand-one": lambda: render_hearts_hand(hand[-1:], legal=None, lang=lang),
    }
    for bottom in range(4):  # each seat's name, dealer button and cards at every place
        pictures[f"table-pass-{bottom}"] = lambda b=bottom: render_hearts_table(
            passing.view(None), HEARTS_NAMES, bottom=b, lang=lang
        )
        pictures[f"table-play-{bottom}"] = lambda b=bottom: render_hearts_table(
            playing.view(None), HEARTS_NAMES, bottom=b, lang=lang
        )
    pictures["table-over"] = lambda: render_hearts_table(
        over.view(None), HEARTS_NAMES, bottom=2, lang=lang
    )
    pictures["table-seats"] = lambda: render_hearts_table(playing.view(None), {}, lang=lang)
    return {name: _picture(make) for name, make in pictures.items()}


# -- charts ------------------------------------------------------------------------------------


def _series() -> dict[str, list[tuple[float, float]]]:
    rng = random.Random(1)
    series: dict[str, list[tuple[float, float]]] = {}
    for server, games in (("Parlour HQ", 30), (WIDE, 9), ("Other server 1", 1)):
        rating, points = 1200.0, []
        for i in range(games):
            rating += rng.uniform(-16, 18)
            points.append((1.767e9 + i * DAY * (60 / games), rating))
        series[server] = points
    return series


ROWS = [("Quarters", 12, 7), ("Checkers", 390, 210), ("Kabu", 5, 1), ("Quatorze", 9, 2)]
ROWS += [("Hearts", 4, 1)]


def _charts() -> dict[str, Draw]:
    series, rows = _series(), ROWS
    names = [LONG, WIDE, COMPUTER, "dave"]
    per_hand = [[26, 0, 0, 0], [0, 13, 13, 0], [5, 20, 1, 0], [0, 0, 0, 26]] * 5
    board = [(name, 1290 - 11.5 * i) for i, name in enumerate([WIDE, LONG, *"CDEFGHIJK"])]
    return {
        "stats": _picture(lambda: stats_chart(WIDE, series, rows)),
        "stats-unrated": _picture(lambda: stats_chart(LONG, {}, rows[:2])),
        "stats-empty": _picture(lambda: stats_chart(LONG, {}, [])),
        "rating": _picture(lambda: rating_chart(series, f"{WIDE} · checkers rating")),
        "rating-one-game": _picture(lambda: rating_chart({"HQ": [(1.767e9, 1216.0)]})),
        "games": _picture(lambda: games_chart(rows)),
        "scoreboard-rating": _picture(
            lambda: scoreboard_chart(f"{WIDE} scoreboard", board, "rating")
        ),
        "scoreboard-wins": _picture(
            lambda: scoreboard_chart("Quarters", [(LONG, 12345.0), ("Ann", 3.0)], "wins")
        ),
        "scoreboard-empty": _picture(lambda: scoreboard_chart("Kabu scoreboard", [], "wins")),
        "hearts-totals": _picture(lambda: hearts_totals_chart(per_hand, names)),
        "hearts-totals-one-hand": _picture(lambda: hearts_totals_chart(per_hand[:1], names)),
    }


def _translated_charts(lang: str = "en") -> dict[str, Draw]:
    """Every chart, its words and dates in the language ``lang`` (the game names are the
    messages /stats gives, so they are translated too; the rating chart spans hours, days and
    months, so each kind of date label is drawn)."""
    series, names = _series(), [LONG, WIDE, COMPUTER, "dave"]
    rows = [(GAME_NAMES.get(game, game), played, won) for game, played, won in ROWS]
    hours = {"HQ": [(1.767e9 + i * 5400.0, 1200.0 + 7 * i) for i in range(6)]}
    months = {"HQ": [(1.767e9 + i * 40 * DAY, 1200.0 - 9.5 * i) for i in range(9)]}
    per_hand = [[26, 0, 0, 0], [0, 13, 13, 0], [5, 20, 1, 0], [0, 0, 0, 26]] * 5
    board = [(name, 1290 - 11.5 * i) for i, name in enumerate([WIDE, LONG, *"CDEFGHIJK"])]
    return {
        "stats": _picture(lambda: stats_chart(WIDE, series, rows, lang=lang)),
        "stats-unrated": _picture(lambda: stats_chart(LONG, {}, rows[:2], lang=lang)),
        "stats-empty": _picture(lambda: stats_chart(LONG, {}, [], lang=lang)),
        "rating-hours": _picture(lambda: rating_chart(hours, lang=lang)),
        "rating-months": _picture(lambda: rating_chart(months, lang=lang)),
        "rating-one-game": _picture(lambda: rating_chart({"HQ": [(1.767e9, 1216.0)]}, lang=lang)),
        "rating-none": _picture(lambda: rating_chart({}, lang=lang)),
        "games": _picture(lambda: games_chart(rows, lang=lang)),
        "scoreboard-rating": _picture(
            lambda: scoreboard_chart(f"{WIDE} scoreboard", board, "rating", lang=lang)
        ),
        "scoreboard-wins": _picture(
            lambda: scoreboard_chart("Quarters", [(LONG, 12345.0), ("Ann", 3.0)], "wins", lang=lang)
        ),
        "scoreboard-empty": _picture(lambda: scoreboard_chart("Kabu", [], "wins", lang=lang)),
        "hearts-totals": _picture(lambda: hearts_totals_chart(per_hand, names, lang=lang)),
        "hearts-totals-one-hand": _picture(
            lambda: hearts_totals_chart(per_hand[:1], names, lang=lang)
        ),
    }


# -- replays: every frame ----------------------------------------------------------------------


def _frames(reel: Reel) -> dict[str, Draw]:
    return {f"frame-{i}": (lambda i=i: reel.draw(i)) for i in range(len(reel.durations))}


def _replays() -> dict[str, Draw]:
    resigned = {"winners": [0], "termination": "resign"}
    checkers = checkers_reel(sample_checkers_moves(12), names=(WIDE, LONG), outcome=resigned)
    drawn = checkers_reel(
        ["11-15"], names=(COMPUTER, LONG), outcome={"winners": [], "termination": "forty-moves"}
    )
    quarters = quarters_reel([9, 9, 9, 9, 9], ["5-9", "4-1", "1-9"], names=(WIDE, LONG))
    short = quarters_reel([3, 4], ["1-3", "2-3"], names=(LONG, WIDE))
    hearts = hearts_hand_reel(sample_hearts(), 2, [WIDE, LONG, COMPUTER, "dave"], bottom=1)
    cases: dict[str, Draw] = {}
    for name, reel in (
        ("checkers", checkers),
        ("checkers-drawn", drawn),
        ("quarters", quarters),
        ("quarters-short", short),
        ("hearts", hearts),
    ):
        cases |= {f"{name}:{frame}": draw for frame, draw in _frames(reel).items()}
    return cases


def _translated_replays(lang: str = "en") -> dict[str, Draw]:
    """Small replays in the language ``lang``: every frame of a short checkers game with a
    capture and a resignation, and of a short Quarters game with long names; a Hearts round's
    pass, a trick taken with points, and its scores."""
    resigned = {"winners": [1], "termination": "resign"}
    checkers = checkers_reel(
        ["11-15", "22-18", "15x22", "25x18"], names=(WIDE, LONG), outcome=resigned, lang=lang
    )
    quarters = quarters_reel([3, 4], ["1-3", "2-3"], names=(LONG, WIDE), lang=lang)
    hearts = hearts_hand_reel(
        sample_hearts(), 2, [WIDE, LONG, COMPUTER, "dave"], bottom=1, lang=lang
    )
    last = len(hearts.durations) - 1
    cases = {f"checkers:{frame}": draw for frame, draw in _frames(checkers).items()}
    cases |= {f"quarters:{frame}": draw for frame, draw in _frames(quarters).items()}
    return cases | {f"hearts:frame-{i}": (lambda i=i: hearts.draw(i)) for i in (0, 5, last)}


GROUPS = {
    "quarters": _quarters,
    "checkers": _checkers,
    "kabu": _kabu,
    "quatorze": _quatorze,
    "hearts": _hearts,
    "chart": _charts,
    "replay": _replays,
}
# The pictures whose words are translated so far, drawn in every other language too.
IN_EVERY_LANGUAGE = {
    "quarters": _quarters,
    "checkers": _checkers,
    "kabu": _kabu,
    "quatorze": _quatorze,
    "hearts": _hearts,
    "chart": _translated_charts,
    "replay": _translated_replays,
}
CASES: dict[str, Draw] = {
    f"{group}:{kind}": draw for group, make in GROUPS.items() for kind, draw in make().items()
} | {
    f"{group}@{language.code}:{kind}": draw
    for group, make in IN_EVERY_LANGUAGE.items()
    for language in LANGUAGES
    if language is not ENGLISH
    for kind, draw in make(language.code).items()
}


def measure(draw: Draw) -> tuple[Image.Image, list[TextBox]]:
    """Draw, and return the picture and every text box it drew."""
    with text_boxes() as boxes:
        image = draw()
    return image, boxes


def _inside(box: Sequence[float], area: Sequence[float], slack: float = 0.5) -> bool:
    return (
        box[0] >= area[0] - slack
        and box[1] >= area[1] - slack
        and box[2] <= area[2] + slack
        and box[3] <= area[3] + slack
    )


def _overlap(a: Sequence[float], b: Sequence[float]) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and min(a[3], b[3]) - max(a[1], b[1]) > 0.5


def problems(image: Image.Image, boxes: Sequence[TextBox]) -> list[str]:
    """What is wrong with the texts of ``image``: too small, out of place, overlapping."""
    width, height = image.size
    found = []
    drawn = [b for b in boxes if b.box[2] > b.box[0] and b.box[3] > b.box[1]]
    for text in drawn:
        shown = shown_size(text.size, width)
        if shown < MIN_PHONE_TEXT - 1e-6:
            found.append(f"{text.text!r} is {shown:.1f} px on a phone ({text.size:g} px)")
        if not _inside(text.box, (0, 0, width, height)):
            found.append(f"{text.text!r} {text.box} leaves the {width}x{height} picture")
        elif text.within is not None and not _inside(text.box, text.within):
            found.append(f"{text.text!r} {text.box} leaves its area {text.within}")
    for a, b in itertools.combinations(drawn, 2):
        if _overlap(a.box, b.box):
            found.append(f"{a.text!r} {a.box} overlaps {b.text!r} {b.box}")
    return found


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_text_is_legible_on_a_phone_in_its_place_and_clear_of_the_others(
    case: str,
) -> None:
    image, boxes = measure(CASES[case])
    assert boxes, f"{case} drew no text through render.base"
    assert problems(image, boxes) == [], case


def test_every_picture_function_is_covered() -> None:
    """A new ``render_*``, ``replay_*``/``*_reel`` or ``*_chart`` function must join the cases."""
    covered = {
        "render_quarters", "render_checkers", "render_kabu", "render_quatorze",
        "render_hearts_table", "render_hearts_hand", "checkers_reel", "quarters_reel",
        "hearts_hand_reel", "stats_chart", "rating_chart", "games_chart", "scoreboard_chart",
        "hearts_totals_chart",
        # these encode the reels above; replay_checkers_pdn reads a record into checkers_reel
        "replay_checkers", "replay_quarters", "replay_hearts_hand", "replay_checkers_pdn",
    }  # fmt: skip
    found = set()
    for module in pkgutil.walk_packages(render.__path__, "render."):
        mod = importlib.import_module(module.name)
        found |= {
            name
            for name, f in inspect.getmembers(mod, inspect.isfunction)
            if f.__module__ == mod.__name__
            and (name.startswith(("render_", "replay_")) or name.endswith(("_reel", "_chart")))
        }
    assert found == covered


def test_the_measure_sees_small_text_overlaps_and_text_running_off() -> None:
    """The checks are real: each fault below is found."""

    def faulty() -> Image.Image:
        image = Image.new("RGB", (800, 100))
        draw = ImageDraw.Draw(image)
        draw_text(draw, (4, 4), "small", 20)  # 8.2 px on a phone
        draw_text(draw, (10, 0), "over", 30)
        draw_text(draw, (780, 50), "off the edge", 30)
        draw_text(draw, (300, 50), "outside its area", 30, within=(300, 50, 340, 90))
        return image

    image, boxes = measure(faulty)
    found = problems(image, boxes)
    assert any("'small' is 8.2 px" in line for line in found)
    assert any("'small'" in line and "overlaps 'over'" in line for line in found)
    assert any("'off the edge'" in line and "leaves the 800x100" in line for line in found)
    assert any("'outside its area'" in line and "leaves its area" in line for line in found)
    assert shown_size(12, 300) == 12 and shown_size(22, 2 * PHONE_WIDTH) == 11  # not enlarged
