"""Parlour installed to members' accounts: the commands it declares, a game in the DM with the
bot, and a group DM (where the bot is not a member) answered only through the interaction."""

from __future__ import annotations

import pytest
from e2e_helpers import TableRows, open_hand, pass_three, playable
from test_e2e_kabu import position_button
from test_e2e_quarters import (
    COMPUTER,
    SECRET_MOVE,
    computer_answers,
    piles_on,
    secret_move,
    start_vs_computer,
    take,
)

from fakediscord import Driver, FakeDiscord, Message
from fakediscord.state import CREATE_PUBLIC_THREADS

pytestmark = pytest.mark.both_backends

GUILD_INSTALL, USER_INSTALL = 0, 1
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
TOKEN_MINUTES = 15
SERVER_COMMANDS = {"settings"}


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
    before = {m.id for m in driver.ephemerals(member)}
    await driver.click(member, board, label="Secret")
    hint = await driver.wait_for(
        lambda: next(
            (m for m in driver.ephemerals(member) if m.id not in before and "nim-sum" in m.text()),
            None,
        )
    )
    m = SECRET_MOVE.search(hint.text())
    assert m, hint.text()
    return int(m[2]), int(m[1])


async def resign(driver: Driver, member: str) -> None:
    """``/game resign``, and yes to its question (asked privately)."""
    asked = await driver.slash(member, "game resign")
    assert asked.ephemeral and "Really resign?" in asked.text(), asked.text()
    await driver.click(member, asked.message, label="Resign")


def channel_routes(fake: FakeDiscord, channel_id: int) -> list[str]:
    return [f"{m} {p}" for m, p, _ in fake.requests if f"/channels/{channel_id}" in p]


async def test_quarters_in_a_group_dm_goes_only_through_interactions_and_counts_there(
    fake: FakeDiscord, driver: Driver, start_bot, rows: TableRows
) -> None:
    """Bob wins in the group DM, across a crash with the computer's turn due: at start-up the
    computer plays, stored and shown at the next click, never through the channel. The win is
    on that chat's scoreboard, not the server's; his resigned game in his DM with the bot is
    his own record; from that DM, ``/privacy`` shows and forgets both (everything of his
    outside servers)."""
    bot = await start_bot()
    friends = Driver(fake, channel="friends")
    board = await start_vs_computer(friends, "bob")
    assert board.interaction_user is not None and board.interaction_user.name == "bob"
    await friends.wait_for(lambda: rows.last().board_message_id == board.id, what="the board")
    await bot.kill()  # after bob's move was stored, before the computer answered
    table = rows.last()
    assert table.state is not None and piles_on(board) == [3, 4, 5]
    rows.set_state(table.id, {**table.state, "moves": ["1-2"]})  # bob's winning first move
    await bot.start()
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
    board_here = (await friends.slash("alice", "scoreboard", game="Quarters")).text()
    assert "Bob" in board_here and "Players" in board_here
    assert (
        "No games finished yet" in (await driver.slash("bob", "scoreboard", game="Quarters")).text()
    )
    own = Driver(fake, channel="dm-bob")
    await own.slash("bob", "checkers start", color="black", level="beginner")
    await resign(own, "bob")
    await own.wait_for_message(predicate=lambda m: m.content.startswith("🏁"), timeout=30)
    mine = (await own.slash("bob", "scoreboard", game="Checkers")).text()
    assert "Bob" in mine and "Players" in mine and "Checkers" in mine
    record = (await own.slash("bob", "stats")).text()
    assert "Checkers" in record and "1 played" in record and "Quarters" not in record
    shown = await own.slash("bob", "privacy show")
    assert shown.ephemeral and "outside servers" in shown.text()
    assert "**Results**: 2 (" in shown.text()
    assert "Checkers: 1 result" in shown.text() and "Quarters: 1 result" in shown.text()
    asked = await own.slash("bob", "privacy forget")
    assert "**2 results**" in asked.text()
    done = await own.click("bob", asked.message, label="Forget me")
    assert "Done: 2 results and" in done.text()
    after = (await friends.slash("alice", "scoreboard", game="Quarters")).text()
    assert "No games finished yet" in after
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
    assert board is not None and not board.ephemeral
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


async def test_hearts_in_the_dm_with_the_bot_against_three_computers(
    fake: FakeDiscord, driver: Driver, start_bot, rows: TableRows
) -> None:
    """Alice alone in her DM with Parlour: three computer seats, her hand privately, the
    result in the DM and in her own record, nothing in the server."""
    await start_bot()
    dm = Driver(fake, channel="dm-alice")
    lobby = (await dm.slash("alice", "hearts start", level="beginner", delay=0)).message
    assert lobby is not None and lobby.guild_id is None
    board = (await dm.click("alice", lobby, label="Start")).message
    await dm.wait_for(lambda: (s := rows.last().state) is not None and None not in s["passes"][1:])
    table = rows.last()
    rows.set_state(table.id, {**table.state, "totals": [0, 99, 99, 99]})  # one round is the game
    hand = await open_hand(dm, "alice", board)
    await pass_three(dm, "alice", hand)
    for _ in range(13):
        await dm.wait_for(lambda: bool(playable(hand)) or "🏆" in board.content, 15)
        if "🏆" in board.content:
            break
        drawn_for = board.buttons()[-1]["custom_id"]
        await dm.click("alice", hand, label=playable(hand)[0])
        await dm.wait_for(lambda was=drawn_for: board.buttons()[-1]["custom_id"] != was, 15)
    await dm.wait_for(lambda: "🏆" in board.content, 15)
    result = await dm.wait_for_message(predicate=lambda m: m.content.startswith("🏁"))
    assert "Final scores" in result.text() and rows.last().status == "finished"
    record = (await dm.slash("alice", "scoreboard", game="Hearts")).text()
    assert "Alice" in record and "Players" in record
    assert driver.channel_messages("games") == []


PLACES = ["dm-alice", "friends"]


@pytest.mark.parametrize("place", PLACES)
async def test_kabu_round_against_the_dealer(
    fake: FakeDiscord, start_bot, rows: TableRows, place: str
) -> None:
    await start_bot()
    here = Driver(fake, channel=place)
    lobby = (await here.slash("alice", "kabu start")).message
    assert lobby is not None
    board = (await here.click("alice", lobby, label="Deal")).message
    assert board is lobby and "pick your position" in board.content
    await here.click("alice", board, label=position_button(board, 2))
    await here.wait_for(lambda: "Stand" in board.button_labels())  # the answer may be deferred
    await here.click("alice", board, label="Stand")
    result = await here.wait_for_message(predicate=lambda m: m.content.startswith("🏁 **Kabu**"))
    assert ("**WIN**" in board.content) != ("LOSE" in board.content)
    assert result.id > board.id and rows.last().status == "finished"
    assert place == "dm-alice" or channel_routes(fake, here.channel().id) == []


@pytest.mark.parametrize("place", PLACES)
async def test_quatorze_dealt_then_given_up(
    fake: FakeDiscord, start_bot, rows: TableRows, place: str
) -> None:
    await start_bot()
    here = Driver(fake, channel=place)
    board = (await here.slash("alice", "quatorze start", winnable=True)).message
    assert board is not None and "Give up" in board.button_labels()
    await here.click("alice", board, label="Give up")
    asked = await here.wait_for(
        lambda: next(
            (m for m in here.ephemerals("alice") if "Yes, give up" in m.button_labels()), None
        ),
        timeout=30,
    )
    gave_up = await here.click("alice", asked, label="Yes, give up")
    await here.wait_for(lambda: "You gave up with 0 points" in gave_up.message.content)
    await here.wait_for(lambda: board.button_labels() == ["Play again"])
    assert "gave up with **0** points" in board.content
    assert rows.last().status == "finished"
    assert place == "dm-alice" or channel_routes(fake, here.channel().id) == []


@pytest.mark.parametrize("place", PLACES)
async def test_checkers_against_the_computer_then_resigned(
    fake: FakeDiscord, start_bot, rows: TableRows, place: str
) -> None:
    await start_bot()
    here = Driver(fake, channel=place)
    alice = here.user("alice")
    r = await here.slash("alice", "checkers start", color="black", level="beginner")
    board = r.message
    assert board is not None
    await here.wait_for(lambda: f"{alice.mention} to move (Black)" in board.content)
    await resign(here, "alice")
    result = await here.wait_for_message(predicate=lambda m: m.content.startswith("🏁"), timeout=30)
    assert "resign" in (result.content + board.content).lower()
    assert rows.last().status == "finished"
    assert place == "dm-alice" or channel_routes(fake, here.channel().id) == []


async def test_a_deferred_resign_in_a_group_dm_posts_the_result_for_everyone(
    fake: FakeDiscord, start_bot, rows: TableRows
) -> None:
    """A slow ``/game resign`` is deferred privately (its question replaces the private
    "thinking" answer); the result that follows the confirming click is for everyone."""
    await start_bot("deferring_bot")
    friends = Driver(fake, channel="friends")
    board = (await friends.slash("alice", "checkers start", color="black")).message
    assert board is not None and not board.ephemeral
    await resign(friends, "alice")
    result = await friends.wait_for_message(predicate=lambda m: m.content.startswith("🏁"))
    assert not result.ephemeral and result.interaction_id is not None
    assert rows.last().status == "finished"
    assert channel_routes(fake, friends.channel().id) == []


async def test_checkers_between_two_friends_in_a_group_dm(
    fake: FakeDiscord, start_bot, rows: TableRows
) -> None:
    await start_bot()
    friends = Driver(fake, channel="friends")
    alice = friends.user("alice")
    asked = await friends.slash("alice", "checkers start", opponent="bob")
    challenge = asked.message
    assert challenge is not None and not asked.ephemeral, asked.text()
    board = (await friends.click("bob", challenge, label="Accept")).message
    assert board is challenge
    await friends.wait_for(lambda: " to move (" in board.content)
    mover = "alice" if f"{alice.mention} to move" in board.content else "bob"
    (move,) = [s for s in board.selects() if not s.get("disabled")][:1]
    first = move["options"][0]["value"]
    await friends.select(mover, board, [first])
    await friends.wait_for(lambda: f"played **{first}**" in board.content, timeout=15)
    await resign(friends, "bob")
    await friends.wait_for_message(predicate=lambda m: m.content.startswith("🏁"))
    assert rows.last().status == "finished"
    assert channel_routes(fake, friends.channel().id) == []


# -- threads --------------------------------------------------------------------------------


async def test_a_game_in_its_own_thread_from_start_to_archive(
    fake: FakeDiscord, driver: Driver, start_bot
) -> None:
    await start_bot()
    refused = await driver.slash("bob", "settings", threads=True)
    assert refused.ephemeral and "Manage Server" in refused.content
    on = await driver.slash("olivia", "settings", threads=True)
    assert "New games start in their own thread: **on**" in on.content
    r = await driver.slash("alice", "quarters start")
    assert r.content == "Quarters · Alice: the game is in the thread below."
    guild = fake.world.guild("Parlour Test")
    (thread,) = await driver.wait_for(lambda: guild.threads)
    assert thread.name == "Quarters · Alice" and thread.id == r.message.id
    here = Driver(fake, channel=thread)
    board = await here.wait_for(lambda: (here.channel_messages() or [None])[0])
    moves = 0
    while "🏆" not in board.content:
        pile, count = await secret_move(here, "alice", board)
        await take(here, "alice", board, pile, count)
        await computer_answers(here, board)
        moves += 1
        assert moves < 10
    result = await driver.wait_for_message("games", lambda m: m.content.startswith("🏁"))
    assert "Alice" in result.content
    await driver.wait_for(lambda: thread.archived)
    assert [m.id for m in here.channel_messages()] == [board.id]  # the result is not in it
    events = [m["t"] for m in fake.gateway.dispatched((0, 1)) if m["t"].startswith("THREAD")]
    assert events == ["THREAD_CREATE", "THREAD_UPDATE"]


async def test_without_the_thread_permission_the_game_starts_in_the_channel(
    fake: FakeDiscord, driver: Driver, start_bot
) -> None:
    guild = fake.world.guild("Parlour Test")
    everyone = guild.role(guild.id)
    assert everyone is not None
    everyone.permissions &= ~CREATE_PUBLIC_THREADS
    await start_bot()
    await driver.slash("olivia", "settings", threads=True)
    r = await driver.slash("alice", "quarters start")
    assert r.message is not None and not r.ephemeral and "Quarters" in r.content
    (why,) = await driver.wait_for(lambda: [m for m in r.messages if m.ephemeral])
    assert "may not create threads in this channel" in why.content
    assert guild.threads == []


# -- a server that never added the bot ------------------------------------------------------


async def test_quarters_in_a_server_that_never_added_the_bot_goes_on_across_a_restart(
    fake: FakeDiscord, start_bot, rows: TableRows
) -> None:
    """bob installed Parlour to his account and plays in a server that never added it: the
    bot is not told of that server, so at start-up it must not take it for one it left."""
    elsewhere = fake.world.add_guild_without_bot(
        "Elsewhere", ["bob", "carol"], iter(fake.snowflakes.next, None)
    )
    bot = await start_bot()
    told = [m["d"]["id"] for m in fake.gateway.dispatched((0, 1), "GUILD_CREATE")]
    assert told and str(elsewhere.id) not in told  # Discord tells the bot only of its servers
    here = Driver(fake, channel="Elsewhere/chat")
    board = await start_vs_computer(here, "bob")
    assert board.guild_id == elsewhere.id and "updates when someone acts" in board.content
    pile, count = await hint_move(here, "bob", board)
    await take(here, "bob", board, pile, count)
    await computer_answers(here, board, "bob")
    await bot.restart()
    await here.wait_for(lambda: rows.run("SELECT name FROM guild_settings") != [])
    assert rows.run("SELECT name, value FROM guild_settings") == [("install", "user")]
    moves = 1
    while "🏆" not in board.content:
        pile, count = await hint_move(here, "bob", board)
        await take(here, "bob", board, pile, count)
        await computer_answers(here, board, "bob")
        moves += 1
        assert moves < 10
    assert "**Bob wins!**" in board.content
    result = await here.wait_for_message(predicate=lambda m: "🏁" in m.content)
    assert result.interaction_id is not None
    assert rows.last().status == "finished"
    assert rows.run("SELECT name, value FROM guild_settings") == [("install", "user")]
    assert channel_routes(fake, here.channel().id) == []
