"""custom_ids of table controls, read strictly (no discord import).

A control's custom_id is ``<kind>:<table>:<version>:<action>``: ``t`` for a button, ``s`` for a
select; the table id and version in ASCII digits without leading zeros (the version may be
``*`` for a control that works on any board, such as a private hand); the action printable
ASCII without spaces. A custom_id is at most 100 characters. A member's client can send any
custom_id, so nothing here is trusted beyond its shape: the service decides what it may do.

>>> parse("t:12:3:m=11-15")
ControlId(kind='t', table_id=12, version=3, action='m=11-15')
>>> parse("t:-1:1:resign") is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_ID = 2**63 - 1  # table ids are signed 64-bit integers in both databases
MAX_LENGTH = 100  # Discord's limit on a custom_id
MAX_VALUES = 25  # Discord's limit on a select's options
# The regular expression a control's custom_id must match (fullmatch); ``parse`` adds ranges.
TEMPLATE = (
    r"(?P<table>[1-9][0-9]{0,18}):"
    r"(?P<version>0|[1-9][0-9]{0,18}|\*):"
    r"(?P<action>[!-~]{1,96})"
)
_PATTERN = re.compile(r"(?P<kind>[ts]):" + TEMPLATE)
_VALUE = re.compile(r"[!-~]{1,100}")


@dataclass(frozen=True, slots=True)
class ControlId:
    kind: str
    table_id: int
    version: int | None
    action: str


def parse(custom_id: str) -> ControlId | None:
    """The parts of a table control's custom_id, or None when it is not one."""
    if len(custom_id) > MAX_LENGTH:
        return None
    match = _PATTERN.fullmatch(custom_id)
    if match is None:
        return None
    return from_parts(match["kind"], match["table"], match["version"], match["action"])


def from_parts(kind: str, table: str, version: str, action: str) -> ControlId | None:
    """The checked parts (as the template's groups), or None when a number is out of range."""
    table_id = int(table)
    number = None if version == "*" else int(version)
    if table_id > MAX_ID or (number is not None and number > MAX_ID):
        return None
    return ControlId(kind, table_id, number, action)


def select_values(values: object) -> list[str] | None:
    """A select's chosen values as sent, or None unless they are 1 to 25 printable ASCII
    strings without commas or spaces (option values are drawn that way)."""
    if not isinstance(values, list) or not 1 <= len(values) <= MAX_VALUES:
        return None
    if not all(isinstance(v, str) and _VALUE.fullmatch(v) and "," not in v for v in values):
        return None
    return values
