"""The contract between a game and the rest of Parlour: one registration per game, the service
applying every move, and the commands that reach a game's public actions."""

from __future__ import annotations

import ast
import importlib
import re
import sys
from pathlib import Path

import pytest
from support import member

from bot.tables import registry
from bot.tables.controller import Controller
from bot.tables.quarters import SECRET
from bot.tables.spec import GameSpec
from games.base import Engine, GameState

ALICE = member(1, "Alice")
ROOT = Path(__file__).resolve().parent.parent


def test_every_builtin_game_is_registered_once_with_its_engine():
    specs = registry.specs()
    assert list(specs) == ["quarters", "checkers", "kabu", "quatorze", "hearts"]
    for kind, spec in specs.items():
        assert isinstance(spec.engine, Engine) and spec.engine.kind == kind == spec.kind
        assert spec.controller.kind == kind and spec.levels == spec.engine.levels
        assert spec.rules and spec.title and spec.engine.default_level == spec.levels[-1]
        assert spec.commands is not None and spec.commands.startswith("bot.client.")
        module, _, function = spec.commands.partition(":")
        assert callable(getattr(importlib.import_module(module), function))
        assert isinstance(spec.engine.state.new(), GameState)


def test_a_game_has_a_replay_exactly_when_its_spec_has_the_hook():
    offered = {kind for kind, spec in registry.specs().items() if spec.replay is not None}
    assert offered == {"quarters", "checkers"}
    for kind, spec in registry.specs().items():
        labels = [button.label for button in spec.make().finished_row()]
        assert ("Replay" in labels) == (kind in offered), kind


def own_files(spec: GameSpec) -> set[Path]:
    """A game's own modules: its controller's module (or the whole package it sits in, under
    ``bot/tables``) and its command module."""
    path = Path(sys.modules[spec.controller.__module__].__file__ or "").resolve()
    found = set(path.parent.rglob("*.py")) if path.parent.name == spec.kind else {path}
    if spec.commands is not None:
        module = importlib.import_module(spec.commands.partition(":")[0])
        found.add(Path(module.__file__ or "").resolve())
    return found


def shared_files() -> list[Path]:
    """Every module of ``bot/`` but the games' own and the registry."""
    own = set().union(*(own_files(spec) for spec in registry.specs().values()))
    own.add((ROOT / "bot" / "tables" / "registry.py").resolve())
    return [p for p in sorted((ROOT / "bot").rglob("*.py")) if p.resolve() not in own]


def string_literals(tree: ast.AST) -> list[ast.Constant]:
    """The module's string constants, docstrings left out (they may name a game as an
    example)."""
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


def test_only_the_registry_and_a_games_own_modules_name_the_game():
    kinds = set(registry.specs())
    word = re.compile(r"\b(" + "|".join(sorted(kinds)) + r")\b")
    found = []
    for path in shared_files():
        for node in string_literals(ast.parse(path.read_text(encoding="utf-8"))):
            if node.value in kinds or word.search(node.value):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}")
    assert not found, "\n".join(found)
    assert len(shared_files()) > 20  # the walk found the shared modules


def test_no_controller_sets_a_tables_status():
    """A table begins or closes by the intent a controller returns (``Intent.lifecycle``)."""
    games = set().union(*(own_files(spec) for spec in registry.specs().values()))
    shared = {ROOT / "bot" / "tables" / name for name in ("controller.py", "lobby.py")}
    for path in sorted(games | shared):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = node.targets if isinstance(node, ast.Assign) else []
            for target in targets:
                assert not (isinstance(target, ast.Attribute) and target.attr == "status"), path


def test_a_kind_registers_once():
    quarters = registry.spec("quarters")
    assert registry.register(quarters) is quarters  # the same spec again is harmless
    with pytest.raises(ValueError, match="registered already"):
        registry.register(GameSpec(type(quarters.make())))


async def test_the_secret_without_a_game_and_at_a_game(service):
    alone = await service.ask(ALICE, "quarters", "secret")
    assert alone.error is None and alone.private.content == str(SECRET)
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


REFUSING = {"IllegalAction", "Refused", "refuse"}  # what says a refusal to a member


def bare_refusals(source: str) -> list[int]:
    """The lines of refusals given a bare English string (a literal, an f-string, a sum of
    them), which no member could read in their own language."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        said = node.args[0]
        bare = isinstance(said, ast.JoinedStr | ast.BinOp) or (
            isinstance(said, ast.Constant) and isinstance(said.value, str)
        )
        if name in REFUSING and bare:
            found.append(node.lineno)
    return found


def test_no_refusal_in_bot_is_a_bare_english_string():
    """Every refusal under ``bot/`` is marked (``N_``, ``_``) to be said in the member's
    language (issue 46)."""
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted((ROOT / "bot").rglob("*.py"))
        for line in bare_refusals(path.read_text(encoding="utf-8"))
    ]
    assert found == []
    caught = 'raise IllegalAction(f"No {x}.")\nAnswer.refuse("No.")\nraise IllegalAction(N_("No."))'
    assert bare_refusals(caught) == [1, 2]
