"""Hearts pictures: the table seen from above (public), and one player's hand (private).

The table never shows a hand: only card backs, counts, the trick on the table and the scores.

>>> from games.hearts import State
>>> pic = render_hearts_table(State.new(seed=1).view(None), {0: "Ann", 1: "Bob", 2: "Cy", 3: "Di"})
>>> pic.filename, pic.png[:4] == b"\\x89PNG"
('hearts.png', True)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Mapping
from functools import lru_cache, partial

from PIL import Image, ImageDraw

from games.cards import Card, Suit
from games.hearts.state import HeartsView
from i18n import Message, _, _np, _p, render, sentences
from i18n.formats import Listing
from render.base import (
    BACKGROUND,
    FELT,
    FELT_DARK,
    GOLD,
    HIGHLIGHT,
    INK,
    MUTED,
    Picture,
    face,
    fit_text,
    note_drawn,
    text_width,
)
from render.cards import (
    card_height,
    card_words,
    cards_words,
    draw_suit,
    hand_image,
    hand_size,
    parse_card,
    put_card,
    put_fan,
    put_hand,
    sample_sheet,
)
from render.compose import Kind, Scene, reused, shape_origin
from render.palette import Palette

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
_DIRECTIONS = {  # the passing of a hand, as the picture says it in each language
    "left": _p("hearts passing", "pass to the left"),
    "right": _p("hearts passing", "pass to the right"),
    "across": _p("hearts passing", "pass across"),
    "hold": _p("hearts passing", "hold hand (no passing)"),
}


def _card(text: str) -> Card:
    return parse_card(text)


def _felt(lang: str = "en") -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((4, TOP, WIDTH - 5, TOP + FELT_H), radius=36, fill=FELT_DARK)
    draw.rounded_rectangle((10, TOP + 6, WIDTH - 11, TOP + FELT_H - 6), radius=30, fill=FELT)
    draw.ellipse((150, _MID - 110, 330, _MID + 110), outline=FELT_DARK, width=3)
    for x, title in _columns(lang):
        draw.text((x, _TITLES), title, fill=MUTED, font=face(SMALL, title), anchor="ra")
    return image


_COLUMNS = (
    (270, _p("hearts scores", "cards")),
    (366, _p("hearts scores", "this hand")),
    (WIDTH - 14, _p("hearts scores", "total")),
)


def _columns(lang: str) -> list[tuple[int, str]]:
    return [(x, render(title, lang)) for x, title in _COLUMNS]


_TITLES = TOP + FELT_H + 40  # the score table's titles


@lru_cache(maxsize=16)
def _backs(count: int) -> Image.Image:
    return hand_image([None] * count, BACK_CARD, overlap=0.72)


BADGE_GREY = (120, 140, 128)  # the heart when hearts are not broken


def _palette() -> Palette:
    cards = [sample_sheet(width, FELT) for width in (TRICK_CARD, LAST_CARD)]
    backs = Image.new("RGB", _backs(13).size, FELT)
    backs.paste(_backs(13), (0, 0), _backs(13))
    table_text = [(INK, BACKGROUND), (MUTED, BACKGROUND), (HIGHLIGHT, BACKGROUND)]
    felt_text = [(INK, FELT), (HIGHLIGHT, FELT), (MUTED, FELT), (FELT_DARK, INK)]
    return Palette.build(
        [BACKGROUND, FELT, FELT_DARK, INK, MUTED, GOLD, HIGHLIGHT, HEART_RED, BADGE_GREY],
        ramps=table_text + felt_text,
        samples=lambda: [_felt().crop((0, 0, WIDTH, TOP + FELT_H // 2)), *cards, backs],
    )


def _hand_palette() -> Palette:
    sheets = [sample_sheet(HAND_CARD, FELT, dimmed) for dimmed in (False, True)]
    return Palette.build([FELT], samples=lambda: sheets)


TABLE = Kind("hearts-table", _palette)
HAND = Kind("hearts-hand", _hand_palette)
# The table's bands: the heading; the felt in five (north, the trick's top, the middle, the
# trick's foot, south and the last trick); under it the caption, the titles, a row a seat.
_SCORES = TOP + FELT_H
BANDS = (
    0, TOP, TOP + 96, TOP + 146, TOP + 226, TOP + 286, _SCORES, _SCORES + 34, _SCORES + 62,
    *(_SCORES + 62 + ROW * k for k in range(1, 4)),
)  # fmt: skip


def _shape(size: tuple[int, int], draw: Callable[[ImageDraw.ImageDraw], None]) -> Image.Image:
    """A transparent picture ``size`` big with a shape ``draw`` draws on it."""
    image = Image.new("RGBA", size, (0, 0, 0, 0))
    draw(ImageDraw.Draw(image))
    return image


def _name(names: Mapping[int, str], seat: int, lang: str = "en") -> str:
    name = names.get(seat) or render(_("Seat {number}", number=seat + 1), lang)
    return name if len(name) <= 24 else name[:23] + "…"


def _heart_badge(broken: bool) -> Image.Image:
    """The heart beside "hearts broken", cracked when they are; centred at (12, 12)."""

    def draw(pen: ImageDraw.ImageDraw) -> None:
        draw_suit(pen, Suit.HEARTS, (12, 12), 18, fill=HEART_RED if broken else BADGE_GREY)
        if broken:
            pen.line((10, 4, 14, 11, 10, 15, 13, 20), fill=FELT, width=2)

    return _shape((25, 25), draw)


@reused
def render_hearts_table(
    view: HeartsView, names: Mapping[int, str] | None = None, bottom: int = 0, lang: str = "en"
) -> Picture:
    """The table from above: four seats, the trick in play, the last trick; the scores under it.

    ``view`` is any seat's view (the public one is enough: no hand is ever drawn); ``bottom``
    is the seat drawn at the bottom (play runs clockwise on the picture).
    """
    names = names or {}
    scene = TABLE.scene((WIDTH, HEIGHT), BANDS, BACKGROUND, lang)
    scene.sprite(("felt",), partial(_felt, lang), (0, 0), under=BACKGROUND, words=True)

    def place(seat: int) -> int:
        return (seat - bottom) % 4

    # Above the felt: hand number and passing; hearts broken or not.
    passing = _DIRECTIONS[view["pass_direction"]]
    number = view["hand_number"] + 1
    heading = _p("hearts", "Hand {number} · {passing}", number=number, passing=passing)
    broken = view["hearts_broken"]
    said = _p("hearts", "hearts broken") if broken else _p("hearts", "hearts not broken")
    label = render(said, lang)
    colour = INK if broken else MUTED
    scene.text((WIDTH - 14, TOP // 2), label, SMALL, colour, BACKGROUND, anchor="rm")
    x = round(WIDTH - 28 - text_width(label, SMALL))
    shown = fit_text(render(heading, lang), 19, x - 12 - 8 - 14)  # clear of the heart badge
    scene.text((14, TOP // 2), shown, 19, INK, BACKGROUND, anchor="lm")
    badge = ("heart", broken)
    xy = (x - 12, TOP // 2 - 12)
    scene.sprite(badge, partial(_heart_badge, broken), xy, under=BACKGROUND)

    for seat in range(4):
        _draw_seat(scene, view, seat, place(seat), _name(names, seat, lang))

    for play in view["trick"]:
        cx, cy = _TRICK[place(play["seat"])]
        x, y = cx - TRICK_CARD // 2, cy - card_height(TRICK_CARD) // 2
        put_card(scene, _card(play["card"]), TRICK_CARD, (x, y), under=FELT)

    last = view.get("last_trick")
    if last:  # bottom left of the felt
        x0, y0 = 22, TOP + FELT_H - 16 - card_height(LAST_CARD) - 24
        taker = _name(names, last["winner"], lang)
        words = fit_text(render(_p("hearts", "Last: {name}", name=taker), lang), SMALL, 140)
        scene.text((x0, y0), words, SMALL, MUTED, FELT)
        cards = [_card(text) for text in last["cards"]]
        put_fan(scene, cards, (x0, y0 + 24), width=LAST_CARD, step=LAST_STEP, under=FELT)

    _draw_scores(scene, view, names, bottom, lang)
    return scene.picture("hearts.png", describe_table(view, names, bottom, lang))


def _draw_seat(scene: Scene, view: HeartsView, seat: int, where: int, name: str) -> None:
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
        x0 = cx - half - 8
        origin, frac = shape_origin(x0)
        ring = ("name-ring", half, frac)
        scene.sprite(ring, partial(_name_ring, half, frac), (origin, name_y - 2), under=FELT)
    colour = HIGHLIGHT if active else INK
    scene.text((cx, name_y + 10), label, TEXT, colour, FELT, anchor="mm")
    if left:
        count = ("backs", left)
        xy = (cx - backs.width // 2, backs_y)
        scene.sprite(count, partial(_backs, left), xy, under=FELT)
    if dealer:
        x = cx - half - 20 if where == 3 else cx + half + 20
        y = name_y + 10
        origin, frac = shape_origin(x - 12)
        button = ("dealer", frac)
        scene.sprite(button, partial(_button, frac), (origin, y - 12), under=FELT)
        scene.text((x, y + 1), "D", SMALL, FELT_DARK, INK, anchor="mm")


def _name_ring(half: float, frac: float) -> Image.Image:
    """The gold ring round the name of the seat to act (``half`` the name's width)."""
    box = (frac, 0, frac + 2 * half + 16, 24)
    size = (math.ceil(box[2]) + 2, 25)
    return _shape(size, lambda pen: pen.rounded_rectangle(box, radius=11, outline=GOLD, width=2))


def _button(frac: float) -> Image.Image:
    """The dealer's button (its "D" is drawn over it), starting ``frac`` from the left."""
    box = (frac, 0, frac + 24, 24)
    return _shape((27, 25), lambda pen: pen.ellipse(box, fill=INK, outline=GOLD, width=2))


def _seat_status(view: HeartsView, seat: int) -> str:
    if view["phase"] == "pass" and view["pass_direction"] != "hold":
        return "cards chosen" if view["passed"][seat] else "choosing…"
    if seat == view["turn"]:
        return "to play"
    return ""


_STATUS = {  # what the score table says of a seat, in each language
    "cards chosen": _p("hearts status", "chosen"),
    "choosing…": _p("hearts status", "choosing…"),
    "to play": _p("hearts status", "to play"),
}


def _draw_scores(
    scene: Scene, view: HeartsView, names: Mapping[int, str], bottom: int, lang: str = "en"
) -> None:
    """Under the felt: the caption (passing, game over), then one line a seat with its points."""
    y = TOP + FELT_H + 6
    caption = _caption(view, names, lang)
    if caption:
        caption = fit_text(caption, TEXT, WIDTH - 28)
        scene.text((WIDTH // 2, y + 14), caption, TEXT, HIGHLIGHT, BACKGROUND, anchor="mm")
    y += 34
    for x, title in _columns(lang):  # drawn on the felt's layer
        note_drawn((x, y), title, SMALL, "ra")
    y += 26
    for k in range(4):
        seat = (bottom + k) % 4
        status = _seat_status(view, seat)
        colour = HIGHLIGHT if status == "to play" else INK
        name = fit_text(_name(names, seat, lang), TEXT, 112)
        scene.text((14, y), name, TEXT, colour, BACKGROUND)
        if status:
            shown = fit_text(render(_STATUS[status], lang), SMALL, 84)
            scene.text((134, y), shown, SMALL, MUTED, BACKGROUND)
        values = (
            view["cards_left"][seat],
            view["points_this_hand"][seat],
            view["totals"][seat],
        )
        for (x, _title), value in zip(_COLUMNS, values, strict=True):
            scene.text((x, y), str(value), TEXT, colour, BACKGROUND, anchor="ra")
        y += ROW


def _caption(view: HeartsView, names: Mapping[int, str], lang: str = "en") -> str:
    if view["phase"] == "game-over":
        outcome = view.get("outcome")
        winners = outcome["winners"] if outcome else []
        who = " & ".join(_name(names, s, lang) for s in winners)
        said = _np(
            "hearts", "Game over: {names} wins", "Game over: {names} win", len(winners), names=who
        )
        return render(said, lang)
    if view["phase"] == "pass":
        return render(_p("hearts", "Choose three cards to pass"), lang)
    return ""


def describe_table(
    view: HeartsView, names: Mapping[int, str] | None = None, bottom: int = 0, lang: str = "en"
) -> str:
    """Alt text: the whole table in words, in the language ``lang``."""
    names = names or {}
    passing = _DIRECTIONS[view["pass_direction"]]
    number = view["hand_number"] + 1
    if view["hearts_broken"]:
        head = _p(
            "hearts alt", "Hearts, hand {number}, {passing}, hearts broken.",
            number=number, passing=passing,
        )  # fmt: skip
    else:
        head = _p(
            "hearts alt", "Hearts, hand {number}, {passing}, hearts not broken.",
            number=number, passing=passing,
        )  # fmt: skip
    parts: list[Message | None] = [head]
    for seat in range(4):
        parts.extend(_seat_words(view, names, seat, (seat - bottom) % 4, lang))
    if view["trick"]:
        plays = Listing(
            tuple(
                _p("hearts alt", "{name} played {card}", name=name, card=card_words(_card(code)))
                for name, code in (
                    (_name(names, p["seat"], lang), p["card"]) for p in view["trick"]
                )
            )
        )
        parts.append(_p("hearts alt", "On the table: {plays}.", plays=plays))
    last = view.get("last_trick")
    if last:
        cards = cards_words(_card(c) for c in last["cards"])
        taker = _name(names, last["winner"], lang)
        parts.append(
            _p("hearts alt", "Last trick ({cards}) taken by {name}.", cards=cards, name=taker)
        )
    parts.append(_said_caption(view, names, lang))
    return render(sentences(*parts), lang)


_WHERE_WORDS = (
    _p("hearts place", "south"),
    _p("hearts place", "west"),
    _p("hearts place", "north"),
    _p("hearts place", "east"),
)


def _seat_words(
    view: HeartsView, names: Mapping[int, str], seat: int, place: int, lang: str
) -> list[Message | None]:
    """A seat in the alt text: its name, place, cards and points, and what it is doing."""
    where = _WHERE_WORDS[place]
    if seat == view["dealer"]:
        where = _p("hearts place", "{place}, dealer", place=where)
    line = _np(
        "hearts alt",
        "{name} ({place}): {n} card, {points} points this hand, {total} in total.",
        "{name} ({place}): {n} cards, {points} points this hand, {total} in total.",
        view["cards_left"][seat],
        name=_name(names, seat, lang),
        place=where,
        points=view["points_this_hand"][seat],
        total=view["totals"][seat],
    )
    doing = None
    if view["phase"] == "pass" and view["pass_direction"] != "hold":
        if view["passed"][seat]:
            doing = _p("hearts alt", "Cards chosen.")
        else:
            doing = _p("hearts alt", "Choosing cards to pass.")
    elif seat == view["turn"]:
        doing = _p("hearts alt", "Their turn to play.")
    return [line, doing]


def _said_caption(view: HeartsView, names: Mapping[int, str], lang: str) -> Message | None:
    """The caption under the table (game over, passing), as a sentence of the alt text."""
    if view["phase"] == "game-over":
        outcome = view.get("outcome")
        winners = outcome["winners"] if outcome else []
        who = " & ".join(_name(names, s, lang) for s in winners)
        return _np(
            "hearts alt", "Game over: {names} wins.", "Game over: {names} win.", len(winners),
            names=who,
        )  # fmt: skip
    if view["phase"] == "pass":
        return _p("hearts alt", "Choose three cards to pass.")
    return None


@reused
def render_hearts_hand(
    hand: Iterable[Card],
    legal: Collection[Card] | None = None,
    selected: Collection[Card] = (),
    lang: str = "en",
) -> Picture:
    """One player's hand in a row, for their private message: playable cards bright, the rest
    dimmed (``legal=None``: all bright), ``selected`` cards raised (the pass being chosen)."""
    cards = list(hand)
    dim = [] if legal is None else [c for c in cards if c not in set(legal)]
    width, height = hand_size(len(cards), HAND_CARD, overlap=0.45)
    height = max(height, card_height(HAND_CARD)) + 24
    scene = HAND.scene((HAND_WIDTH, height), (0, height // 3, 2 * height // 3), FELT, lang)
    xy = ((HAND_WIDTH - width) // 2, 12)
    put_hand(scene, cards, xy, under=FELT, width=HAND_CARD, overlap=0.45, dim=dim, raised=selected)
    words = sentences(
        _p("hearts hand", "Your hand: {cards}.", cards=cards_words(cards)),
        _p(
            "hearts hand",
            "You may play: {cards}.",
            cards=cards_words(c for c in cards if c not in dim),
        )
        if legal is not None and dim
        else None,
        _p(
            "hearts hand",
            "Selected: {cards}.",
            cards=cards_words(c for c in cards if c in selected),
        )
        if selected
        else None,
    )
    return scene.picture("hearts-hand.png", render(words, lang))
