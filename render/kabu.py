"""The Kabu table: five positions and the dealer on green felt, results after the reveal."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from games.cards import Card
from render.base import FELT, FELT_DARK, GOLD, INK, MUTED, Picture, font, to_picture
from render.cards import card_height, card_image, cards_text

WIDTH = 760
CARD_W = 70
CARD_H = card_height(CARD_W)
FAN = 30  # horizontal step between fanned cards
COLUMN = WIDTH // 5
WIN = (70, 170, 90)
LOSE = (190, 60, 60)


def _cards(codes: list[str]) -> list[Card]:
    return [Card.parse(code) for code in codes]


@lru_cache(maxsize=8)
def _felt(height: int) -> Image.Image:
    image = Image.new("RGBA", (WIDTH, height), FELT)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((6, 6, WIDTH - 7, height - 7), radius=26, outline=FELT_DARK, width=6)
    draw.arc((WIDTH // 2 - 300, -215, WIDTH // 2 + 300, 200), 15, 165, fill=FELT_DARK, width=3)
    return image


def _fan(image: Image.Image, cards: list[Card], cx: int, top: int) -> None:
    width = CARD_W + FAN * (len(cards) - 1)
    left = cx - width // 2
    for i, card in enumerate(cards):
        image.alpha_composite(card_image(card, CARD_W), (left + i * FAN, top))


def _slot(draw: ImageDraw.ImageDraw, cx: int, top: int) -> None:
    draw.rounded_rectangle(
        (cx - CARD_W // 2, top, cx + CARD_W // 2, top + CARD_H),
        radius=6,
        outline=FELT_DARK,
        width=3,
    )


def _badge(draw: ImageDraw.ImageDraw, cx: int, y: int, text: str, fill: tuple) -> None:
    f = font(18)
    w = draw.textlength(text, font=f) + 20
    draw.rounded_rectangle((cx - w / 2, y, cx + w / 2, y + 26), radius=13, fill=fill)
    draw.text((cx, y + 13), text, font=f, fill=INK, anchor="mm")


def _label(seat: int, names: dict[int, str]) -> str:
    name = names.get(seat) or f"Seat {seat + 1}"
    return name if len(name) <= 14 else name[:13] + "…"


def render_kabu(view: dict, names: dict[int, str] | None = None) -> Picture:
    """Draw the table from a Kabu view; ``names`` maps seats to player names."""
    names = names or {}
    results = view.get("results")
    to_act = view.get("to_act", [])
    height = 560
    image = _felt(height).copy()
    draw = ImageDraw.Draw(image)

    # The dealer, top centre.
    dealer = view["dealer"]
    draw.text((WIDTH // 2, 24), "DEALER", font=font(18), fill=MUTED, anchor="mm")
    dcards = _cards(dealer["cards"])
    _fan(image, dcards, WIDTH // 2, 40)
    dealer_line = f"{dealer['total']} · {dealer['name']}"
    if view["phase"] != "done" and len(dcards) == 1:
        dealer_line = f"shows {dealer['total']}"
    draw.text((WIDTH // 2, 56 + CARD_H), dealer_line, font=font(22), fill=INK, anchor="mm")

    # The five positions.
    top = 250
    for pos in view["positions"]:
        i = pos["number"] - 1
        cx = COLUMN * i + COLUMN // 2
        seat = pos["seat"]
        if seat is not None:
            acting = seat in to_act
            outline = GOLD if acting else INK
            draw.rounded_rectangle(
                (cx - COLUMN // 2 + 6, top - 44, cx + COLUMN // 2 - 6, top + CARD_H + 92),
                radius=14,
                outline=outline,
                width=4 if acting else 2,
            )
            label = f"{i + 1} · {_label(seat, names)}"
            draw.text((cx, top - 24), label, font=font(18), fill=outline, anchor="mm")
        else:
            draw.text((cx, top - 24), str(i + 1), font=font(18), fill=MUTED, anchor="mm")
        cards = _cards(pos["cards"])
        if cards:
            _fan(image, cards, cx, top)
        else:
            _slot(draw, cx, top)
        colour = INK if seat is not None else MUTED
        if len(cards) >= 2:
            draw.text(
                (cx, top + CARD_H + 18), str(pos["total"]), font=font(26), fill=colour, anchor="mm"
            )
            draw.text((cx, top + CARD_H + 44), pos["name"], font=font(16), fill=colour, anchor="mm")
        if results is not None and seat is not None:
            won = results[seat] == "win"
            _badge(draw, cx, top + CARD_H + 60, "WIN" if won else "LOSE", WIN if won else LOSE)

    # Status line.
    draw.text((WIDTH // 2, height - 28), _status(view, names), font=font(20), fill=INK, anchor="mm")
    return to_picture(image.convert("RGB"), "kabu.png", describe(view, names))


def _status(view: dict, names: dict[int, str]) -> str:
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


def describe(view: dict, names: dict[int, str] | None = None) -> str:
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
