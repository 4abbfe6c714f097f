"""The Kabu table: five positions and the dealer on green felt, results after the reveal."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bench.perf.render_baseline.base import (
    FELT,
    FELT_DARK,
    GOLD,
    INK,
    MUTED,
    Picture,
    draw_text,
    fit_text,
    text_width,
    to_picture,
)
from bench.perf.render_baseline.cards import card_height, cards_text, place_card
from games.cards import Card

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
    return [Card.parse(code) for code in codes]


@lru_cache(maxsize=8)
def _felt(height: int) -> Image.Image:
    image = Image.new("RGBA", (WIDTH, height), FELT)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((4, 4, WIDTH - 5, height - 5), radius=22, outline=FELT_DARK, width=5)
    draw.arc((WIDTH // 2 - 220, -150, WIDTH // 2 + 220, 166), 15, 165, fill=FELT_DARK, width=3)
    return image


def _fan(
    image: Image.Image, cards: list[Card], cx: int, top: int, width: int = CARD_W, step: int = FAN
) -> None:
    left = cx - (width + step * (len(cards) - 1)) // 2
    for i, card in enumerate(cards):
        visible = None if i == len(cards) - 1 else step
        place_card(image, card, width, (left + i * step, top), visible=visible)


def _slot(draw: ImageDraw.ImageDraw, cx: int, top: int) -> None:
    """An empty position: the outline of a card."""
    draw.rounded_rectangle(
        (cx - CARD_W // 2, top, cx + CARD_W // 2, top + CARD_H),
        radius=6,
        outline=FELT_DARK,
        width=3,
    )


def _badge(draw: ImageDraw.ImageDraw, cx: int, y: int, text: str, fill: tuple) -> None:
    w = text_width(text, TEXT) + 18
    draw.rounded_rectangle((cx - w / 2, y, cx + w / 2, y + 24), radius=12, fill=fill)
    draw_text(draw, (cx, y + 12), text, TEXT, INK, anchor="mm")


def _label(seat: int, names: dict[int, str]) -> str:
    name = names.get(seat) or f"Seat {seat + 1}"
    return name if len(name) <= 14 else name[:13] + "…"


def render_kabu(view: Any, names: dict[int, str] | None = None) -> Picture:
    """Draw the table from a Kabu view; ``names`` maps seats to player names.

    The dealer's cards are at the top, the five positions in a row under them, each with its
    number, its player, its total and, after the reveal, WIN or LOSE; the status line below.
    """
    names = names or {}
    results = view.get("results")
    to_act = view.get("to_act", [])
    image = _felt(HEIGHT).copy()
    draw = ImageDraw.Draw(image)

    dealer = view["dealer"]
    draw_text(draw, (WIDTH // 2, 22), "DEALER", TEXT, MUTED, anchor="mm")
    dcards = _cards(dealer["cards"])
    _fan(image, dcards, WIDTH // 2, 36, DEALER_W, DEALER_FAN)
    dealer_line = f"{dealer['total']} · {dealer['name']}"
    if view["phase"] != "done" and len(dcards) == 1:
        dealer_line = f"shows {dealer['total']}"
    draw_text(draw, (WIDTH // 2, 52 + card_height(DEALER_W)), dealer_line, 21, INK, anchor="mm")

    for pos in view["positions"]:
        i = pos["number"] - 1
        cx = COLUMN * i + COLUMN // 2
        column = (cx - COLUMN // 2 + 5, TOP - 46, cx + COLUMN // 2 - 5, TOP + CARD_H + 94)
        seat = pos["seat"]
        if seat is not None:
            acting = seat in to_act
            outline = GOLD if acting else INK
            draw.rounded_rectangle(
                (cx - COLUMN // 2 + 3, TOP - 46, cx + COLUMN // 2 - 3, TOP + CARD_H + 94),
                radius=12,
                outline=outline,
                width=4 if acting else 2,
            )
            draw_text(draw, (cx, TOP - 34), str(i + 1), 18, outline, anchor="mm")
            name = fit_text(names.get(seat) or f"Seat {seat + 1}", TEXT, COLUMN - 14)
            draw_text(draw, (cx, TOP - 13), name, TEXT, outline, anchor="mm", within=column)
        else:
            draw_text(draw, (cx, TOP - 24), str(i + 1), 18, MUTED, anchor="mm")
        cards = _cards(pos["cards"])
        if cards:
            _fan(image, cards, cx, TOP)
        else:
            _slot(draw, cx, TOP)
        colour = INK if seat is not None else MUTED
        if len(cards) >= 2:
            draw_text(draw, (cx, TOP + CARD_H + 18), str(pos["total"]), 24, colour, anchor="mm")
            hand = fit_text(pos["name"], TEXT, COLUMN - 14)
            draw_text(draw, (cx, TOP + CARD_H + 43), hand, TEXT, colour, anchor="mm", within=column)
        if results is not None and seat is not None:
            won = results[seat] == "win"
            _badge(draw, cx, TOP + CARD_H + 60, "WIN" if won else "LOSE", WIN if won else LOSE)

    status = fit_text(_status(view, names), 18, WIDTH - 32)
    draw_text(draw, (WIDTH // 2, HEIGHT - 24), status, 18, INK, anchor="mm")
    return to_picture(image.convert("RGB"), "kabu.png", describe(view, names))


def _status(view: Any, names: dict[int, str]) -> str:
    if view["phase"] == "done":
        winners = view.get("winners") or []
        if not winners:
            return "The dealer wins. Deal again?"
        return "Beat the dealer: " + ", ".join(_label(s, names) for s in winners)
    (seat,) = view["to_act"] or (None,)
    if seat is None:
        return ""
    if view["phase"] == "pick":
        return f"{_label(seat, names)}: pick a position (1-5)"
    return f"{_label(seat, names)}: draw a third card or stand?"


def describe(view: Any, names: dict[int, str] | None = None) -> str:
    """Alt text: every hand in words, who holds what, whose turn or the results."""
    names = names or {}
    dealer = view["dealer"]
    parts = [
        f"Kabu. Dealer: {cards_text(_cards(dealer['cards']))}, total {dealer['total']}"
        + (f" ({dealer['name']})" if len(dealer["cards"]) > 1 else "")
        + "."
    ]
    for pos in view["positions"]:
        who = "" if pos["seat"] is None else f" ({_label(pos['seat'], names)})"
        text = cards_text(_cards(pos["cards"]))
        line = f"Position {pos['number']}{who}: {text}"
        if len(pos["cards"]) >= 2:
            line += f", total {pos['total']} ({pos['name']})"
        if view.get("results") is not None and pos["seat"] is not None:
            line += ", " + ("wins" if view["results"][pos["seat"]] == "win" else "loses")
        parts.append(line + ".")
    parts.append(_status(view, names))
    return " ".join(p for p in parts if p)
