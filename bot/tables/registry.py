"""Every game the bot offers, by kind."""

from __future__ import annotations

from bot.tables.checkers import CheckersController
from bot.tables.controller import Controller
from bot.tables.hearts import HeartsController
from bot.tables.kabu import KabuController
from bot.tables.quarters import QuartersController
from bot.tables.quatorze import QuatorzeController


def controllers() -> dict[str, Controller]:
    """A fresh controller per game kind, in the order the bot lists them."""
    found: list[Controller] = [
        QuartersController(),
        CheckersController(),
        KabuController(),
        QuatorzeController(),
        HeartsController(),
    ]
    return {c.kind: c for c in found}
