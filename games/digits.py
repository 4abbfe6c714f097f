"""The input policy for numbers: ASCII digits only.

Every number a member types or a control carries (slash options, custom_ids, typed moves, FEN
and PDN squares) is read here. Only the ASCII digits ``0``-``9`` count: ``²``, full-width ``３``
and Arabic-Indic ``٣`` are refused with a message that names the character, a minus sign is
refused as "negative", and nothing else (``+3``, ``3_0``, spaces inside) is a number.

>>> number("12", "A pile")
12
>>> number("²", "A pile")
Traceback (most recent call last):
...
games.base.IllegalAction: Write a pile with the digits 0-9 only: `²` is not one of them.
>>> numbers("3-4-5", "A pile")
[3, 4, 5]
"""

from __future__ import annotations

import math
import re
import unicodedata

from games.base import IllegalAction

DIGITS = re.compile(r"[0-9]+")
_DECIMAL = re.compile(r"[0-9]{1,9}(?:\.[0-9]{1,9})?")
# Between numbers: commas, spaces, or a dash that joins two digits (3-4-5).
_SEPARATOR = re.compile(r"\s*,\s*|\s+|(?<=[0-9])-(?=[0-9])")


def is_number(text: str, max_digits: int = 19) -> bool:
    """True when ``text`` is 1 to ``max_digits`` ASCII digits and nothing else."""
    return len(text) <= max_digits and DIGITS.fullmatch(text) is not None


def problem(text: str, what: str) -> str:
    """Why ``text`` is not a number, in words fit to show a member (``what``: "A pile")."""
    lower = what[:1].lower() + what[1:]
    if not text:
        return f"{what} is missing: write it with the digits 0-9."
    if text[0] in "-\u2212" and DIGITS.fullmatch(text[1:]):
        return f"{what} cannot be negative: `{text[:12]}` is below zero."
    odd = next((c for c in text if not "0" <= c <= "9"), None)
    if odd is not None and unicodedata.category(odd) in ("Nd", "No", "Nl"):
        return f"Write {lower} with the digits 0-9 only: `{odd}` is not one of them."
    if odd is None:
        return f"{what} is too large: `{text[:12]}…` has too many digits."
    return f"{what} must be a whole number written with the digits 0-9, not `{text[:12]}`."


def number(text: str, what: str, max_digits: int = 9) -> int:
    """``text`` (spaces around allowed) as a whole number, or :class:`IllegalAction` naming
    the problem."""
    text = text.strip()
    if not is_number(text, max_digits):
        raise IllegalAction(problem(text, what))
    return int(text)


def decimal(value: object, what: str) -> float:
    """A finite number: a float or int as given (a slash option), or text like ``1.5`` in ASCII
    digits (a select's value). Anything else is :class:`IllegalAction` naming the problem.

    >>> decimal("1.5", "The delay"), decimal(2, "The delay")
    (1.5, 2.0)
    """
    if isinstance(value, bool):
        raise IllegalAction(f"{what} must be a number.")
    if isinstance(value, int | float):
        if not math.isfinite(value):
            raise IllegalAction(f"{what} must be a finite number.")
        return float(value)
    text = str(value).strip()
    if _DECIMAL.fullmatch(text):
        return float(text)
    odd = next((c for c in text if not ("0" <= c <= "9" or c == ".")), None)
    if odd is not None and unicodedata.category(odd) in ("Nd", "No", "Nl"):
        lower = what[:1].lower() + what[1:]
        raise IllegalAction(f"Write {lower} with the digits 0-9 only: `{odd}` is not one of them.")
    if text[:1] == "-":
        raise IllegalAction(f"{what} cannot be negative: `{text[:12]}` is below zero.")
    raise IllegalAction(f"{what} must be a number written like 1.5, not `{text[:12]}`.")


def numbers(text: str, what: str, max_digits: int = 9) -> list[int]:
    """Numbers separated by commas, spaces or dashes (``3,4,5``, ``3 4 5``, ``3-4-5``)."""
    parts = [p for p in _SEPARATOR.split(text.strip()) if p]
    if not parts:
        raise IllegalAction(problem("", what))
    return [number(p, what, max_digits) for p in parts]
