"""What the table service asks the Discord layer to show, as plain data.

A :class:`Screen` is one message: text, an optional embed, pictures and files, and rows of
controls. Controls carry an *action* string; the Discord layer turns them into components whose
custom_id is ``t:<table>:<version>:<action>`` (``*`` for the version when the control does not
depend on the board being current, such as a private hand).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from render.base import Picture


class Style(StrEnum):
    PRIMARY = "primary"
    SECONDARY = "secondary"
    SUCCESS = "success"
    DANGER = "danger"


@dataclass(frozen=True, slots=True)
class Button:
    label: str
    action: str
    style: Style = Style.SECONDARY
    disabled: bool = False
    emoji: str | None = None
    any_version: bool = False


@dataclass(frozen=True, slots=True)
class Option:
    label: str
    value: str
    description: str | None = None
    default: bool = False


@dataclass(frozen=True, slots=True)
class Select:
    """A select menu. Choosing sends the action ``<action>=<value>[,<value>...]``."""

    action: str
    options: tuple[Option, ...]
    placeholder: str = ""
    min_values: int = 1
    max_values: int = 1
    disabled: bool = False
    any_version: bool = False


Row = tuple[Button, ...] | Select


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    value: str
    inline: bool = False


@dataclass(frozen=True, slots=True)
class Embed:
    title: str = ""
    description: str = ""
    fields: tuple[Field, ...] = ()
    footer: str = ""
    colour: int = 0x2E8B57
    image: str | None = None  # file name of one of the screen's pictures


@dataclass(frozen=True, slots=True)
class FileData:
    filename: str
    data: bytes


@dataclass(frozen=True, slots=True)
class Attachment:
    """A picture or an animation attached to a message, with its alt text (Discord's
    attachment ``description``, at most 1024 characters): a replay, a chart."""

    data: bytes
    filename: str
    description: str = ""

    @classmethod
    def of(cls, drawn: Any) -> Attachment:
        """From anything drawn with ``data`` or ``png``, ``filename`` and ``description``
        (a :class:`~render.base.Picture`, a :class:`~render.animation.Animation`)."""
        data = getattr(drawn, "data", None) or drawn.png
        return cls(bytes(data), drawn.filename, drawn.description[:1024])


@dataclass(frozen=True, slots=True)
class Screen:
    """One message's content."""

    content: str = ""
    embed: Embed | None = None
    pictures: tuple[Picture, ...] = ()
    files: tuple[FileData, ...] = ()
    rows: tuple[Row, ...] = ()
    attachments: tuple[Attachment, ...] = ()


@dataclass(frozen=True, slots=True)
class HandUpdate:
    """A member's private hand as it stands: ``key`` summarises it, ``screen`` shows it (None:
    unchanged since the hand last shown), ``final``: the game is over, it will not change again."""

    key: str | None
    screen: Screen | None
    final: bool
