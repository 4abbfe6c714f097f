"""Every picture is legible on a phone: shown 400 px wide, no text is smaller than 11 px.

Each renderer draws its text through ``render.base.font`` (or notes the size of text drawn into
a supersampled sprite, like a card's index), so ``text_sizes()`` collects every font size a
picture uses; with the picture's width that gives the size a phone shows. Every renderer is
covered in every kind of state its game has.
"""

from __future__ import annotations

import importlib
import inspect
import io
import pkgutil
from collections.abc import Callable

import pytest
from PIL import Image

import render
from games.cards import Card
from games.checkers import State as Checkers
from games.hearts import State as Hearts
from games.kabu import State as Kabu
from games.quarters import State as Quarters
from games.quatorze import State as Quatorze
from render.base import MIN_PHONE_TEXT, PHONE_WIDTH, Picture, phone_text_size, text_sizes
from render.checkers import render_checkers
from render.hearts import render_hearts_hand, render_hearts_table
from render.kabu import render_kabu
from render.quarters import render_quarters
from render.quatorze import render_quatorze

LONG = "Bartholomew-the-Magnificent"  # a name longer than any seat label has room for
HEARTS_NAMES = {0: "alice", 1: LONG, 2: "Computer (expert)", 3: "dave"}
KABU_NAMES = {0: "alice", 1: LONG, 2: "carol"}


def _quarters() -> dict[str, Callable[[], Picture]]:
    start = Quarters.new((3, 5, 7))
    widest = Quarters.new((9, 9, 9, 9, 9))
    moved = Quarters.new((3, 5, 7))
    moved.apply(0, "3-2")
    over = Quarters.new((1, 1))
    over.apply(0, "1-1")
    return {
        "start": lambda: render_quarters(start.view(None), names=("alice", "Computer")),
        "widest": lambda: render_quarters(widest.view(None), selected={(5, 8), (5, 9)}),
        "moved": lambda: render_quarters(moved.view(1), selected={(2, 1)}),
        "over": lambda: render_quarters(over.view(None)),
    }


def _checkers() -> dict[str, Callable[[], Picture]]:
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
    return {
        "start": lambda: render_checkers(start.view(None)),
        "capture-flipped": lambda: render_checkers(capture.view(1), flip=True),
        "draw-offer": lambda: render_checkers(offer.view(None)),
        "won": lambda: render_checkers(won.view(None)),
        "draw": lambda: render_checkers(agreed.view(None)),
    }


def _kabu() -> dict[str, Callable[[], Picture]]:
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
    return {
        "pick": lambda: render_kabu(pick.view(None), KABU_NAMES),
        "draw": lambda: render_kabu(draw.view(0), KABU_NAMES),
        "done": lambda: render_kabu(done.view(None), KABU_NAMES),
    }


def _quatorze() -> dict[str, Callable[[], Picture]]:
    playing = Quatorze.new(seed=5)
    pair = tuple(playing.view(0)["pairs"][0])
    over = Quatorze.new(seed=5)
    while not over.is_over():
        over.apply(0, over.legal_actions(0)[0])
    gave_up = Quatorze.new(seed=7)
    gave_up.apply(0, "give-up")
    won = Quatorze.from_dict({**playing.to_dict(), "status": "won"})
    return {
        "playing": lambda: render_quatorze(playing.view(0)),
        "selected": lambda: render_quatorze(playing.view(0), selected=pair),
        "over": lambda: render_quatorze(over.view(0)),
        "gave-up": lambda: render_quatorze(gave_up.view(0)),
        "won": lambda: render_quatorze(won.view(0)),
    }


def _hearts() -> dict[str, Callable[[], Picture]]:
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
    return {
        "table-pass": lambda: render_hearts_table(passing.view(None), HEARTS_NAMES, bottom=1),
        "table-play": lambda: render_hearts_table(playing.view(None), HEARTS_NAMES),
        "table-over": lambda: render_hearts_table(over.view(None), HEARTS_NAMES, bottom=2),
        "hand-full": lambda: render_hearts_hand(hand, legal=hand[:4]),
        "hand-pass": lambda: render_hearts_hand(hand, selected=hand[7:10]),
        "hand-one": lambda: render_hearts_hand(hand[-1:], legal=None),
    }


CASES: dict[str, Callable[[], Picture]] = {
    f"{game}:{kind}": make
    for game, cases in (
        ("quarters", _quarters()),
        ("checkers", _checkers()),
        ("kabu", _kabu()),
        ("quatorze", _quatorze()),
        ("hearts", _hearts()),
    )
    for kind, make in cases.items()
}
RENDERERS = {
    render_quarters,
    render_checkers,
    render_kabu,
    render_quatorze,
    render_hearts_table,
    render_hearts_hand,
}


def measure(make: Callable[[], Picture]) -> tuple[Picture, int, list[float]]:
    """Render, and return the picture, its width and every font size it drew."""
    with text_sizes() as sizes:
        picture = make()
    return picture, Image.open(io.BytesIO(picture.png)).width, sizes


@pytest.mark.parametrize("case", sorted(CASES))
def test_no_text_is_smaller_than_11px_on_a_400px_wide_phone(case: str) -> None:
    picture, width, sizes = measure(CASES[case])
    assert sizes, f"{case} drew no text through render.base.font"
    smallest = phone_text_size(min(sizes), width)
    assert smallest >= MIN_PHONE_TEXT, (
        f"{case}: {min(sizes)} px text in a {width} px image is {smallest:.1f} px "
        f"at {PHONE_WIDTH} px wide"
    )
    assert picture.description and len(picture.png) < 1_000_000


def test_every_renderer_is_covered() -> None:
    """A new ``render_*`` function must join the cases above."""
    found = set()
    for module in pkgutil.iter_modules(render.__path__):
        mod = importlib.import_module(f"render.{module.name}")
        found |= {
            f
            for name, f in inspect.getmembers(mod, inspect.isfunction)
            if name.startswith("render_") and f.__module__ == mod.__name__
        }
    assert found == RENDERERS


def test_the_measure_sees_text_drawn_small() -> None:
    """The measure is real: a tiny font in a wide image fails it."""
    from PIL import ImageDraw

    from render.base import font, to_picture

    def tiny() -> Picture:
        image = Image.new("RGB", (800, 100))
        ImageDraw.Draw(image).text((4, 4), "x", font=font(12))
        return to_picture(image, "x.png", "x")

    _, width, sizes = measure(tiny)
    assert phone_text_size(min(sizes), width) == 6
    assert phone_text_size(12, 300) == 12  # a narrow image is not enlarged
