"""Hearts pictures: the table seen from above (public), and one player's hand (private).

The table never shows a hand: only card backs, counts, the trick on the table and the scores.

>>> from games.hearts import State
>>> pic = render_hearts_table(State.new(seed=1).view(None), {0: "Ann", 1: "Bob", 2: "Cy", 3: "Di"})
>>> pic.filename, pic.png[:4] == b"\\x89PNG"
('hearts.png', True)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bench.perf.render_baseline.base import (
    BACKGROUND,
    FELT,
    FELT_DARK,
    GOLD,
    HIGHLIGHT,
    INK,
    MUTED,
    Picture,
    draw_text,
    fit_text,
    placed,
    text_width,
    to_picture,
)
from bench.perf.render_baseline.cards import (
    card_height,
    card_text,
    cards_text,
    draw_suit,
    hand_image,
    hand_size,
    place_card,
)
from games.cards import Card, Suit

WIDTH = 480  # a phone shows it about 330 px wide: every text is 17 px or more here
TOP = 44  # the band above the felt: hand number, passing, hearts broken
FELT_H = 372
ROW = 27  # one line of the score table under the felt
HEIGHT = TOP + FELT_H + 34 + 26 + 4 * ROW + 10
TRICK_CARD = 58
BACK_CARD = 30
LAST_CARD = 42
LAST_STEP = 24  # the last trick's cards overlap, each index in sight
HAND_CARD = 92
HAND_WIDTH = 720
HEART_RED = (214, 40, 52)
TEXT = SMALL = 17

_MID = TOP + FELT_H // 2
# Screen places (from the bottom, clockwise): where each seat's name and card backs go, and
# where its card in the trick lies.
_PANEL = ((240, TOP + FELT_H - 84), (76, _MID - 40), (240, TOP + 14), (404, _MID - 40))
_TRICK = ((240, _MID + 48), (180, _MID), (240, _MID - 48), (300, _MID))
_WHERE = ("south", "west", "north", "east")
_DIRECTION_WORDS = {
    "left": "pass to the left",
    "right": "pass to the right",
    "across": "pass across",
    "hold": "hold hand (no passing)",
}


def _card(text: str) -> Card:
    return Card.parse(text)


@lru_cache(maxsize=1)
def _felt() -> Image.Image:
    image = Image.new("RGBA", (WIDTH, HEIGHT), (*BACKGROUND, 255))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((4, TOP, WIDTH - 5, TOP + FELT_H), radius=36, fill=FELT_DARK)
    draw.rounded_rectangle((10, TOP + 6, WIDTH - 11, TOP + FELT_H - 6), radius=30, fill=FELT)
    draw.ellipse((150, _MID - 110, 330, _MID + 110), outline=FELT_DARK, width=3)
    return image


@lru_cache(maxsize=16)
def _backs(count: int) -> Image.Image:
    return hand_image([None] * count, BACK_CARD, overlap=0.72)


def _name(names: Mapping[int, str], seat: int) -> str:
    name = names.get(seat) or f"Seat {seat + 1}"
    return name if len(name) <= 24 else name[:23] + "…"


def _heart_badge(draw: ImageDraw.ImageDraw, xy: tuple[float, float], broken: bool) -> None:
    colour = HEART_RED if broken else (120, 140, 128)
    draw_suit(draw, Suit.HEARTS, xy, 18, fill=colour)
    if not broken:
        return
    x, y = xy
    draw.line((x - 2, y - 8, x + 2, y - 1, x - 2, y + 3, x + 1, y + 8), fill=FELT, width=2)


def render_hearts_table(
    view: Any, names: Mapping[int, str] | None = None, bottom: int = 0
) -> Picture:
    """The table from above: four seats, the trick in play, the last trick; the scores under it.

    ``view`` is any seat's view (the public one is enough: no hand is ever drawn); ``bottom``
    is the seat drawn at the bottom (play runs clockwise on the picture).
    """
    names = names or {}
    image = _felt().copy()
    draw = ImageDraw.Draw(image)

    def place(seat: int) -> int:
        return (seat - bottom) % 4

    # Above the felt: hand number and passing; hearts broken or not.
    heading = f"Hand {view['hand_number'] + 1} · {_DIRECTION_WORDS[view['pass_direction']]}"
    draw_text(draw, (14, TOP // 2), heading, 19, INK, anchor="lm")
    broken = view["hearts_broken"]
    label = "hearts broken" if broken else "hearts not broken"
    draw_text(draw, (WIDTH - 14, TOP // 2), label, SMALL, INK if broken else MUTED, anchor="rm")
    _heart_badge(draw, (WIDTH - 28 - text_width(label, SMALL), TOP // 2), broken)

    for seat in range(4):
        _draw_seat(image, draw, view, seat, place(seat), _name(names, seat))

    for play in view["trick"]:
        cx, cy = _TRICK[place(play["seat"])]
        x, y = cx - TRICK_CARD // 2, cy - card_height(TRICK_CARD) // 2
        place_card(image, _card(play["card"]), TRICK_CARD, (x, y))

    last = view.get("last_trick")
    if last:  # bottom left of the felt
        x0, y0 = 22, TOP + FELT_H - 16 - card_height(LAST_CARD) - 24
        words = fit_text(f"Last: {_name(names, last['winner'])}", SMALL, 140)
        draw_text(draw, (x0, y0), words, SMALL, MUTED)
        cards = last["cards"]
        for i, text in enumerate(cards):
            visible = None if i == len(cards) - 1 else LAST_STEP
            xy = (x0 + i * LAST_STEP, y0 + 24)
            place_card(image, _card(text), LAST_CARD, xy, visible=visible)

    _draw_scores(draw, view, names, bottom)
    return to_picture(image.convert("RGB"), "hearts.png", describe_table(view, names, bottom))


def _draw_seat(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: Any,
    seat: int,
    where: int,
    name: str,
) -> None:
    """A seat on the felt: its name (gold when it is to act), a dealer button, its card backs."""
    cx, top = _PANEL[where]
    active = seat in view["to_act"]
    left = view["cards_left"][seat]
    backs = _backs(max(left, 1))
    name_y, backs_y = (top + backs.height + 4, top) if where == 0 else (top, top + 26)
    dealer = seat == view["dealer"]
    # the dealer's button sits right of the name, or left of it on the right-hand seat
    room = (140 if where in (0, 2) else 112) - (26 if dealer and where in (1, 3) else 0)
    label = fit_text(name, TEXT, room)
    half = text_width(label, TEXT) / 2
    if active:
        draw.rounded_rectangle(
            (cx - half - 8, name_y - 2, cx + half + 8, name_y + 22),
            radius=11,
            outline=GOLD,
            width=2,
        )
    draw_text(draw, (cx, name_y + 10), label, TEXT, HIGHLIGHT if active else INK, anchor="mm")
    if left:
        image.alpha_composite(backs, (cx - backs.width // 2, backs_y))
    if dealer:
        x = cx - half - 20 if where == 3 else cx + half + 20
        y = name_y + 10
        draw.ellipse((x - 12, y - 12, x + 12, y + 12), fill=INK, outline=GOLD, width=2)
        draw_text(draw, (x, y + 1), "D", SMALL, FELT_DARK, anchor="mm")


def _seat_status(view: Any, seat: int) -> str:
    if view["phase"] == "pass" and view["pass_direction"] != "hold":
        return "cards chosen" if view["passed"][seat] else "choosing…"
    if seat == view["turn"]:
        return "to play"
    return ""


def _draw_scores(
    draw: ImageDraw.ImageDraw, view: Any, names: Mapping[int, str], bottom: int
) -> None:
    """Under the felt: the caption (passing, game over), then one line a seat with its points."""
    y = TOP + FELT_H + 6
    caption = _caption(view, names)
    if caption:
        caption = fit_text(caption, TEXT, WIDTH - 28)
        draw_text(draw, (WIDTH // 2, y + 14), caption, TEXT, HIGHLIGHT, anchor="mm")
    y += 34
    columns = ((270, "cards"), (366, "this hand"), (WIDTH - 14, "total"))
    for x, title in columns:
        draw_text(draw, (x, y), title, SMALL, MUTED, anchor="ra")
    y += 26
    for k in range(4):
        seat = (bottom + k) % 4
        status = _seat_status(view, seat)
        colour = HIGHLIGHT if status == "to play" else INK
        draw_text(draw, (14, y), fit_text(_name(names, seat), TEXT, 112), TEXT, colour)
        if status:
            draw_text(draw, (134, y), status.replace("cards ", ""), SMALL, MUTED)
        values = (
            view["cards_left"][seat],
            view["points_this_hand"][seat],
            view["totals"][seat],
        )
        for (x, _), value in zip(columns, values, strict=True):
            draw_text(draw, (x, y), str(value), TEXT, colour, anchor="ra")
        y += ROW


def _caption(view: Any, names: Mapping[int, str]) -> str:
    if view["phase"] == "game-over":
        winners = view["outcome"]["winners"] if view.get("outcome") else []
        who = " & ".join(_name(names, s) for s in winners)
        return f"Game over: {who} win{'s' if len(winners) == 1 else ''}"
    if view["phase"] == "pass":
        return "Choose three cards to pass"
    return ""


def describe_table(view: Any, names: Mapping[int, str] | None = None, bottom: int = 0) -> str:
    """Alt text: the whole table in words."""
    names = names or {}
    parts = [
        f"Hearts, hand {view['hand_number'] + 1}, {_DIRECTION_WORDS[view['pass_direction']]}, "
        f"hearts {'broken' if view['hearts_broken'] else 'not broken'}."
    ]
    for seat in range(4):
        where = _WHERE[(seat - bottom) % 4]
        bits = [
            f"{_name(names, seat)} ({where}{', dealer' if seat == view['dealer'] else ''}):",
            f"{view['cards_left'][seat]} cards,",
            f"{view['points_this_hand'][seat]} points this hand, {view['totals'][seat]} in total",
        ]
        if view["phase"] == "pass" and view["pass_direction"] != "hold":
            bits.append("- cards chosen" if view["passed"][seat] else "- choosing cards to pass")
        elif seat == view["turn"]:
            bits.append("- to play")
        parts.append(" ".join(bits) + ".")
    if view["trick"]:
        plays = ", ".join(
            f"{_name(names, p['seat'])} {card_text(_card(p['card']))}" for p in view["trick"]
        )
        parts.append(f"On the table: {plays}.")
    last = view.get("last_trick")
    if last:
        parts.append(
            f"Last trick ({cards_text(_card(c) for c in last['cards'])}) "
            f"taken by {_name(names, last['winner'])}."
        )
    caption = _caption(view, names)
    if caption:
        parts.append(caption + ".")
    return " ".join(parts)


def render_hearts_hand(
    hand: Iterable[Card],
    legal: Collection[Card] | None = None,
    selected: Collection[Card] = (),
) -> Picture:
    """One player's hand in a row, for their private message: playable cards bright, the rest
    dimmed (``legal=None``: all bright), ``selected`` cards raised (the pass being chosen)."""
    cards = list(hand)
    dim = [] if legal is None else [c for c in cards if c not in set(legal)]
    width, _ = hand_size(len(cards), HAND_CARD, overlap=0.45)
    with placed((HAND_WIDTH - width) // 2, 12):
        row = hand_image(cards, HAND_CARD, overlap=0.45, dim=dim, raised=selected)
    height = max(row.height, card_height(HAND_CARD)) + 24
    image = Image.new("RGBA", (HAND_WIDTH, height), (*FELT, 255))
    image.alpha_composite(row, ((HAND_WIDTH - row.width) // 2, 12))
    words = [f"Your hand: {cards_text(cards)}."]
    if legal is not None and dim:
        words.append(f"You may play: {cards_text(c for c in cards if c not in set(dim))}.")
    if selected:
        words.append(f"Selected: {cards_text(c for c in cards if c in set(selected))}.")
    return to_picture(image.convert("RGB"), "hearts-hand.png", " ".join(words))
