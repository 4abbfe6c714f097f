"""The checkers board image: the playing board, last move marked, and the numbered diagram."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.base import BACKGROUND, GOLD, HIGHLIGHT, INK, MUTED, Picture, font, to_picture

SQUARE = 60
MARGIN = 16
HEADER = 46
SMALL = 22  # square size of the numbered diagram
SIDE_GAP = 24

LIGHT = (232, 220, 192)
DARK = (58, 116, 80)
SMALL_LIGHT = (200, 200, 196)
SMALL_DARK = (74, 96, 84)
BLACK_FILL, BLACK_RIM, BLACK_RING = (28, 28, 32), (150, 150, 156), (70, 70, 78)
RED_FILL, RED_RIM, RED_RING = (206, 44, 40), (255, 190, 180), (150, 24, 22)
CAPTURED = (255, 110, 60)
TO_MOVE_NAMES = ("Black", "Red")

WIDTH = 2 * MARGIN + 8 * SQUARE + SIDE_GAP + 8 * SMALL
HEIGHT = HEADER + 8 * SQUARE + MARGIN


def _cell(square: int, flip: bool) -> tuple[int, int]:
    """(row, col) on screen of a square 1-32."""
    row, k = divmod(square - 1, 4)
    col = 2 * k + (1 if row % 2 == 0 else 0)
    return (7 - row, 7 - col) if flip else (row, col)


@lru_cache(maxsize=8)
def _piece(letter: str, size: int = SQUARE) -> Image.Image:
    """A man or king sprite (RGBA), drawn at 4x and scaled down for smooth edges."""
    scale = 4
    big = size * scale
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    red = letter.lower() == "r"
    fill, rim, ring = (RED_FILL, RED_RIM, RED_RING) if red else (BLACK_FILL, BLACK_RIM, BLACK_RING)
    pad = big * 0.1
    # shadow, body, rim and an inner ring give the piece some depth
    draw.ellipse((pad + 6, pad + 10, big - pad + 6, big - pad + 10), fill=(0, 0, 0, 90))
    draw.ellipse((pad, pad, big - pad, big - pad), fill=rim)
    inset = pad + big * 0.04
    draw.ellipse((inset, inset, big - inset, big - inset), fill=fill)
    ring_in = pad + big * 0.14
    draw.ellipse(
        (ring_in, ring_in, big - ring_in, big - ring_in), outline=ring, width=int(big * 0.025)
    )
    if letter.isupper():
        _crown(draw, big)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def _crown(draw: ImageDraw.ImageDraw, big: int) -> None:
    cx, cy = big / 2, big / 2
    w, h = big * 0.5, big * 0.33
    left, right, top, bottom = cx - w / 2, cx + w / 2, cy - h / 2, cy + h / 2
    points = [
        (left, bottom),
        (left, top + h * 0.15),
        (left + w * 0.25, top + h * 0.55),
        (cx, top - h * 0.1),
        (right - w * 0.25, top + h * 0.55),
        (right, top + h * 0.15),
        (right, bottom),
    ]
    outline = (90, 60, 10)
    draw.polygon(points, fill=GOLD, outline=outline, width=max(2, big // 80))
    band = h * 0.22
    draw.rectangle((left, bottom - band, right, bottom), fill=GOLD, outline=outline, width=3)
    r = big * 0.03
    for x, y in ((left, top + h * 0.15), (cx, top - h * 0.1), (right, top + h * 0.15)):
        draw.ellipse((x - r, y - r, x + r, y + r), fill=GOLD, outline=outline, width=3)


def _blend(base: tuple[int, int, int], tint: tuple[int, int, int], amount: float):
    return tuple(round(b + (t - b) * amount) for b, t in zip(base, tint, strict=True))


def _draw_board(image: Image.Image, view: dict[str, Any], flip: bool) -> None:
    draw = ImageDraw.Draw(image)
    ox, oy = MARGIN, HEADER
    last = view.get("last_move") or {}
    marked = {last.get("from"), last.get("to")} - {None}
    path = set(last.get("path", [])[:-1])
    captured = set(last.get("captured", []))
    number_font = font(11)
    for row in range(8):
        for col in range(8):
            x, y = ox + col * SQUARE, oy + row * SQUARE
            draw.rectangle((x, y, x + SQUARE - 1, y + SQUARE - 1), fill=LIGHT)
    for square in range(1, 33):
        row, col = _cell(square, flip)
        x, y = ox + col * SQUARE, oy + row * SQUARE
        colour = _blend(DARK, HIGHLIGHT, 0.55) if square in marked else DARK
        draw.rectangle((x, y, x + SQUARE - 1, y + SQUARE - 1), fill=colour)
        draw.text((x + 3, y + 2), str(square), fill=(210, 230, 215), font=number_font)
    draw.rectangle(
        (ox - 2, oy - 2, ox + 8 * SQUARE + 1, oy + 8 * SQUARE + 1), outline=(20, 40, 28), width=2
    )
    squares = view["squares"]
    for square in range(1, 33):
        row, col = _cell(square, flip)
        x, y = ox + col * SQUARE, oy + row * SQUARE
        letter = squares[square - 1]
        if letter:
            sprite = _piece(letter)
            image.alpha_composite(sprite, (x, y))
        cx, cy = x + SQUARE // 2, y + SQUARE // 2
        if square in path:
            r = 7
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=HIGHLIGHT, outline=(60, 50, 10))
        if square in captured:
            r = SQUARE * 0.36
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=CAPTURED, width=3)
            d = SQUARE * 0.2
            draw.line((cx - d, cy - d, cx + d, cy + d), fill=CAPTURED, width=5)
            draw.line((cx - d, cy + d, cx + d, cy - d), fill=CAPTURED, width=5)


def _draw_diagram(image: Image.Image, view: dict[str, Any], flip: bool) -> None:
    """The seed's numbered board, small, to the right, plus a count of the pieces."""
    draw = ImageDraw.Draw(image)
    ox = MARGIN + 8 * SQUARE + SIDE_GAP
    oy = HEADER
    draw.text((ox, oy - 24), "Squares", fill=MUTED, font=font(15))
    for row in range(8):
        for col in range(8):
            x, y = ox + col * SMALL, oy + row * SMALL
            draw.rectangle((x, y, x + SMALL - 1, y + SMALL - 1), fill=SMALL_LIGHT)
    small = font(11)
    for square in range(1, 33):
        row, col = _cell(square, flip)
        x, y = ox + col * SMALL, oy + row * SMALL
        draw.rectangle((x, y, x + SMALL - 1, y + SMALL - 1), fill=SMALL_DARK)
        draw.text(
            (x + SMALL / 2, y + SMALL / 2 + 1), str(square), fill=INK, font=small, anchor="mm"
        )
    top, bottom = ("Red's king row", "Black's king row")
    if flip:
        top, bottom = bottom, top
    y = oy + 8 * SMALL + 6
    draw.text((ox, y), f"top: {top}", fill=MUTED, font=font(12))
    draw.text((ox, y + 16), f"bottom: {bottom}", fill=MUTED, font=font(12))

    # Piece counts with little sprites.
    squares = view["squares"]
    y += 48
    for letter, name in (("b", "Black"), ("r", "Red")):
        men = squares.count(letter)
        kings = squares.count(letter.upper())
        image.alpha_composite(_piece(letter, 30), (ox, y))
        label = f"{name}: {men} {'man' if men == 1 else 'men'}"
        draw.text((ox + 36, y + 3), label, fill=INK, font=font(14))
        kings_label = f"{kings} {'king' if kings == 1 else 'kings'}"
        draw.text((ox + 36, y + 19), kings_label, fill=MUTED, font=font(12))
        y += 42
    moves = view.get("moves") or []
    if moves:
        draw.text((ox, y + 4), "Recent moves", fill=MUTED, font=font(13))
        y += 22
        for line in _move_lines(moves, view.get("start_fen"))[-5:]:
            draw.text((ox, y), line, fill=INK, font=font(13))
            y += 17


def _move_lines(moves: list[str], start_fen: str | None) -> list[str]:
    """Moves numbered in pairs, Black's first (``3. 8-11 22-17``)."""
    plies = list(moves)
    if start_fen and start_fen.upper().startswith("W"):
        plies.insert(0, "...")
    return [f"{n // 2 + 1}. {' '.join(plies[n : n + 2])}" for n in range(0, len(plies), 2)]


def _status(view: dict[str, Any]) -> str:
    outcome = view.get("outcome")
    if outcome:
        if outcome["winners"]:
            winner = TO_MOVE_NAMES[outcome["winners"][0]]
            loser = TO_MOVE_NAMES[1 - outcome["winners"][0]]
            why = {"resign": "resigned", "timeout": "stopped moving"}
            return f"{winner} wins: {loser} {why.get(outcome['termination'], 'cannot move')}."
        reason = {
            "repetition": "the same position came up three times",
            "forty-moves": "40 moves each without a capture or a man moved",
            "agreement": "agreed",
        }.get(outcome["termination"], outcome["termination"])
        return f"Draw ({reason})."
    status = f"{view['turn_name']} to move."
    if view.get("draw_offer") is not None:
        status += f" {TO_MOVE_NAMES[view['draw_offer']]} offers a draw."
    return status


def describe(view: dict[str, Any]) -> str:
    """Alt text: the position in the seed's letters, whose turn it is and the last move."""
    parts = [_status(view)]
    squares = view["squares"]
    for letter in "bBrR":
        where = [str(i + 1) for i, p in enumerate(squares) if p == letter]
        if where:
            parts.append(f"{letter}: {','.join(where)}.")
    last = view.get("last_move")
    if last:
        text = f"Last move {last['notation']}"
        if last["captured"]:
            text += f" (took {','.join(map(str, last['captured']))})"
        parts.append(text + ".")
    return " ".join(parts)


def render_checkers(view: dict[str, Any], *, flip: bool = False) -> Picture:
    """Draw a checkers view: Black at the top as in the seed; ``flip`` turns the board round."""
    image = Image.new("RGBA", (WIDTH, HEIGHT), (*BACKGROUND, 255))
    draw = ImageDraw.Draw(image)
    status = _status(view)
    last = view.get("last_move")
    if last and not view.get("outcome"):
        status += f"   Last move: {last['notation']}"
    draw.text((MARGIN, 12), status, fill=INK, font=font(22))
    _draw_board(image, view, flip)
    _draw_diagram(image, view, flip)
    return to_picture(image.convert("RGB"), "checkers.png", describe(view))
