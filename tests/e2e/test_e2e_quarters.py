"""Quarters end to end: the real bot process (``python -m bot``) against the fake Discord.

Members click the board's buttons and type slash commands exactly as in a Discord client; the
tests check what they see (public and ephemeral messages, the board image and its alt text) and,
where the claim is about storage (one move for two racing clicks), the bot's database.
Every test runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import copy
import io
import re

import pytest
from e2e_helpers import TableRows, click_as_seen, descendants, wait_gone
from PIL import Image

from fakediscord import Driver, FakeDiscord, Message, Response

pytestmark = pytest.mark.both_backends

PNG = b"\x89PNG\r\n\x1a\n"
SUCCESS = 3  # button style: a selected coin is green
COIN = re.compile(r"^(\d+)·(\d+)$")
EMPTY = re.compile(r"^Pile (\d+) is empty$")
SECRET_MOVE = re.compile(r"wins by taking \*\*(\d+) from pile (\d+)\*\*")
COMPUTER = "Computer (perfect)"


# -- reading the board ----------------------------------------------------------------------


def piles_on(board: Message) -> list[int]:
    """The pile sizes, read from the coin buttons ("2·3" is the third coin of pile 2)."""
    sizes: dict[int, int] = {}
    for label in board.button_labels():
        if m := COIN.match(label):
            pile, coin = int(m[1]), int(m[2])
            sizes[pile] = max(sizes.get(pile, 0), coin)
        elif m := EMPTY.match(label):
            sizes[int(m[1])] = 0
    return [sizes[p] for p in sorted(sizes)]


def selected_coins(board: Message) -> list[str]:
    return [
        b["label"]
        for b in board.buttons()
        if COIN.match(b.get("label") or "") and b.get("style") == SUCCESS
    ]


def mention(driver: Driver, member: str) -> str:
    return driver.user(member).mention


def to_move(driver: Driver, board: Message, member: str) -> bool:
    return f"{mention(driver, member)} to move" in board.content


def refused(response: Response, *words: str) -> None:
    """The member got a private refusal mentioning ``words``."""
    assert response.ephemeral, f"expected a private answer, got {response.text()!r}"
    for word in words:
        assert word in response.text(), f"{word!r} not in {response.text()!r}"


# -- playing --------------------------------------------------------------------------------


async def select(driver: Driver, member: str, board: Message, pile: int, count: int) -> None:
    """Click ``count`` coins of ``pile``; each click turns one coin green."""
    for coin in range(1, count + 1):
        r = await driver.click(member, board, label=f"{pile}·{coin}")
        assert r.type == 7 and r.message is board, r.text()
    assert selected_coins(board) == [f"{pile}·{c}" for c in range(1, count + 1)]


async def take(driver: Driver, member: str, board: Message, pile: int, count: int) -> Response:
    """Select ``count`` coins of ``pile`` and press Remove Coins."""
    await select(driver, member, board, pile, count)
    r = await driver.click(member, board, label="Remove Coins")
    assert r.type == 7 and r.message is board, r.text()
    return r


async def secret_move(driver: Driver, member: str, board: Message) -> tuple[int, int]:
    """Ask the board's Secret button for a winning move: (pile, count)."""
    r = await driver.click(member, board, label="Secret")
    assert r.ephemeral and "nim-sum" in r.text()
    m = SECRET_MOVE.search(r.text())
    assert m, f"the Secret gave no winning move: {r.text()!r}"
    return int(m[2]), int(m[1])


async def computer_answers(driver: Driver, board: Message, member: str = "alice") -> None:
    """Wait until the computer moved and it is ``member``'s turn again (or the game ended)."""
    await driver.wait_for(
        lambda: (
            (COMPUTER + " took" in board.content and to_move(driver, board, member))
            or "🏆" in board.content
        ),
        timeout=10,
    )


async def start_vs_computer(driver: Driver, member: str = "alice", **options: str) -> Message:
    r = await driver.slash(member, "quarters start", **options)
    assert not r.ephemeral and r.message is not None
    board = r.message
    assert to_move(driver, board, member)
    return board


async def start_challenge(
    driver: Driver, challenger: str, opponent: str, channel: str = "games"
) -> Message:
    r = await driver.slash(challenger, "quarters start", opponent=opponent, channel=channel)
    assert not r.ephemeral and r.message is not None
    assert r.message.button_labels() == ["Accept", "Decline"]
    return r.message


# -- 1. against the computer, to the scoreboard ---------------------------------------------


async def test_game_against_the_computer_to_the_scoreboard(
    driver: Driver, start_bot, rows: TableRows
) -> None:
    await start_bot()
    board = await start_vs_computer(driver)
    assert board.content.startswith(f"**Quarters** — Alice vs {COMPUTER}")
    assert piles_on(board) == [3, 4, 5]
    assert "Computer Start" in board.button_labels()

    # The board is a PNG with alt text that states the position.
    (image,) = board.attachments
    assert image.filename.endswith(".png")
    start = "Quarters, with 3 coins in pile 1, 4 coins in pile 2, and 5 coins in pile 3."
    assert image.description == start
    before = await driver.attachment_bytes(board)
    assert before.startswith(PNG)

    moves = 0
    while "🏆" not in board.content:
        pile, count = await secret_move(driver, "alice", board)
        await take(driver, "alice", board, pile, count)
        moves += 1
        if moves == 1:
            assert f"Alice took {count} from pile {pile}." in board.content
            assert "Computer Start" not in board.button_labels()
        await computer_answers(driver, board)
        if moves == 1:
            # The image follows the move: new bytes, new alt text.
            (image,) = board.attachments
            after = await driver.attachment_bytes(board)
            assert after.startswith(PNG) and after != before
            assert image.description != start
            assert "The last move took" in (image.description or "")
        assert moves < 10

    # The board and the one announcement say the same thing, in the same words.
    said = f"**Alice wins!** {COMPUTER} is left with the last coin."
    assert f"🏆 {said}" in board.content
    assert board.button_labels() == ["Play again", "Replay"]
    assert piles_on(board) == []  # no coin buttons on a finished board
    result = await driver.wait_for_message("games", lambda m: "🏁" in m.content, after=board.id)
    assert result.content == f"🏁 **Quarters**: {said}"
    assert [m.content.startswith("🏁") for m in driver.channel_messages()].count(True) == 1
    watched = await driver.click("alice", board, label="Replay")
    assert watched.ephemeral and said in watched.text()  # the replay says it the same way
    with Image.open(io.BytesIO(await driver.attachment_bytes(watched.message))) as reel:
        assert reel.n_frames == len(rows.last().state["moves"]) + 2  # each position, held end
    assert rows.last().status == "finished"
    assert rows.results() == [("Alice", "win", 1)]

    r = await driver.slash("bob", "scoreboard", game="Quarters")
    assert not r.ephemeral
    text = r.text()
    assert "Quarters — scoreboard" in text
    line = next(ln for ln in text.splitlines() if "Alice" in ln)
    assert line.split() == ["1", "Alice", "1", "1", "0", "100%"]


# -- 2. a challenge between two members -----------------------------------------------------


async def test_challenge_only_the_challenged_member_accepts_and_plays_to_the_end(
    driver: Driver, start_bot, rows: TableRows
) -> None:
    await start_bot()
    lobby = await start_challenge(driver, "alice", "bob")
    question, deadline = lobby.content.split("\n")
    assert question == "**Quarters** — Alice challenges Bob. Bob, do you accept?"
    assert re.fullmatch(r"⏳ This invitation lapses <t:\d+:R>\.", deadline)

    refused(await driver.click("carol", lobby, label="Accept"), "Only the challenged member")
    refused(await driver.click("alice", lobby, label="Accept"), "Only the challenged member")
    refused(await driver.click("carol", lobby, label="Decline"), "Only the challenged member")
    assert lobby.button_labels() == ["Accept", "Decline"]
    assert rows.last().status == "challenge"

    r = await driver.click("bob", lobby, label="Accept")
    assert r.type == 7 and r.message is lobby
    board = lobby
    assert board.content.startswith("**Quarters** — Alice vs Bob")
    assert to_move(driver, board, "alice")
    assert "Computer Start" not in board.button_labels()
    assert board.attachments[0].description

    # Someone not seated, and a player out of turn, are refused privately; nothing moves.
    version = rows.last().version
    refused(await driver.click("carol", board, label="1·1"), "not seated")
    refused(await driver.click("bob", board, label="1·1"), "not your turn")
    assert selected_coins(board) == []
    assert rows.last().version == version

    players = ("alice", "bob")
    turn = 0
    while "🏆" not in board.content:
        member = players[turn]
        assert to_move(driver, board, member)
        if member == "alice":
            pile, count = await secret_move(driver, member, board)
        else:  # bob plays one coin of the first pile that has coins
            pile, count = next(p for p, n in enumerate(piles_on(board), 1) if n), 1
        if member == "bob":
            refused(await driver.click("carol", board, label=f"{pile}·1"), "not seated")
        await take(driver, member, board, pile, count)
        turn = 1 - turn

    assert "🏆 **Alice wins!** Bob is left with the last coin." in board.content
    result = await driver.wait_for_message("games", lambda m: "🏁" in m.content, after=board.id)
    assert result.content == "🏁 **Quarters**: **Alice wins!** Bob is left with the last coin."
    assert sorted(rows.results()) == [("Alice", "win", 0), ("Bob", "loss", 0)]
    refused(await driver.click("carol", board, label="Play again"), "Only the players")


# -- 3. killed mid-game, the old board keeps working ----------------------------------------


async def test_board_buttons_work_after_the_bot_is_killed_and_restarted(
    driver: Driver, start_bot, rows: TableRows
) -> None:
    bot = await start_bot()
    board = await start_vs_computer(driver)
    await take(driver, "alice", board, 1, 2)
    await computer_answers(driver, board)
    await driver.click("alice", board, label="3·1")
    assert selected_coins(board) == ["3·1"]
    stored = rows.last()
    assert stored.ui["selected"] == [[3, 1]]

    helpers = descendants(bot.proc.pid)
    assert helpers, "the computer's worker process should be running"
    await bot.kill()  # SIGKILL: no clean-up at all
    await wait_gone(driver, helpers)  # its computer players die with it
    await bot.start()
    assert "resumed table" in bot.log

    messages = len(driver.channel_messages())
    # The same message, clicked after the restart: the selection survived, the game goes on.
    r = await driver.click("alice", board, label="3·2")
    assert r.type == 7 and r.message is board
    assert selected_coins(board) == ["3·1", "3·2"]
    r = await driver.click("alice", board, label="Remove Coins")
    assert r.type == 7
    assert "Alice took 2 from pile 3." in board.content or "🏆" in board.content
    await computer_answers(driver, board)
    assert len(driver.channel_messages()) == messages  # edited in place, nothing re-posted
    state = rows.last().state
    assert state is not None and state["moves"][0] == "1-2" and state["moves"][2] == "3-2"
    assert len(state["moves"]) == 4
    assert selected_coins(board) == []

    # A crash after a member's move was saved but before the computer answered: on start-up
    # the computer takes its turn and edits the same board.
    await bot.kill()
    table = rows.last()
    pile = next(p for p, n in enumerate(piles_on(board), 1) if n)
    rows.set_state(table.id, {**state, "moves": [*state["moves"], f"{pile}-1"]})
    await bot.start()
    await driver.wait_for(
        lambda: f"{COMPUTER} took" in board.content and rows.last().version == table.version + 1
    )
    assert len(rows.last().state["moves"]) == 6  # type: ignore[index]
    assert len(driver.channel_messages()) == messages


# -- 4. racing clicks apply once ------------------------------------------------------------


async def test_two_clicks_at_the_same_moment_apply_one_move(
    driver: Driver, start_bot, rows: TableRows
) -> None:
    await start_bot()
    board = await start_vs_computer(driver)
    await select(driver, "alice", board, 1, 2)
    version = rows.last().version

    first, second = await asyncio.gather(
        driver.click("alice", board, label="Remove Coins"),
        driver.click("alice", board, label="Remove Coins"),
    )
    applied = [r for r in (first, second) if not r.ephemeral]
    refusals = [r for r in (first, second) if r.ephemeral]
    assert len(applied) == 1 and len(refusals) == 1
    refused(refusals[0], "out of date")
    await computer_answers(driver, board)
    stored = rows.last()
    assert stored.state is not None
    assert stored.state["moves"][0] == "1-2"
    assert len(stored.state["moves"]) == 2  # alice's one move, and the computer's answer
    assert stored.version == version + 2

    # A player and a bystander racing: the bystander is refused, the player's coin is chosen.
    mine, theirs = await asyncio.gather(
        driver.click("alice", board, label="2·1"), driver.click("carol", board, label="2·2")
    )
    assert mine.type == 7
    assert theirs.ephemeral
    assert selected_coins(board) == ["2·1"]
    assert rows.last().ui["selected"] == [[2, 1]]

    # A double click on Accept (in #lobby) starts one game.
    lobby = await start_challenge(driver, "alice", "bob", channel="lobby")
    one, two = await asyncio.gather(
        driver.click("bob", lobby, label="Accept"), driver.click("bob", lobby, label="Accept")
    )
    assert sorted([one.ephemeral, two.ephemeral]) == [False, True]
    refused(one if one.ephemeral else two, "out of date")
    assert to_move(driver, lobby, "alice")
    challenge = rows.last()
    assert challenge.status == "active"
    assert challenge.state is not None and challenge.state["moves"] == []
    assert challenge.version == 1  # created at 0, accepted once


# -- 5. command sync only when the tree changed ---------------------------------------------


async def test_restart_with_unchanged_commands_does_not_sync_again(
    fake: FakeDiscord, driver: Driver, start_bot, rows: TableRows
) -> None:
    bot = await start_bot()
    assert fake.sync_count() == 1
    names = sorted(c["name"] for c in fake.commands())
    assert {"quarters", "game", "rules", "scoreboard", "settings"} <= set(names)

    await bot.restart()  # killed, started again
    assert fake.sync_count() == 1
    assert bot.log.count("commands unchanged; not syncing") == 1
    assert sorted(c["name"] for c in fake.commands()) == names
    r = await driver.slash("alice", "rules", game="Quarters")  # the old registrations still work
    assert r.ephemeral

    # A tree that differs from the last synced one (here: a forgotten hash) is synced again.
    await bot.stop()
    rows.run("DELETE FROM meta WHERE name LIKE 'command-hash:%'")
    await bot.start()
    assert fake.sync_count() == 2


# -- 6. /game show retires the old board ----------------------------------------------------


async def test_game_show_reposts_the_board_and_the_old_one_stops_acting(
    driver: Driver, start_bot, rows: TableRows
) -> None:
    await start_bot()
    old = await start_vs_computer(driver)
    await driver.click("alice", old, label="1·1")
    seen = copy.deepcopy(old.components)  # what members' clients show until the next edit

    before = old.content
    r = await driver.slash("carol", "game show")  # anyone may look
    new = r.message
    assert new is not None and new is not old and not r.ephemeral
    assert driver.last_message() is new
    assert new.content == before
    assert selected_coins(new) == ["1·1"]
    assert new.attachments[0].description == old.attachments[0].description
    await driver.wait_for(lambda: old.buttons() == [])  # the old controls are taken off
    assert old.content.startswith("⏭️ Moved on — see the [newest board](")  # linked
    assert rows.last().board_message_id == new.id

    # A client that still shows the old controls: refused, with a link to the current board.
    version = rows.last().version
    for label in ("1·2", "Remove Coins"):
        stale = await click_as_seen(driver, "alice", old, seen, label)
        refused(stale, "out of date", str(new.id))
    assert rows.last().version == version
    assert rows.last().state["moves"] == []  # type: ignore[index]
    assert selected_coins(new) == ["1·1"]

    # The new board plays on; the computer answers on it, not on the old one.
    old_content = old.content
    await driver.click("alice", new, label="Remove Coins")
    await computer_answers(driver, new)
    assert old.content == old_content
    assert rows.last().state["moves"][0] == "1-1"  # type: ignore[index]


# -- 7. declining, resigning, a lapsed challenge, the rules, bystanders ---------------------


async def test_challenge_declined(driver: Driver, start_bot, rows: TableRows) -> None:
    await start_bot()
    lobby = await start_challenge(driver, "alice", "bob")
    r = await driver.click("bob", lobby, label="Decline")
    assert r.type == 7 and r.message is lobby
    assert lobby.content == "Bob declined the Quarters challenge."
    assert lobby.buttons() == []
    assert rows.last().status == "stopped"

    # The challenger may withdraw a challenge too; then the channel is free again.
    lobby = await start_challenge(driver, "alice", "carol")
    await driver.click("alice", lobby, label="Decline")
    assert lobby.content == "Alice withdrew the Quarters challenge."
    board = await start_vs_computer(driver, "bob")
    await driver.wait_for(lambda: rows.last().board_message_id == board.id)  # stored after posting
    assert rows.results() == []


async def test_resign_by_command(driver: Driver, start_bot, rows: TableRows) -> None:
    await start_bot()
    refused(await driver.slash("alice", "game resign"), "No game is running")
    board = await start_vs_computer(driver)
    r = await driver.click("alice", board, label="Computer Start")
    assert r.type == 7
    await computer_answers(driver, board)
    assert f"{COMPUTER} took" in board.content

    refused(await driver.slash("carol", "game resign"), "not seated")
    r = await driver.slash("alice", "game resign")  # asks first, as the board's Resign does
    assert r.ephemeral and "Really resign?" in r.text()
    assert board.button_labels() != ["Play again", "Replay"]
    r = await driver.click("alice", r.message, label="Resign")
    await driver.wait_for(lambda: f"🏆 **{COMPUTER} wins!** Alice resigned." in board.content)
    assert board.button_labels() == ["Play again", "Replay"]
    assert rows.results() == [("Alice", "loss", 1)]
    refused(await driver.slash("alice", "game resign"), "No game is running")

    # Play again: same players, the seats swapped, a new board.
    r = await driver.click("alice", board, label="Play again")
    again = r.message
    assert again is not None and again is not board and not r.ephemeral
    assert again.content.startswith(f"**Quarters** — {COMPUTER} vs Alice")
    await computer_answers(driver, again)
    # The finished board's button is retired, so it cannot start yet another game.
    await driver.wait_for(lambda: driver.fake.messages[board.id].buttons() == [])


async def test_a_lapsed_challenge_cannot_be_accepted(
    driver: Driver, start_bot, rows: TableRows
) -> None:
    await start_bot()
    lobby = await start_challenge(driver, "alice", "bob")
    await driver.wait_for(lambda: rows.last().board_message_id == lobby.id)
    rows.expire_challenge(rows.last().id)  # five minutes later...
    refused(await driver.click("bob", lobby, label="Accept"), "lapsed")
    assert rows.last().status == "stopped"
    await driver.wait_for(lambda: lobby.buttons() == [], timeout=5)
    assert lobby.content == "The Quarters challenge lapsed."
    board = await start_vs_computer(driver, "bob")  # the channel is free
    await driver.wait_for(lambda: rows.last().board_message_id == board.id)  # stored after posting


async def test_rules_are_private(driver: Driver, start_bot) -> None:
    await start_bot()
    r = await driver.slash("alice", "rules", game="Quarters")
    assert r.ephemeral
    assert "**Quarters**" in r.text() and "last coin" in r.text()
    assert driver.channel_messages() == []
    assert driver.ephemerals("bob") == []
    r = await driver.slash("bob", "quarters secret")
    assert r.ephemeral and "nim-sum" in r.text()


async def test_a_bystander_cannot_act_on_someone_elses_game(
    driver: Driver, start_bot, rows: TableRows
) -> None:
    await start_bot()
    board = await start_vs_computer(driver)
    await driver.click("alice", board, label="2·1")
    content, version = board.content, rows.last().version

    for label in ("1·1", "2·1", "Clear", "Resign", "Computer Start"):
        refused(await driver.click("carol", board, label=label), "not seated")
    refused(await driver.slash("carol", "game stop"), "Only the host")
    refused(await driver.slash("carol", "game claim"), "not seated")
    r = await driver.click("carol", board, label="Secret")  # looking is allowed
    assert r.ephemeral and "nim-sum" in r.text()
    r = await driver.slash("erin", "quarters start")  # one game per channel
    refused(r, "already running", "/game stop")

    assert board.content == content and rows.last().version == version
    assert selected_coins(board) == ["2·1"]
    assert rows.last().status == "active"

    # A moderator (alice has Manage Messages; here she is also the starter) may stop it.
    r = await driver.slash("alice", "game stop")  # asks first
    assert r.ephemeral and "Really stop this game?" in r.text()
    assert rows.last().status == "active"
    r = await driver.click("alice", r.message, label="Stop the game")
    await driver.wait_for(lambda: board.content == "This game of Quarters was stopped by Alice.")
    assert board.buttons() == [] and board.attachments == []
