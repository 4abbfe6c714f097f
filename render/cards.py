"""Card sprites shared by Kabu, Quatorze and Hearts: faces, the back, and a fanned hand.

Everything is drawn here with Pillow: suits are vector shapes (the bundled font has no suit
glyphs), drawn at 4x and downscaled with LANCZOS for smooth edges. Sprites are cached.

>>> from games.cards import Card
>>> card_image(Card.parse("QS"), 60).size
(60, 84)
>>> card_text(Card.parse("TD"))
'ten of diamonds'
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Sequence
from functools import lru_cache, partial

from PIL import Image, ImageDraw

from games.cards import Card, Rank, Suit
from i18n import Message, _p, render
from i18n.formats import Listing
from render.base import Box, face, note_box, recording
from render.compose import Scene

__all__ = [
    "CARD_RATIO",
    "card_height",
    "card_image",
    "card_text",
    "card_words",
    "cards_text",
    "cards_words",
    "dimmed_image",
    "draw_suit",
    "hand_image",
    "hand_size",
    "index_font_size",
    "parse_card",
    "place_card",
    "put_card",
    "put_fan",
    "put_hand",
    "sample_sheet",
    "suit_colour",
]

CARD_RATIO = 1.4
"""Card height divided by card width."""

SUPERSAMPLE = 4
PIP_MIN_WIDTH = 100
"""From this width number cards show the classic pip layout; narrower ones one big suit."""

RED = (200, 30, 40)
BLACK = (28, 28, 34)
PAPER = (253, 252, 248)
EDGE = (120, 120, 128)
BACK_FIELD = (30, 44, 96)
BACK_LINE = (128, 28, 48)
BACK_GOLD = (214, 170, 70)

# Court panels: (band colour, panel tint). Jacks blue, queens violet, kings gold.
COURT_COLOURS: dict[Rank, tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    Rank.JACK: ((46, 104, 170), (226, 236, 248)),
    Rank.QUEEN: ((140, 60, 140), (242, 228, 242)),
    Rank.KING: ((206, 150, 30), (250, 240, 210)),
}

_RANK_WORDS = {  # a card's rank in words, as alt text names it in each language
    Rank.ACE: _p("card rank", "ace"),
    Rank.TWO: _p("card rank", "two"),
    Rank.THREE: _p("card rank", "three"),
    Rank.FOUR: _p("card rank", "four"),
    Rank.FIVE: _p("card rank", "five"),
    Rank.SIX: _p("card rank", "six"),
    Rank.SEVEN: _p("card rank", "seven"),
    Rank.EIGHT: _p("card rank", "eight"),
    Rank.NINE: _p("card rank", "nine"),
    Rank.TEN: _p("card rank", "ten"),
    Rank.JACK: _p("card rank", "jack"),
    Rank.QUEEN: _p("card rank", "queen"),
    Rank.KING: _p("card rank", "king"),
}
_SUIT_WORDS = {
    Suit.CLUBS: _p("card suit", "clubs"),
    Suit.DIAMONDS: _p("card suit", "diamonds"),
    Suit.HEARTS: _p("card suit", "hearts"),
    Suit.SPADES: _p("card suit", "spades"),
}

Point = tuple[float, float]
Colour = tuple[int, int, int]


# --- words -----------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def parse_card(text: str) -> Card:
    """``Card.parse``, remembered: a board names the same cards picture after picture."""
    return Card.parse(text)


def card_words(card: Card | None) -> Message:
    """A card in words, a message: ``"queen of spades"``; ``None`` is ``"a face-down card"``."""
    if card is None:
        return _p("card", "a face-down card")
    return _p("card", "{rank} of {suit}", rank=_RANK_WORDS[card.rank], suit=_SUIT_WORDS[card.suit])


def card_text(card: Card | None, lang: str = "en") -> str:
    """Words for alt text in the language ``lang``: ``"queen of spades"``, ``"dame de pique"``."""
    return render(card_words(card), lang)


def cards_words(cards: Iterable[Card | None]) -> Listing | Message:
    """Cards in words, as the language lists them; ``"no cards"`` when there are none."""
    words = tuple(card_words(card) for card in cards)
    return Listing(words) if words else _p("card", "no cards")


def cards_text(cards: Iterable[Card | None], lang: str = "en") -> str:
    """``"queen of spades, ten of diamonds and two of clubs"``; ``"no cards"`` when empty."""
    return render(cards_words(cards), lang)


def suit_colour(suit: Suit) -> Colour:
    """Red for hearts and diamonds, near-black for clubs and spades."""
    return RED if suit.is_red else BLACK


# --- suit shapes -----------------------------------------------------------------------------
# Outlines in a unit box: x in [-0.5, 0.5] (scaled by the shape's aspect), y in [-0.5, 0.5],
# y growing downwards. Built once at import.


def _heart_outline(steps: int = 72) -> list[Point]:
    raw = []
    for i in range(steps):
        t = 2 * math.pi * i / steps
        x = 16 * math.sin(t) ** 3
        y = -(13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t))
        raw.append((x, y))
    return _normalise(raw)


def _normalise(points: list[Point]) -> list[Point]:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    w, h = max(xs) - min(xs), max(ys) - min(ys)
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    scale = max(w, h)
    return [((x - cx) / scale, (y - cy) / scale) for x, y in points]


def _diamond_outline(steps: int = 12) -> list[Point]:
    # Four gently concave sides (quadratic curves bowed towards the centre).
    corners = [(0.0, -0.5), (0.36, 0.0), (0.0, 0.5), (-0.36, 0.0)]
    points: list[Point] = []
    for i in range(4):
        (x0, y0), (x1, y1) = corners[i], corners[(i + 1) % 4]
        mx, my = (x0 + x1) / 2 * 0.82, (y0 + y1) / 2 * 0.82
        for s in range(steps):
            t = s / steps
            x = (1 - t) ** 2 * x0 + 2 * (1 - t) * t * mx + t**2 * x1
            y = (1 - t) ** 2 * y0 + 2 * (1 - t) * t * my + t**2 * y1
            points.append((x, y))
    return points


_HEART = _heart_outline()
_DIAMOND = _diamond_outline()


def _stem(top: float, bottom: float, half_width: float, steps: int = 10) -> list[Point]:
    """A flared foot: narrow at ``top``, widening with concave sides to ``bottom``."""
    left = []
    for s in range(steps + 1):
        t = s / steps
        left.append((-0.025 - (half_width - 0.025) * t**2, top + (bottom - top) * t))
    right = [(-x, y) for x, y in reversed(left)]
    return left + right


def _suit_parts(suit: Suit) -> tuple[list[list[Point]], list[tuple[Point, float]]]:
    """Polygons and circles (centre, radius) making ``suit`` in the unit box."""
    if suit is Suit.HEARTS:
        return [[(x * 0.95, y * 0.95) for x, y in _HEART]], []
    if suit is Suit.DIAMONDS:
        return [_DIAMOND], []
    if suit is Suit.SPADES:
        body = [(x * 0.9, -y * 0.8 - 0.1) for x, y in _HEART]
        return [body, _stem(0.05, 0.5, 0.2)], []
    circles = [((0.0, -0.25), 0.22), ((-0.24, 0.07), 0.22), ((0.24, 0.07), 0.22)]
    centre_fill = [(0.0, -0.1), (0.14, 0.12), (-0.14, 0.12)]
    return [centre_fill, _stem(0.0, 0.5, 0.2)], circles


_PARTS = {suit: _suit_parts(suit) for suit in Suit}


def draw_suit(
    draw: ImageDraw.ImageDraw,
    suit: Suit,
    centre: Point,
    size: float,
    fill: Colour | tuple[int, int, int, int] | None = None,
    flip: bool = False,
) -> None:
    """Draw ``suit`` as a vector shape ``size`` pixels tall, centred on ``centre``.

    ``flip`` turns it upside down (the lower pips of a classic layout).
    """
    colour = fill if fill is not None else suit_colour(suit)
    cx, cy = centre
    sign = -1 if flip else 1
    polygons, circles = _PARTS[suit]
    for polygon in polygons:
        draw.polygon([(cx + sign * x * size, cy + sign * y * size) for x, y in polygon], colour)
    for (x, y), r in circles:
        px, py = cx + sign * x * size, cy + sign * y * size
        draw.ellipse((px - r * size, py - r * size, px + r * size, py + r * size), colour)


# --- text ------------------------------------------------------------------------------------

_CAP_RATIO = 0.70  # cap height / font size of Pillow's bundled font (Aileron)


def _text_mask(text: str, cap_height: float, max_width: float, bold: float = 0.0) -> Image.Image:
    """An "L" mask of ``text`` with the given cap height, squeezed to ``max_width`` if wider.

    Letters are set tight (ink to ink, a small gap) so ``10`` fits a narrow index. ``bold``
    thickens strokes by that fraction of the cap height.
    """
    size = max(4, round(cap_height / _CAP_RATIO))
    font = face(size)
    stroke = max(0, round(bold * cap_height))
    _, top, _, bottom = font.getbbox(text, stroke_width=stroke)
    gap = round(cap_height * 0.06)
    glyphs = []
    for char in text:
        left, _, right, _ = font.getbbox(char, stroke_width=stroke)
        glyph = Image.new("L", (int(right - left), int(bottom - top)), 0)
        ImageDraw.Draw(glyph).text(
            (-left, -top), char, fill=255, font=font, stroke_width=stroke, stroke_fill=255
        )
        glyphs.append(glyph)
    width = sum(g.width for g in glyphs) + gap * (len(glyphs) - 1)
    mask = Image.new("L", (width, int(bottom - top)))
    x = 0
    for glyph in glyphs:
        mask.paste(glyph, (x, 0))
        x += glyph.width + gap
    if mask.width > max_width:
        mask = mask.resize((max(1, round(max_width)), mask.height), Image.Resampling.LANCZOS)
    return mask


def _paste_text(
    image: Image.Image,
    text: str,
    centre_x: float,
    top: float,
    cap_height: float,
    max_width: float,
    colour: Colour,
    bold: float = 0.0,
) -> tuple[int, int, int, int]:
    """Draw ``text`` horizontally centred at ``centre_x`` from ``top``; return its box."""
    mask = _text_mask(text, cap_height, max_width, bold)
    solid = Image.new("RGBA", mask.size, (*colour, 255))
    x, y = round(centre_x - mask.width / 2), round(top)
    image.paste(solid, (x, y), mask)
    return x, y, x + mask.width, y + mask.height


# --- faces -----------------------------------------------------------------------------------

# Classic pip positions in a unit pip area: (column, row), column 0/0.5/1, row 0..1.
_L, _C, _R = 0.0, 0.5, 1.0
_SIDES_4 = [(_L, 0.0), (_R, 0.0), (_L, 1.0), (_R, 1.0)]
_SIDES_6 = [*_SIDES_4, (_L, 0.5), (_R, 0.5)]
_SIDES_8 = [(c, r) for c in (_L, _R) for r in (0.0, 1 / 3, 2 / 3, 1.0)]
PIP_LAYOUTS: dict[int, list[Point]] = {
    2: [(_C, 0.0), (_C, 1.0)],
    3: [(_C, 0.0), (_C, 0.5), (_C, 1.0)],
    4: _SIDES_4,
    5: [*_SIDES_4, (_C, 0.5)],
    6: _SIDES_6,
    7: [*_SIDES_6, (_C, 0.25)],
    8: [*_SIDES_6, (_C, 0.25), (_C, 0.75)],
    9: [*_SIDES_8, (_C, 0.5)],
    10: [*_SIDES_8, (_C, 1 / 6), (_C, 5 / 6)],
}


def card_height(width: int) -> int:
    """The height of a card sprite ``width`` pixels wide."""
    return round(width * CARD_RATIO)


def _blank(width: int, height: int, fill: Colour) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A transparent canvas holding a rounded card with a thin border."""
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    border = max(SUPERSAMPLE, round(width / 90))
    draw.rounded_rectangle(
        (0, 0, width - 1, height - 1),
        radius=round(width * 0.075),
        fill=fill,
        outline=EDGE,
        width=border,
    )
    return image, draw


def _is_small(width: int) -> bool:
    """Whether a supersampled ``width`` is a phone-sized card (big index, no pips)."""
    return width < PIP_MIN_WIDTH * SUPERSAMPLE


def _index_cap(width: int) -> float:
    """The cap height of the corner index on a card ``width`` pixels wide (any scale)."""
    return width * (0.27 if _is_small(width) else 0.21)


def index_font_size(width: int) -> float:
    """The font size, in pixels of the final sprite, of the rank in a ``width``-wide card's
    corner: the smallest text on a face (what the legibility test measures)."""
    return _index_cap(width * SUPERSAMPLE) / _CAP_RATIO / SUPERSAMPLE


def _corner_size(width: int) -> tuple[int, int]:
    return round(width * 0.32), round(width * 0.7)


def _corner_layer(card: Card, width: int) -> tuple[Image.Image, tuple[int, int, int, int]]:
    """The top-left index (rank over a small suit): a transparent layer for the card's corner,
    and the box of the rank on it."""
    layer = Image.new("RGBA", _corner_size(width), (0, 0, 0, 0))
    colour = suit_colour(card.suit)
    cap = _index_cap(width)
    if _is_small(width):  # legibility first: the index is what a phone shows
        centre_x, max_w, suit_size = width * 0.155, width * 0.27, width * 0.19
    else:
        centre_x, max_w, suit_size = width * 0.13, width * 0.2, width * 0.15
    top = width * 0.07
    box = _paste_text(layer, card.rank.label, centre_x, top, cap, max_w, colour, bold=0.06)
    centre = (centre_x, box[3] + width * 0.04 + suit_size / 2)
    draw_suit(ImageDraw.Draw(layer), card.suit, centre, suit_size)
    return layer, box


def _draw_pips(image: Image.Image, card: Card, width: int, height: int) -> None:
    draw = ImageDraw.Draw(image)
    size = width * 0.18
    left, right = width * 0.355, width * 0.645
    top, bottom = height * 0.18, height * 0.82
    for column, row in PIP_LAYOUTS[card.rank]:
        x = left + (right - left) * column
        y = top + (bottom - top) * row
        draw_suit(draw, card.suit, (x, y), size, flip=row > 0.5)


def _draw_big_suit(image: Image.Image, card: Card, width: int, height: int, scale: float) -> None:
    draw_suit(ImageDraw.Draw(image), card.suit, (width / 2, height / 2), width * scale)


def _draw_crown(draw: ImageDraw.ImageDraw, cx: float, cy: float, w: float, ink: Colour) -> None:
    """A three-pointed crown ``w`` wide, centred on (cx, cy)."""
    h = w * 0.6
    x0, x1, y0, y1 = cx - w / 2, cx + w / 2, cy - h / 2, cy + h / 2
    outline = [
        (x0, y1),
        (x0, y0 + h * 0.2),
        (x0 + w * 0.25, y0 + h * 0.55),
        (cx, y0),
        (x1 - w * 0.25, y0 + h * 0.55),
        (x1, y0 + h * 0.2),
        (x1, y1),
    ]
    draw.polygon(outline, fill=(250, 220, 110), outline=ink, width=max(1, round(w * 0.05)))
    r = w * 0.07
    for px, py in (outline[1], outline[3], outline[5]):
        draw.ellipse((px - r, py - r, px + r, py + r), fill=ink)
    draw.rectangle((x0, y1 - h * 0.2, x1, y1), fill=ink)


def _draw_tiara(draw: ImageDraw.ImageDraw, cx: float, cy: float, w: float, ink: Colour) -> None:
    """A coronet of pearls on an arched band."""
    h = w * 0.55
    x0, x1, y1 = cx - w / 2, cx + w / 2, cy + h / 2
    draw.rounded_rectangle(
        (x0, y1 - h * 0.28, x1, y1),
        radius=h * 0.1,
        fill=(250, 235, 250),
        outline=ink,
        width=max(1, round(w * 0.05)),
    )
    r = w * 0.085
    for i in range(5):
        t = i / 4
        px = x0 + w * 0.1 + (w * 0.8) * t
        py = y1 - h * 0.45 - math.sin(math.pi * t) * h * 0.35
        draw.ellipse(
            (px - r, py - r, px + r, py + r),
            fill=(250, 235, 250),
            outline=ink,
            width=max(1, round(w * 0.04)),
        )
    draw.ellipse((cx - r * 0.6, y1 - h * 0.2, cx + r * 0.6, y1 - h * 0.08), fill=ink)


def _draw_cap(draw: ImageDraw.ImageDraw, cx: float, cy: float, w: float, ink: Colour) -> None:
    """A squire's cap with a long feather."""
    h = w * 0.55
    x0, x1, y1 = cx - w / 2, cx + w / 2, cy + h / 2
    line = max(1, round(w * 0.05))
    pale = (235, 245, 255)
    draw.chord(
        (x0 + w * 0.06, y1 - h * 0.95, x1 - w * 0.26, y1 + h * 0.35),
        180,
        360,
        fill=pale,
        outline=ink,
        width=line,
    )
    # The feather: a leaf from the band's right end sweeping up and out, with a midrib.
    root, tip = (cx + w * 0.05, y1 - h * 0.3), (x1, y1 - h * 1.05)
    feather = [
        root,
        (cx + w * 0.12, y1 - h * 0.85),
        (x1 - w * 0.08, y1 - h * 1.1),
        tip,
        (x1 - w * 0.02, y1 - h * 0.8),
        (cx + w * 0.25, y1 - h * 0.35),
    ]
    draw.polygon(feather, fill=pale, outline=ink, width=line)
    draw.line((root, tip), fill=ink, width=line)
    draw.rounded_rectangle((x0, y1 - h * 0.3, x1 - w * 0.1, y1), radius=h * 0.12, fill=ink)


_EMBLEMS = {Rank.JACK: _draw_cap, Rank.QUEEN: _draw_tiara, Rank.KING: _draw_crown}


def _court_panel(width: int, height: int) -> tuple[float, float, float, float]:
    """The framed panel of a court card: left, top, right, bottom."""
    x0 = width * (0.31 if _is_small(width) else 0.27)
    return x0, height * 0.07, width - x0, height * 0.93


def _court_letter(card: Card, width: int, height: int) -> tuple[Image.Image, tuple[int, int]]:
    """The big letter of a court card (its mask) and where its top-left corner goes."""
    x0, y0, x1, y1 = _court_panel(width, height)
    block = width * (0.3 + 0.05 + 0.17)  # the letter, a gap and the suit under it
    mask = _text_mask(card.rank.letter, width * 0.3, (x1 - x0) * 0.9, bold=0.05)
    return mask, (round(width / 2 - mask.width / 2), round((y0 + y1) / 2 - block / 2))


def _draw_court(image: Image.Image, card: Card, width: int, height: int) -> None:
    """A framed panel: emblem on a coloured band, the letter large, the suit under it."""
    draw = ImageDraw.Draw(image)
    band, tint = COURT_COLOURS[card.rank]
    colour = suit_colour(card.suit)
    x0, y0, x1, y1 = _court_panel(width, height)
    line = max(SUPERSAMPLE, round(width * 0.012))
    draw.rounded_rectangle(
        (x0, y0, x1, y1), radius=width * 0.04, fill=tint, outline=band, width=line * 2
    )
    band_h = (y1 - y0) * 0.2
    draw.rectangle((x0 + line * 2, y0 + line * 2, x1 - line * 2, y0 + band_h), fill=band)
    draw.rectangle((x0 + line * 2, y1 - band_h, x1 - line * 2, y1 - line * 2), fill=band)
    emblem = _EMBLEMS[card.rank]
    ink = (40, 30, 20)
    emblem_w = (x1 - x0) * 0.62
    emblem(draw, (x0 + x1) / 2, y0 + band_h * 0.54, emblem_w, ink)
    # Mirror the emblem into the bottom band, as court cards are double-headed.
    bh = round(band_h + line)
    top_band = image.crop((round(x0), round(y0), round(x1), round(y0) + bh)).rotate(180)
    image.paste(top_band, (round(x0), round(y1) - bh + 1))
    mask, (x, y) = _court_letter(card, width, height)
    image.paste(Image.new("RGBA", mask.size, (*colour, 255)), (x, y), mask)
    suit_size = width * 0.17
    draw_suit(
        draw, card.suit, (width / 2, y + mask.height + width * 0.05 + suit_size / 2), suit_size
    )


def _draw_back(width: int, height: int) -> Image.Image:
    """A navy field crossed by a maroon lattice with gold threads, inside a white margin."""
    image, draw = _blank(width, height, PAPER)
    inset = round(width * 0.07)
    inner = (inset, inset, width - 1 - inset, height - 1 - inset)
    radius = round(width * 0.04)
    pattern = Image.new("RGBA", (width, height), (*BACK_FIELD, 255))
    pd = ImageDraw.Draw(pattern)
    cx, cy = width / 2, height / 2
    step = width / 5
    wide = max(SUPERSAMPLE, round(width * 0.035))
    thin = max(2, round(width * 0.008))
    offsets = [n * step for n in range(-round(height / step) - 2, round(height / step) + 3)]
    for colour, line in ((BACK_LINE, wide), (BACK_GOLD, thin)):
        for d in offsets:
            # x - cx = +-(y - cy) + d, drawn from y = 0 to y = height.
            pd.line((cx + d - cy, 0, cx + d + cy, height), fill=colour, width=line)
            pd.line((cx + d + cy, 0, cx + d - cy, height), fill=colour, width=line)
    # A small gold lozenge in the middle of each cell.
    r = step * 0.12
    for a in offsets:
        for b in offsets:
            x, y = cx + (a + b) / 2, cy + (b - a) / 2 + step / 2
            if -r <= x <= width + r and -r <= y <= height + r:
                pd.polygon([(x, y - r), (x + r, y), (x, y + r), (x - r, y)], fill=BACK_GOLD)
    mask = Image.new("L", (width, height), 0)
    ImageDraw.Draw(mask).rounded_rectangle(inner, radius=radius, fill=255)
    image.paste(pattern, (0, 0), mask)
    draw.rounded_rectangle(inner, radius=radius, outline=BACK_LINE, width=wide // 2)
    return image


def _draw_face(card: Card, width: int, height: int) -> Image.Image:
    image, _ = _blank(width, height, PAPER)
    if card.rank is Rank.ACE:
        _draw_big_suit(image, card, width, height, 0.42 if _is_small(width) else 0.5)
    elif card.rank in COURT_COLOURS:
        _draw_court(image, card, width, height)
    elif _is_small(width):
        _draw_big_suit(image, card, width, height, 0.42)
    else:
        _draw_pips(image, card, width, height)
    corner, _ = _corner_layer(card, width)
    image.alpha_composite(corner)
    image.alpha_composite(corner.rotate(180), (width - corner.width, height - corner.height))
    return image


def card_image(card: Card | None, width: int = 80) -> Image.Image:
    """The sprite of ``card`` (``None`` = the back): RGBA, ``width`` x ``card_height(width)``.

    The image is cached and shared: do not mutate it (``.copy()`` first if you must).
    Compose it with :func:`place_card`, which also notes the index text it shows.
    """
    return _sprite(card, width)


@lru_cache(maxsize=512)
def card_texts(card: Card, width: int) -> tuple[tuple[str, Box, float], ...]:
    """The texts on ``card``'s sprite ``width`` pixels wide, in the sprite's pixels: the rank in
    the top-left and the bottom-right corners, then a court card's big letter; each with its
    box and font size."""
    big_w, big_h = width * SUPERSAMPLE, card_height(width) * SUPERSAMPLE
    _, (x0, y0, x1, y1) = _corner_layer(card, big_w)
    s = SUPERSAMPLE
    size = index_font_size(width)
    label = card.rank.label
    texts = [
        (label, (x0 / s, y0 / s, x1 / s, y1 / s), size),
        # the bottom-right corner is the top-left one turned half round
        (label, ((big_w - x1) / s, (big_h - y1) / s, (big_w - x0) / s, (big_h - y0) / s), size),
    ]
    if card.rank in COURT_COLOURS:
        mask, (x, y) = _court_letter(card, big_w, big_h)
        box = (x / s, y / s, (x + mask.width) / s, (y + mask.height) / s)
        texts.append((card.rank.letter, box, big_w * 0.3 / _CAP_RATIO / s))
    return tuple(texts)


def place_card(
    image: Image.Image,
    card: Card | None,
    width: int,
    xy: tuple[int, int],
    *,
    dimmed: bool = False,
    visible: int | None = None,
) -> None:
    """Composite ``card`` (``None``: its back) ``width`` wide at ``xy`` of an RGBA ``image``.

    ``visible`` is how much of its width the next card leaves showing (``None``: all of it);
    the rank in the top-left corner is noted as text that must stay in that visible part, the
    rank in the bottom-right corner and a court card's letter only when the whole card shows.
    """
    sprite = dimmed_image(card, width) if dimmed else card_image(card, width)
    image.alpha_composite(sprite, xy)
    if card is None or not recording():
        return
    x, y = xy
    shown = width if visible is None else visible
    area = (x, y, x + shown, y + sprite.height)
    for index, (text, box, size) in enumerate(card_texts(card, width)):
        if index == 0 or visible is None:  # a card partly covered shows its top-left corner
            note_box(text, _moved(box, x, y), size, area)


def _moved(box: Box, x: float, y: float) -> Box:
    return box[0] + x, box[1] + y, box[2] + x, box[3] + y


@lru_cache(maxsize=512)
def _sprite(card: Card | None, width: int) -> Image.Image:
    if width < 8:
        raise ValueError(f"card width {width} is too small")
    height = card_height(width)
    big_w, big_h = width * SUPERSAMPLE, height * SUPERSAMPLE
    big = _draw_back(big_w, big_h) if card is None else _draw_face(card, big_w, big_h)
    return big.resize((width, height), Image.Resampling.LANCZOS)


# --- hands -----------------------------------------------------------------------------------

DIM_ALPHA = 110
"""Strength of the grey veil over cards that cannot be played (0..255)."""
LIFT = 0.14
"""How far a raised card sits above the row, as a fraction of the card height."""


DIM = (70, 74, 82)
"""The colour of the veil."""


@lru_cache(maxsize=256)
def dimmed_image(card: Card | None, width: int) -> Image.Image:
    """The sprite of ``card`` under the grey veil of a card that cannot be played."""
    sprite = card_image(card, width)
    veil = Image.new("RGBA", sprite.size, (*DIM, DIM_ALPHA))
    shaded = Image.alpha_composite(sprite, veil)
    shaded.putalpha(sprite.getchannel("A"))
    return shaded


def _step(width: int, overlap: float) -> int:
    return max(1, round(width * (1 - overlap)))


def hand_size(count: int, width: int = 80, overlap: float = 0.45) -> tuple[int, int]:
    """The size of :func:`hand_image` for ``count`` cards."""
    height = card_height(width) + round(card_height(width) * LIFT)
    if count <= 0:
        return width, height
    return width + (count - 1) * _step(width, overlap), height


def hand_image(
    cards: Sequence[Card | None],
    width: int = 80,
    overlap: float = 0.45,
    dim: Collection[Card] = (),
    raised: Collection[Card] = (),
) -> Image.Image:
    """A row of cards, each covering ``overlap`` of the one to its left. RGBA, new each call.

    Cards in ``dim`` get a grey veil (not playable); cards in ``raised`` sit higher (selected).
    The height always leaves room for a raised card, so a hand keeps its size as the selection
    changes: see :func:`hand_size`. An empty hand is a transparent card-sized image.
    The index texts are noted as at the image's top-left corner: draw it inside
    :func:`~render.base.placed` to note them where the hand goes.
    """
    if not 0 <= overlap < 1:
        raise ValueError(f"overlap {overlap} must be in [0, 1)")
    size = hand_size(len(cards), width, overlap)
    image = Image.new("RGBA", size, (0, 0, 0, 0))
    lift = size[1] - card_height(width)
    step = _step(width, overlap)
    dim_set, raised_set = set(dim), set(raised)
    last = len(cards) - 1
    for i, card in enumerate(cards):
        y = 0 if card is not None and card in raised_set else lift
        place_card(
            image,
            card,
            width,
            (i * step, y),
            dimmed=card in dim_set,
            visible=None if i == last else step,
        )
    return image


# --- cards in a composed picture ------------------------------------------------------------


def put_card(
    scene: Scene,
    card: Card | None,
    width: int,
    xy: tuple[int, int],
    *,
    under: Colour,
) -> None:
    """Draw ``card`` (``None``: its back) ``width`` wide at ``xy`` of ``scene``, alone, its
    rounded corners blended over ``under``: :func:`place_card` for a composed picture (the
    index texts are noted the same way). Cards that overlap go through :func:`put_hand`."""
    scene.sprite(("card", card, width, under), partial(card_image, card, width), xy, under=under)
    if card is not None and recording():
        _note_card(card, width, xy, None)


def put_hand(
    scene: Scene,
    cards: Sequence[Card | None],
    xy: tuple[int, int],
    *,
    under: Colour,
    width: int = 80,
    overlap: float = 0.45,
    dim: Collection[Card] = (),
    raised: Collection[Card] = (),
) -> None:
    """Draw ``cards`` in a row at ``xy`` of ``scene`` as :func:`hand_image` draws them (its
    size is :func:`hand_size`)."""
    lift = hand_size(len(cards), width, overlap)[1] - card_height(width)
    raised_set = set(raised)
    drops = [0 if card is not None and card in raised_set else lift for card in cards]
    put_fan(
        scene, cards, xy, width=width, step=_step(width, overlap), under=under, drops=drops, dim=dim
    )


def put_fan(
    scene: Scene,
    cards: Sequence[Card | None],
    xy: tuple[int, int],
    *,
    width: int,
    step: int,
    under: Colour,
    drops: Sequence[int] | None = None,
    dim: Collection[Card] = (),
) -> None:
    """Draw ``cards`` at ``xy`` of ``scene``, each ``step`` right of the one before and over
    it, ``drops`` lower (all 0 by default), those in ``dim`` veiled; their index texts are
    noted as :func:`place_card` notes them.

    A card's rounded corners are blended over what lies under them: ``under`` at the fan's
    edges, the face of the card before where it covers a left corner (one sprite a card and
    what lies under its left corners, so a new hand costs no new drawing).
    """
    dim_set = set(dim)
    drops = drops or [0] * len(cards)
    x, y = xy
    for i, (card, drop) in enumerate(zip(cards, drops, strict=True)):
        dimmed = card in dim_set
        before = None
        if i and cards[i - 1] is not None:  # the card whose face lies under this one's left
            before = (cards[i - 1] in dim_set, step, drops[i - 1] - drop)
        key = ("card", card, width, dimmed, under, before)
        draw = partial(_over_before, card, width, dimmed, under, before)
        scene.sprite(key, draw, (x + i * step, y + drop), under=under)
    if recording():
        last = len(cards) - 1
        for i, (card, drop) in enumerate(zip(cards, drops, strict=True)):
            if card is not None:
                _note_card(card, width, (x + i * step, y + drop), None if i == last else step)


def _over_before(
    card: Card | None,
    width: int,
    dimmed: bool,
    under: Colour,
    before: tuple[bool, int, int] | None,
) -> Image.Image:
    """The card's sprite over ``under`` and, ``before`` = (dimmed, step, drop), the card
    before it in a fan (a blank face: where a card's left corners lie on the one before,
    that one shows its edge and plain paper): RGBA, transparent where the card does not
    reach."""
    sprite = dimmed_image(card, width) if dimmed else card_image(card, width)
    ground = Image.new("RGBA", sprite.size, (*under, 255))
    if before is not None:
        veiled, step, drop = before
        face = _blank_face(width, veiled)
        ground.alpha_composite(face, (0, max(drop, 0)), (step, max(-drop, 0)))
    ground.alpha_composite(sprite)
    ground.putalpha(sprite.getchannel("A").point(_DRAWN))
    return ground


@lru_cache(maxsize=16)
def _blank_face(width: int, dimmed: bool) -> Image.Image:
    """A card with nothing on it, drawn as the cards are (veiled when ``dimmed``)."""
    height = card_height(width)
    big, _ = _blank(width * SUPERSAMPLE, height * SUPERSAMPLE, PAPER)
    face = big.resize((width, height), Image.Resampling.LANCZOS)
    if dimmed:
        veiled = Image.alpha_composite(face, Image.new("RGBA", face.size, (*DIM, DIM_ALPHA)))
        veiled.putalpha(face.getchannel("A"))
        return veiled
    return face


_DRAWN = [0] + [255] * 255  # where a sprite draws anything


def _note_card(card: Card, width: int, xy: tuple[int, int], visible: int | None) -> None:
    x, y = xy
    shown = width if visible is None else visible
    area = (x, y, x + shown, y + card_height(width))
    for index, (text, box, size) in enumerate(card_texts(card, width)):
        if index == 0 or visible is None:
            note_box(text, _moved(box, x, y), size, area)


SAMPLE_CARDS = tuple(
    Card.parse(code) for code in ("AS", "TH", "7C", "5D", "JD", "JS", "QH", "QC", "KS", "KD")
)
"""Cards with every colour a face shows: pips and aces of both colours, each court of both."""


def sample_sheet(width: int, under: Colour, dimmed: bool = False) -> Image.Image:
    """:data:`SAMPLE_CARDS` and the back ``width`` wide side by side over ``under`` (RGB):
    the colours a kind's palette must hold for its cards."""
    cards = [*SAMPLE_CARDS, None]
    sheet = Image.new("RGBA", (width * len(cards), card_height(width)), (*under, 255))
    for i, card in enumerate(cards):
        sheet.alpha_composite(
            dimmed_image(card, width) if dimmed else card_image(card, width), (i * width, 0)
        )
    return sheet.convert("RGB")
