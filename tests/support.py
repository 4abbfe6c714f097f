"""Helpers shared by the table-service tests: a hand-moved clock and members."""

from __future__ import annotations

from bot.tables.service import Member

GUILD = 1000
CHANNEL = 2000


class Clock:
    """A clock the tests move by hand."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def member(user_id: int, name: str | None = None, channel: int = CHANNEL, **kw) -> Member:
    return Member(user_id, name or f"player{user_id}", GUILD, channel, **kw)
