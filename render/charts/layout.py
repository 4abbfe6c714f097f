"""What every chart shares: its size and palette, a canvas drawn at twice the size, the title
(whole, on as many lines as it needs), the axes of a line chart and the legend under it.

Charts are drawn for a phone: 400 px wide (shown about 330 px wide, every text 14 px or more is
11.5 px or more there).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.base import (
    BACKGROUND,
    INK,
    MUTED,
    Box,
    Picture,
    face,
    legible_size,
    note_box,
    recording,
    to_picture,
    wrap_whole,
)
from render.charts.scales import Scale, nice_range, number, time_ticks

SS = 2  # drawn at twice the size and scaled down, for smooth lines and dots
WIDTH = 400
PAD = 16  # the margin left and right
TEXT = legible_size(WIDTH)  # the smallest text: axis labels, legends, values
NAME = TEXT + 1  # names beside bars
TITLE = TEXT + 3
TITLE_TOP = 12  # the top of a title's first line
TITLE_LINE = 22  # each further line of a title moves what is under it down this much
LINE = 24  # a legend's line
GRID = (64, 68, 75)
AXIS = (110, 115, 124)
PANEL = (49, 51, 56)
MARKER_RIM = (250, 250, 250)
MARKER_RADIUS = 5
# Okabe-Ito colours: told apart with any colour vision, and clear on Discord's dark theme.
SERIES = (
    (230, 159, 0),
    (86, 180, 233),
    (0, 158, 115),
    (240, 228, 66),
    (213, 94, 0),
    (204, 121, 167),
    (0, 114, 178),
)
Colour = tuple[int, int, int]
Point = tuple[float, float]


def width_of(text: str, size: int = TEXT) -> float:
    """How wide ``text`` is drawn at ``size`` on a :class:`Canvas`."""
    return face(size * SS, text).getlength(text) / SS


class Canvas:
    """An image drawn at ``SS`` times its size; coordinates are given at the final size."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.image = Image.new("RGB", (width * SS, height * SS), BACKGROUND)
        self.draw = ImageDraw.Draw(self.image)

    def text(
        self,
        xy: Point,
        text: str,
        size: int = TEXT,
        fill: Colour = INK,
        anchor: str = "la",
        within: Box | None = None,
    ) -> None:
        big, typeface = (xy[0] * SS, xy[1] * SS), face(size * SS, text)
        self.draw.text(big, text, font=typeface, fill=fill, anchor=anchor)
        if recording():
            box = self.draw.textbbox(big, text, font=typeface, anchor=anchor)
            x0, y0, x1, y1 = (v / SS for v in box)
            note_box(text, (x0, y0, x1, y1), size, within)

    def text_width(self, text: str, size: int = TEXT) -> float:
        return width_of(text, size)

    def line(self, points: Sequence[Point], fill: Colour, width: float = 1.0) -> None:
        self.draw.line(
            [(x * SS, y * SS) for x, y in points],
            fill=fill,
            width=max(1, round(width * SS)),
            joint="curve",
        )

    def rect(
        self,
        box: tuple[float, float, float, float],
        fill: Colour | None = None,
        outline: Colour | None = None,
        radius: float = 0.0,
    ) -> None:
        x0, y0, x1, y1 = (v * SS for v in box)
        self.draw.rounded_rectangle(
            (x0, y0, x1, y1), radius=radius * SS, fill=fill, outline=outline
        )

    def dot(self, x: float, y: float, fill: Colour, radius: float = MARKER_RADIUS) -> None:
        r, x, y = radius * SS, x * SS, y * SS
        self.draw.ellipse((x - r, y - r, x + r, y + r), fill=MARKER_RIM)
        inner = r - 1.6 * SS
        self.draw.ellipse((x - inner, y - inner, x + inner, y + inner), fill=fill)

    def dashed(self, y: float, x0: float, x1: float, fill: Colour) -> None:
        x = x0
        while x < x1:
            self.line([(x, y), (min(x + 6, x1), y)], fill)
            x += 10

    def fit(self, text: str, size: int, width: float) -> str:
        """``text`` cut with an ellipsis to at most ``width`` pixels at ``size`` (only for a
        member's name in a column of names: the alt text has it whole)."""
        if self.text_width(text, size) <= width:
            return text
        while text and self.text_width(text.rstrip() + "…", size) > width:
            text = text[:-1]
        return text.rstrip() + "…"

    def done(self) -> Image.Image:
        return self.image.resize((self.width, self.height), Image.Resampling.LANCZOS)


# -- titles -----------------------------------------------------------------------------------


def title_lines(text: str, width: float = WIDTH - 2 * PAD) -> list[str]:
    """A title broken into the lines it needs to be ``width`` wide at most: never cut (a name
    wider than a line is broken between its letters)."""
    return wrap_whole(text, TITLE, width)


def below_title(lines: Sequence[str]) -> int:
    """How much further down than under a one-line title the rest of a chart goes."""
    return TITLE_LINE * (max(1, len(lines)) - 1)


def draw_title(canvas: Canvas, lines: Sequence[str], dy: float = 0) -> None:
    for i, line in enumerate(lines):
        canvas.text((PAD, dy + TITLE_TOP + TITLE_LINE * i), line, TITLE, INK)


def sentence_picture(text: str, filename: str, description: str) -> Picture:
    """A picture of one sentence, for a chart with nothing to chart (callers should rather
    say it in their message: see ``has_ratings``, ``has_games``)."""
    canvas = Canvas(WIDTH, 48)
    canvas.text((WIDTH / 2, 24), canvas.fit(text, NAME, WIDTH - 2 * PAD), NAME, MUTED, "mm")
    return to_picture(canvas.done(), filename, description)


# -- line charts ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LineLayout:
    """Where a line chart puts its data: the plot box and the two scales."""

    box: tuple[int, int, int, int]  # left, top, right, bottom (final pixels)
    x: Scale
    y: Scale
    y_ticks: tuple[float, ...]


PLOT_TOP = 44  # under a one-line title
PLOT_LEFT = 58  # room for the value labels left of the plot
AXIS_LABELS = 30  # under the plot, for the labels of the x axis


def line_layout(
    xs: Sequence[float],
    ys: Sequence[float],
    size: tuple[int, int],
    *,
    x_pad: float,
    y_extra: Sequence[float] = (),
    y_pad: float = 10.0,
    top: int = PLOT_TOP,
    left: int = PLOT_LEFT,
) -> LineLayout:
    """The plot of a line chart ``size`` big (its legend goes under it, outside ``size``),
    from ``top`` down (further down under a longer title) and ``left`` across."""
    width, height = size
    box = (left, top, width - PAD, height - AXIS_LABELS)
    low, high = min([*ys, *y_extra]), max([*ys, *y_extra])
    margin = (high - low) * 0.04  # keeps the dots off the plot's edges
    bottom = low - margin if low < 0 or low - margin >= 0 else 0.0  # no negative axis for none
    ticks = nice_range(bottom, high + margin, count=4, pad=y_pad)
    lo, hi = min(xs), max(xs)
    if hi - lo < 1e-9:
        lo, hi = lo - x_pad, hi + x_pad
    x = Scale(lo, hi, box[0] + 12, box[2] - 12)
    y = Scale(ticks[0], ticks[-1], box[3], box[1])
    return LineLayout(box, x, y, tuple(ticks))


def spaced(canvas: Canvas, ticks: Sequence[tuple[float, str]], scale: Scale) -> bool:
    """Whether the labels of ``ticks`` fit side by side, each inside the picture."""
    right_edge = -1e9
    for value, label in ticks:
        half = canvas.text_width(label) / 2
        x = scale.px(value)
        if x - half < right_edge + 10 or x - half < 2 or x + half > canvas.width - 2:
            return False
        right_edge = x + half
    return True


def time_axis(canvas: Canvas, layout: LineLayout, lang: str) -> list[tuple[float, str]]:
    """Round instants for the x axis: as many as have room for their labels."""
    for count in (6, 5, 4, 3, 2, 1):
        ticks = time_ticks(layout.x.lo, layout.x.hi, count, lang)
        if spaced(canvas, ticks, layout.x):
            return ticks
    return []


def draw_axes(
    canvas: Canvas,
    layout: LineLayout,
    x_ticks: Sequence[tuple[float, str]],
    dy: float = 0,
    lang: str = "en",
) -> None:
    left, right = layout.box[0], layout.box[2]
    top, bottom = layout.box[1] + dy, layout.box[3] + dy
    canvas.rect((left, top, right, bottom), fill=PANEL, radius=6)
    for value in layout.y_ticks:
        y = layout.y.px(value) + dy
        canvas.line([(left, y), (right, y)], GRID)
        canvas.text((left - 8, y), number(value, lang), TEXT, MUTED, "rm")
    for value, label in x_ticks:
        x = layout.x.px(value)
        canvas.line([(x, bottom), (x, bottom + 5)], AXIS)
        canvas.text((x, bottom + 7), label, TEXT, MUTED, "ma")


def legend(canvas: Canvas, items: Sequence[tuple[str, str, Colour]], y: float) -> None:
    """A line an item under a chart: its colour's dot, its name, and its value on the right."""
    for name, value, colour in items:
        canvas.dot(PAD + 6, y + LINE / 2, colour, 5)
        canvas.text((canvas.width - PAD, y + LINE / 2), value, TEXT, MUTED, "rm")
        room = canvas.width - 2 * PAD - 20 - canvas.text_width(value) - 10
        canvas.text((PAD + 20, y + LINE / 2), canvas.fit(name, NAME, room), NAME, INK, "lm")
        y += LINE
