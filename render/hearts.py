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

from PIL import Image, ImageDraw

from games.cards import Card, Suit
from render.base import (
    BACKGROUND,
    FELT,
    FELT_DARK,
    GOLD,
    HIGHLIGHT,
    INK,
    MUTED,
    Picture,
    font,
    to_picture,
)
from render.cards import card_height, card_image, card_text, cards_text, draw_suit, hand_image

WIDTH, HEIGHT = 720, 620
TRICK_CARD = 78
BACK_CARD = 30
LAST_CARD = 34
HAND_CARD = 92
HAND_WIDTH = 720
HEART_RED = (214, 40, 52)

# Screen positions (from the bottom, clockwise): seat panels and trick cards.
_PANEL = ((360, 536), (116, 300), (360, 72), (604, 300))
_TRICK = ((360, 385), (278, 300), (360, 215), (442, 300))
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
    draw.rounded_rectangle((6, 6, WIDTH - 7, HEIGHT - 7), radius=48, fill=FELT_DARK)
    draw.rounded_rectangle((16, 16, WIDTH - 17, HEIGHT - 17), radius=40, fill=FELT)
    draw.ellipse((215, 145, 505, 455), outline=FELT_DARK, width=3)
    return image


@lru_cache(maxsize=16)
def _backs(count: int) -> Image.Image:
    return hand_image([None] * count, BACK_CARD, overlap=0.72)


def _name(names: Mapping[int, str], seat: int) -> str:
    name = names.get(seat) or f"Seat {seat + 1}"
    return name if len(name) <= 24 else name[:23] + "…"


def _fit(text: str, size: int, width: int) -> str:
    """``text`` cut with an ellipsis so that it is at most ``width`` pixels wide."""
    face = font(size)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def _heart_badge(draw: ImageDraw.ImageDraw, xy: tuple[float, float], broken: bool) -> None:
    colour = HEART_RED if broken else (120, 140, 128)
    draw_suit(draw, Suit.HEARTS, xy, 18, fill=colour)
    if not broken:
        return
    x, y = xy
    draw.line((x - 2, y - 8, x + 2, y - 1, x - 2, y + 3, x + 1, y + 8), fill=FELT, width=2)


def render_hearts_table(
    view: dict, names: Mapping[int, str] | None = None, bottom: int = 0
) -> Picture:
    """The table from above: four seats, the trick in play, the last trick, the scores.

    ``view`` is any seat's view (the public one is enough: no hand is ever drawn); ``bottom``
    is the seat drawn at the bottom (play runs clockwise on the picture).
    """
    names = names or {}
    image = _felt().copy()
    draw = ImageDraw.Draw(image)
    small, normal, big = font(14), font(17), font(21)

    def place(seat: int) -> int:
        return (seat - bottom) % 4

    # Corner: hand number, pass direction, hearts broken.
    draw.text((36, 30), f"Hand {view['hand_number'] + 1}", font=big, fill=INK)
    draw.text((36, 58), _DIRECTION_WORDS[view["pass_direction"]], font=small, fill=MUTED)
    broken = view["hearts_broken"]
    _heart_badge(draw, (45, 92), broken)
    draw.text(
        (60, 92),
        "hearts broken" if broken else "hearts not broken",
        font=small,
        fill=INK if broken else MUTED,
        anchor="lm",
    )

    # Seats.
    for seat in range(4):
        _draw_seat(image, draw, view, seat, _PANEL[place(seat)], _name(names, seat))

    # The trick in progress.
    for play in view["trick"]:
        cx, cy = _TRICK[place(play["seat"])]
        sprite = card_image(_card(play["card"]), TRICK_CARD)
        image.alpha_composite(sprite, (cx - sprite.width // 2, cy - sprite.height // 2))

    # The last trick, small, top right.
    last = view.get("last_trick")
    if last:
        x0 = WIDTH - 36 - 4 * (LAST_CARD + 3)
        draw.text(
            (WIDTH - 36, 26),
            f"Last trick: {_name(names, last['winner'])}",
            font=small,
            fill=MUTED,
            anchor="ra",
        )
        for i, text in enumerate(last["cards"]):
            sprite = card_image(_card(text), LAST_CARD)
            image.alpha_composite(sprite, (x0 + i * (LAST_CARD + 3), 46))

    # Centre caption.
    caption = _caption(view, names)
    if caption:
        draw.text((WIDTH // 2, 300), caption, font=normal, fill=HIGHLIGHT, anchor="mm")
    return to_picture(image.convert("RGB"), "hearts.png", describe_table(view, names, bottom))


def _draw_seat(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: dict,
    seat: int,
    centre: tuple[int, int],
    name: str,
) -> None:
    cx, cy = centre
    active = seat in view["to_act"]
    box = (cx - 92, cy - 48, cx + 92, cy + 48)
    draw.rounded_rectangle(
        box, radius=12, fill=FELT_DARK, outline=GOLD if active else None, width=3
    )
    draw.text(
        (cx, cy - 36),
        _fit(name, 16, 124),
        font=font(16),
        fill=HIGHLIGHT if active else INK,
        anchor="mm",
    )
    if seat == view["dealer"]:  # the dealer's button
        draw.ellipse((cx + 66, cy - 44, cx + 86, cy - 24), fill=INK, outline=GOLD, width=2)
        draw.text((cx + 76, cy - 34), "D", font=font(13), fill=FELT_DARK, anchor="mm")
    left = view["cards_left"][seat]
    if left:
        backs = _backs(left)
        image.alpha_composite(backs, (cx - backs.width // 2 - 14, cy - 22))
    draw.text((cx + 84, cy - 4), str(left), font=font(15), fill=MUTED, anchor="rm")
    hand_pts = view["points_this_hand"][seat]
    total = view["totals"][seat]
    draw.text(
        (cx, cy + 36), f"{hand_pts} this hand · {total} total", font=font(14), fill=INK, anchor="mm"
    )
    if view["phase"] == "pass" and view["pass_direction"] != "hold":
        status = "cards chosen" if view["passed"][seat] else "choosing…"
        draw.text((cx, cy + 60), status, font=font(13), fill=MUTED, anchor="mm")
    elif seat == view["turn"]:
        draw.text((cx, cy + 60), "to play", font=font(14), fill=HIGHLIGHT, anchor="mm")


def _caption(view: dict, names: Mapping[int, str]) -> str:
    if view["phase"] == "game-over":
        winners = view["outcome"]["winners"] if view.get("outcome") else []
        who = " & ".join(_name(names, s) for s in winners)
        return f"Game over: {who} win{'s' if len(winners) == 1 else ''}"
    if view["phase"] == "pass":
        return "Choose three cards to pass"
    return ""


def describe_table(view: dict, names: Mapping[int, str] | None = None, bottom: int = 0) -> str:
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
