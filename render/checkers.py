"""The checkers board image: the playing board, last move marked, and the numbered diagram."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache, partial
from typing import Any

from PIL import Image, ImageDraw

from games.checkers import CheckersView, square_coords
from i18n import Message, _, _np, _p, render, sentences
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
# What the picture says of each side (0 Black, 1 Red), in each language.
_TO_MOVE = (_p("checkers board", "Black to move."), _p("checkers board", "Red to move."))
_OFFERS = (
    _p("checkers board", "Black offers a draw."),
    _p("checkers board", "Red offers a draw."),
)
_WINS = {
    "resign": (
        _p("checkers board", "Black wins: Red resigned."),
        _p("checkers board", "Red wins: Black resigned."),
    ),
    "timeout": (
        _p("checkers board", "Black wins: Red stopped moving."),
        _p("checkers board", "Red wins: Black stopped moving."),
    ),
    "": (
        _p("checkers board", "Black wins: Red cannot move."),
        _p("checkers board", "Red wins: Black cannot move."),
    ),
}
_DRAWS = {
    "repetition": _p("checkers board", "Draw: the same position came up three times."),
    "forty-moves": _p("checkers board", "Draw: 40 moves each without a capture or a man moved."),
    "agreement": _p("checkers board", "Draw agreed."),
    "": _p("checkers board", "Draw."),
}

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


def _board(flip: bool, lang: str = "en") -> Image.Image:
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
    rows = _king_rows(flip, lang)
    draw.text(KING_ROWS, rows, fill=MUTED, font=face(TEXT_SIZE, rows))
    return image


KING_ROWS = (MARGIN, HEADER + 8 * SQUARE + 72)  # where the line naming the king rows starts


def _king_rows(flip: bool, lang: str = "en") -> str:
    if flip:
        said = _p("checkers board", "Top: Black's king row. Bottom: Red's.")
    else:
        said = _p("checkers board", "Top: Red's king row. Bottom: Black's.")
    return fit_text(render(said, lang), TEXT_SIZE, 8 * SQUARE)


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
    board = partial(_board, flip, scene.lang)
    scene.sprite(("board", flip), board, (0, 0), under=BACKGROUND, words=True)
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
    lang = scene.lang
    for i, letter in enumerate("br"):
        x = MARGIN + i * (4 * SQUARE)
        men, kings = squares.count(letter), squares.count(letter.upper())
        icon = ("icon", letter)
        scene.sprite(icon, partial(_piece, letter, 30), (x, y - 3), under=BACKGROUND)
        label = fit_text(render(_pieces(i, men, kings), lang), TEXT_SIZE, 4 * SQUARE - 40)
        column = (x, y - 3, x + 4 * SQUARE, y + 27)
        scene.text((x + 36, y), label, TEXT_SIZE, INK, BACKGROUND, within=column)
    y += 32
    moves = view.get("moves") or []
    if moves:
        shown = _recent(_move_lines(moves, view.get("start_fen")), 8 * SQUARE, lang)
        scene.text((MARGIN, y), fit_text(shown, TEXT_SIZE, 8 * SQUARE), TEXT_SIZE, INK, BACKGROUND)
    else:
        none = render(_p("checkers board", "No moves yet."), lang)
        scene.text((MARGIN, y), none, TEXT_SIZE, MUTED, BACKGROUND)
    note_drawn(KING_ROWS, _king_rows(flip, lang), TEXT_SIZE)  # on the board's sprite


def _pieces(side: int, men: int, kings: int) -> Message:
    """ "Black 12 men, 0 kings": what a side (0 Black, 1 Red) has left."""
    counts = {
        "men": _np("checkers board", "{n} man", "{n} men", men),
        "kings": _np("checkers board", "{n} king", "{n} kings", kings),
    }
    if side == 0:
        return _p("checkers board", "Black {men}, {kings}", **counts)
    return _p("checkers board", "Red {men}, {kings}", **counts)


def _recent(lines: list[str], room: float, lang: str = "en") -> str:
    """``"Moves: 1. 11-15 23-19  2. ..."``, or its latest moves after ``"Moves: … "`` when
    all of them do not fit ``room`` (at least the last pair, cut if it must be)."""
    every = render(_p("checkers board", "Moves: {moves}", moves="  ".join(lines)), lang)
    if text_width(every, TEXT_SIZE) <= room:
        return every
    first = len(lines) - 1
    shown = _latest(lines[first:], lang)
    while first > 1 and text_width(wider := _latest(lines[first - 1 :], lang), TEXT_SIZE) <= room:
        first, shown = first - 1, wider
    return shown


def _latest(lines: list[str], lang: str) -> str:
    return render(_p("checkers board", "Moves: … {moves}", moves="  ".join(lines)), lang)


def _move_lines(moves: list[str], start_fen: str | None) -> list[str]:
    """Moves numbered in pairs, Black's first (``3. 8-11 22-17``)."""
    plies = list(moves)
    if start_fen and start_fen.upper().startswith("W"):
        plies.insert(0, "...")
    return [f"{n // 2 + 1}. {' '.join(plies[n : n + 2])}" for n in range(0, len(plies), 2)]


def _status(view: CheckersView, offer: bool = True) -> Message:
    """Who won and how, or whose move it is (and, with ``offer``, a standing draw offer)."""
    outcome = view.get("outcome")
    if outcome:
        why = outcome["termination"]
        if outcome["winners"]:
            return _WINS.get(why, _WINS[""])[outcome["winners"][0]]
        return _DRAWS.get(why, _DRAWS[""])
    status = _TO_MOVE[view["turn"]]
    if offer and (offered := view.get("draw_offer")) is not None:
        return sentences(status, _OFFERS[offered])  # type: ignore[return-value]
    return status


def describe(view: CheckersView, lang: str = "en", *, turn: bool = True) -> str:
    """Alt text: the position in the seed's letters, whose turn it is (unless not ``turn``)
    and the last move."""
    parts: list[Message | str | None] = [_status(view) if turn else None]
    squares = view["squares"]
    for letter in "bBrR":
        where = [str(i + 1) for i, p in enumerate(squares) if p == letter]
        if where:
            parts.append(f"{letter}: {','.join(where)}.")
    last = view.get("last_move")
    if last:
        took = ",".join(map(str, last["captured"]))
        if took:
            parts.append(
                _("Last move {move} (took {squares}).", move=last["notation"], squares=took)
            )
        else:
            parts.append(_("Last move {move}.", move=last["notation"]))
    return render(sentences(*parts), lang)


def _second_line(view: CheckersView) -> Message:
    """Under the status: the last move (and what it took), or the standing draw offer."""
    if (offer := view.get("draw_offer")) is not None and not view.get("outcome"):
        return _OFFERS[offer]
    last = view.get("last_move")
    if not last:
        return _p("checkers board", "Type a move with the square numbers, e.g. 11-15.")
    if last["captured"]:
        took = ", ".join(map(str, last["captured"]))
        return _p(
            "checkers board",
            "Last move: {move} (took {squares})",
            move=last["notation"],
            squares=took,
        )
    return _p("checkers board", "Last move: {move}", move=last["notation"])


@reused
def render_checkers(view: CheckersView, *, flip: bool = False, lang: str = "en") -> Picture:
    """Draw a checkers view: Black at the top as in the seed; ``flip`` turns the board round.

    The board takes the whole width (a phone shows the image about 330 px wide); the status
    is above it, the piece counts and recent moves below. ``lang`` is the language of its
    words and of its alt text.
    """
    scene = CHECKERS.scene((WIDTH, HEIGHT), BANDS, BACKGROUND, lang)
    _draw_board(scene, view, flip)
    status = fit_text(render(_status(view, offer=False), lang), STATUS_SIZE, 8 * SQUARE)
    scene.text((MARGIN, 10), status, STATUS_SIZE, INK, BACKGROUND)
    second = fit_text(render(_second_line(view), lang), TEXT_SIZE, 8 * SQUARE)
    scene.text((MARGIN, 42), second, TEXT_SIZE, MUTED, BACKGROUND)
    _draw_footer(scene, view, flip)
    return scene.picture("checkers.png", describe(view, lang))
