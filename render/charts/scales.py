"""Numbers to pixels and round ticks: linear scales, round value steps, time axes whose labels
are in the picture's language, and numbers written as each language writes them."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime

from babel.numbers import format_decimal

from i18n import render, resolve
from i18n.formats import Date, Skeleton, Time

DAY = 86400.0


@dataclass(frozen=True, slots=True)
class Scale:
    """A linear map from values ``lo..hi`` to pixels ``start..end`` (end < start for y)."""

    lo: float
    hi: float
    start: float
    end: float

    def px(self, value: float) -> float:
        return self.start + (value - self.lo) / (self.hi - self.lo) * (self.end - self.start)


def nice_step(span: float, count: int = 5) -> float:
    """A round step (1, 2, 2.5 or 5 times a power of ten) giving about ``count`` intervals.

    >>> nice_step(100), nice_step(37, 4), nice_step(0.3)
    (20.0, 10.0, 0.1)
    """
    raw = max(span, 1e-9) / count
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * power * 1.0001:
            return float(factor * power)
    return float(10 * power)


def nice_range(lo: float, hi: float, count: int = 5, pad: float = 10.0) -> list[float]:
    """Tick values covering ``lo..hi`` on round numbers (the first and last are the axis ends).

    >>> nice_range(1183, 1262)
    [1180.0, 1200.0, 1220.0, 1240.0, 1260.0, 1280.0]
    """
    if hi - lo < 1e-9:
        lo, hi = lo - pad, hi + pad
    step = nice_step(hi - lo, count)
    first = math.floor(lo / step + 1e-9) * step
    last = math.ceil(hi / step - 1e-9) * step
    return [round(first + i * step, 10) for i in range(round((last - first) / step) + 1)]


_TIME_STEPS = (  # a step, and whether its labels carry the time of day (else the day)
    (3600, "time"),
    (3 * 3600, "time"),
    (6 * 3600, "day-time"),
    (12 * 3600, "day-time"),
    (DAY, "day"),
    (2 * DAY, "day"),
    (7 * DAY, "day"),
    (14 * DAY, "day"),
)
_MONTH_STEPS = (1, 2, 3, 6, 12, 24, 60)


def _tick_label(moment: datetime, kind: str, lang: str) -> str:
    """A time axis label in the language ``lang`` (Babel): "06:00"/"6:00 AM", "Dec 4",
    "4 déc. 06:00", "Dec 2026", "2026"."""
    if kind == "time":
        return render(Time(moment), lang)
    skeleton = {"day-time": "MMMd", "day": "MMMd", "month": "yMMM"}.get(kind, "y")
    return render(Skeleton(moment, skeleton, with_time=kind == "day-time"), lang)


def time_ticks(lo: float, hi: float, count: int = 6, lang: str = "en") -> list[tuple[float, str]]:
    """Round instants (UTC) between ``lo`` and ``hi`` with their labels in the language
    ``lang``, at most ``count``."""
    span = hi - lo
    for step, kind in _TIME_STEPS:
        if span / step <= count:
            first = math.ceil(lo / step) * step
            ticks = []
            t = first
            while t <= hi:
                ticks.append((t, _tick_label(datetime.fromtimestamp(t, UTC), kind, lang)))
                t += step
            return ticks
    start = datetime.fromtimestamp(lo, UTC)
    months = span / (30.44 * DAY)
    every = next((m for m in _MONTH_STEPS if months / m <= count), _MONTH_STEPS[-1])
    index = start.year * 12 + start.month - 1
    index = (index // every + 1) * every  # the first month boundary on the step after lo
    ticks = []
    while True:
        moment = datetime(index // 12, index % 12 + 1, 1, tzinfo=UTC)
        if moment.timestamp() > hi:
            return ticks
        label = _tick_label(moment, "month" if every < 12 else "year", lang)
        ticks.append((moment.timestamp(), label))
        index += every


def number(value: float, lang: str = "en") -> str:
    """``1262`` or ``1190.5`` (``1190,5`` in German): whole numbers without a decimal sign,
    no grouping (ratings and scores read as they are).

    >>> number(1190.5, "de"), number(1262.0)
    ('1190,5', '1262')
    """
    rounded = round(value, 1)
    return format_decimal(rounded, format="0.#", locale=resolve(lang).formats)


def day(moment: float) -> Date:
    """The day (UTC) of the instant ``moment``, to be written in a picture's language."""
    return Date(datetime.fromtimestamp(moment, UTC).date())
