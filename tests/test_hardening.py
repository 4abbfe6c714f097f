"""Issue 11 through the table service: forged clicks, clicks from elsewhere, odd digits, loose
ids, /settings values, and results that say who really played."""

from __future__ import annotations

import math

import pytest
from support import CHANNEL, member

from bot.client import customid
from bot.tables import played
from bot.tables.ai import AiRunner
from bot.tables.registry import controllers
from bot.tables.service import TableService
from bot.tables.trust import Origin
from games.base import IllegalAction
from games.checkers.board import Board
from games.digits import number, numbers
from games.hearts import State
from storage import Database, TableStatus

ALICE = member(1, "Alice")
BOB = member(2, "Bob")
ELSEWHERE = member(1, "Alice", channel=CHANNEL + 1)
PRIVATE = Origin(None, private=True)


async def hearts_table(service, *joiners):
    reply = await service.start(ALICE, "hearts", {"level": "beginner", "delay": 0})
    for joiner in joiners:
        reply = await service.act(joiner, reply.table_id, reply.version, "join")
    await service.board_posted(reply.table_id, 777)
    reply = await service.act(ALICE, reply.table_id, reply.version, "start", Origin(777))
    assert reply.error is None, reply.error
    while reply.ai_next:
        reply = await service.computer_turn(reply.table_id)
    return reply


# -- 1. a private control against the public board -------------------------------------------


async def test_a_hand_control_on_the_public_board_is_refused_and_changes_nothing(service):
    reply = await hearts_table(service)
    tid = reply.table_id
    board = Origin(777)
    before = await service.db.get_table(tid)
    hand = State.from_dict(before.state).hand(0)
    for action in ("hand=here", f"pass={hand[0]},{hand[1]},{hand[2]}"):
        refused = await service.act(ALICE, tid, None, action, board)
        assert refused.error and "private message" in refused.error
        assert refused.private is None and refused.board is None
    after = await service.db.get_table(tid)
    assert (after.version, after.state) == (before.version, before.state)
    # The same controls on Alice's private hand work.
    mine = await service.act(ALICE, tid, None, "hand=here", PRIVATE)
    assert mine.error is None and mine.update_private
    passed = await service.act(ALICE, tid, None, f"pass={hand[0]},{hand[1]},{hand[2]}", PRIVATE)
    assert passed.error is None and passed.update_private


async def test_a_board_move_sent_from_a_private_message_is_refused(service):
    reply = await service.start(ALICE, "quarters", {"piles": "3,4,5"})
    refused = await service.act(ALICE, reply.table_id, reply.version, "c=1.1", PRIVATE)
    assert refused.error and "board" in refused.error


# -- 2. a click from another channel ---------------------------------------------------------


async def test_a_click_from_another_channel_of_the_server_is_refused(service):
    reply = await service.start(ALICE, "quarters", {"piles": "3,4,5"})
    for origin in (None, Origin(5), PRIVATE):
        refused = await service.act(ELSEWHERE, reply.table_id, reply.version, "c=1.1", origin)
        assert refused.error and "another channel" in refused.error
    refused = await service.act(ELSEWHERE, reply.table_id, None, "again")
    assert refused.error and "another channel" in refused.error
    table = await service.db.get_table(reply.table_id)
    assert table.version == reply.version and table.channel_id == CHANNEL


async def test_a_click_on_a_message_that_is_not_the_board_is_refused(service):
    reply = await service.start(ALICE, "quarters", {"piles": "3,4,5"})
    await service.board_posted(reply.table_id, 42)
    refused = await service.act(ALICE, reply.table_id, reply.version, "c=1.1", Origin(41))
    assert refused.error and "out of date" in refused.error
    ok = await service.act(ALICE, reply.table_id, reply.version, "c=1.1", Origin(42))
    assert ok.error is None


# -- 3. odd digits ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("piles", "words"),
    [
        ("²,3", ("0-9", "²")),
        ("３,４,５", ("0-9", "３")),
        ("٣,٤,٥", ("0-9", "٣")),
        ("-1,-2", ("negative",)),
        ("-1", ("negative",)),
        ("3,,x", ("whole number", "x")),
    ],
)
async def test_odd_digits_in_piles_are_refused_with_the_real_problem(service, piles, words):
    refused = await service.start(ALICE, "quarters", {"piles": piles})
    assert refused.error is not None
    for word in words:
        assert word in refused.error
    assert await service.channel_table(CHANNEL) is None


async def test_odd_digits_in_quatorze_moves_are_refused(service):
    reply = await service.start(ALICE, "quatorze", {})
    for action in ("play=²-3", "play=3-٣", "first=²", "first=３", "m=²-3", "m=1-１"):
        refused = await service.act(ALICE, reply.table_id, reply.version, action)
        assert refused.error, action
    assert (await service.db.get_table(reply.table_id)).version == reply.version


async def test_odd_digits_in_controls_and_typed_moves_are_refused(service):
    reply = await service.start(ALICE, "quarters", {"piles": "3,4,5"})
    for action in ("c=².1", "c=1.²", "c=３.1", "pile=²", "pile=٣", "take=²", "m=²-1", "m=1-３"):
        refused = await service.act(ALICE, reply.table_id, reply.version, action)
        assert refused.error, action
    assert (await service.db.get_table(reply.table_id)).version == reply.version


def test_numbers_are_ascii_digits_only():
    assert numbers("3, 4,5", "A pile") == [3, 4, 5] == numbers("3-4-5", "A pile")
    assert number(" 7 ", "A pile") == 7
    for text in ("²", "３", "٣", "+3", "3_0", "1e3", "", "-1", "3.0", "1 2"):
        with pytest.raises(IllegalAction):
            number(text, "A pile")
    for move in ("１１-15", "11-1٥", "11-1²"):
        with pytest.raises(IllegalAction, match="0-9"):
            Board().parse_move(move)
    for fen in ("B:W٢١-32:B1-12", "B:W21-32:B１-12", "B:W21-32:B1-1²"):
        with pytest.raises(IllegalAction):
            Board.from_fen(fen)


# -- 4. and 5. huge and loose ids ------------------------------------------------------------


def test_custom_ids_are_read_strictly():
    assert customid.parse("t:12:3:m=11-15") == customid.ControlId("t", 12, 3, "m=11-15")
    assert customid.parse("s:1:*:play") == customid.ControlId("s", 1, None, "play")
    assert customid.parse(f"t:{2**63 - 1}:0:resign").table_id == 2**63 - 1
    for junk in (
        f"t:{2**63}:1:resign",
        f"t:1:{2**63}:resign",
        "t:-1:1:resign",
        "t:01:1:resign",
        "t:1:01:resign",
        "t:²:1:resign",
        "t:1:1:",
        "t:1:1:has space",
        "x:1:1:resign",
        "t:1:1:" + "a" * 100,
        "junk",
        "",
    ):
        assert customid.parse(junk) is None, junk
    assert customid.select_values(["QS"]) == ["QS"]
    for values in ([], ["a,b"], ["a b"], [""], [1], "QS", None, ["x"] * 26, ["é"]):
        assert customid.select_values(values) is None, values


async def test_a_move_with_any_version_from_the_board_is_out_of_date(service):
    reply = await service.start(ALICE, "quarters", {"piles": "3,4,5"})
    board = Origin(None)
    move = "1-1"
    refused = await service.act(ALICE, reply.table_id, None, f"m={move}", board)
    assert refused.error and "out of date" in refused.error
    assert (await service.db.get_table(reply.table_id)).version == reply.version
    typed = await service.act(ALICE, reply.table_id, None, f"m={move}")  # /checkers move
    assert typed.error is None


async def test_a_huge_table_id_is_no_game(service):
    for table_id in (2**62, 2**63, 2**70, 0, -1):
        refused = await service.act(ALICE, table_id, 1, "resign")
        assert refused.error and "no longer exists" in refused.error


# -- 6. /settings ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value", [0, -1, 0.5, 1e-300, 1e308, math.inf, -math.inf, math.nan, 10081, "5"]
)
async def test_settings_refuse_values_out_of_range(service, value):
    with pytest.raises(IllegalAction, match="from 1 to 10080"):
        await service.set_setting(1000, "idle_claim_minutes", value)
    assert (await service.settings(1000))["idle_claim_minutes"] == 10.0


async def test_settings_keep_values_in_range(service):
    await service.set_setting(1000, "idle_claim_minutes", 10080)
    await service.set_setting(1000, "idle_end_hours", 1)
    assert await service.settings(1000) == {"idle_claim_minutes": 10080.0, "idle_end_hours": 1.0}
    with pytest.raises(IllegalAction, match="from 1 to 720"):
        await service.set_setting(1000, "idle_end_hours", 721)


# -- 7. who really played --------------------------------------------------------------------


@pytest.fixture
async def sqlite_service(tmp_path, clock):
    db = await Database.open(tmp_path / "parlour.db")
    ai = AiRunner(2, threads=True)
    yield TableService(db, controllers(), ai, clock=clock)
    ai.close()
    await db.close()


async def test_a_game_the_computer_played_for_a_member_counts_neither_way(sqlite_service, clock):
    service = sqlite_service
    reply = await hearts_table(service)
    tid = reply.table_id
    clock.advance(121)  # Alice never passes: the computer plays for her from now
    [(_, swept)] = await service.sweep()
    reply = swept
    posts = []
    while reply is not None and reply.ai_next:
        reply = await service.computer_turn(tid)
        posts += reply.posts if reply is not None else []
    table = await service.db.get_table(tid)
    assert table.status is TableStatus.FINISHED
    own, computer = played.counts(table, 0)
    assert own == 0 and computer > 13
    assert await service.db.standings(1000, "hearts") == []  # no win, no loss, no game
    [result] = [p for p in posts if p.content.startswith("🏁")]
    assert f"The computer made {computer} of {computer} decisions for Alice" in result.content
    assert "neither as a win nor as a loss for Alice" in result.content


async def test_a_member_who_made_most_decisions_keeps_the_result(sqlite_service):
    service = sqlite_service
    reply = await service.start(ALICE, "quarters", {"piles": "1,1"})
    tid = reply.table_id
    table = await service.db.get_table(tid)
    for seat in (0, 0, 1):
        played.record(table, seat, by_member=seat == 0)
    assert played.counts(table, 0) == (2, 0) and played.counts(table, 1) == (0, 1)
    table.seats[1] = type(table.seats[0])("Bob", 2)
    assert played.absent_seats(table) == [1]
    played.record(table, 1, by_member=True)
    assert played.absent_seats(table) == []  # half and half: the member's game


async def test_odd_numbers_in_a_lobby_menu_are_refused(service):
    reply = await service.start(ALICE, "hearts", {"level": "beginner", "delay": 0})
    for value, words in [("x", "like 1.5"), ("²", "0-9"), ("1.٣", "0-9"), ("-1", "negative")]:
        refused = await service.act(ALICE, reply.table_id, reply.version, f"delay={value}")
        assert refused.error and words in refused.error, refused.error
    ok = await service.act(ALICE, reply.table_id, reply.version, "delay=1.5")
    assert ok.error is None
    assert (await service.db.get_table(reply.table_id)).options["delay"] == 1.5


async def test_a_kabu_round_the_computer_played_for_a_member_counts_neither_way(
    sqlite_service, clock
):
    service = sqlite_service
    reply = await service.start(ALICE, "kabu", {})
    reply = await service.act(ALICE, reply.table_id, reply.version, "deal")
    assert reply.error is None, reply.error
    clock.advance(200)  # Alice is away: the computer plays her hand
    [(_, swept)] = await service.sweep()
    posts = list(swept.posts)
    while True:
        turn = await service.computer_turn(reply.table_id)
        if turn is None:
            break
        posts += turn.posts
    table = await service.db.get_table(reply.table_id)
    assert table.status is TableStatus.FINISHED
    own, computer = played.counts(table, 0)
    assert own == 0 and computer >= 2  # a position, then draw or stand
    assert await service.db.standings(1000, "kabu") == []
    [result] = [p for p in posts if p.content.startswith("🏁")]
    assert "neither as a win nor as a loss for Alice" in result.content


async def test_a_kabu_round_the_member_played_keeps_its_result(sqlite_service):
    service = sqlite_service
    reply = await service.start(ALICE, "kabu", {})
    reply = await service.act(ALICE, reply.table_id, reply.version, "deal")
    reply = await service.act(ALICE, reply.table_id, reply.version, "m=pick-1")
    while (await service.db.get_table(reply.table_id)).status is TableStatus.ACTIVE:
        table = await service.db.get_table(reply.table_id)
        reply = await service.act(ALICE, table.id, table.version, "m=stand")
        assert reply.error is None, reply.error
        if reply.ai_next:
            await service.play_computer(reply.table_id)
    table = await service.db.get_table(reply.table_id)
    assert played.counts(table, 0) == (2, 0)
    [standing] = await service.db.standings(1000, "kabu")
    assert standing.games == 1 and standing.wins + standing.losses == 1
