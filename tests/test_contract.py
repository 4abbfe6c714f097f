"""The contract between a game and the rest of Parlour: one registration per game, the service
applying every move, and the commands that reach a game's public actions."""

from __future__ import annotations

import pytest

from bot.tables import registry
from bot.tables.quarters import SECRET
from bot.tables.spec import GameSpec
from games.base import Engine, GameState
from tests.support import member

ALICE = member(1, "Alice")


def test_every_builtin_game_is_registered_once_with_its_engine():
    specs = registry.specs()
    assert list(specs) == ["quarters", "checkers", "kabu", "quatorze", "hearts"]
    for kind, spec in specs.items():
        assert isinstance(spec.engine, Engine) and spec.engine.kind == kind == spec.kind
        assert spec.controller.kind == kind and spec.levels == spec.engine.levels
        assert spec.rules and spec.title and spec.renderer is not None
        assert spec.commands is not None and spec.commands.startswith("bot.client.")
        assert isinstance(spec.engine.state.new(), GameState)


def test_a_kind_registers_once():
    quarters = registry.spec("quarters")
    assert registry.register(quarters) is quarters  # the same spec again is harmless
    with pytest.raises(ValueError, match="registered already"):
        registry.register(GameSpec(type(quarters.make())))


async def test_the_secret_without_a_game_and_at_a_game(service):
    alone = await service.ask(ALICE, "quarters", "secret")
    assert alone.error is None and alone.private.content == SECRET
    reply = await service.start(ALICE, "quarters", {"piles": "3,4,5"})
    at_table = await service.ask(ALICE, "quarters", "secret")
    assert "nim-sum **2**" in at_table.private.content
    assert at_table.table_id == reply.table_id
    refused = await service.ask(ALICE, "checkers", "secret")
    assert refused.error and "Checkers" in refused.error
