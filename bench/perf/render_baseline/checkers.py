"""The checkers board image: the playing board, last move marked, and the numbered diagram."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bench.perf.render_baseline.base import (
    BACKGROUND,
    GOLD,
    HIGHLIGHT,
    INK,
    MUTED,
    Box,
    Picture,
    draw_text,
    face,
    fit_text,
    note_box,
    placed,
    recording,
    to_picture,
)
from games.checkers import square_coords

SQUARE = 60
MARGIN = 16
HEADER = 70  # the status line and, under it, the last move or a draw offer
FOOTER = 104  # piece counts, the recent moves and which king row is where
NUMBER_SIZE = 18  # square numbers (typed moves use them): 11.5 px as a phone shows the board
TEXT_SIZE = 18  # the smallest legible size in a picture this wide (render.base.legible_size)
STATUS_SIZE = 23

LIGHT = (232, 220, 192)
DARK = (58, 116, 80)
BLACK_FILL, BLACK_RIM, BLACK_RING = (28, 28, 32), (150, 150, 156), (70, 70, 78)
RED_FILL, RED_RIM, RED_RING = (206, 44, 40), (255, 190, 180), (150, 24, 22)
CAPTURED = (255, 110, 60)
TO_MOVE_NAMES = ("Black", "Red")

WIDTH = 2 * MARGIN + 8 * SQUARE
HEIGHT = HEADER + 8 * SQUARE + FOOTER
NUMBER_INK, NUMBER_EDGE = (236, 244, 238), (20, 44, 30)


def _cell(square: int, flip: bool) -> tuple[int, int]:
    """(row, col) on screen of a square 1-32 (the engine's geometry, turned round if asked)."""
    row, col = square_coords(square)
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


def _draw_board(image: Image.Image, view: Any, flip: bool) -> None:
    draw = ImageDraw.Draw(image)
    ox, oy = MARGIN, HEADER
    last = view.get("last_move") or {}
    marked = {last.get("from"), last.get("to")} - {None}
    path = set(last.get("path", [])[:-1])
    captured = set(last.get("captured", []))
    for row in range(8):
        for col in range(8):
            x, y = ox + col * SQUARE, oy + row * SQUARE
            draw.rectangle((x, y, x + SQUARE - 1, y + SQUARE - 1), fill=LIGHT)
    for square in range(1, 33):
        row, col = _cell(square, flip)
        x, y = ox + col * SQUARE, oy + row * SQUARE
        colour = _blend(DARK, HIGHLIGHT, 0.55) if square in marked else DARK
        draw.rectangle((x, y, x + SQUARE - 1, y + SQUARE - 1), fill=colour)
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
            r: float = 7
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=HIGHLIGHT, outline=(60, 50, 10))
        if square in captured:
            r = SQUARE * 0.36
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=CAPTURED, width=3)
            d = SQUARE * 0.2
            draw.line((cx - d, cy - d, cx + d, cy + d), fill=CAPTURED, width=5)
            draw.line((cx - d, cy + d, cx + d, cy - d), fill=CAPTURED, width=5)
    # The square numbers go on top of the pieces, outlined, so they are always readable.
    layer, boxes = _numbers(flip)
    image.alpha_composite(layer, (ox, oy))
    if recording():
        with placed(ox, oy):
            for text, box in boxes:
                note_box(text, box, NUMBER_SIZE)


@lru_cache(maxsize=2)
def _numbers(flip: bool) -> tuple[Image.Image, tuple[tuple[str, Box], ...]]:
    """The 32 outlined square numbers on a transparent board-sized layer (drawn once), and
    each number's box on it."""
    layer = Image.new("RGBA", (8 * SQUARE, 8 * SQUARE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    number_font = face(NUMBER_SIZE)
    boxes = []
    for square in range(1, 33):
        row, col = _cell(square, flip)
        xy, text = (col * SQUARE + 3, row * SQUARE + 1), str(square)
        draw.text(
            xy, text, fill=NUMBER_INK, font=number_font, stroke_width=2, stroke_fill=NUMBER_EDGE
        )
        boxes.append((text, draw.textbbox(xy, text, font=number_font, stroke_width=2)))
    return layer, tuple(boxes)


def _draw_footer(image: Image.Image, view: Any, flip: bool) -> None:
    """Under the board: the pieces left, the recent moves, and where each king row is."""
    draw = ImageDraw.Draw(image)
    y = HEADER + 8 * SQUARE + 12
    squares = view["squares"]
    for i, (letter, name) in enumerate((("b", "Black"), ("r", "Red"))):
        x = MARGIN + i * (4 * SQUARE)
        men, kings = squares.count(letter), squares.count(letter.upper())
        image.alpha_composite(_piece(letter, 30), (x, y - 3))
        label = f"{name} {men} {'man' if men == 1 else 'men'}, "
        label += f"{kings} {'king' if kings == 1 else 'kings'}"
        column = (x, y - 3, x + 4 * SQUARE, y + 27)
        draw_text(draw, (x + 36, y), label, TEXT_SIZE, INK, within=column)
    y += 32
    moves = view.get("moves") or []
    if moves:
        lines = _move_lines(moves, view.get("start_fen"))
        shown = "Moves: " + "  ".join(lines)
        measure = face(TEXT_SIZE).getlength
        while len(lines) > 1 and measure(shown) > 8 * SQUARE:
            lines = lines[1:]
            shown = "Moves: … " + "  ".join(lines)
        draw_text(draw, (MARGIN, y), fit_text(shown, TEXT_SIZE, 8 * SQUARE), TEXT_SIZE, INK)
    else:
        draw_text(draw, (MARGIN, y), "No moves yet.", TEXT_SIZE, MUTED)
    y += 28
    top, bottom = ("Red's", "Black's")
    if flip:
        top, bottom = bottom, top
    draw_text(draw, (MARGIN, y), f"Top: {top} king row. Bottom: {bottom}.", TEXT_SIZE, MUTED)


def _move_lines(moves: list[str], start_fen: str | None) -> list[str]:
    """Moves numbered in pairs, Black's first (``3. 8-11 22-17``)."""
    plies = list(moves)
    if start_fen and start_fen.upper().startswith("W"):
        plies.insert(0, "...")
    return [f"{n // 2 + 1}. {' '.join(plies[n : n + 2])}" for n in range(0, len(plies), 2)]


def _status(view: Any) -> str:
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


def describe(view: Any) -> str:
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


def _second_line(view: Any) -> str:
    """Under the status: the last move (and what it took), or the standing draw offer."""
    if view.get("draw_offer") is not None and not view.get("outcome"):
        return f"{TO_MOVE_NAMES[view['draw_offer']]} offers a draw."
    last = view.get("last_move")
    if not last:
        return "Type a move with the square numbers, e.g. 11-15."
    text = f"Last move: {last['notation']}"
    if last["captured"]:
        text += f" (took {', '.join(map(str, last['captured']))})"
    return text


def render_checkers(view: Any, *, flip: bool = False) -> Picture:
    """Draw a checkers view: Black at the top as in the seed; ``flip`` turns the board round.

    The board takes the whole width (a phone shows the image about 330 px wide); the status
    is above it, the piece counts and recent moves below.
    """
    image = Image.new("RGBA", (WIDTH, HEIGHT), (*BACKGROUND, 255))
    draw = ImageDraw.Draw(image)
    status = _status(view)
    if view.get("draw_offer") is not None and not view.get("outcome"):
        status = f"{view['turn_name']} to move."
    draw_text(draw, (MARGIN, 10), fit_text(status, STATUS_SIZE, 8 * SQUARE), STATUS_SIZE, INK)
    second = fit_text(_second_line(view), TEXT_SIZE, 8 * SQUARE)
    draw_text(draw, (MARGIN, 42), second, TEXT_SIZE, MUTED)  # 2 px lower since issue 46: accents
    _draw_board(image, view, flip)
    _draw_footer(image, view, flip)
    return to_picture(image.convert("RGB"), "checkers.png", describe(view))
