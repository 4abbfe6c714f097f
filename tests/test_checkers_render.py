"""The checkers board image: a PNG of the right size with alt text naming every piece."""

from __future__ import annotations

import io

from PIL import Image

from games.checkers import State
from render.checkers import describe, render_checkers


def test_the_start_position_renders_with_alt_text() -> None:
    picture = render_checkers(State.new().view(None))
    image = Image.open(io.BytesIO(picture.png))
    assert 480 <= image.width <= 560  # the board fills a phone-sized picture
    assert len(picture.png) < 1024 * 1024
    assert picture.description.startswith("Black to move.")
    assert "b: 1,2,3,4,5,6,7,8,9,10,11,12." in picture.description
    assert "r: 21,22,23,24,25,26,27,28,29,30,31,32." in picture.description


def test_the_last_capture_and_kings_are_described_and_drawn() -> None:
    state = State.new("B:W14,23,K30,20:B9,K1,5,6")
    state.apply(0, "9x18x27")
    view = state.view(1)
    text = describe(view)
    assert "B: 1." in text and "R: 30." in text and "Last move 9x18x27 (took 14,23)." in text
    plain = render_checkers(view)
    flipped = render_checkers(view, flip=True)
    assert plain.png != flipped.png
    assert plain.description == flipped.description


def test_a_finished_game_says_who_won() -> None:
    state = State.new("W:W5:B1")
    picture = render_checkers(state.view(None))
    assert picture.description.startswith("Black wins")
