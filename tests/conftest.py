"""Shared fixtures: a real SQLite file, the table service, members."""

from __future__ import annotations

import pytest

from bot.tables.ai import AiRunner
from bot.tables.registry import controllers
from bot.tables.service import Member, TableService
from storage import Database

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


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "parlour.db"


@pytest.fixture
async def service(db_path, clock):
    db = await Database.open(db_path)
    ai = AiRunner(2, threads=True)
    yield TableService(db, controllers(), ai, clock=clock)
    ai.close()
    await db.close()
