"""Shared fixtures: a real database on each back-end (a SQLite file, a PostgreSQL schema), the
table service, members."""

from __future__ import annotations

import pytest
from limits import assert_fits_discord
from pg import fresh_schema
from support import Clock

from bot.tables.ai import AiRunner
from bot.tables.registry import controllers
from bot.tables.service import TableService
from storage import Database


def check_reply(reply):
    """Every screen the service hands out must fit Discord's limits."""
    if reply is None:
        return reply
    for screen in (reply.board, reply.private, *reply.posts):
        if screen is not None:
            assert_fits_discord(screen)
    return reply


class CheckedService(TableService):
    """The real service, with every reply checked against Discord's limits."""

    async def start(self, *args, **kwargs):
        return check_reply(await super().start(*args, **kwargs))

    async def act(self, *args, **kwargs):
        return check_reply(await super().act(*args, **kwargs))

    async def computer_turn(self, *args, **kwargs):
        return check_reply(await super().computer_turn(*args, **kwargs))

    async def show(self, *args, **kwargs):
        return check_reply(await super().show(*args, **kwargs))


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture(params=["sqlite", "postgresql"])
async def db_path(request, tmp_path):
    """Where a test's database lives: a SQLite file, or a PostgreSQL URL of a fresh schema.

    ``Database.open(db_path)`` takes either; a test using it runs once on each back-end.
    """
    if request.param == "sqlite":
        yield tmp_path / "parlour.db"
        return
    async with fresh_schema() as url:
        yield url


@pytest.fixture
async def service(db_path, clock):
    db = await Database.open(db_path)
    ai = AiRunner(2, threads=True)
    yield CheckedService(db, controllers(), ai, clock=clock)
    ai.close()
    await db.close()
