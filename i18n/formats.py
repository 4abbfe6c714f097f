"""Numbers, dates, durations and lists, formatted by Babel for the reader's locale.

Each is a small frozen value to pass as a message parameter, formatted when the message is
rendered: ``_("Lapses on {when}.", when=Date(day))``. Plain ints and floats need no wrapper
(they are formatted as decimals); these say *how* a value reads.

>>> from i18n.messages import _, render
>>> render(_("{share} of the games", share=Percent(0.25)), "fr")
'25\\xa0% of the games'
>>> render(Listing(("Alice", "Bob", "Carol")), "de")
'Alice, Bob und Carol'
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from babel.dates import (
    format_date,
    format_datetime,
    format_skeleton,
    format_time,
    format_timedelta,
    get_datetime_format,
)
from babel.lists import format_list
from babel.numbers import format_decimal, format_percent
from babel.units import format_unit

from i18n.languages import Locale, resolve
from i18n.messages import Text, _localized


@dataclass(frozen=True, slots=True)
class Number:
    """A number with a fixed count of decimals (``Number(1.5, 1)``: "1.5", "1,5")."""

    value: int | float | Decimal
    decimals: int = 0

    def localize(self, locale: Locale) -> str:
        pattern = "#,##0" + ("." + "0" * self.decimals if self.decimals else "")
        return format_decimal(self.value, format=pattern, locale=locale.formats)


@dataclass(frozen=True, slots=True)
class Percent:
    """A share as a percentage (``0.25``: "25%", "25 %", "25%"); ``digits`` after the
    decimal point (``Percent(0.4286, 1)``: "42.9%", "42,9 %")."""

    value: float
    digits: int = 0

    def localize(self, locale: Locale) -> str:
        if not self.digits:
            return format_percent(self.value, locale=locale.formats)
        # the locale's pattern ("#,##0 %") with the digits after its last integer digit
        pattern = locale.formats.percent_formats[None].pattern
        head, zero, tail = pattern.rpartition("0")
        pattern = f"{head}{zero}.{'0' * self.digits}{tail}" if zero else pattern
        return format_percent(self.value, pattern, locale=locale.formats)


Width = Literal["short", "medium", "long", "full"]


@dataclass(frozen=True, slots=True)
class Date:
    """A calendar day, as the locale writes it (``medium``: "Mar 5, 2025", "5 mars 2025")."""

    value: dt.date
    width: Width = "medium"

    def localize(self, locale: Locale) -> str:
        return format_date(self.value, format=self.width, locale=locale.formats)


@dataclass(frozen=True, slots=True)
class Time:
    """A time of day (``short``: "3:05 PM", "15:05")."""

    value: dt.time | dt.datetime
    width: Width = "short"

    def localize(self, locale: Locale) -> str:
        return format_time(self.value, format=self.width, locale=locale.formats)


@dataclass(frozen=True, slots=True)
class DateTime:
    """A moment, date and time (an aware datetime is shown in its own time zone)."""

    value: dt.datetime
    width: Width = "medium"

    def localize(self, locale: Locale) -> str:
        return format_datetime(
            self.value, format=self.width, tzinfo=self.value.tzinfo, locale=locale.formats
        )


@dataclass(frozen=True, slots=True)
class Measure:
    """A value with its unit, as the locale writes it (``Measure(0.5, "duration-second")``:
    "0.5 sec", "0,5 s", "0.5 秒"); ``unit`` is a CLDR unit, ``length`` its short or long form."""

    value: float
    unit: str
    length: Literal["short", "long", "narrow"] = "short"

    def localize(self, locale: Locale) -> str:
        return format_unit(self.value, self.unit, length=self.length, locale=locale.formats)


@dataclass(frozen=True, slots=True)
class Skeleton:
    """The fields of a moment a CLDR skeleton names, in the locale's order and words: a
    chart's axis label (``MMMd``: "Dec 4", "4 déc.", "12月4日"; ``yMMM``: "Dec 2026";
    ``y``: "2026"). ``with_time`` adds the time of day as the locale joins them
    ("Dec 4, 6:00 AM", "4 déc. 06:00"). An aware datetime is shown in its own time zone.

    >>> from i18n.messages import render
    >>> moment = dt.datetime(2026, 12, 4, 6, tzinfo=dt.UTC)
    >>> render(Skeleton(moment), "de"), render(Skeleton(moment, "yMMM"), "ja")
    ('4. Dez.', '2026年12月')
    """

    value: dt.datetime
    skeleton: str = "MMMd"
    with_time: bool = False

    def localize(self, locale: Locale) -> str:
        zone = self.value.tzinfo
        day = format_skeleton(self.skeleton, self.value, tzinfo=zone, locale=locale.formats)
        if not self.with_time:
            return day
        time = format_time(self.value, format="short", tzinfo=zone, locale=locale.formats)
        joined = get_datetime_format("short", locale=locale.formats)
        return str(joined).replace("{1}", day).replace("{0}", time)


@dataclass(frozen=True, slots=True)
class Duration:
    """A rough length of time (``timedelta(minutes=3)``: "3 minutes", "3 Minuten")."""

    value: dt.timedelta
    width: Literal["narrow", "short", "long"] = "long"

    def localize(self, locale: Locale) -> str:
        return format_timedelta(self.value, format=self.width, locale=locale.formats)


@dataclass(frozen=True, slots=True)
class Listing:
    """Items in a list as the language writes one: "Alice, Bob and Carol", "アリス、ボブ、キャロル".

    ``style`` is Babel's: ``standard`` (and), ``or``, ``unit`` (measures)...
    Items are plain strings (names) or messages, rendered in the same language.
    """

    items: tuple[Text, ...]
    style: Literal["standard", "standard-short", "or", "or-short", "unit", "unit-short"] = (
        "standard"
    )

    def localize(self, locale: Locale) -> str:
        words = [_localized(item, locale) for item in self.items]
        return format_list(words, style=self.style, locale=locale.formats) if words else ""

    def __str__(self) -> str:
        """English, as a refusal's ``str()`` reads it ("easy, medium or hard")."""
        return self.localize(resolve("en"))
