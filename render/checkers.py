"""The checkers board image: the playing board, last move marked, and the numbered diagram."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache, partial
from typing import Any

from PIL import Image, ImageDraw

from games.checkers import CheckersView, square_coords
from render.base import (
    BACKGROUND,
    GOLD,
    HIGHLIGHT,
    INK,
    MUTED,
    Box,
    Colour,
    Picture,
    face,
    fit_text,
    note_box,
    note_drawn,
    recording,
    text_width,
)
from render.compose import Kind, Scene, reused
from render.palette import Palette

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


def _blend(base: tuple[int, int, int], tint: tuple[int, int, int], amount: float) -> Colour:
    return (
        round(base[0] + (tint[0] - base[0]) * amount),
        round(base[1] + (tint[1] - base[1]) * amount),
        round(base[2] + (tint[2] - base[2]) * amount),
    )


MARKED = _blend(DARK, HIGHLIGHT, 0.55)  # the squares of the last move
EDGE = (20, 40, 28)  # the line round the board
NUMBER_AT = (3, 1)  # a square number's place in its square
# The picture's bands: the status, the last move, the eight rows (the first and last with the
# board's edge), the piece counts, the moves, the king rows. A move draws and compresses again
# only the bands it changed.
FOOT = HEADER + 8 * SQUARE + 2
BANDS = (
    0,
    36,
    HEADER - 2,
    *(HEADER + SQUARE * row for row in range(1, 8)),
    FOOT,
    FOOT + 41,
    FOOT + 69,
)


def _palette() -> Palette:
    pieces = [BLACK_FILL, BLACK_RIM, BLACK_RING, RED_FILL, RED_RIM, RED_RING, GOLD, CAPTURED]
    exact = [BACKGROUND, INK, MUTED, LIGHT, DARK, MARKED, HIGHLIGHT, EDGE, NUMBER_INK]
    return Palette.build(
        [*exact, NUMBER_EDGE, *pieces],
        ramps=[(INK, BACKGROUND), (MUTED, BACKGROUND)],
        samples=_samples,
    )


def _samples() -> list[Image.Image]:
    """Pictures with every colour a board shows: each piece on a square, marked or not, a
    square jumped through and a piece taken, the empty board's corner, the footer's pieces."""
    shown = [
        (letter, marked, False, False)
        for letter in ("", "b", "r", "B", "R")
        for marked in (False, True)
    ]
    shown += [("", True, True, False), ("b", False, False, True), ("R", True, False, True)]
    row = Image.new("RGB", (SQUARE * len(shown), SQUARE))
    for i, (letter, marked, path, captured) in enumerate(shown):
        row.paste(_square(32, letter, marked, path, captured), (i * SQUARE, 0))
    icons = [_flat(_piece(letter, 30), BACKGROUND) for letter in "br"]
    corner = _board(False).crop((0, 0, WIDTH // 2, HEADER + 2 * SQUARE))
    return [corner, row, *icons]


def _flat(image: Image.Image, under: Colour) -> Image.Image:
    flat = Image.new("RGBA", image.size, (*under, 255))
    flat.alpha_composite(image)
    return flat.convert("RGB")


CHECKERS = Kind("checkers", _palette)


def _board(flip: bool) -> Image.Image:
    """The empty board: light and dark squares, each dark one numbered, and its edge."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    ox, oy = MARGIN, HEADER
    draw.rectangle((ox, oy, ox + 8 * SQUARE - 1, oy + 8 * SQUARE - 1), fill=LIGHT)
    for square in range(1, 33):
        row, col = _cell(square, flip)
        image.paste(_square(square), (ox + col * SQUARE, oy + row * SQUARE))
    draw.rectangle(
        (ox - 2, oy - 2, ox + 8 * SQUARE + 1, oy + 8 * SQUARE + 1), outline=EDGE, width=2
    )
    draw.text(KING_ROWS, _king_rows(flip), fill=MUTED, font=face(TEXT_SIZE))
    return image


KING_ROWS = (MARGIN, HEADER + 8 * SQUARE + 72)  # where the line naming the king rows starts


def _king_rows(flip: bool) -> str:
    top, bottom = ("Red's", "Black's")
    if flip:
        top, bottom = bottom, top
    return f"Top: {top} king row. Bottom: {bottom}."


def _square(
    square: int, letter: str = "", marked: bool = False, path: bool = False, captured: bool = False
) -> Image.Image:
    """A dark square with its number: a piece on it, marked as the last move's, a dot where
    the move jumped through, a cross on a piece it took."""
    tile = Image.new("RGBA", (SQUARE, SQUARE), (*(MARKED if marked else DARK), 255))
    draw = ImageDraw.Draw(tile)
    if letter:
        tile.alpha_composite(_piece(letter))
    c = SQUARE // 2
    if path:
        r: float = 7
        draw.ellipse((c - r, c - r, c + r, c + r), fill=HIGHLIGHT, outline=(60, 50, 10))
    if captured:
        r = SQUARE * 0.36
        draw.ellipse((c - r, c - r, c + r, c + r), outline=CAPTURED, width=3)
        d = SQUARE * 0.2
        draw.line((c - d, c - d, c + d, c + d), fill=CAPTURED, width=5)
        draw.line((c - d, c + d, c + d, c - d), fill=CAPTURED, width=5)
    # the number goes on top of the piece, outlined, so it is always readable
    draw.text(
        NUMBER_AT, str(square), fill=NUMBER_INK, font=face(NUMBER_SIZE), stroke_width=2,
        stroke_fill=NUMBER_EDGE,
    )  # fmt: skip
    return tile.convert("RGB")


@lru_cache(maxsize=1)
def _number_boxes() -> tuple[Box, ...]:
    """The box of each square's number (1 to 32) in its square."""
    draw = ImageDraw.Draw(Image.new("L", (1, 1)))
    number_font = face(NUMBER_SIZE)
    return tuple(
        draw.textbbox(NUMBER_AT, str(square), font=number_font, stroke_width=2)
        for square in range(1, 33)
    )


def _draw_board(scene: Scene, view: CheckersView, flip: bool) -> None:
    """The board: the empty board as one sprite, a square sprite where anything is on it."""
    scene.sprite(("board", flip), partial(_board, flip), (0, 0), under=BACKGROUND, words=True)
    ox, oy = MARGIN, HEADER
    last: Mapping[str, Any] = view.get("last_move") or {}
    marked = {last.get("from"), last.get("to")} - {None}
    path = set(last.get("path", [])[:-1])
    captured = set(last.get("captured", []))
    squares = view["squares"]
    for square in range(1, 33):
        letter = squares[square - 1] or ""
        shown = (square, letter, square in marked, square in path, square in captured)
        if shown[1:] == ("", False, False, False):
            continue  # the empty board has it
        row, col = _cell(square, flip)
        xy = (ox + col * SQUARE, oy + row * SQUARE)
        scene.sprite(("square", *shown), partial(_square, *shown), xy, under=DARK)
    if recording():
        boxes = _number_boxes()
        for square in range(1, 33):
            row, col = _cell(square, flip)
            x, y = ox + col * SQUARE, oy + row * SQUARE
            left, top, right, bottom = boxes[square - 1]
            note_box(str(square), (x + left, y + top, x + right, y + bottom), NUMBER_SIZE)


def _draw_footer(scene: Scene, view: CheckersView, flip: bool) -> None:
    """Under the board: the pieces left, the recent moves, and where each king row is."""
    y = HEADER + 8 * SQUARE + 12
    squares = view["squares"]
    for i, (letter, name) in enumerate((("b", "Black"), ("r", "Red"))):
        x = MARGIN + i * (4 * SQUARE)
        men, kings = squares.count(letter), squares.count(letter.upper())
        icon = ("icon", letter)
        scene.sprite(icon, partial(_piece, letter, 30), (x, y - 3), under=BACKGROUND)
        label = f"{name} {men} {'man' if men == 1 else 'men'}, "
        label += f"{kings} {'king' if kings == 1 else 'kings'}"
        column = (x, y - 3, x + 4 * SQUARE, y + 27)
        scene.text((x + 36, y), label, TEXT_SIZE, INK, BACKGROUND, within=column)
    y += 32
    moves = view.get("moves") or []
    if moves:
        shown = _recent(_move_lines(moves, view.get("start_fen")), 8 * SQUARE)
        scene.text((MARGIN, y), fit_text(shown, TEXT_SIZE, 8 * SQUARE), TEXT_SIZE, INK, BACKGROUND)
    else:
        scene.text((MARGIN, y), "No moves yet.", TEXT_SIZE, MUTED, BACKGROUND)
    note_drawn(KING_ROWS, _king_rows(flip), TEXT_SIZE)  # on the board's sprite


def _recent(lines: list[str], room: float) -> str:
    """``"Moves: 1. 11-15 23-19  2. ..."``, or its latest moves after ``"Moves: … "`` when
    all of them do not fit ``room`` (at least the last pair, cut if it must be)."""
    gap = 2 * text_width(" ", TEXT_SIZE)
    widths = [text_width(line, TEXT_SIZE) for line in lines]
    if text_width("Moves:", TEXT_SIZE) + gap / 2 + sum(widths) + gap * (len(lines) - 1) <= room:
        return "Moves: " + "  ".join(lines)
    head = text_width("Moves: …", TEXT_SIZE) + gap / 2
    first, total = len(lines) - 1, widths[-1]
    while first > 1 and head + total + gap + widths[first - 1] <= room:
        first -= 1
        total += gap + widths[first]
    return "Moves: … " + "  ".join(lines[first:])


def _move_lines(moves: list[str], start_fen: str | None) -> list[str]:
    """Moves numbered in pairs, Black's first (``3. 8-11 22-17``)."""
    plies = list(moves)
    if start_fen and start_fen.upper().startswith("W"):
        plies.insert(0, "...")
    return [f"{n // 2 + 1}. {' '.join(plies[n : n + 2])}" for n in range(0, len(plies), 2)]


def _status(view: CheckersView) -> str:
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
    if (offer := view.get("draw_offer")) is not None:
        status += f" {TO_MOVE_NAMES[offer]} offers a draw."
    return status


def describe(view: CheckersView) -> str:
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


def _second_line(view: CheckersView) -> str:
    """Under the status: the last move (and what it took), or the standing draw offer."""
    if (offer := view.get("draw_offer")) is not None and not view.get("outcome"):
        return f"{TO_MOVE_NAMES[offer]} offers a draw."
    last = view.get("last_move")
    if not last:
        return "Type a move with the square numbers, e.g. 11-15."
    text = f"Last move: {last['notation']}"
    if last["captured"]:
        text += f" (took {', '.join(map(str, last['captured']))})"
    return text


@reused
def render_checkers(view: CheckersView, *, flip: bool = False, lang: str = "en") -> Picture:
    """Draw a checkers view: Black at the top as in the seed; ``flip`` turns the board round.

    The board takes the whole width (a phone shows the image about 330 px wide); the status
    is above it, the piece counts and recent moves below. ``lang`` is the language of its
    words (only English for now).
    """
    scene = CHECKERS.scene((WIDTH, HEIGHT), BANDS, BACKGROUND, lang)
    _draw_board(scene, view, flip)
    status = _status(view)
    if view.get("draw_offer") is not None and not view.get("outcome"):
        status = f"{view['turn_name']} to move."
    status = fit_text(status, STATUS_SIZE, 8 * SQUARE)
    scene.text((MARGIN, 10), status, STATUS_SIZE, INK, BACKGROUND)
    second = fit_text(_second_line(view), TEXT_SIZE, 8 * SQUARE)
    scene.text((MARGIN, 40), second, TEXT_SIZE, MUTED, BACKGROUND)
    _draw_footer(scene, view, flip)
    return scene.picture("checkers.png", describe(view))
