"""The Kabu table: five positions and the dealer on green felt, results after the reveal."""

from __future__ import annotations

import math
from functools import partial

from PIL import Image, ImageDraw

from games.cards import Card
from games.kabu.state import KabuView
from i18n import Message, _, _p, render, sentences
from render.base import (
    FELT,
    FELT_DARK,
    GOLD,
    INK,
    MUTED,
    Picture,
    face,
    fit_text,
    note_drawn,
    text_width,
)
from render.cards import card_height, cards_words, parse_card, put_fan, sample_sheet
from render.compose import Kind, Scene, reused, shape_origin
from render.palette import Palette

WIDTH = 480  # a phone shows it about 330 px wide: every text is 17 px or more here
HEIGHT = 430
CARD_W = 52
CARD_H = card_height(CARD_W)
FAN = 16  # horizontal step between fanned cards: three fill a column, each index in sight
DEALER_W = 64
DEALER_FAN = 34
COLUMN = WIDTH // 5
TOP = 208  # where the positions' cards start
TEXT = 17
WIN = (70, 170, 90)
LOSE = (190, 60, 60)


def _cards(codes: list[str]) -> list[Card]:
    return [parse_card(code) for code in codes]


def _felt(lang: str = "en") -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((4, 4, WIDTH - 5, HEIGHT - 5), radius=22, outline=FELT_DARK, width=5)
    draw.arc((WIDTH // 2 - 220, -150, WIDTH // 2 + 220, 166), 15, 165, fill=FELT_DARK, width=3)
    dealer = _dealer_word(lang)
    draw.text(_DEALER, dealer, fill=MUTED, font=face(TEXT, dealer), anchor="mm")
    return image


def _dealer_word(lang: str) -> str:
    return render(_p("kabu board", "DEALER"), lang)


def hand_name(name: str, lang: str) -> str:
    """A Kabu hand's name (``"Shippin"``, ``"Oicho"``: the engine's) as players of ``lang``
    say it: the same words, in Japanese script in Japanese."""
    found = _HAND_NAMES.get(name)
    return render(found, lang) if found is not None else name


# The names of the engine (games.kabu.hands), spelt out for the catalogues.
_HAND_NAMES = {
    "Buta": _p("kabu hand", "Buta"),
    "Pin": _p("kabu hand", "Pin"),
    "Nizo": _p("kabu hand", "Nizo"),
    "Santa": _p("kabu hand", "Santa"),
    "Yotsuya": _p("kabu hand", "Yotsuya"),
    "Goke": _p("kabu hand", "Goke"),
    "Roppo": _p("kabu hand", "Roppo"),
    "Shichiken": _p("kabu hand", "Shichiken"),
    "Oicho": _p("kabu hand", "Oicho"),
    "Kabu": _p("kabu hand", "Kabu"),
    "Shippin": _p("kabu hand", "Shippin"),
    "Kuppin": _p("kabu hand", "Kuppin"),
    "Arashi": _p("kabu hand", "Arashi"),
}


_DEALER = (WIDTH // 2, 22)  # where the word DEALER is centred


def _palette() -> Palette:
    cards = [sample_sheet(width, FELT) for width in (CARD_W, DEALER_W)]
    return Palette.build(
        [FELT, FELT_DARK, INK, MUTED, GOLD, WIN, LOSE],
        ramps=[(INK, FELT), (MUTED, FELT), (GOLD, FELT), (INK, WIN), (INK, LOSE)],
        samples=lambda: [_felt().crop((0, 0, WIDTH, 170)), *cards],
    )


KABU = Kind("kabu", _palette)
# The bands: the dealer; the positions' numbers and names, cards, totals, results; the status.
BANDS = (0, TOP - 48, TOP - 2, TOP + CARD_H + 4, TOP + CARD_H + 56, TOP + CARD_H + 96)


def _fan(scene: Scene, cards: list[Card], cx: int, top: int, width: int, step: int) -> None:
    left = cx - (width + step * (len(cards) - 1)) // 2
    put_fan(scene, cards, (left, top), width=width, step=step, under=FELT)


def _outline(colour: tuple[int, int, int], width: int) -> Image.Image:
    """The frame of a seated position."""
    image = Image.new("RGBA", (COLUMN - 5, CARD_H + 141), (0, 0, 0, 0))
    box = (0, 0, COLUMN - 6, CARD_H + 140)
    ImageDraw.Draw(image).rounded_rectangle(box, radius=12, outline=colour, width=width)
    return image


def _slot() -> Image.Image:
    """An empty position: the outline of a card."""
    image = Image.new("RGBA", (CARD_W // 2 * 2 + 1, CARD_H + 1), (0, 0, 0, 0))
    box = (0, 0, CARD_W // 2 * 2, CARD_H)
    ImageDraw.Draw(image).rounded_rectangle(box, radius=6, outline=FELT_DARK, width=3)
    return image


def _pill(width: float, fraction: float, fill: tuple[int, int, int]) -> Image.Image:
    """A badge's rounded band ``width`` long, starting ``fraction`` into its first pixel."""
    image = Image.new("RGBA", (math.ceil(width + fraction) + 2, 25), (0, 0, 0, 0))
    box = (fraction, 0, fraction + width, 24)
    ImageDraw.Draw(image).rounded_rectangle(box, radius=12, fill=fill)
    return image


def _badge(scene: Scene, cx: int, y: int, text: str, fill: tuple[int, int, int]) -> None:
    w = text_width(text, TEXT) + 18
    left = cx - w / 2
    x, fraction = shape_origin(left)
    scene.sprite(("pill", w, fraction, fill), partial(_pill, w, fraction, fill), (x, y), under=FELT)
    scene.text((cx, y + 12), text, TEXT, INK, fill, anchor="mm")


def _seat(seat: int, lang: str) -> str:
    return render(_("Seat {number}", number=seat + 1), lang)


def _label(seat: int, names: dict[int, str], lang: str = "en") -> str:
    name = names.get(seat) or _seat(seat, lang)
    return name if len(name) <= 14 else name[:13] + "…"


@reused
def render_kabu(view: KabuView, names: dict[int, str] | None = None, lang: str = "en") -> Picture:
    """Draw the table from a Kabu view; ``names`` maps seats to player names.

    The dealer's cards are at the top, the five positions in a row under them, each with its
    number, its player, its total and, after the reveal, WIN or LOSE; the status line below.
    """
    names = names or {}
    results = view.get("results")
    to_act = view.get("to_act", [])
    scene = KABU.scene((WIDTH, HEIGHT), BANDS, FELT, lang)
    scene.sprite(("felt",), partial(_felt, lang), (0, 0), under=FELT, words=True)

    dealer = view["dealer"]
    note_drawn(_DEALER, _dealer_word(lang), TEXT, "mm")  # on the felt's layer
    dcards = _cards(dealer["cards"])
    _fan(scene, dcards, WIDTH // 2, 36, DEALER_W, DEALER_FAN)
    dealer_line = f"{dealer['total']} · {hand_name(dealer['name'], lang)}"
    if view["phase"] != "done" and len(dcards) == 1:
        dealer_line = render(_p("kabu board", "shows {total}", total=dealer["total"]), lang)
    xy = (WIDTH // 2, 52 + card_height(DEALER_W))
    scene.text(xy, dealer_line, 21, INK, FELT, anchor="mm")

    for pos in view["positions"]:
        i = pos["number"] - 1
        cx = COLUMN * i + COLUMN // 2
        column = (cx - COLUMN // 2 + 5, TOP - 46, cx + COLUMN // 2 - 5, TOP + CARD_H + 94)
        seat = pos["seat"]
        if seat is not None:
            acting = seat in to_act
            outline = GOLD if acting else INK
            line = 4 if acting else 2
            frame = ("frame", outline, line)
            xy = (cx - COLUMN // 2 + 3, TOP - 46)
            scene.sprite(frame, partial(_outline, outline, line), xy, under=FELT)
            scene.text((cx, TOP - 34), str(i + 1), 18, outline, FELT, anchor="mm")
            name = fit_text(names.get(seat) or _seat(seat, lang), TEXT, COLUMN - 14)
            scene.text((cx, TOP - 13), name, TEXT, outline, FELT, anchor="mm", within=column)
        else:
            scene.text((cx, TOP - 24), str(i + 1), 18, MUTED, FELT, anchor="mm")
        cards = _cards(pos["cards"])
        if cards:
            _fan(scene, cards, cx, TOP, CARD_W, FAN)
        else:
            scene.sprite(("slot",), _slot, (cx - CARD_W // 2, TOP), under=FELT)
        colour = INK if seat is not None else MUTED
        if len(cards) >= 2:
            xy = (cx, TOP + CARD_H + 18)
            scene.text(xy, str(pos["total"]), 24, colour, FELT, anchor="mm")
            hand = fit_text(hand_name(pos["name"], lang), TEXT, COLUMN - 14)
            xy = (cx, TOP + CARD_H + 43)
            scene.text(xy, hand, TEXT, colour, FELT, anchor="mm", within=column)
        if results is not None and seat is not None:
            won = results[seat] == "win"
            badge = render(_p("kabu board", "WIN") if won else _p("kabu board", "LOSE"), lang)
            _badge(scene, cx, TOP + CARD_H + 60, badge, WIN if won else LOSE)

    status = fit_text(_status(view, names, lang), 18, WIDTH - 32)
    scene.text((WIDTH // 2, HEIGHT - 24), status, 18, INK, FELT, anchor="mm")
    return scene.picture("kabu.png", describe(view, names, lang))


def _status(view: KabuView, names: dict[int, str], lang: str = "en") -> str:
    if view["phase"] == "done":
        winners = view.get("winners") or []
        if not winners:
            return render(_("The dealer wins. Deal again?"), lang)
        who = ", ".join(_label(s, names, lang) for s in winners)
        return render(_("Beat the dealer: {names}", names=who), lang)
    (seat,) = view["to_act"] or (None,)
    if seat is None:
        return ""
    name = _label(seat, names, lang)
    if view["phase"] == "pick":
        return render(_("{name}: pick a position (1-5)", name=name), lang)
    return render(_("{name}: draw a third card or stand?", name=name), lang)


def describe(view: KabuView, names: dict[int, str] | None = None, lang: str = "en") -> str:
    """Alt text: every hand in words, who holds what, whose turn or the results."""
    names = names or {}
    dealer = view["dealer"]
    cards = cards_words(_cards(dealer["cards"]))
    total = dealer["total"]
    parts: list[Message | str | None] = []
    if len(dealer["cards"]) > 1:
        hand = hand_name(dealer["name"], lang)
        parts.append(
            _p("kabu alt", "Kabu. Dealer: {cards}, total {total} ({hand}).",
               cards=cards, total=total, hand=hand)
        )  # fmt: skip
    else:
        parts.append(
            _p("kabu alt", "Kabu. Dealer: {cards}, total {total}.", cards=cards, total=total)
        )
    results = view.get("results")
    for pos in view["positions"]:
        cards, number = cards_words(_cards(pos["cards"])), pos["number"]
        if pos["seat"] is None:
            parts.append(_p("kabu alt", "Position {number}: {cards}.", number=number, cards=cards))
        else:
            name = _label(pos["seat"], names, lang)
            parts.append(
                _p("kabu alt", "Position {number} ({name}): {cards}.",
                   number=number, name=name, cards=cards)
            )  # fmt: skip
        if len(pos["cards"]) >= 2:
            hand = hand_name(pos["name"], lang)
            parts.append(_p("kabu alt", "Total {total} ({hand}).", total=pos["total"], hand=hand))
        if results is not None and pos["seat"] is not None:
            won = results[pos["seat"]] == "win"
            parts.append(_p("kabu alt", "It wins.") if won else _p("kabu alt", "It loses."))
    parts.append(_status(view, names, lang) or None)
    return render(sentences(*parts), lang)
