"""What the passing of time does at a table: the computer's turns, turns that timed out,
challenges that lapse, games left idle. Plain functions, no I/O."""

from __future__ import annotations

import math
from typing import Any

from bot.tables.controller import Controller, TableView
from bot.tables.wording import duration, game_name
from games.base import N_, GameState, IllegalAction, Outcome, Phrase
from i18n import _
from i18n.messages import Text
from storage.models import Table, TableStatus

SETTING_DEFAULTS = {"idle_claim_minutes": 10.0, "idle_end_hours": 24.0}
# The values /settings accepts (the same ranges as the command's options), and their units.
SETTING_RANGES = {
    "idle_claim_minutes": (1.0, 10080.0, "minute"),
    "idle_end_hours": (1.0, 720.0, "hour"),
}
TIME_OUT = "time out"  # see :func:`when_idle`


def computer_seat(table: Table, state: GameState | None) -> int | None:
    """The seat the computer plays now (its own, or a member's away), else None."""
    if table.status is not TableStatus.ACTIVE or state is None:
        return None
    autoplay = set(table.ui.get("autoplay", ()))
    return next((s for s in state.to_act() if table.seats[s].is_ai or s in autoplay), None)


def late_seats(table: Table, state: GameState) -> list[int]:
    """Member seats to move that the computer does not play for yet."""
    autoplay = set(table.ui.get("autoplay", ()))
    return [s for s in state.to_act() if not table.seats[s].is_ai and s not in autoplay]


def hand_to_computer(table: Table, state: GameState) -> bool:
    """The computer plays for the members whose turn timed out; False when none did."""
    late = late_seats(table, state)
    if not late:
        return False
    table.ui["autoplay"] = sorted(set(table.ui.get("autoplay", ())) | set(late))
    return True


def when_idle(
    controller: Controller[Any, Any], table: Table, limits: dict[str, float], now: float
) -> Text | None:
    """What the sweep does with an open table: :data:`TIME_OUT` (the computer takes the
    turns of members who let theirs time out), the text of the board of a table it ends (a
    lapsed challenge, a game idle too long), or None."""
    idle = now - table.last_move_at
    if (
        table.status is TableStatus.ACTIVE
        and controller.turn_timeout is not None
        and controller.turn_timeout < idle <= limits["idle_end_hours"] * 3600
    ):
        return TIME_OUT
    if table.status is TableStatus.CHALLENGE and now > table.ui.get("expires", now + 1):
        return _("The {game} challenge lapsed.", game=game_name(controller.title))
    if idle > limits["idle_end_hours"] * 3600:
        game, time = game_name(controller.title), duration(limits["idle_end_hours"], "hour")
        return _("This game of {game} ended after {time} without a move.", game=game, time=time)
    return None


def table_view(
    controller: Controller[Any, Any], table: Table, state: GameState | None
) -> TableView[Any]:
    """What a controller may know of ``table`` beyond its own UI state: how the game ended
    (stored by the service, else the engine's), whether the computer is to move, the seats
    it plays for members away, and when a lobby or a member's turn lapses."""
    outcome = Outcome.from_dict(table.outcome) if table.outcome is not None else None
    if outcome is None and state is not None:
        outcome = state.outcome()
    expires = table.ui.get("expires")
    autoplay = frozenset(table.ui.get("autoplay", ()))
    deadline = None
    if (
        controller.turn_timeout is not None
        and table.status is TableStatus.ACTIVE
        and state is not None
        and any(not table.seats[s].is_ai and s not in autoplay for s in state.to_act())
    ):
        deadline = table.last_move_at + controller.turn_timeout
    return TableView(
        ui=controller.ui(table),
        outcome=outcome,
        thinking=computer_seat(table, state) is not None,
        autoplay=autoplay,
        expires=None if expires is None else float(expires),
        turn_deadline=deadline,
    )


def claimable(table: Table) -> bool:
    """An active game between two members, which the waiting one may claim once idle."""
    members = [s for s in table.seats if not s.is_ai]
    return table.status is TableStatus.ACTIVE and len(table.seats) == 2 and len(members) == 2


def check_setting(name: str, value: float) -> None:
    """A finite value within the setting's range, else IllegalAction saying which."""
    if name not in SETTING_DEFAULTS:
        raise IllegalAction(N_("Unknown setting {name}.", name=name))
    low, high, unit = SETTING_RANGES[name]
    if not isinstance(value, int | float) or not math.isfinite(value):
        raise IllegalAction(out_of_range(unit, low, high))
    if not low <= value <= high:
        raise IllegalAction(out_of_range(unit, low, high, value))


def out_of_range(unit: str, low: float, high: float, value: float | None = None) -> Phrase:
    """What /settings says of a value outside a setting's range (``value`` None: not a
    number at all), in the setting's ``unit``.

    >>> str(out_of_range("hour", 1.0, 720.0, 0.5))
    'Use a number of hours from 1 to 720, not 0.5.'
    """
    low, high = _whole(low), _whole(high)
    value = None if value is None else _whole(value)
    if unit == "minute":
        if value is None:
            return N_("Use a number of minutes from {low} to {high}.", low=low, high=high)
        said = N_(
            "Use a number of minutes from {low} to {high}, not {value}.",
            low=low,
            high=high,
            value=value,
        )
    elif value is None:
        return N_("Use a number of hours from {low} to {high}.", low=low, high=high)
    else:
        said = N_(
            "Use a number of hours from {low} to {high}, not {value}.",
            low=low,
            high=high,
            value=value,
        )
    return said


def _whole(number: float) -> float:
    """A whole number as an ``int`` (``10080``, not ``10080.0``), any other as it is."""
    return int(number) if float(number).is_integer() and abs(number) < 1e15 else number
