"""What Discord's client checks before a slash command is sent: who may use it, and its options.

Discord's client hides a command from members who lack its ``default_member_permissions`` and
refuses option values of the wrong type, outside a range or not among the choices, saying so
under the command box; the bot never sees such an interaction. The playground does the same
here, so the page shows those short messages instead of a conversion error.

>>> spec = {"name": "piles", "type": 4, "min_value": 1, "max_value": 9}
>>> check_value(spec, "4")
4
>>> check_value(spec, "abc")
Traceback (most recent call last):
...
playground.checks.OptionError: piles: enter a whole number.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from typing import Any

STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10
TRUE_WORDS = frozenset({"true", "yes", "1", "on"})
FALSE_WORDS = frozenset({"false", "no", "0", "off"})

# The permission bits a command may ask for, with the names Discord's client shows.
PERMISSION_NAMES = {
    1 << 1: "Kick Members",
    1 << 2: "Ban Members",
    1 << 3: "Administrator",
    1 << 4: "Manage Channels",
    1 << 5: "Manage Server",
    1 << 13: "Manage Messages",
    1 << 28: "Manage Roles",
}


class OptionError(ValueError):
    """A value Discord's client would not send; the message is what the member is told."""


def missing_permissions(command: Mapping[str, Any], member_permissions: int) -> list[str]:
    """The names of the permissions ``command`` asks for that the member lacks ([] if none).

    ``default_member_permissions`` is a string of bits, ``None`` (everyone) or ``"0"`` (only
    administrators); Administrator grants everything.

    >>> missing_permissions({"default_member_permissions": "32"}, 1 << 13)
    ['Manage Server']
    >>> missing_permissions({"default_member_permissions": None}, 0)
    []
    """
    wanted = command.get("default_member_permissions")
    if wanted is None:
        return []
    bits = int(wanted)
    if member_permissions & (1 << 3):
        return []
    if bits == 0:
        return ["Administrator"]
    lacking = bits & ~member_permissions
    return [name for bit, name in PERMISSION_NAMES.items() if lacking & bit] or (
        [f"permission bits {lacking}"] if lacking else []
    )


def check_command(
    command: Mapping[str, Any],
    values: Mapping[str, Any],
    *,
    members: Collection[str] = (),
    channels: Collection[str] = (),
) -> dict[str, Any]:
    """``values`` (as typed) checked against ``command``'s options and converted.

    Empty values are left out; a missing required option, an unknown option, a member or
    channel that does not exist, or a value :func:`check_value` refuses raises
    :class:`OptionError`.
    """
    specs = {o["name"]: o for o in command.get("options") or []}
    given = {k: v for k, v in values.items() if v is not None and str(v).strip() != ""}
    for name in given:
        if name not in specs:
            raise OptionError(f"/{command['path']} has no option {name}.")
    missing = [n for n, o in specs.items() if o.get("required") and n not in given]
    if missing:
        raise OptionError(f"/{command['path']} needs {', '.join(missing)}.")
    checked: dict[str, Any] = {}
    for name, value in given.items():
        spec = specs[name]
        checked[name] = check_value(spec, value)
        kind = spec.get("type")
        if kind in (USER, MENTIONABLE) and members and checked[name] not in members:
            raise OptionError(f"{name}: choose a member of this server.")
        if kind == CHANNEL and channels and str(checked[name]).lstrip("#") not in channels:
            raise OptionError(f"{name}: choose a channel of this server.")
        if kind == CHANNEL:
            checked[name] = str(checked[name]).lstrip("#")
    return checked


def check_value(spec: Mapping[str, Any], value: Any) -> Any:
    """One option's value as Discord's client would send it, or :class:`OptionError`."""
    name = spec["name"]
    kind = spec.get("type", STRING)
    text = str(value).strip()
    choices = spec.get("choices") or []
    if choices:
        for choice in choices:
            if text.lower() in (str(choice["name"]).lower(), str(choice["value"]).lower()):
                return choice["value"]
        listed = ", ".join(str(c["name"]) for c in choices)
        raise OptionError(f"{name}: pick one of the choices ({listed}).")
    if kind == BOOLEAN:
        if isinstance(value, bool):
            return value
        if text.lower() in TRUE_WORDS | FALSE_WORDS:
            return text.lower() in TRUE_WORDS
        raise OptionError(f"{name}: pick True or False.")
    if kind in (INTEGER, NUMBER):
        return _number(name, kind, value, text, spec)
    if kind == STRING:
        return _string(name, text, spec)
    return text.lstrip("@")


def _number(name: str, kind: int, value: Any, text: str, spec: Mapping[str, Any]) -> int | float:
    number: int | float
    try:
        if kind == INTEGER:
            number = value if isinstance(value, int) and not isinstance(value, bool) else int(text)
        else:
            number = float(text)
    except ValueError:
        wanted = "a whole number" if kind == INTEGER else "a number"
        raise OptionError(f"{name}: enter {wanted}.") from None
    if isinstance(number, float) and not math.isfinite(number):
        raise OptionError(f"{name}: enter a number.")
    low, high = spec.get("min_value"), spec.get("max_value")
    if (low is not None and number < low) or (high is not None and number > high):
        raise OptionError(f"{name}: {_range(low, high, 'a value')}.")
    return number


def _string(name: str, text: str, spec: Mapping[str, Any]) -> str:
    low, high = spec.get("min_length"), spec.get("max_length")
    if (low is not None and len(text) < low) or (high is not None and len(text) > high):
        raise OptionError(f"{name}: {_range(low, high, 'a length', ' characters')}.")
    return text


def _range(low: Any, high: Any, what: str, unit: str = "") -> str:
    def show(n: Any) -> str:
        return f"{n:g}" if isinstance(n, float) else str(n)

    if low is not None and high is not None:
        return f"enter {what} from {show(low)} to {show(high)}{unit}"
    if low is not None:
        return f"enter {what} of at least {show(low)}{unit}"
    return f"enter {what} of at most {show(high)}{unit}"
