"""What the playground's page server and the playground share: an open page, and a refusal."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class ActionError(Exception):
    """Something the page asked that a member could not do; the message says what."""


class Viewer:
    """One open page: the member it acts as, the channel it shows, what it was last sent."""

    def __init__(self, send: Callable[[str], Any]) -> None:
        self.send = send
        self.member: str | None = None
        self.channel: str | None = None
        self.last = ""
