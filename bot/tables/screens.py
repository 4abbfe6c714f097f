"""What the table service asks the Discord layer to show, as plain data.

A :class:`Screen` is one message: text, an optional embed, pictures and files, and rows of
controls. Controls carry an *action* string; the Discord layer turns them into components whose
custom_id is ``t:<table>:<version>:<action>`` (``*`` for the version when the control does not
depend on the board being current, such as a private hand).
"""

from __future__ import annotations

from dataclasses import dataclass, field
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


@dataclass(slots=True)
class Reply:
    """The answer to one thing a member did.

    - ``error``: a short refusal, shown only to the member.
    - ``board``: the table's board after the change (edited in place, or posted when new).
    - ``private``: a message only the member sees (a hand, a hint, the Secret).
    - ``posts``: new messages for the channel (the result, a game record).
    - ``update_private``: the member clicked on a private message; replace it with ``private``.
    - ``ai_next``: the computer must move next; the Discord layer calls
      :meth:`TableService.play_computer` and edits the board with each reply it gets.
    - ``repost``: post ``board`` as a new message and retire the old one's controls.
    - ``hand_key``: ``private`` is the member's hand, to keep up to date while it may be edited.
    """

    error: str | None = None
    board: Screen | None = None
    private: Screen | None = None
    posts: list[Screen] = field(default_factory=list)
    table_id: int | None = None
    version: int | None = None
    board_message_id: int | None = None
    update_private: bool = False
    ai_next: bool = False
    repost: bool = False
    delay: float = 0.0  # seconds to wait before the computer's next move (Hearts' card delay)
    # ``private`` is the member's hand (one message a member and table, kept up to date);
    # ``hand_key`` summarises what it shows (see :meth:`Controller.private_key`).
    hand_key: str | None = None
    # ``repost``: the old board was this game's (it says it moved on), not a finished game's.
    same_game: bool = True

    @classmethod
    def refuse(cls, message: str, board_message_id: int | None = None) -> Reply:
        return cls(error=message, board_message_id=board_message_id)
