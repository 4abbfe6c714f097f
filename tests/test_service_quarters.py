"""Whole Quarters games through the table service, with a real SQLite file and real images."""

from __future__ import annotations

import asyncio
import threading

from support import member

import bot.tables.quarters as quarters_controller
from bot.ops.dbtiming import instrument
from bot.tables.ai import AiRunner
from bot.tables.registry import controllers
from bot.tables.service import TableService
from storage import Database, TableStatus

ALICE = member(1, "Alice")
BOB = member(2, "Bob")
CAROL = member(3, "Carol")


async def play_computer_turns(service, reply):
    if not reply.ai_next:
        return reply
    return await service.play_computer(reply.table_id) or reply


async def take(service, who, reply, pile, count):
    """Select ``count`` coins of ``pile`` by clicking them, then Remove Coins."""
    for coin in range(1, count + 1):
        reply = await service.act(who, reply.table_id, reply.version, f"c={pile}.{coin}")
        assert reply.error is None, reply.error
    return await service.act(who, reply.table_id, reply.version, "remove")


def labels(screen):
    return [
        getattr(c, "label", None)
        for row in screen.rows
        for c in (row if isinstance(row, tuple) else [row])
    ]


async def test_computer_wins_from_three_four_five_when_it_moves_first(service):
    reply = await service.start(ALICE, "quarters")
    assert reply.board.pictures[0].png.startswith(b"\x89PNG")
    assert "Computer Start" in labels(reply.board)
    reply = await service.act(ALICE, reply.table_id, reply.version, "computer-start")
    assert reply.ai_next
    reply = await play_computer_turns(service, reply)
    table_id = reply.table_id
    while True:
        table = await service.db.get_table(table_id)
        if table.status is not TableStatus.ACTIVE:
            break
        piles = table.state and service.controllers["quarters"].load(table.state).piles
        pile = next(i for i, n in enumerate(piles, 1) if n)
        reply = await take(service, ALICE, reply, pile, 1)
        reply = await play_computer_turns(service, reply)
    assert table.status is TableStatus.FINISHED
    assert "Computer" in reply.posts[0].content or "Computer" in reply.board.content
    board = await service.scoreboard(ALICE.guild_id, "quarters")
    assert "Alice" in board.embed.description
    standings = await service.db.standings(ALICE.guild_id, "quarters")
    assert [(s.name, s.losses) for s in standings] == [("Alice", 1)]


async def test_a_player_who_plays_the_secret_beats_the_computer(service):
    reply = await service.start(ALICE, "quarters")
    secret = await service.act(ALICE, reply.table_id, None, "secret")
    assert "take 2 from the pile of 3" in secret.private.content
    reply = await take(service, ALICE, reply, 1, 2)
    reply = await play_computer_turns(service, reply)
    from games.quarters import winning_moves

    while (table := await service.db.get_table(reply.table_id)).status is TableStatus.ACTIVE:
        piles = service.controllers["quarters"].load(table.state).piles
        pile, count = (int(x) for x in winning_moves(piles)[0].split("-"))
        reply = await take(service, ALICE, reply, pile, count)
        reply = await play_computer_turns(service, reply)
    assert "Alice wins" in reply.board.content
    standings = await service.db.standings(ALICE.guild_id, "quarters")
    assert standings[0].wins == 1


async def test_two_members_play_a_challenge_to_the_end(service):
    reply = await service.start(ALICE, "quarters", {"piles": "2,2"}, opponent=BOB)
    assert "challenges" in reply.board.content
    refused = await service.act(CAROL, reply.table_id, reply.version, "accept")
    assert "Only the challenged member" in refused.error
    refused = await service.act(ALICE, reply.table_id, reply.version, "accept")
    assert refused.error
    reply = await service.act(BOB, reply.table_id, reply.version, "accept")
    assert reply.error is None and not reply.ai_next
    not_yours = await service.act(BOB, reply.table_id, reply.version, "c=1.1")
    assert "not your turn" in not_yours.error
    stranger = await service.act(CAROL, reply.table_id, reply.version, "c=1.1")
    assert "not seated" in stranger.error
    reply = await take(service, ALICE, reply, 1, 1)  # 1,2
    reply = await take(service, BOB, reply, 2, 2)  # 1,0: Alice is left with the last coin
    assert "Bob wins" in reply.board.content
    standings = {s.name: s for s in await service.db.standings(ALICE.guild_id, "quarters")}
    assert standings["Bob"].wins == 1 and standings["Alice"].losses == 1


async def test_coins_from_two_piles_are_refused(service):
    reply = await service.start(ALICE, "quarters")
    reply = await service.act(ALICE, reply.table_id, reply.version, "c=1.1")
    refused = await service.act(ALICE, reply.table_id, reply.version, "c=2.1")
    assert "one pile" in refused.error


async def test_fifty_concurrent_identical_clicks_apply_exactly_one_move(service):
    reply = await service.start(ALICE, "quarters", {"piles": "3,4,5"}, opponent=BOB)
    reply = await service.act(BOB, reply.table_id, reply.version, "accept")
    reply = await service.act(ALICE, reply.table_id, reply.version, "c=3.1")
    replies = await asyncio.gather(
        *(service.act(ALICE, reply.table_id, reply.version, "remove") for _ in range(50))
    )
    assert sum(r.error is None for r in replies) == 1
    table = await service.db.get_table(reply.table_id)
    assert table.state["moves"] == ["3-1"]


async def test_a_click_on_an_out_of_date_board_is_refused_and_moves_nothing(service):
    reply = await service.start(ALICE, "quarters")
    old_version = reply.version
    reply = await service.act(ALICE, reply.table_id, reply.version, "c=1.1")
    stale = await service.act(ALICE, reply.table_id, old_version, "remove")
    assert "out of date" in stale.error
    table = await service.db.get_table(reply.table_id)
    assert table.state["moves"] == []


async def test_a_game_continues_after_the_service_is_closed_and_reopened(db_path, clock):
    db = await Database.open(db_path)
    ai = AiRunner(1, threads=True)
    service = TableService(db, controllers(), ai, clock=clock)
    reply = await service.start(ALICE, "quarters", {"piles": "1,2"}, opponent=BOB)
    reply = await service.act(BOB, reply.table_id, reply.version, "accept")
    reply = await take(service, ALICE, reply, 1, 1)
    await db.close()
    ai.close()

    db = await Database.open(db_path)
    ai = AiRunner(1, threads=True)
    service = TableService(db, controllers(), ai, clock=clock)
    [table] = await db.open_tables()
    assert table.version == reply.version
    reply = await take(service, BOB, reply, 2, 1)  # leaves one coin for Alice
    assert "Bob wins" in reply.board.content
    await db.close()
    ai.close()


async def test_one_active_table_per_channel(service):
    await service.start(ALICE, "quarters")
    second = await service.start(BOB, "quarters")
    assert "already running" in second.error and "/game stop" in second.error


async def test_show_reposts_the_board_and_retires_the_old_controls(service):
    reply = await service.start(ALICE, "quarters")
    shown = await service.show(ALICE)
    assert shown.repost and shown.version == reply.version + 1
    stale = await service.act(ALICE, reply.table_id, reply.version, "c=1.1")
    assert "out of date" in stale.error


async def test_waiting_player_may_claim_an_idle_game(service, clock):
    reply = await service.start(ALICE, "quarters", opponent=BOB)
    reply = await service.act(BOB, reply.table_id, reply.version, "accept")
    early = await service.claim(BOB)
    assert "minute" in early.error
    clock.advance(11 * 60)
    assert "your turn" in (await service.claim(ALICE)).error
    reply = await service.claim(BOB)
    assert reply.error is None and "Bob" in reply.posts[0].content


async def test_idle_games_end_by_themselves_after_a_day(service, clock):
    await service.start(ALICE, "quarters")
    clock.advance(23 * 3600)
    assert await service.sweep() == []
    clock.advance(2 * 3600)
    [(table, reply)] = await service.sweep()
    assert "24 hours" in reply.board.content
    assert await service.db.open_table_in_channel(table.channel_id) is None


async def test_stop_is_for_the_starter_or_a_moderator(service):
    await service.start(ALICE, "quarters", opponent=BOB)
    assert (await service.stop(CAROL)).error
    moderator = member(4, "Mod", manage_messages=True)
    assert (await service.stop(moderator)).error is None


async def test_resign_gives_the_game_to_the_opponent(service):
    reply = await service.start(ALICE, "quarters")
    reply = await service.act(ALICE, reply.table_id, reply.version, "resign")
    assert "Computer" in reply.posts[0].content
    standings = await service.db.standings(ALICE.guild_id, "quarters")
    assert standings[0].losses == 1


async def test_big_piles_use_select_menus(service):
    reply = await service.start(ALICE, "quarters", {"piles": "9,9,9,9,9"})
    from bot.tables.screens import Select

    assert isinstance(reply.board.rows[0], Select)
    reply = await service.act(ALICE, reply.table_id, reply.version, "pile=2")
    assert isinstance(reply.board.rows[1], Select)
    reply = await service.act(ALICE, reply.table_id, reply.version, "take=4")
    table = await service.db.get_table(reply.table_id)
    assert table.state["moves"] == ["2-4"]


async def test_computer_moves_in_a_real_process_pool(db_path, clock):
    db = await Database.open(db_path)
    ai = AiRunner(1)
    service = TableService(db, controllers(), ai, clock=clock)
    reply = await service.start(ALICE, "quarters")
    reply = await service.act(ALICE, reply.table_id, reply.version, "computer-start")
    reply = await service.computer_turn(reply.table_id)
    table = await db.get_table(reply.table_id)
    assert table.state["moves"] == ["1-2"]
    ai.close()
    await db.close()


async def test_play_again_starts_the_next_game_with_the_seats_swapped(service):
    reply = await service.start(ALICE, "quarters", {"piles": "1,1"}, opponent=BOB)
    reply = await service.act(BOB, reply.table_id, reply.version, "accept")
    reply = await take(service, ALICE, reply, 1, 1)  # Bob is left with the last coin
    assert "Alice wins" in reply.board.content
    assert [b.label for b in reply.board.rows[0]] == ["Play again", "Replay"]
    stranger = await service.act(CAROL, reply.table_id, None, "again")
    assert "Only the players" in stranger.error
    again = await service.act(BOB, reply.table_id, None, "again")
    assert again.repost and again.table_id != reply.table_id
    table = await service.db.get_table(again.table_id)
    assert [s.name for s in table.seats] == ["Bob", "Alice"]
    twice = await service.act(ALICE, reply.table_id, None, "again")
    assert "already running" in twice.error


async def test_stats_show_a_members_record_in_every_game(service):
    empty = await service.stats(ALICE.guild_id, ALICE.user_id, "Alice")
    assert "No finished games" in empty.embed.description
    reply = await service.start(ALICE, "quarters")
    await service.act(ALICE, reply.table_id, reply.version, "resign")
    stats = await service.stats(ALICE.guild_id, ALICE.user_id, "Alice")
    [field] = stats.embed.fields
    assert field.name == "Quarters" and "1 played" in field.value and "L **1**" in field.value


async def test_a_click_and_the_computers_reply_each_read_the_table_once_and_save_it_once(service):
    calls: list[str] = []
    instrument(service.db, lambda name, _seconds: calls.append(name))
    reply = await service.start(ALICE, "quarters", {"piles": "5,5,5,5"})
    calls.clear()
    reply = await service.act(ALICE, reply.table_id, reply.version, "c=1.1")
    assert calls == ["get_table", "save_table"]
    calls.clear()
    reply = await service.act(ALICE, reply.table_id, reply.version, "remove")
    assert calls == ["get_table", "save_table"]
    assert reply.ai_next
    calls.clear()
    reply = await service.play_computer(reply.table_id)
    assert calls == ["get_table", "save_table"]  # Quarters' computer decides under the lock
    assert reply is not None and "to move" in reply.board.content


async def test_a_quarters_click_handled_on_the_loop_never_draws_there(service, monkeypatch):
    drawn_on: list[str] = []
    real_draw = quarters_controller.draw

    def watched(*args, **kwargs):
        drawn_on.append(threading.current_thread().name)
        return real_draw(*args, **kwargs)

    monkeypatch.setattr(quarters_controller, "draw", watched)
    loop_thread = threading.current_thread().name
    reply = await service.start(ALICE, "quarters", {"piles": "5,5,5,5"})
    reply = await take(service, ALICE, reply, 1, 2)
    await service.act(ALICE, reply.table_id, reply.version, "secret")
    assert drawn_on and loop_thread not in drawn_on
