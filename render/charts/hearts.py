"""A Hearts game's running totals, hand by hand: a line a player, the target dashed."""

from __future__ import annotations

import math
from collections.abc import Sequence

from i18n import Message, _np, _p, render, sentences
from i18n.formats import Listing
from render.base import MUTED, Picture, to_picture
from render.charts.layout import (
    LINE,
    PLOT_LEFT,
    PLOT_TOP,
    SERIES,
    TEXT,
    WIDTH,
    Canvas,
    LineLayout,
    below_title,
    draw_axes,
    draw_title,
    legend,
    line_layout,
    spaced,
    title_lines,
    width_of,
)

HEARTS_SIZE = (WIDTH, 250)
"""The running totals' title and plot; the legend, a line a player, goes under it."""
TARGET = (214, 40, 52)
TARGET_LABEL = (230, 120, 120)


def _hand_word(lang: str) -> str:
    return render(_p("hearts chart", "hand"), lang)


def hearts_layout(
    per_hand: Sequence[Sequence[int]],
    target: int = 100,
    size: tuple[int, int] = HEARTS_SIZE,
    *,
    top: int = PLOT_TOP,
    lang: str = "en",
) -> LineLayout:
    """The scales :func:`hearts_totals_chart` uses: hands 0..n across, totals up; the plot
    from ``top`` down, and left of it room for the word "hand" in the language ``lang``."""
    totals = _running(per_hand)
    ys = [v for row in totals for v in row]
    left = max(PLOT_LEFT, math.ceil(width_of(_hand_word(lang))) + 8 + 4)
    return line_layout(
        list(range(len(totals))), ys, size, x_pad=1, y_extra=[0, target], top=top, left=left
    )


def _running(per_hand: Sequence[Sequence[int]]) -> list[list[int]]:
    """Totals after each hand, starting from zeros: one row per hand, one column per seat."""
    rows = [[0] * (len(per_hand[0]) if per_hand else 4)]
    for scores in per_hand:
        rows.append([a + b for a, b in zip(rows[-1], scores, strict=True)])
    return rows


def _hand_ticks(canvas: Canvas, layout: LineLayout, hands: int) -> list[tuple[float, str]]:
    """Hand numbers along the x axis, every one or every few, as room allows."""
    for every in (1, 2, 5, 10, 20, 50):
        ticks = [(float(h), str(h)) for h in range(0, hands + 1, every)]
        if spaced(canvas, ticks, layout.x):
            return ticks
    return [(0.0, "0")]


def hearts_totals_chart(
    per_hand: Sequence[Sequence[int]],
    names: Sequence[str],
    target: int = 100,
    lang: str = "en",
) -> Picture:
    """A Hearts game's running totals hand by hand, a line a player; the target dashed; its
    words in the language ``lang``."""
    canvas = Canvas(WIDTH, HEARTS_SIZE[1] + LINE * len(names) + 8)
    lines = title_lines(render(_p("hearts chart", "Hearts · running totals"), lang))
    draw_title(canvas, lines)
    totals = _running(per_hand)
    layout = hearts_layout(per_hand, target, top=PLOT_TOP + below_title(lines), lang=lang)
    hands = len(totals) - 1
    draw_axes(canvas, layout, _hand_ticks(canvas, layout, hands), lang=lang)
    left, _top, right, bottom = layout.box
    canvas.text((left - 8, bottom + 7), _hand_word(lang), TEXT, MUTED, "ra")
    target_y = layout.y.px(target)
    canvas.dashed(target_y, left, right, TARGET)
    canvas.text((left + 4, target_y - 3), f"{target}", TEXT, TARGET_LABEL, "lb")
    final = totals[-1]
    best = min(final)
    items = []
    for seat, name in enumerate(names):
        colour = SERIES[seat % len(SERIES)]
        xy = [(layout.x.px(h), layout.y.px(row[seat])) for h, row in enumerate(totals)]
        canvas.line(xy, colour, 2.5)
        for x, y in xy[1:]:
            canvas.dot(x, y, colour, 4)
        if final[seat] == best and max(final) >= target:
            shown = render(_p("hearts chart", "{total} · wins", total=final[seat]), lang)
        else:
            shown = str(final[seat])
        items.append((name, shown, colour))
    legend(canvas, items, HEARTS_SIZE[1])
    return to_picture(
        canvas.done(), "hearts-totals.png", describe_hearts_totals(per_hand, names, target, lang)
    )


def describe_hearts_totals(
    per_hand: Sequence[Sequence[int]], names: Sequence[str], target: int = 100, lang: str = "en"
) -> str:
    """The running totals in words, in the language ``lang``."""
    totals = _running(per_hand)
    final = totals[-1]
    best = min(final)
    if not per_hand:
        return render(_p("hearts chart", "Hearts running totals: no hands played yet."), lang)
    parts: list[Message] = [
        _np(
            "hearts chart",
            "Hearts running totals over {n} hand (the game ends at {target}).",
            "Hearts running totals over {n} hands (the game ends at {target}).",
            len(per_hand),
            target=target,
        )
    ]
    for seat, name in enumerate(names):
        path = ", ".join(str(row[seat]) for row in totals[1:])  # numbers as notation
        parts.append(_p("hearts chart", "{name}'s totals: {totals}.", name=name, totals=path))
    winners = Listing(tuple(names[s] for s in range(len(names)) if final[s] == best))
    if max(final) >= target:
        parts.append(_p("hearts chart", "Winner: {names} with {total}.", names=winners, total=best))
    else:
        parts.append(
            _p("hearts chart", "Lowest total: {names} with {total}.", names=winners, total=best)
        )
    return render(sentences(*parts), lang)
