"""A toy game (tests/toy_game.py) registered through the public registration alone, played end
to end through the service: the proof that the contract is the whole contract."""

from __future__ import annotations

import io

import discord
import pytest
import toy_game
from discord import app_commands
from PIL import Image
from support import member

from bot.client import commands
from bot.tables import registry
from games.base import GameState
from storage import TableStatus

ALICE = member(1, "Alice")
BOB = member(2, "Bob")


@pytest.fixture
async def toy_service(service):
    """The suite's checked service (every reply within Discord's limits), built again once the
    toy is registered: with no controllers given, it offers every registered game."""
    registry.register(toy_game.SPEC)
    try:
        yield type(service)(service.db, ai=service.ai, clock=service.clock)
    finally:
        registry.unregister("takeaway")


def click(reply, label: str) -> str:
    """The action of the board's enabled button whose label starts with ``label``."""
    for row in reply.board.rows:
        for button in row:
            if button.label.startswith(label) and not button.disabled:
                return button.action
    raise AssertionError(f"no enabled button {label!r} in {reply.board.content!r}")


def test_the_toy_engine_keeps_the_protocol():
    state = toy_game.State.new(5)
    assert isinstance(state, GameState)
    assert toy_game.State.from_dict(state.to_dict()) == state
    assert toy_game.ENGINE.decide(state.to_dict(), 0, "perfect", 0.1, 1) == "take-1"


async def play_against_the_computer(service):
    """Alice against the perfect computer from a pile of 9, to the end: the last reply."""
    reply = await service.start(ALICE, "takeaway", {"pile": 9, "level": "perfect"})
    assert reply.error is None and "9 counters left" in reply.board.content
    assert not reply.ai_next  # Alice moves first
    # Mark twice, then take: the toy's own UI state, saved between clicks by the service.
    for _ in range(2):
        reply = await service.act(ALICE, reply.table_id, reply.version, click(reply, "Mark"))
        assert reply.error is None, reply.error
    table = await service.db.get_table(reply.table_id)
    assert table.ui == {"marked": 2}
    reply = await service.act(ALICE, reply.table_id, reply.version, click(reply, "Take marked"))
    assert reply.error is None and reply.ai_next and "thinking" in reply.board.content
    assert (await service.db.get_table(reply.table_id)).ui == {}
    # The computer answers through the one loop the client uses too.
    reply = await service.play_computer(reply.table_id)
    state = toy_game.State.from_dict((await service.db.get_table(reply.table_id)).state)
    assert state.pile == 4 and state.turn == 0  # it left a multiple of four
    # Alice cannot win from four: play it out.
    while reply.board.rows and any(b.action.startswith("m=") for b in reply.board.rows[0]):
        reply = await service.act(ALICE, reply.table_id, reply.version, click(reply, "Take 1"))
        assert reply.error is None, reply.error
        if reply.ai_next:
            reply = await service.play_computer(reply.table_id)
    table = await service.db.get_table(reply.table_id)
    assert table.status is TableStatus.FINISHED
    assert table.outcome == {
        "winners": [1],
        "termination": "took-last",
        "scores": [],
        "details": {},
    }
    assert "Computer (perfect) wins!" in reply.board.content
    return reply


async def test_a_toy_game_against_the_computer_from_start_to_scoreboard(toy_service):
    service = toy_service
    assert "takeaway" in service.controllers
    await play_against_the_computer(service)
    board = await service.scoreboard(ALICE.guild_id, "takeaway")
    assert "Take-away — scoreboard" in board.embed.title and "Alice" in board.embed.description


async def test_a_finished_toy_game_is_replayed_by_its_hook_as_checkers_is(toy_service):
    """The toy's spec has a replay hook and nothing else says so: its finished board offers
    Replay, and the click is answered by the service's one replay path."""
    service = toy_service
    finished = await play_against_the_computer(service)
    assert [b.label for b in finished.board.rows[0]] == ["Play again", "Replay"]
    reply = await service.act(BOB, finished.table_id, None, "replay")  # anyone may watch
    assert reply.error is None
    table = await service.db.get_table(finished.table_id)
    moves = len(table.state["moves"])
    assert reply.private.content == (
        f"🎞️ **Take-away** replay of game #{table.id}: Alice v Computer (perfect), {moves} moves. "
        "Computer (perfect) wins!"
    )
    [reel] = reply.private.attachments
    with Image.open(io.BytesIO(reel.data)) as image:
        assert image.format == "GIF" and image.n_frames == moves + 2  # start, each move, held
    assert reel.description == (
        f"Take-away from 9 counters, {moves} moves; Computer (perfect) took the last."
    )
    found = await service.pictures.finished_game(ALICE.guild_id, ALICE.channel_id, "takeaway", None)
    assert found.id == table.id and (await service.pictures.replay(found)).attachments == (reel,)
    assert service.pictures.cache.drawn == 1


async def test_a_toy_challenge_an_illegal_move_and_a_resignation(toy_service):
    service = toy_service
    reply = await service.start(ALICE, "takeaway", {"pile": 2}, opponent=BOB)
    reply = await service.act(BOB, reply.table_id, reply.version, "accept")
    assert reply.error is None
    first = ALICE if reply.board.content.count("<@1>") else BOB
    other = BOB if first is ALICE else ALICE
    refused = await service.act(other, reply.table_id, reply.version, "m=take-1")
    assert refused.error == "It is not your turn."
    refused = await service.act(first, reply.table_id, reply.version, "m=take-3")
    assert refused.error == "Only 2 counters are left."
    refused = await service.act(first, reply.table_id, reply.version, "m=grab-all")
    assert "is not a move" in refused.error
    ended = await service.act(first, reply.table_id, reply.version, "resign")
    assert ended.error is None and "wins!" in ended.posts[0].content
    table = await service.db.get_table(reply.table_id)
    assert table.outcome["termination"] == "resign"
    results = await service.db.standings(ALICE.guild_id, "takeaway")
    assert sorted((s.name, s.wins, s.losses) for s in results) == sorted(
        [(other.name, 1, 0), (first.name, 0, 1)]
    )


async def test_the_command_tree_and_rules_read_the_registration(toy_service):
    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)
    commands.install(tree, toy_service)
    group = tree.get_command("takeaway")
    assert group is not None and group.get_command("replay") is not None  # from its replay hook
    rules = tree.get_command("rules")
    choices = {c.value for c in rules.parameters[0].choices}
    assert "takeaway" in choices and "quarters" in choices
    assert toy_service.controllers["takeaway"].rules_text.startswith("**Take-away**")
