"""Parlour installed to members' accounts: the commands it declares, a game in the DM with the
bot, and a group DM (where the bot is not a member) answered only through the interaction."""

from __future__ import annotations

import pytest
from e2e_helpers import TableRows, open_hand, pass_three, playable
from test_e2e_quarters import (
    COMPUTER,
    SECRET_MOVE,
    computer_answers,
    secret_move,
    start_vs_computer,
    take,
)

from fakediscord import Driver, FakeDiscord, Message

pytestmark = pytest.mark.both_backends

GUILD_INSTALL, USER_INSTALL = 0, 1
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
TOKEN_MINUTES = 15
SERVER_COMMANDS = {"scoreboard", "stats", "settings", "privacy"}


async def test_synced_commands_declare_both_installs_and_where_they_are_offered(
    fake: FakeDiscord, start_bot
) -> None:
    await start_bot()
    commands = {c["name"]: c for c in fake.commands()}
    assert {"quarters", "checkers", "kabu", "quatorze", "hearts", "game", "rules"} <= set(commands)
    for name, command in commands.items():
        assert command["integration_types"] == [GUILD_INSTALL, USER_INSTALL], name
        expected = [GUILD] if name in SERVER_COMMANDS else [GUILD, BOT_DM, PRIVATE_CHANNEL]
        assert command["contexts"] == expected, name


async def test_quarters_against_the_computer_in_the_dm_with_the_bot(
    fake: FakeDiscord, driver: Driver, start_bot
) -> None:
    await start_bot()
    dm = Driver(fake, channel="dm-alice")
    board = await start_vs_computer(dm)
    assert board.guild_id is None and board.channel_id == dm.channel().id
    moves = 0
    while "🏆" not in board.content:
        pile, count = await secret_move(dm, "alice", board)
        await take(dm, "alice", board, pile, count)
        await computer_answers(dm, board)
        moves += 1
        assert moves < 10
    assert "**Alice wins!**" in board.content
    assert driver.channel_messages("games") == []


async def hint_move(driver: Driver, member: str, board: Message) -> tuple[int, int]:
    """The Secret's winning move where the bot is not a member: the click shows the current
    board on the message, the hint comes privately as a follow-up."""
    r = await driver.click(member, board, label="Secret")
    assert r.message is board
    (hint,) = await driver.wait_for(lambda: [m for m in r.messages if m.ephemeral])
    m = SECRET_MOVE.search(hint.text())
    assert m, hint.text()
    return int(m[2]), int(m[1])


def channel_routes(fake: FakeDiscord, channel_id: int) -> list[str]:
    return [f"{m} {p}" for m, p, _ in fake.requests if f"/channels/{channel_id}" in p]


async def test_quarters_in_a_group_dm_goes_only_through_interactions(
    fake: FakeDiscord, driver: Driver, start_bot
) -> None:
    await start_bot()
    friends = Driver(fake, channel="friends")
    board = await start_vs_computer(friends, "bob")
    assert board.interaction_user is not None and board.interaction_user.name == "bob"
    moves = 0
    while "🏆" not in board.content:
        pile, count = await hint_move(friends, "bob", board)
        await take(friends, "bob", board, pile, count)
        await computer_answers(friends, board, "bob")
        moves += 1
        assert moves < 10
    assert "**Bob wins!**" in board.content
    assert "updates when someone acts" in board.content
    result = await friends.wait_for_message(predicate=lambda m: "🏁" in m.content)
    assert result.interaction_id is not None  # a follow-up, not a channel message
    assert channel_routes(fake, friends.channel().id) == []


async def test_a_token_expiring_mid_game_leaves_the_board_to_the_next_click(
    fake: FakeDiscord, start_bot
) -> None:
    fake.expect_problem("expired-token")
    await start_bot()
    friends = Driver(fake, channel="friends")
    board = await start_vs_computer(friends, "bob")
    assert "updates when someone acts" in board.content
    pile, count = await hint_move(friends, "bob", board)
    # The computer's answer rides on bob's click; the fake holds it while the token runs out.
    fake.faults.rest("PATCH /webhooks/{app}/{token}/messages/{mid}", delay=1.0)
    await take(friends, "bob", board, pile, count)
    fake.advance_clock(TOKEN_MINUTES * 60 + 60)
    await friends.wait_for(lambda: any(p.kind == "expired-token" for p in fake.problems_found))
    assert COMPUTER + " took" not in board.content  # stored, not shown: no token to show it
    # bob's next click shows the current board on that very message, and the game goes on.
    pile, count = await hint_move(friends, "bob", board)
    assert COMPUTER + " took" in board.content
    assert f"{friends.user('bob').mention} to move" in board.content
    moves = 1
    while "🏆" not in board.content:
        if moves > 1:
            pile, count = await hint_move(friends, "bob", board)
        await take(friends, "bob", board, pile, count)
        await computer_answers(friends, board, "bob")
        moves += 1
        assert moves < 10
    assert "**Bob wins!**" in board.content
    assert channel_routes(fake, friends.channel().id) == []


async def test_hearts_in_a_group_dm_three_friends_and_a_computer_seat(
    fake: FakeDiscord, start_bot, rows: TableRows
) -> None:
    await start_bot()
    friends = Driver(fake, channel="friends")
    r = await friends.slash("alice", "hearts start", level="beginner", delay=0)
    lobby = r.message
    assert lobby is not None and not r.ephemeral
    for member in ("bob", "carol"):
        await friends.click(member, lobby, label="Join")
    board = (await friends.click("alice", lobby, label="Start")).message
    assert board is lobby
    # Shorten the game, not the bot: the first hand is the last (as in test_e2e_hearts).
    await friends.wait_for(lambda: (s := rows.last().state) is not None and s["passes"][3])
    table = rows.last()
    rows.set_state(table.id, {**table.state, "totals": [0, 99, 99, 99]})
    players = ("alice", "bob", "carol")
    hands = {m: await open_hand(friends, m, board) for m in players}
    for member in players:
        passed = await pass_three(friends, member, hands[member])
        assert "You passed" in passed.text()
    ids = {friends.user(m).mention: m for m in players}
    plays = 0
    while "🏆" not in board.content:
        await friends.wait_for(
            lambda: "🏆" in board.content or any(f"{i} to play" in board.content for i in ids),
            timeout=15,
        )
        if "🏆" in board.content:
            break
        member = next(m for i, m in ids.items() if f"{i} to play" in board.content)
        hand = hands[member]
        await friends.wait_for(lambda hand=hand: bool(playable(hand)), timeout=15)
        drawn_for = board.buttons()[-1]["custom_id"]
        played = await friends.click(member, hand, label=playable(hand)[0])
        assert played.message is hand and "You played" in played.text()
        await friends.wait_for(
            lambda was=drawn_for: board.buttons()[-1]["custom_id"] != was, timeout=15
        )
        plays += 1
        assert plays <= 39
    assert plays == 39  # thirteen tricks, three friends
    assert "updates when someone acts" in board.content
    result = await friends.wait_for_message(predicate=lambda m: m.content.startswith("🏁"))
    assert "Final scores" in result.text() and result.interaction_id is not None
    assert rows.last().status == "finished"
    assert channel_routes(fake, friends.channel().id) == []
