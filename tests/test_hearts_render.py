"""Hearts pictures: legible sizes, alt text, and never a hand on the table."""

from __future__ import annotations

import io

from PIL import Image

from games.cards import Card
from games.hearts import State, choose
from render.hearts import render_hearts_hand, render_hearts_table

NAMES = {0: "Ann", 1: "Bob", 2: "Computer", 3: "Dee"}


def _midgame(plays: int) -> State:
    s = State.new(seed=21)
    for seat in range(4):
        s.apply(seat, choose(s, seat, "beginner", 0.01, seed=0))
    for _ in range(plays):
        s.apply(s.turn, choose(s, s.turn, "beginner", 0.01, seed=0))
    return s


def _size(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


def test_table_picture_is_a_small_png_with_alt_text() -> None:
    s = _midgame(6)
    pic = render_hearts_table(s.view(None), NAMES)
    assert pic.png.startswith(b"\x89PNG") and len(pic.png) < 1_000_000
    assert 440 <= _size(pic.png)[0] <= 520  # about a phone's width
    for name in NAMES.values():
        assert name in pic.description
    assert "On the table" in pic.description and "to play" in pic.description


def test_table_picture_never_shows_a_hand() -> None:
    s = _midgame(9)
    public = render_hearts_table(s.view(None), NAMES)
    for seat in range(4):
        assert render_hearts_table(s.view(seat), NAMES).png == public.png


def test_table_picture_in_every_phase() -> None:
    s = State.new(seed=2)
    assert "Choosing cards" in render_hearts_table(s.view(None), NAMES).description
    s.apply(1, s.legal_actions(1)[0])
    assert "Cards chosen." in render_hearts_table(s.view(None), NAMES, bottom=1).description
    d = _midgame(0).to_dict()
    d.update(phase="game-over", turn=None, totals=[101, 40, 40, 60])
    over = State.from_dict(d)
    assert (
        "Game over: Bob & Computer win" in render_hearts_table(over.view(None), NAMES).description
    )


def test_hand_picture_dims_unplayable_cards_and_raises_selected() -> None:
    hand = [Card.parse(t) for t in ["2C", "9C", "4D", "QS", "AS", "3H", "TH"]]
    pic = render_hearts_hand(hand, legal={hand[0], hand[1]}, selected=[hand[3]])
    assert 650 <= _size(pic.png)[0] <= 760 and len(pic.png) < 1_000_000
    assert "You may play: two of clubs and nine of clubs." in pic.description
    assert "Selected: queen of spades" in pic.description
    assert render_hearts_hand(hand, None).png != pic.png
