"""Seats' names as a reader reads them. A member's name is never translated; a computer seat
is stored in English ("Computer (beginner)", "Computer 2", "Alice (computer)") and shown in the
reader's language, recognised by its level and the stored forms, so old rows read as before.

>>> from storage.models import Seat
>>> render(seat_name(Seat("Computer (expert)", None, "expert")), "de")
'Computer (Experte)'
>>> seat_names([Seat("Alice", 1), Seat("Computer 2", None, "standard")], "fr")
['Alice', 'Ordinateur 2']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from i18n import Message, _, _p, render
from i18n.formats import Listing
from i18n.messages import Text
from storage.models import Seat

# The computer's levels as each language says them (the same words as /start's choices).
LEVELS: Mapping[str, Message] = {
    "beginner": _p("command choice", "beginner"),
    "easy": _p("command choice", "easy"),
    "medium": _p("command choice", "medium"),
    "hard": _p("command choice", "hard"),
    "expert": _p("command choice", "expert"),
    "standard": _p("command choice", "standard"),
    "casual": _p("command choice", "casual"),
    "sharp": _p("command choice", "sharp"),
    "perfect": _p("command choice", "perfect"),
    "best": _p("computer level", "best"),
}
_NUMBERED = re.compile(r"Computer (\d{1,2})")
_TAKEN_OVER = " (computer)"


def level_name(level: str) -> Text:
    """A computer level in words (an unknown one as stored)."""
    return LEVELS.get(level, level)


def level_choice(levels: Iterable[str]) -> Listing:
    """Levels in words, as alternatives ("easy, medium or hard").

    >>> render(level_choice(["easy", "hard"]), "de")
    'leicht oder schwer'
    """
    return Listing(tuple(level_name(level) for level in levels), "or")


def seat_name(seat: Seat) -> Text:
    """How ``seat`` is named: a member's name as it is, a computer seat in words."""
    if not seat.is_ai:
        return seat.name
    name, level = seat.name, seat.ai_level or ""
    if name == "Computer":
        return _("Computer")
    if level and name == f"Computer ({level})":
        return _("Computer ({level})", level=level_name(level))
    numbered = _NUMBERED.fullmatch(name)
    if numbered:
        return _("Computer {number}", number=int(numbered[1]))
    if name.endswith(_TAKEN_OVER):  # a member's seat the computer took over (Hearts)
        return _("{name} (computer)", name=name.removesuffix(_TAKEN_OVER))
    return name


def mention(seat: Seat) -> str:
    """A member's seat as a Discord mention (``<@42>``): the same in every language."""
    return f"<@{seat.user_id}>"


def timestamp(when: float) -> str:
    """A moment as a relative Discord timestamp ("in 5 minutes", in the reader's language)."""
    return f"<t:{int(when)}:R>"


def seat_names(seats: Iterable[Seat], lang: str) -> list[str]:
    """The seats' names in ``lang``, seat by seat."""
    return [render(seat_name(seat), lang) for seat in seats]
