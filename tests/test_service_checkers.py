"""Whole checkers games through the table service, with a real SQLite file and real images."""

from __future__ import annotations

import random

import pytest

from bot.tables.ai import AiRunner
from bot.tables.checkers import CheckersController, matching_moves
from bot.tables.registry import controllers
from bot.tables.screens import Button, Select
from bot.tables.service import Member, TableService
from games.checkers import State, read_pdn
from games.checkers.pdn import state_from_pdn
from storage import Database, TableStatus

GUILD, CHANNEL = 1000, 2000
ALICE = Member(1, "Alice", GUILD, CHANNEL)
BOB = Member(2, "Bob", GUILD, CHANNEL)
CAROL = Member(3, "Carol", GUILD, CHANNEL)

RED_TO_MOVE_AND_LOSE = "W:W9:B1,2"  # Red's man must step next to Black's men, who then jump it
MANY_MOVES = "B:WK3:BK32,K26,K9,K10,K18,K11,K4,K17"  # Black has 27 moves
AMBIGUOUS = "B:W26,25,10,18,17:BK14"  # 14x30x7 fits two different jump paths
RED_IS_LOST = "B:W29:BK10,K11,K12"
KING_AGAINST_KING = "B:WK32:BK1"
MAX_PLIES = 400


def controls(screen) -> list:
    return [item for row in screen.rows for item in (row if isinstance(row, tuple) else [row])]


def select(screen, action: str) -> Select:
    [found] = [c for c in controls(screen) if isinstance(c, Select) and c.action == action]
    return found


def button_actions(screen) -> list[str]:
    return [c.action for c in controls(screen) if isinstance(c, Button) and not c.disabled]


async def table_of(service, reply):
    return await service.db.get_table(reply.table_id)


async def current_state(service, reply) -> State:
    return State.from_dict((await table_of(service, reply)).state)


async def play_from_the_board(service, who, reply, rng: random.Random):
    """Pick a random move the way a member does: from the select (piece first when needed)."""
    if any(isinstance(c, Select) and c.action == "from" for c in controls(reply.board)):
        piece = rng.choice(select(reply.board, "from").options).value
        reply = await service.act(who, reply.table_id, reply.version, f"from={piece}")
        assert reply.error is None, reply.error
    move = rng.choice(select(reply.board, "m").options).value
    reply = await service.act(who, reply.table_id, reply.version, f"m={move}")
    assert reply.error is None, reply.error
    return reply


async def play_computer_turns(service, reply):
    if not reply.ai_next:
        return reply
    return await service.play_computer(reply.table_id) or reply


def wins_at_once(state: State, move: str) -> bool:
    after = state.copy()
    after.apply(after.to_act()[0], move)
    return after.outcome() is not None and after.outcome().winners == (0,)


def pdn_of(screen) -> str:
    [record] = screen.files
    assert record.filename.endswith(".pdn")
    return record.data.decode()


async def test_a_whole_game_against_the_computer_reaches_the_scoreboard(service):
    reply = await service.start(ALICE, "checkers", {"color": "black", "level": "beginner"})
    table = await table_of(service, reply)
    assert [s.name for s in table.seats] == ["Alice", "Computer (beginner)"]
    assert reply.board.pictures[0].png.startswith(b"\x89PNG")
    assert "<@1> to move (Black)" in reply.board.content
    rng = random.Random(7)
    plies = 0
    while (table := await table_of(service, reply)).status is TableStatus.ACTIVE:
        assert plies < MAX_PLIES
        reply = await play_from_the_board(service, ALICE, reply, rng)
        reply = await play_computer_turns(service, reply)
        plies += 2
    assert table.status is TableStatus.FINISHED
    state = State.from_dict(table.state)
    assert state.is_over()
    [post] = reply.posts
    assert post.content.startswith("🏁 **Checkers**")
    record = read_pdn(pdn_of(post))
    assert record.tags["Black"] == "Alice" and record.tags["White"] == "Computer (beginner)"
    assert record.board().fen() == state.board.fen()
    assert [b.label for b in controls(reply.board)] == ["Play again", "Replay"]
    standings = await service.db.standings(GUILD, "checkers")
    assert [(s.name, s.games, s.rating) for s in standings] == [("Alice", 1, None)]
    board = await service.scoreboard(GUILD, "checkers")
    assert "Rating" in board.embed.description and "—" in board.embed.description


async def test_two_members_play_a_rated_game_to_the_end(service):
    reply = await service.start(ALICE, "checkers", {"color": "red"}, opponent=BOB)
    assert "Alice plays Red" in reply.board.content
    refused = await service.act(CAROL, reply.table_id, reply.version, "accept")
    assert "Only the challenged member" in refused.error
    reply = await service.act(BOB, reply.table_id, reply.version, "accept")
    assert reply.error is None and not reply.ai_next
    table = await table_of(service, reply)
    assert [s.name for s in table.seats] == ["Bob", "Alice"]  # Black sits first
    rng = random.Random(27)  # a short game (33 plies) that Black wins
    players = {0: BOB, 1: ALICE}
    for _ in range(MAX_PLIES):
        state = await current_state(service, reply)
        if state.is_over():
            break
        seat = state.to_act()[0]
        moves = [a for a in state.legal_actions(seat) if a[0].isdigit()]
        reply = await service.act(
            players[seat], reply.table_id, reply.version, "m=" + rng.choice(moves)
        )
        assert reply.error is None, reply.error
    table = await table_of(service, reply)
    assert table.status is TableStatus.FINISHED
    outcome = state.outcome()
    final = State.from_dict(table.state)
    record = pdn_of(reply.posts[0])
    assert read_pdn(record).board().fen() == final.board.fen()
    assert state_from_pdn(record).to_dict()["moves"] == final.to_dict()["moves"]
    assert read_pdn(record).tags["Black"] == "Bob"
    standings = {s.name: s for s in await service.db.standings(GUILD, "checkers")}
    bob, alice = standings["Bob"], standings["Alice"]
    if outcome.is_draw:
        assert bob.draws == alice.draws == 1
        assert bob.rating == pytest.approx(1200) and alice.rating == pytest.approx(1200)
    else:
        winner, loser = (bob, alice) if outcome.winners == (0,) else (alice, bob)
        assert winner.wins == loser.losses == 1
        assert winner.rating == pytest.approx(1216) and loser.rating == pytest.approx(1184)
    board = await service.scoreboard(GUILD, "checkers")
    assert "1216" in board.embed.description or "1200" in board.embed.description


async def test_the_computer_thinks_with_the_controls_disabled_then_loses(service):
    start = {"color": "black", "level": "beginner", "position": RED_TO_MOVE_AND_LOSE}
    reply = await service.start(ALICE, "checkers", start)
    assert reply.ai_next
    assert "The computer is thinking" in reply.board.content
    assert all(c.disabled for c in controls(reply.board) if c.action != "record")
    too_soon = await service.act(ALICE, reply.table_id, reply.version, "m=1-5")
    assert "not your turn" in too_soon.error
    reply = await service.computer_turn(reply.table_id)
    assert "Computer (beginner) played" in reply.board.content
    state = await current_state(service, reply)
    moves = [a for a in state.legal_actions(0) if a[0].isdigit()]
    assert sorted(o.value for o in select(reply.board, "m").options) == sorted(moves)
    winning = next(m for m in moves if wins_at_once(state, m))
    reply = await service.act(ALICE, reply.table_id, reply.version, f"m={winning}")
    assert "🏆 **Alice wins** (Black) — Computer (beginner) cannot move." in reply.board.content
    text = pdn_of(reply.posts[0])
    assert '[FEN "W:W9:B1,2"]' in text and "1..." in text and "1-0" in text
    assert read_pdn(text).board().fen() == (await current_state(service, reply)).board.fen()
    assert "Black wins" in reply.board.pictures[0].description


async def test_the_lone_member_sees_their_own_pieces_at_the_bottom(service):
    controller = service.controllers["checkers"]
    reply = await service.start(ALICE, "checkers", {"color": "black", "level": "beginner"})
    assert controller.flip(await table_of(service, reply))  # Black is drawn at the bottom
    await service.stop(ALICE)
    reply = await service.start(ALICE, "checkers", {"color": "red", "level": "beginner"})
    assert not controller.flip(await table_of(service, reply))  # Red already is
    await service.stop(ALICE)
    reply = await service.start(ALICE, "checkers", opponent=BOB)
    reply = await service.act(BOB, reply.table_id, reply.version, "accept")
    assert not controller.flip(await table_of(service, reply))


async def test_more_than_25_moves_choose_the_piece_first(service):
    reply = await service.start(ALICE, "checkers", {"position": MANY_MOVES, "color": "black"}, BOB)
    reply = await service.act(BOB, reply.table_id, reply.version, "accept")
    pieces = select(reply.board, "from")
    values = [o.value for o in pieces.options]  # the likely first (see likely_order)
    assert sorted(values, key=int) == ["4", "9", "10", "11", "17", "18", "26", "32"]
    assert pieces.placeholder.startswith("27 moves")
    refused = await service.act(BOB, reply.table_id, reply.version, "from=18")
    assert "not your turn" in refused.error
    refused = await service.act(ALICE, reply.table_id, reply.version, "from=5")
    assert "No piece on 5 can move" in refused.error
    reply = await service.act(ALICE, reply.table_id, reply.version, "from=18")
    moves = select(reply.board, "m")
    assert sorted(o.value for o in moves.options) == ["18-14", "18-15", "18-22", "18-23"]
    assert [o.default for o in select(reply.board, "from").options].count(True) == 1
    reply = await service.act(ALICE, reply.table_id, reply.version, "m=18-23")
    assert (await current_state(service, reply)).to_dict()["moves"] == ["18-23"]
    assert any(c.action == "m" for c in controls(reply.board))  # Red has few moves: one select


async def test_illegal_and_ambiguous_typed_moves_get_clear_answers(service):
    reply = await service.start(ALICE, "checkers", {"color": "black", "position": AMBIGUOUS}, BOB)
    reply = await service.act(BOB, reply.table_id, reply.version, "accept")
    descriptions = [o.description for o in select(reply.board, "m").options]
    assert descriptions == [  # the longest captures first
        "Captures 17, 25, 26, 18, 10",
        "Captures 18, 26, 25, 17, 10",
        "Captures 10",
    ]
    ambiguous = await service.channel_action(ALICE, "m=14x30x7")
    assert "ambiguous" in ambiguous.error and "14x21x30x23x14x7" in ambiguous.error
    illegal = await service.channel_action(ALICE, "m=14-10")
    assert "not legal here" in illegal.error and "Legal captures" in illegal.error
    nonsense = await service.channel_action(ALICE, "m=hello")
    assert "not a move" in nonsense.error
    reply = await service.channel_action(ALICE, "m=14 7")
    assert reply.error is None
    assert (await current_state(service, reply)).to_dict()["moves"] == ["14x7"]


async def test_typed_moves_from_the_start(service):
    reply = await service.start(ALICE, "checkers", {"color": "black"}, opponent=BOB)
    reply = await service.act(BOB, reply.table_id, reply.version, "accept")
    stranger = await service.channel_action(CAROL, "m=11-15")
    assert "not seated" in stranger.error
    not_yours = await service.channel_action(BOB, "m=23-19")
    assert "not your turn" in not_yours.error
    reply = await service.channel_action(ALICE, "m=11 15")
    assert "Alice played **11-15**" in reply.board.content
    stale = await service.act(BOB, reply.table_id, reply.version - 1, "m=23-19")
    assert "out of date" in stale.error
    reply = await service.act(BOB, reply.table_id, reply.version, "m=23-19")
    assert (await current_state(service, reply)).to_dict()["moves"] == ["11-15", "23-19"]


async def test_a_draw_offered_and_accepted_between_members(service):
    reply = await service.start(ALICE, "checkers", {"color": "black"}, opponent=BOB)
    reply = await service.act(BOB, reply.table_id, reply.version, "accept")
    assert "m=offer-draw" in button_actions(reply.board)
    reply = await service.act(ALICE, reply.table_id, reply.version, "m=offer-draw")
    assert "Alice offers a draw" in reply.board.content
    assert "m=offer-draw" not in button_actions(reply.board)
    early = await service.act(BOB, reply.table_id, reply.version, "m=accept-draw")
    assert "not your turn" in early.error
    reply = await service.act(ALICE, reply.table_id, reply.version, "m=11-15")
    assert {"m=accept-draw", "m=decline-draw"} <= set(button_actions(reply.board))
    reply = await service.act(BOB, reply.table_id, reply.version, "m=accept-draw")
    assert "drawn" in reply.board.content and "agreed" in reply.board.content
    assert "1/2-1/2" in pdn_of(reply.posts[0])
    standings = await service.db.standings(GUILD, "checkers")
    assert sorted((s.name, s.draws) for s in standings) == [("Alice", 1), ("Bob", 1)]


async def test_a_declined_draw_offer_and_moving_on(service):
    reply = await service.start(ALICE, "checkers", {"color": "black"}, opponent=BOB)
    reply = await service.act(BOB, reply.table_id, reply.version, "accept")
    reply = await service.act(ALICE, reply.table_id, reply.version, "m=offer-draw")
    reply = await service.act(ALICE, reply.table_id, reply.version, "m=11-15")
    reply = await service.act(BOB, reply.table_id, reply.version, "m=decline-draw")
    assert "offers a draw" not in reply.board.content
    reply = await service.act(BOB, reply.table_id, reply.version, "m=offer-draw")
    reply = await service.act(BOB, reply.table_id, reply.version, "m=23-19")
    reply = await service.act(ALICE, reply.table_id, reply.version, "m=8-11")  # declines
    state = await current_state(service, reply)
    assert state.draw_offer is None and not state.is_over()


async def test_the_computer_accepts_a_draw_only_when_it_is_dead_drawn(service):
    lost = {"color": "black", "level": "medium", "position": RED_IS_LOST}
    reply = await service.start(ALICE, "checkers", lost)
    reply = await service.act(ALICE, reply.table_id, reply.version, "m=offer-draw")
    reply = await service.act(ALICE, reply.table_id, reply.version, "m=10-14")
    reply = await play_computer_turns(service, reply)
    assert "agreed by both players" not in reply.board.content  # it plays on, hoping
    await service.act(ALICE, reply.table_id, reply.version, "resign")
    level = {"color": "black", "level": "medium", "position": KING_AGAINST_KING}
    reply = await service.start(ALICE, "checkers", level)
    reply = await service.act(ALICE, reply.table_id, reply.version, "m=offer-draw")
    reply = await service.act(ALICE, reply.table_id, reply.version, "m=1-6")
    reply = await play_computer_turns(service, reply)
    assert "agreed by both players" in reply.board.content
    standings = await service.db.standings(GUILD, "checkers")
    assert [(s.name, s.draws) for s in standings] == [("Alice", 1)]


async def test_resigning_ends_the_game_with_the_record(service):
    reply = await service.start(ALICE, "checkers", {"color": "red"}, opponent=BOB)
    reply = await service.act(BOB, reply.table_id, reply.version, "accept")
    reply = await service.act(BOB, reply.table_id, reply.version, "m=11-15")
    reply = await service.act(BOB, reply.table_id, reply.version, "resign")  # not his turn
    assert "Alice wins** (Red) — Bob resigned" in reply.posts[0].content
    text = pdn_of(reply.posts[0])
    assert "0-1" in text and read_pdn(text).moves == ("11-15",)
    assert "Red wins: Black resigned" in reply.board.pictures[0].description
    assert [b.label for b in controls(reply.board)] == ["Play again", "Replay"]
    standings = {s.name: s for s in await service.db.standings(GUILD, "checkers")}
    assert standings["Alice"].rating == pytest.approx(1216)


async def test_anyone_may_ask_for_the_record_during_the_game(service):
    reply = await service.start(ALICE, "checkers", {"color": "black"}, opponent=BOB)
    reply = await service.act(BOB, reply.table_id, reply.version, "accept")
    reply = await service.act(ALICE, reply.table_id, reply.version, "m=9-14")
    answer = await service.act(CAROL, reply.table_id, reply.version, "record")
    assert answer.error is None and "1 move" in answer.private.content
    text = pdn_of(answer.private)
    assert "1. 9-14 *" in text and '[Black "Alice"]' in text


async def test_the_last_checkers_table_of_a_channel_gives_the_finished_record(service):
    reply = await service.start(ALICE, "checkers", {"color": "black"}, opponent=BOB)
    reply = await service.act(BOB, reply.table_id, reply.version, "accept")
    reply = await service.act(ALICE, reply.table_id, reply.version, "resign")
    await service.start(ALICE, "quarters")  # another game now runs in the channel
    table = await service.db.last_table_in_channel(CHANNEL, "checkers")
    assert table.id == reply.table_id and table.status is TableStatus.FINISHED
    controller = service.controllers["checkers"]
    screen = controller.record(table, controller.load(table.state))
    assert "Bob (Red) won" in screen.content and "0-1" in pdn_of(screen)


async def test_start_options_are_checked(service):
    bad = await service.start(ALICE, "checkers", {"position": "nonsense"})
    assert "is not a PDN FEN" in bad.error
    over = await service.start(ALICE, "checkers", {"position": "B:W5:B"})
    assert "cannot move" in over.error
    wrong = await service.start(ALICE, "checkers", {"color": "green"})
    assert "black, red or random" in wrong.error
    ranges = await service.start(ALICE, "checkers", {"position": "B:W21-32:B1-12", "color": "red"})
    assert ranges.error is None and ranges.ai_next  # the computer plays Black and moves first


async def test_play_again_swaps_the_colours(service):
    reply = await service.start(ALICE, "checkers", {"color": "black"}, opponent=BOB)
    reply = await service.act(BOB, reply.table_id, reply.version, "accept")
    reply = await service.act(ALICE, reply.table_id, reply.version, "resign")
    again = await service.act(BOB, reply.table_id, None, "again")
    table = await service.db.get_table(again.table_id)
    assert [s.name for s in table.seats] == ["Bob", "Alice"]


async def test_the_computer_moves_in_a_real_process_pool(db_path, clock):
    db = await Database.open(db_path)
    ai = AiRunner(1)
    service = TableService(db, controllers(), ai, clock=clock)
    reply = await service.start(ALICE, "checkers", {"color": "red", "level": "easy"})
    reply = await service.computer_turn(reply.table_id)
    table = await db.get_table(reply.table_id)
    assert len(table.state["moves"]) == 1 and "<@1> to move (Red)" in reply.board.content
    ai.close()
    await db.close()


def test_the_default_level_is_the_strongest_and_answers_within_two_seconds():
    controller = CheckersController()
    assert controller.levels[-1] == "expert" and controller.ai_budget <= 1.5
    assert controller.rated


def test_autocomplete_filters_the_legal_moves_by_what_is_typed():
    legal = State.new().legal_actions(0)[:-1]
    assert matching_moves(legal, "") == legal
    assert matching_moves(legal, "11") == ["11-15", "11-16"]
    assert matching_moves(legal, "1") == [m for m in legal if m.startswith("1")]
    assert matching_moves(legal, "9 1") == ["9-13", "9-14"]
    assert matching_moves(legal, "9-14") == ["9-14"]
    assert matching_moves(legal, "12x") == ["12-16"]
    assert matching_moves(legal, "23") == []
    jumps = ["9x18x27", "9x18x25", "10x19"]
    assert matching_moves(jumps, "9x27") == ["9x18x27"]
    assert matching_moves(jumps, "9x2") == ["9x18x27", "9x18x25"]
