"""Whole games of Quatorze through the table service, with a real SQLite file and real images."""

from __future__ import annotations

import dataclasses
import random
import re

import pytest
from support import member

from bot.tables.screens import Button, Select
from games.cards import cards_from_text, full_deck
from games.quatorze import State
from games.quatorze import ai as quatorze_ai
from storage import TableStatus

ALICE = member(1, "Alice")
BOB = member(2, "Bob")
PNG = b"\x89PNG"
MAX_MOVES = 30  # 26 pairs clear the deck
# The hint's chance, in one of its three wordings (sampled orders, exact, the stock gone).
CHANCE = (
    r"cleared the grid in [\d,]+ of [\d,]+ sampled stock orders \(\d+%\)"
    r"|\d+% of the possible orders of the stock clear the grid"
    r"|(This pair still|No pair) clears the grid"
)


@pytest.fixture(autouse=True)
def quick_hints(service):
    """Hints think for 50 ms here (0.5 s in the bot)."""
    service.controllers["quatorze"].hint_budget = 0.05


def selects(screen) -> list[Select]:
    return [row for row in screen.rows if isinstance(row, Select)]


def buttons(screen) -> list[Button]:
    return [b for row in screen.rows if isinstance(row, tuple) for b in row]


async def state_of(service, table_id: int) -> State:
    return State.from_dict((await service.db.get_table(table_id)).state)


async def test_whole_games_with_the_hints_policy_to_the_scoreboard(service):
    scores = []
    reply = await service.start(ALICE, "quatorze", {"winnable": True})
    assert "(a winnable deal)" in reply.board.content
    for game in range(2):
        table_id = reply.table_id
        assert reply.board.pictures[0].png.startswith(PNG)
        assert [b.label for b in buttons(reply.board)] == ["Hint", "Give up"]
        state = await state_of(service, table_id)
        assert state.winnable
        for _move in range(MAX_MOVES):
            hint = await service.act(ALICE, table_id, reply.version, "hint")
            assert hint.error is None and hint.board is None, hint.error
            private = hint.private
            assert private.content.startswith("💡 Take **")
            assert "not the stock's order" in private.content
            assert re.search(CHANCE, private.content), private.content
            (picture,) = private.pictures
            assert picture.png.startswith(PNG) and "Selected: " in picture.description
            [[take]] = private.rows
            assert take.label == "Take this pair" and take.action.startswith("play=")
            cells = take.action.removeprefix("play=").split("-")
            assert f"Selected: {cells[0]} and {cells[1]}." in picture.description
            reply = await service.act(ALICE, table_id, hint.version, take.action)
            assert reply.error is None, reply.error
            assert reply.update_private and reply.private.content.startswith("✅ You took")
            table = await service.db.get_table(table_id)
            if table.status is not TableStatus.ACTIVE:
                break
            assert f"Score **{2 * (_move + 1)}**/52" in reply.board.content
        assert table.status is TableStatus.FINISHED
        state = await state_of(service, table_id)
        scores.append(state.score)
        assert f"final score **{state.score}**/52" in reply.posts[0].content
        assert f"**{state.score}**" in reply.board.content
        assert [b.label for b in buttons(reply.board)] == ["Play again"]
        assert not selects(reply.board)
        if game == 0:
            reply = await service.act(ALICE, table_id, None, "again")
            assert reply.repost and reply.table_id != table_id

    [alice] = await service.db.standings(ALICE.guild_id, "quatorze")
    wins = sum(score == 52 for score in scores)
    assert (alice.games, alice.best, alice.wins) == (2, max(scores), wins)
    assert alice.extra.get("won", 0) == wins
    board = await service.scoreboard(ALICE.guild_id, "quatorze")
    header, line = board.embed.description.strip("`\n").splitlines()
    assert header.split() == ["#", "Player", "Games", "Best", "Wins"]
    assert line.split() == ["1", "Alice", "2", str(max(scores)), str(wins)]


async def test_a_game_played_from_the_pair_menu(service):
    reply = await service.start(ALICE, "quatorze")
    table_id = reply.table_id
    rng = random.Random(7)
    images = set()
    while True:
        state = await state_of(service, table_id)
        [menu] = selects(reply.board)
        assert len(menu.options) == len(state.pairs()) <= 25
        assert menu.action == "m"
        option = rng.choice(menu.options)
        a, b = option.value.split("-")
        assert option.label.endswith(f"({b})") and f"({a}) + " in option.label
        images.add(reply.board.pictures[0].png)
        reply = await service.act(ALICE, table_id, reply.version, f"m={option.value}")
        assert reply.error is None, reply.error
        if (await service.db.get_table(table_id)).status is not TableStatus.ACTIVE:
            break
    assert len(images) == len(state.moves) + 1  # a new picture after every pair
    state = await state_of(service, table_id)
    assert state.outcome() is not None
    [alice] = await service.db.standings(ALICE.guild_id, "quatorze")
    assert alice.best == state.score and alice.points == state.score


async def test_give_up_ends_the_game_with_the_score_so_far(service):
    reply = await service.start(ALICE, "quatorze")
    table_id = reply.table_id
    [menu] = selects(reply.board)
    reply = await service.act(ALICE, table_id, reply.version, f"m={menu.options[0].value}")
    ask = await service.act(ALICE, table_id, reply.version, "ask=give-up")
    assert ask.board is None and "Really give up with **2** points?" in ask.private.content
    [[confirm, cancel]] = ask.private.rows
    assert (cancel.label, cancel.action) == ("Cancel", "cancel")
    assert (confirm.label, confirm.action) == ("Yes, give up", "give-up")
    stranger = await service.act(BOB, table_id, reply.version, "give-up")
    assert "not seated" in stranger.error
    reply = await service.act(ALICE, table_id, ask.version, confirm.action)
    assert reply.update_private and "You gave up with 2 points" in reply.private.content
    assert "gave up with **2** points" in reply.board.content
    assert "gave up — final score **2**/52" in reply.posts[0].content


async def test_give_up_is_asked_and_answered_in_the_members_language(service):
    french = dataclasses.replace(ALICE, locale="fr")
    reply = await service.start(french, "quatorze")
    [menu] = selects(reply.board)
    reply = await service.act(french, reply.table_id, reply.version, f"m={menu.options[0].value}")
    ask = await service.act(french, reply.table_id, reply.version, "ask=give-up")
    assert ask.private.content == "⚠️ Vraiment abandonner avec **2** points ?"
    [[confirm, cancel]] = ask.private.rows
    assert (confirm.label, confirm.action, cancel.label) == (
        "Oui, abandonner",
        "give-up",
        "Annuler",
    )
    reply = await service.act(french, reply.table_id, ask.version, confirm.action)
    assert reply.private.content == "🏳️ Tu as abandonné avec 2 points."
    [alice] = await service.db.standings(ALICE.guild_id, "quatorze")
    assert (alice.wins, alice.losses, alice.best) == (0, 1, 2)
    assert alice.extra.get("won", 0) == 0


async def test_game_resign_gives_up_too(service):
    reply = await service.start(ALICE, "quatorze")
    reply = await service.act(ALICE, reply.table_id, reply.version, "resign")
    assert "gave up with **0** points" in reply.board.content
    assert [b.label for b in buttons(reply.board)] == ["Play again"]
    assert "gave up" in reply.posts[0].content


async def test_only_the_player_acts_and_stale_boards_are_refused(service):
    reply = await service.start(ALICE, "quatorze")
    table_id = reply.table_id
    [menu] = selects(reply.board)
    move = f"m={menu.options[0].value}"
    assert "not seated" in (await service.act(BOB, table_id, reply.version, move)).error
    assert "not seated" in (await service.act(BOB, table_id, reply.version, "hint")).error
    wrong = await service.act(ALICE, table_id, reply.version, "m=1-2")
    assert wrong.error  # not a pair (or not in one line)
    old = reply.version
    reply = await service.act(ALICE, table_id, reply.version, move)
    stale = await service.act(ALICE, table_id, old, move)
    assert "out of date" in stale.error
    # A hint's "Take this pair" from before a move is out of date too.
    hint = await service.act(ALICE, table_id, reply.version, "hint")
    [[take]] = hint.private.rows
    [menu] = selects(reply.board)
    reply = await service.act(ALICE, table_id, reply.version, f"m={menu.options[0].value}")
    if (await service.db.get_table(table_id)).status is TableStatus.ACTIVE:
        assert (
            "out of date" in (await service.act(ALICE, table_id, hint.version, take.action)).error
        )


async def test_the_hint_never_sees_the_stock_order(service, monkeypatch):
    """Two games alike in all a player sees, with the stock in other orders: the same hint."""

    class Frozen:
        @staticmethod
        def monotonic() -> float:
            return 0.0  # no deadline: every sample is judged, so the hint is deterministic

    monkeypatch.setattr(quatorze_ai, "time", Frozen)
    reply = await service.start(ALICE, "quatorze")
    table_id = reply.table_id
    [menu] = selects(reply.board)
    reply = await service.act(ALICE, table_id, reply.version, f"m={menu.options[0].value}")
    hints = set()
    for order in range(3):
        table = await service.db.get_table(table_id)
        state = State.from_dict(table.state)
        random.Random(order).shuffle(state.stock)
        table.state = state.to_dict()
        assert await service.db.save_table(table)
        hint = await service.act(ALICE, table_id, table.version, "hint")
        [[take]] = hint.private.rows
        hints.add(take.action)
    assert len(hints) == 1


# A grid with 34 pairs (found by a small search): aces and kings, 3s and jacks, 5s and 9s.
CROWDED = "AD JC 3D 3C JH 7S 3H JS JD 3S AH KH AC AS KS KD 5H 5S 9C 9D KC 9H 9S 5D 5C"


async def test_more_than_25_pairs_use_a_first_card_menu_then_its_partners(service):
    reply = await service.start(ALICE, "quatorze")
    table = await service.db.get_table(reply.table_id)
    head = cards_from_text(CROWDED)
    state = State.from_deck(head + [c for c in full_deck() if c not in head])
    assert len(state.pairs()) == 34
    table.state = state.to_dict()
    assert await service.db.save_table(table)
    reply = await service.show(ALICE)
    [first] = selects(reply.board)
    assert first.action == "first" and "34 pairs" in first.placeholder
    assert len(first.options) == 24  # every card but the 7♠ (cell 6) has a partner
    assert "6" not in [o.value for o in first.options]
    reply = await service.act(ALICE, reply.table_id, reply.version, "first=1")
    assert "Selected: 1." in reply.board.pictures[0].description
    first, partners = selects(reply.board)
    assert [o.value for o in first.options if o.default] == ["1"]
    assert partners.placeholder == "…and its partner for A♦ (1)"
    assert [o.value for o in partners.options] == ["1-16", "1-21"]  # the kings of column 1
    assert [o.description for o in partners.options] == ["Column 1", "Column 1"]
    refused = await service.act(ALICE, reply.table_id, reply.version, "first=99")
    assert "no partner" in refused.error
    reply = await service.act(ALICE, reply.table_id, reply.version, "m=1-21")
    assert reply.error is None
    assert (await state_of(service, reply.table_id)).moves == ["1-21"]
