"""What a Hearts table is set up with: the rules text, the rulesets, the computer's pace, and
what the table remembers between clicks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.tables.controller import UiState
from games.base import N_, IllegalAction, OneOf
from games.digits import decimal
from games.hearts import Rules
from i18n import Message, _, lines
from i18n.formats import Measure

# /rules, a paragraph a rule, in the reader's language.
RULES = lines(
    _("**Hearts** — four players, 13 cards each; the computer fills empty seats."),
    _(
        "• Before each round pass three cards: to the left, then to the right, then across; "
        "every fourth round there is no passing. Everyone chooses before any card changes "
        "hands."
    ),
    _(
        "• The player to the dealer's right leads the first trick; each trick's winner leads "
        "the next. Play goes to the left. Follow suit if you can, otherwise play anything. The "
        "highest card of the suit led takes the trick."
    ),
    _(
        "• You may not lead a heart on the first trick, nor until a heart has been played "
        "(hearts are *broken*), unless you hold nothing but hearts."
    ),
    _(
        "• Every heart you take costs 1 point, the queen of spades 13. Take all 26 and you "
        "*shoot the moon*: you score 0 and everyone else 26."
    ),
    _("• When someone reaches 100 at the end of a round, the lowest total wins (ties share)."),
    _(
        "• **Modern** rules (a table option): the two of clubs leads the first trick, and no "
        "points may be played to it unless a hand has nothing else."
    ),
    _(
        "• Press **Your hand** to see your cards privately, as buttons: tap three and **Pass**, "
        "then tap a card to play it. That message offers your cards by itself whenever it is "
        "your turn. **Scores** shows every round's points. If you stop playing, the computer "
        "plays for you after a while, until you come back."
    ),
)

RULESETS: dict[str, Rules] = {
    "classic": Rules(),
    "modern": Rules(two_of_clubs_leads=True, no_points_on_first_trick=True),
}
# Each ruleset: its name, and what it means (a menu option's description).
RULESET_WORDS: dict[str, tuple[Message, Message]] = {
    "classic": (
        _("Classic rules"),
        _("Right of the dealer leads; points allowed on the first trick"),
    ),
    "modern": (
        _("Modern rules"),
        _("Two of clubs leads; no points on the first trick"),
    ),
}
DEFAULT_DELAY = 1.0
MAX_DELAY = 5.0
DELAY_CHOICES = (0.0, 0.5, 1.0, 2.0, 3.0, 5.0)


@dataclass(slots=True)
class HeartsUi(UiState):
    """Members who left (the computer plays their seats: their seat, user id, name, points,
    hands and moons when they left), and who closed the lobby."""

    left: list[dict[str, Any]] = field(default_factory=list)
    closed_by: str | None = None


def parse_table_options(raw: dict[str, Any], level: str) -> dict[str, Any]:
    """The ruleset and the delay between computer cards, checked, beside the ``level``."""
    ruleset = raw.get("ruleset") or raw.get("rules") or "classic"
    if ruleset not in RULESETS:
        rulesets = OneOf(tuple(f"`{name}`" for name in RULESETS))
        raise IllegalAction(N_("Choose the rules: {rulesets}.", rulesets=rulesets))
    delay = raw.get("delay")
    delay = DEFAULT_DELAY if delay is None else decimal(delay, N_("The delay"))
    if not 0 <= delay <= MAX_DELAY:
        said = N_("The delay between computer cards is 0 to {most} seconds.", most=MAX_DELAY)
        raise IllegalAction(said)
    return {"level": level, "rules": ruleset, "delay": delay}


def seconds(value: float) -> Measure:
    """``"0.5 sec"``, as each language writes it (``"0,5 s"``, ``"0.5 秒"``)."""
    return Measure(value, "duration-second")
