"""The input policy for numbers: ASCII digits only.

Every number a member types or a control carries (slash options, custom_ids, typed moves, FEN
and PDN squares) is read here. Only the ASCII digits ``0``-``9`` count: ``²``, full-width ``３``
and Arabic-Indic ``٣`` are refused with a message that names the character, a minus sign is
refused as "negative", and nothing else (``+3``, ``3_0``, spaces inside) is a number.

>>> number("12", N_("A pile"))
12
>>> number("²", N_("A pile"))
Traceback (most recent call last):
...
games.base.IllegalAction: Write a pile with the digits 0-9 only: `²` is not one of them.
>>> numbers("3-4-5", N_("A pile"))
[3, 4, 5]
"""

from __future__ import annotations

import math
import re
import unicodedata

from games.base import N_, IllegalAction, Phrase

DIGITS = re.compile(r"[0-9]+")
_DECIMAL = re.compile(r"[0-9]{1,9}(?:\.[0-9]{1,9})?")
# Between numbers: commas, spaces, or a dash that joins two digits (3-4-5).
_SEPARATOR = re.compile(r"\s*,\s*|\s+|(?<=[0-9])-(?=[0-9])")


def is_number(text: str, max_digits: int = 19) -> bool:
    """True when ``text`` is 1 to ``max_digits`` ASCII digits and nothing else."""
    return len(text) <= max_digits and DIGITS.fullmatch(text) is not None


def problem(text: str, what: str | Phrase) -> Phrase:
    """Why ``text`` is not a number, in words fit to show a member (``what``: the thing the
    number counts, as it starts a sentence: ``N_("A pile")``)."""
    what = _noun(what)
    if not text:
        # Translators: {what} is a noun such as "A pile" or "The delay".
        return N_("{what} is missing: write it with the digits 0-9.", what=what)
    if text[0] in "-\u2212" and DIGITS.fullmatch(text[1:]):
        # Translators: {what} is a noun such as "A pile" or "The delay".
        return N_("{what} cannot be negative: `{text}` is below zero.", what=what, text=text[:12])
    odd = next((c for c in text if not "0" <= c <= "9"), None)
    if odd is not None and unicodedata.category(odd) in ("Nd", "No", "Nl"):
        # Translators: {what} is a noun such as "A pile" or "The delay".
        return N_(
            "Write {what:lower} with the digits 0-9 only: `{odd}` is not one of them.",
            what=what,
            odd=odd,
        )
    if odd is None:
        # Translators: {what} is a noun such as "A pile" or "The delay".
        return N_("{what} is too large: `{text}…` has too many digits.", what=what, text=text[:12])
    # Translators: {what} is a noun such as "A pile" or "The delay".
    return N_(
        "{what} must be a whole number written with the digits 0-9, not `{text}`.",
        what=what,
        text=text[:12],
    )


def _noun(what: str | Phrase) -> Phrase:
    # A plain string is English the catalogues do not know: it is shown as it is.
    return what if isinstance(what, Phrase) else Phrase(what)


def number(text: str, what: str | Phrase, max_digits: int = 9) -> int:
    """``text`` (spaces around allowed) as a whole number, or :class:`IllegalAction` naming
    the problem."""
    text = text.strip()
    if not is_number(text, max_digits):
        raise IllegalAction(problem(text, what))
    return int(text)


def decimal(value: object, what: str | Phrase) -> float:
    """A finite number: a float or int as given (a slash option), or text like ``1.5`` in ASCII
    digits (a select's value). Anything else is :class:`IllegalAction` naming the problem.

    >>> decimal("1.5", N_("The delay")), decimal(2, N_("The delay"))
    (1.5, 2.0)
    """
    what = _noun(what)
    if isinstance(value, bool):
        # Translators: {what} is a noun such as "A pile" or "The delay".
        raise IllegalAction(N_("{what} must be a number.", what=what))
    if isinstance(value, int | float):
        if not math.isfinite(value):
            # Translators: {what} is a noun such as "A pile" or "The delay".
            raise IllegalAction(N_("{what} must be a finite number.", what=what))
        return float(value)
    text = str(value).strip()
    if _DECIMAL.fullmatch(text):
        return float(text)
    odd = next((c for c in text if not ("0" <= c <= "9" or c == ".")), None)
    if odd is not None and unicodedata.category(odd) in ("Nd", "No", "Nl"):
        raise IllegalAction(
            N_(
                "Write {what:lower} with the digits 0-9 only: `{odd}` is not one of them.",
                what=what,
                odd=odd,
            )
        )
    if text[:1] == "-":
        raise IllegalAction(
            N_("{what} cannot be negative: `{text}` is below zero.", what=what, text=text[:12])
        )
    raise IllegalAction(
        N_("{what} must be a number written like 1.5, not `{text}`.", what=what, text=text[:12])
    )


def numbers(text: str, what: str | Phrase, max_digits: int = 9) -> list[int]:
    """Numbers separated by commas, spaces or dashes (``3,4,5``, ``3 4 5``, ``3-4-5``)."""
    parts = [p for p in _SEPARATOR.split(text.strip()) if p]
    if not parts:
        raise IllegalAction(problem("", what))
    return [number(p, what, max_digits) for p in parts]
