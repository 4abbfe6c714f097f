"""The contract between a game and the rest of Parlour: one registration per game, the service
applying every move, and the commands that reach a game's public actions."""

from __future__ import annotations

import pytest
from support import member

from bot.tables import registry
from bot.tables.controller import Controller
from bot.tables.quarters import SECRET
from bot.tables.spec import GameSpec
from games.base import Engine, GameState

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


@pytest.mark.parametrize("kind", ["quarters", "checkers", "kabu", "quatorze", "hearts"])
def test_each_games_renderer_draws_a_fresh_public_view(kind):
    spec = registry.spec(kind)
    picture = spec.renderer(spec.engine.state.new().view(None))
    assert picture.png.startswith(b"\x89PNG") and picture.description


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


async def test_the_table_view_gives_deadlines_and_thinking(service, clock):
    reply = await service.start(ALICE, "kabu", {})
    table = await service.db.get_table(reply.table_id)
    lobby = service.table_view(table, None)
    assert lobby.expires == clock() + 10 * 60 and lobby.turn_deadline is None
    assert not lobby.thinking and lobby.outcome is None
    clock.advance(5)
    reply = await service.act(ALICE, reply.table_id, reply.version, "deal")
    table = await service.db.get_table(reply.table_id)
    dealt = service.table_view(table, service.controllers["kabu"].load(table.state))
    assert dealt.expires is None and "expires" not in table.ui
    assert dealt.turn_deadline == table.last_move_at + 180.0 == clock() + 180.0


async def test_a_move_goes_through_the_service_even_from_a_controller_button(service):
    reply = await service.start(ALICE, "quarters", {"piles": "3,4,5", "level": "beginner"})
    for action in ("c=1.1", "c=1.2"):
        reply = await service.act(ALICE, reply.table_id, reply.version, action)
    table = await service.db.get_table(reply.table_id)
    piles = service.controllers["quarters"].load(table.state).piles
    assert table.ui == {"selected": [[1, 1], [1, 2]]} and piles == (3, 4, 5)
    reply = await service.act(ALICE, reply.table_id, reply.version, "remove")
    table = await service.db.get_table(reply.table_id)
    piles = service.controllers["quarters"].load(table.state).piles
    assert piles == (1, 4, 5) and table.ui == {} and reply.ai_next
    # Not Bob's table, not Alice's turn: both refused before anything is applied.
    assert (await service.act(member(2, "Bob"), reply.table_id, None, "m=2-1")).error
    assert (await service.act(ALICE, reply.table_id, None, "m=2-1")).error == (
        "It is not your turn."
    )


def test_a_spec_needs_a_controller_with_an_engine():
    class NoEngine(Controller):
        title = "Nothing"

    with pytest.raises(TypeError, match="names no engine"):
        GameSpec(NoEngine)
    with pytest.raises(ValueError, match="module:function"):
        GameSpec(type(registry.spec("quarters").make()), commands="bot.client.quarters_commands")
