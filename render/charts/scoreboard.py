"""A scoreboard's top ten as bars, best first."""

from __future__ import annotations

from collections.abc import Sequence

from i18n import _p, render
from render.base import GOLD, INK, MUTED, Picture, to_picture
from render.charts.layout import (
    NAME,
    PAD,
    SERIES,
    TEXT,
    WIDTH,
    Canvas,
    below_title,
    draw_title,
    sentence_picture,
    title_lines,
)
from render.charts.scales import Scale, nice_range, nice_step, number

BOARD_ROW = 30
_MEASURES = {  # what a scoreboard ranks by, in each language
    "rating": _p("scoreboard measure", "rating"),
    "wins": _p("scoreboard measure", "wins"),
    "points": _p("scoreboard measure", "points"),
}


def scoreboard_chart(
    title: str,
    rows: Sequence[tuple[str, float]],
    measure: str,
    *,
    limit: int = 10,
    lang: str = "en",
) -> Picture:
    """The top ``limit`` of a scoreboard as bars (``rows``: name and value, best first), its
    words in the language ``lang`` (``measure``: "rating", "wins" or "points", as the
    scoreboard ranks).

    With no rows it is a picture of the sentence "No games finished yet" only.
    """
    rows = list(rows)[:limit]
    ranked = "; ".join(
        f"{i}. {name} {number(v, lang)}" for i, (name, v) in enumerate(rows, start=1)
    )
    by = _MEASURES.get(measure, measure)
    if rows:
        said = _p(
            "scoreboard chart", "{title}, top {count} by {measure}: {rows}.",
            title=title, count=len(rows), measure=by, rows=ranked,
        )  # fmt: skip
    else:
        said = _p(
            "scoreboard chart", "{title}, by {measure}: no games finished yet.",
            title=title, measure=by,
        )  # fmt: skip
    text = render(said, lang)
    if not rows:
        none = render(_p("scoreboard chart", "No games finished yet"), lang)
        return sentence_picture(none, "scoreboard.png", text)
    values = [value for _, value in rows]
    low = min(0.0, min(values))
    # ratings sit far from zero: start their bars a little under the lowest one
    if low == 0.0 and min(values) > 0.6 * max(values) and max(values) > 100:
        low = nice_range(min(values) - nice_step(max(values) - min(values)), max(values))[0]
    heading = _p(
        "scoreboard chart", "{title} · top {count} by {measure}",
        title=title, count=len(rows), measure=by,
    )  # fmt: skip
    lines = title_lines(render(heading, lang))
    extra = below_title(lines)  # a longer title pushes the bars down
    top = 40 + (22 if low else 0) + extra
    canvas = Canvas(WIDTH, top + BOARD_ROW * len(rows) + 8)
    draw_title(canvas, lines)
    if low:
        start = render(
            _p("scoreboard chart", "bars start at {value}", value=number(low, lang)), lang
        )
        canvas.text((PAD, 38 + extra), start, TEXT, MUTED)
    place_w = canvas.text_width(f"{len(rows)}.")
    names_x = PAD + place_w + 8
    left = names_x + 124
    right = WIDTH - PAD - max(canvas.text_width(number(v, lang)) for v in values) - 8
    scale = Scale(low, max(values) if max(values) > low else low + 1, left, right)
    for place, (name, value) in enumerate(rows, start=1):
        y = top + BOARD_ROW * (place - 1)
        colour = GOLD if place == 1 else SERIES[1] if place <= 3 else (96, 140, 170)
        canvas.text((PAD, y + 11), f"{place}.", TEXT, MUTED, "lm")
        canvas.text((names_x, y + 11), canvas.fit(name, NAME, left - names_x - 8), NAME, INK, "lm")
        end = max(scale.px(value), left + 4)
        canvas.rect((left, y, end, y + 22), fill=colour, radius=4)
        canvas.text((end + 8, y + 11), number(value, lang), TEXT, INK, "lm")
    return to_picture(canvas.done(), "scoreboard.png", text)
