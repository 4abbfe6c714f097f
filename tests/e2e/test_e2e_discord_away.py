"""Discord goes away (issue 43): the real bot process (``python -m bot``) against the fake
Discord's faults, mid-game.

- The gateway: each close code and opcode Discord sends; the bot resumes or identifies again as
  Discord documents, a click made while it was away reaches it on a resume, and the game goes
  on with every interaction answered.
- REST: 500, 502 and 503 answers, dropped connections (no answer at all), hung and slow
  answers on each route the bot uses: message create (the result), message edit (the
  computer's move on the board), interaction callback (a member's click), webhook edit (the
  answer after a defer). The board ends up right, nothing is posted twice,
  and every interaction is answered or deferred within Discord's 3 s (the fake records a late
  answer as a problem).

- Discord gone for good: SIGTERM stops the bot at once, whatever discord.py's reconnect
  backoff has grown to.

A fault "after processing" takes effect and then fails: the case where a blind retry does the
work twice. ``docs/reliability.md`` says what the client does about each. Every test checks the
bot's log and the fake's problems in its body (:func:`settled`), so it fails there rather than
at teardown.

The webhook edits come after a defer, which the bot makes when its work takes longer than 2 s:
:func:`database_held` makes the work wait that long on a write lock of the bot's SQLite file,
as a slow disk would.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import pytest
from test_e2e_quarters import (
    COMPUTER,
    computer_answers,
    selected_coins,
    start_vs_computer,
    take,
    to_move,
)

from fakediscord import Driver, DriverError, FakeDiscord, Message
from fakediscord.server import MESSAGE_COMPONENT
from fakediscord.state import Interaction
from storage.database import parse_database_url

CALLBACK = "POST /interactions/{iid}/{token}/callback"
POST_MESSAGE = "POST /channels/{channel}/messages"
EDIT_ORIGINAL = "PATCH /webhooks/{app}/{token}/messages/{mid}"
COMPUTER_EDIT = EDIT_ORIGINAL  # the computer's reply to a click rides on that click's token
FOUR_PILES = "5,5,5,5"  # a game long enough for a fault between every two moves
RETRY_WINDOW = 5.0  # seconds a test waits for what a retry with backoff shows
HANG = 60.0  # seconds a hung request waits before its connection drops
HUNG_WINDOW = 10.0  # seconds a test waits for what a timed-out request, retried, shows
HELD = 2.5  # seconds the database is held: longer than the bot waits before it defers
STOPPED_WITHIN = 15.0  # seconds a stopping bot whose Discord is gone may take (it takes <1)


# -- helpers --------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _held_requests_let_go(fake: FakeDiscord, start_bot: Any) -> Iterator[None]:
    """After the test, before the bot is stopped: a request the fake still holds (a hung
    Discord) is let go, so the stopping bot does not wait on it."""
    yield
    fake.faults.release()


def boards(driver: Driver) -> list[Message]:
    """The Quarters boards posted in #games."""
    return [m for m in driver.channel_messages() if m.content.startswith("**Quarters**")]


def results(driver: Driver) -> list[Message]:
    """The game results announced in #games."""
    return [m for m in driver.channel_messages() if m.content.startswith("🏁")]


def first_pile(board: Message) -> int:
    """The first pile that still has coins."""
    return next(int(label.split("·")[0]) for label in board.button_labels() if label.endswith("·1"))


async def alice_moves(driver: Driver, board: Message) -> None:
    """Alice takes a coin of her first pile that has some; the computer answers."""
    await take(driver, "alice", board, first_pile(board), 1)
    await computer_answers(driver, board)


def computer_moved(driver: Driver, board: Message) -> Callable[[], bool]:
    """Whether the board shows the computer's move and Alice to play."""
    return lambda: f"{COMPUTER} took" in board.content and to_move(driver, board, "alice")


async def within(
    driver: Driver, what: str, predicate: Callable[[], object], timeout: float
) -> None:
    """Wait for what a retry would have shown."""
    await driver.wait_for(predicate, timeout=timeout, what=what)


def settled(fake: FakeDiscord, bot: Any) -> None:
    """What every test ends with: no interaction left unanswered, no misuse of Discord
    recorded (late answers included), nothing logged as an error by the bot."""
    assert fake.unanswered() == [], "interactions left unanswered"
    assert fake.problems_found == [], f"the fake recorded problems: {fake.problems_found}"
    assert bot.errors() == [], "the bot logged errors:\n" + "\n".join(bot.errors())


async def start_checked(fake: FakeDiscord, start_bot: Any) -> Any:
    """Start the bot for a test that checks the log and the problems itself (:func:`settled`),
    so that it fails in its body, never at teardown."""
    fake.expect_problem("")  # settled() reads fake.problems_found, which this leaves alone
    return await start_bot(allow_errors=True)


@contextlib.asynccontextmanager
async def database_held(database_url: str, seconds: float = HELD) -> AsyncIterator[None]:
    """Hold a write lock on the bot's SQLite file for ``seconds`` from entering: the bot's
    writes wait on it, so an action takes that long and the bot defers its answer."""
    conn = sqlite3.connect(parse_database_url(database_url), isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    released = asyncio.get_running_loop().call_later(seconds, conn.rollback)
    try:
        yield
    finally:
        released.cancel()
        conn.rollback()
        conn.close()


async def click_now(driver: Driver, member: str, message: Message, label: str) -> Interaction:
    """Click a button without waiting for the bot to be connected (Discord takes the click
    and delivers it when the bot resumes)."""
    fake = driver.fake
    button = next(b for b in message.buttons() if b.get("label") == label)
    interaction = fake.new_interaction(
        itype=MESSAGE_COMPONENT,
        user=driver.user(member),
        channel=driver.channel(),
        data={"custom_id": button["custom_id"], "component_type": 2},
        message=message,
    )
    await fake.send_interaction(interaction)
    return interaction


# -- the gateway ----------------------------------------------------------------------------

Act = Callable[[FakeDiscord], Awaitable[None]]
RESUMED: dict[str, Act] = {
    "close 4000": lambda fake: fake.faults.close(4000),
    "op 7": lambda fake: fake.faults.reconnect(),
    "op 9 resumable": lambda fake: fake.faults.invalid_session(True),
}
IDENTIFIED: dict[str, Act] = {
    "close 4009": lambda fake: fake.faults.close(4009),
    "close 1000": lambda fake: fake.faults.close(1000),
    "close 1001": lambda fake: fake.faults.close(1001),
    "op 9 not resumable": lambda fake: fake.faults.invalid_session(False),
}


async def test_the_game_goes_on_across_every_close_and_opcode_that_resumes(
    fake: FakeDiscord, driver: Driver, start_bot: Any
) -> None:
    """After each, the bot resumes its session (no new IDENTIFY), and a click made while it
    was away, which Discord keeps for the session, reaches it and is answered in time."""
    bot = await start_checked(fake, start_bot)
    board = await start_vs_computer(driver, piles=FOUR_PILES)
    await alice_moves(driver, board)
    gateway = fake.gateway
    for resumes, (fault, act) in enumerate(RESUMED.items(), start=1):
        await act(fake)
        click = await click_now(driver, "alice", board, f"{first_pile(board)}·1")
        await driver.wait_for(lambda c=click: c.responded or c.rejected, what=f"after {fault}")
        assert click.response_type == 7 and len(selected_coins(board)) == 1, fault
        await driver.click("alice", board, label="Remove Coins")
        await computer_answers(driver, board)
        counts = (gateway.identify_count, gateway.resume_count)
        assert counts == (1, resumes), f"after {fault}: (identifies, resumes) = {counts}"
    assert len(boards(driver)) == 1
    await bot.stop()  # a stopped bot has finished: everything it would log is logged
    settled(fake, bot)


async def test_the_game_goes_on_across_every_close_and_opcode_that_ends_the_session(
    fake: FakeDiscord, driver: Driver, start_bot: Any
) -> None:
    """After each, a RESUME cannot work (discord.py tries one after a close and is told op 9
    false), so the bot identifies again, after discord.py's 5 s between IDENTIFYs, and the
    game goes on."""
    bot = await start_checked(fake, start_bot)
    board = await start_vs_computer(driver, piles=FOUR_PILES)
    await alice_moves(driver, board)
    gateway = fake.gateway
    for identifies, (fault, act) in enumerate(IDENTIFIED.items(), start=2):
        await act(fake)
        await driver.wait_for(
            lambda n=identifies: gateway.connected and gateway.identify_count == n,
            timeout=15,
            what=f"the bot to identify again after {fault}",
        )
        assert gateway.resume_count == 0, fault
        await alice_moves(driver, board)
    assert len(boards(driver)) == 1
    await bot.stop()  # a second on_ready and more did no harm: nothing logged
    settled(fake, bot)


async def test_an_authentication_failure_stops_the_bot_instead_of_reconnecting(
    fake: FakeDiscord, start_bot: Any
) -> None:
    """Discord lets no client reconnect after 4004: one that did would spend its 1,000 daily
    IDENTIFYs for nothing. The bot stops, saying why in one line (no traceback)."""
    bot = await start_bot(allow_errors=True)
    await fake.faults.close(4004)
    await asyncio.wait_for(bot.proc.wait(), 20)
    assert bot.proc.returncode != 0
    assert fake.gateway.connect_count == 1 and fake.gateway.identify_count == 1
    [line] = bot.errors()  # one line, no traceback
    assert line.endswith(
        "Discord refused the bot: the token is not valid (close code 4004); stopping"
    )


# -- message edit: the computer's move on the board ------------------------------------------


async def test_discord_py_repeats_edits_and_answers_failed_before_processing(
    fake: FakeDiscord, driver: Driver, start_bot: Any
) -> None:
    """discord.py repeats an edit answered 500 or 502 (the computer's move, through the
    click's interaction), and an interaction callback answered with any 5xx (503 too), a second
    later: the computer's move reaches the board,
    and a click's answer still arrives within Discord's 3 s. A slow Discord only delays them
    (and the 3 s count to the request, not to Discord's answer)."""
    bot = await start_checked(fake, start_bot)
    board = await start_vs_computer(driver, piles=FOUR_PILES)
    faults: list[tuple[str, dict[str, Any]]] = [
        (COMPUTER_EDIT, {"status": 500}),
        (COMPUTER_EDIT, {"status": 502}),
        (COMPUTER_EDIT, {"delay": 1.5}),
        (CALLBACK, {"status": 500}),
        (CALLBACK, {"status": 502}),
        (CALLBACK, {"status": 503}),
        (CALLBACK, {"delay": 1.0}),
    ]
    for route, fault in faults:
        armed = fake.faults.rest(route, **fault)
        await alice_moves(driver, board)  # a click; the computer's move edits the board
        assert armed.spent, f"the move did not meet {route} {fault}"
    assert len(boards(driver)) == 1
    await bot.stop()
    settled(fake, bot)


@pytest.mark.parametrize(
    ("fault", "window"),
    [({"status": 503}, RETRY_WINDOW), ({"disconnect": True, "delay": HANG}, HUNG_WINDOW)],
    ids=["503", "hung then dropped"],
)
async def test_a_board_edit_that_did_not_go_through_is_retried(
    fake: FakeDiscord, driver: Driver, start_bot: Any, fault: dict, window: float
) -> None:
    bot = await start_checked(fake, start_bot)
    board = await start_vs_computer(driver, piles=FOUR_PILES)
    armed = fake.faults.rest(COMPUTER_EDIT, **fault)
    await take(driver, "alice", board, 1, 1)
    await driver.wait_for(lambda: armed.hits, what="the computer's move to meet the fault")
    await within(driver, "the computer's move on the board", computer_moved(driver, board), window)
    await alice_moves(driver, board)
    await bot.stop()
    settled(fake, bot)


async def test_a_repeated_board_edit_never_turns_the_board_back(
    fake: FakeDiscord, driver: Driver, start_bot: Any
) -> None:
    bot = await start_checked(fake, start_bot)
    board = await start_vs_computer(driver, piles=FOUR_PILES)
    armed = fake.faults.rest(COMPUTER_EDIT, status=502, after_processing=True)
    await take(driver, "alice", board, 1, 1)
    await computer_answers(driver, board)  # the edit went through; its answer did not
    assert armed.spent
    await driver.click("alice", board, label=f"{first_pile(board)}·1")  # a newer board
    edits = (f"/messages/{board.id}", "/messages/@original")
    with contextlib.suppress(DriverError):  # wait for the repeat, if the bot makes one
        await driver.wait_for(
            lambda: sum(1 for m, p, _ in fake.requests if m == "PATCH" and p.endswith(edits)) >= 2,
            timeout=RETRY_WINDOW,
        )
    assert len(selected_coins(board)) == 1, "the board went back to before Alice's click"
    await driver.click("alice", board, label="Remove Coins")
    await computer_answers(driver, board)
    await bot.stop()
    settled(fake, bot)


# -- message create: the result --------------------------------------------------------------


async def test_a_result_post_answered_500_is_posted_once(
    fake: FakeDiscord, driver: Driver, start_bot: Any
) -> None:
    """discord.py repeats a post answered 500 or 502, with the nonce it gave the first try
    (and ``enforce_nonce``): when the first went through, Discord returns that message and
    creates none."""
    bot = await start_checked(fake, start_bot)
    board = await start_vs_computer(driver, piles="2")
    armed = fake.faults.rest(POST_MESSAGE, status=500, after_processing=True)
    await take(driver, "alice", board, 1, 1)  # Alice wins: the result is posted
    await driver.wait_for(lambda: armed.spent and results(driver), what="the result")
    await bot.stop()  # a stopping bot finishes what it was doing: any repeat has arrived
    posts = [s for m, p, s in fake.requests if m == "POST" and p.endswith("/messages")]
    assert posts == [500, 200] and len(results(driver)) == 1
    settled(fake, bot)


@pytest.mark.parametrize(
    "fault",
    [{"status": 503}, {"disconnect": True, "after_processing": True}],
    ids=["503", "dropped after processing"],
)
async def test_a_result_post_that_failed_is_retried_and_posted_once(
    fake: FakeDiscord, driver: Driver, start_bot: Any, fault: dict
) -> None:
    bot = await start_checked(fake, start_bot)
    board = await start_vs_computer(driver, piles="2")
    armed = fake.faults.rest(POST_MESSAGE, **fault)
    await take(driver, "alice", board, 1, 1)
    await driver.wait_for(lambda: armed.spent, what="the result post to meet the fault")
    await within(driver, "the result", lambda: results(driver), RETRY_WINDOW)
    await bot.stop()
    assert len(results(driver)) == 1, "the result was posted twice"
    assert not driver.ephemerals("alice"), "Alice was told something went wrong"
    settled(fake, bot)


# -- interaction callback: a member's click --------------------------------------------------


@pytest.mark.parametrize(
    "fault",
    [{"status": 500, "after_processing": True}, {"disconnect": True}],
    ids=["500 after processing", "dropped before processing"],
)
async def test_a_click_whose_answer_was_lost_is_checked_not_repeated(
    fake: FakeDiscord, driver: Driver, start_bot: Any, fault: dict
) -> None:
    bot = await start_checked(fake, start_bot)
    board = await start_vs_computer(driver, piles=FOUR_PILES)
    await driver.click("alice", board, label="1·1")
    armed = fake.faults.rest(CALLBACK, **fault)
    await driver.click("alice", board, label="Remove Coins")
    assert armed.spent
    await within(
        driver, "Alice's move and the computer's", computer_moved(driver, board), RETRY_WINDOW
    )
    await alice_moves(driver, board)  # and the game goes on
    await bot.stop()
    assert not driver.ephemerals("alice"), "Alice was told something went wrong"
    settled(fake, bot)


@pytest.mark.parametrize(
    "fault",
    [{"status": 500, "after_processing": True}, {"disconnect": True}],
    ids=["500 after processing", "dropped before processing"],
)
async def test_a_refusal_whose_answer_was_lost_is_shown_once(
    fake: FakeDiscord, driver: Driver, start_bot: Any, fault: dict
) -> None:
    """Bob clicks on Alice's game: the private refusal's callback lost its answer. Sent again,
    it meets "already acknowledged" (taken as success, nothing logged) or goes through."""
    bot = await start_checked(fake, start_bot)
    board = await start_vs_computer(driver, piles=FOUR_PILES)
    armed = fake.faults.rest(CALLBACK, **fault)
    await driver.click("bob", board, label="1·1")
    assert armed.spent
    await within(driver, "the refusal", lambda: driver.ephemerals("bob"), RETRY_WINDOW)
    await alice_moves(driver, board)  # the game goes on
    await bot.stop()
    assert len(driver.ephemerals("bob")) == 1 and not driver.ephemerals("alice")
    settled(fake, bot)


# -- follow-up and webhook edit: the answer after a defer ------------------------------------


def edits_answered(fake: FakeDiscord) -> bool:
    """Whether an edit of an interaction's message was answered 200 (so the bot knows the
    board's message: a member clicks on a board once they see it)."""
    return any(
        m == "PATCH" and p.startswith("/webhooks/") and s == 200 for m, p, s in fake.requests
    )


def follow_ups(fake: FakeDiscord) -> list[int]:
    """The statuses of the follow-ups the bot sent (a POST to an interaction's webhook)."""
    return [s for m, p, s in fake.requests if m == "POST" and p.startswith("/webhooks/")]


async def test_a_deferred_start_becomes_the_board_by_an_edit_that_survives_5xx(
    fake: FakeDiscord, driver: Driver, start_bot: Any, database_url: str
) -> None:
    """A start held up by a slow database is deferred ("thinking…"), and the deferred message
    is then edited into the board (no follow-up); an edit answered 500 before it was processed
    is repeated by discord.py."""
    bot = await start_checked(fake, start_bot)
    armed = fake.faults.rest(EDIT_ORIGINAL, status=500)
    async with database_held(database_url):
        r = await driver.slash("alice", "quarters start", piles=FOUR_PILES)
    await driver.wait_for(lambda: armed.spent and boards(driver), what="the board")
    assert r.type == 5 and follow_ups(fake) == []  # deferred, then the deferred message edited
    [board] = boards(driver)
    await alice_moves(driver, board)
    assert len(boards(driver)) == 1
    await bot.stop()
    settled(fake, bot)


@pytest.mark.parametrize(
    "fault",
    [{"status": 500, "after_processing": True}, {"disconnect": True, "after_processing": True}],
    ids=["500 after processing", "dropped after processing"],
)
async def test_a_deferred_start_whose_answer_went_through_is_not_posted_again(
    fake: FakeDiscord, driver: Driver, start_bot: Any, database_url: str, fault: dict
) -> None:
    """The board's edit of the deferred message went through and its answer was lost: sent
    again (by discord.py after a 500, by the bot after a dropped connection), it is the same
    edit, and the game is played on the one board."""
    bot = await start_checked(fake, start_bot)
    armed = fake.faults.rest(EDIT_ORIGINAL, **fault)
    async with database_held(database_url):
        r = await driver.slash("alice", "quarters start", piles=FOUR_PILES)
    await driver.wait_for(lambda: armed.spent and edits_answered(fake), what="the repeated edit")
    assert r.type == 5
    [board] = boards(driver)
    await alice_moves(driver, board)
    await bot.stop()  # a stopping bot finishes what it was doing: any repeat has arrived
    assert len(boards(driver)) == 1 and follow_ups(fake) == [], "the board was posted twice"
    settled(fake, bot)


async def test_a_start_the_locked_database_cannot_store_is_answered_clearly(
    fake: FakeDiscord, driver: Driver, in_process: Any, database_url: str, monkeypatch: Any
) -> None:
    """A write waits for the file another process holds (SQLite's busy timeout) rather than
    failing at once; past that wait, the deferred start is answered "the game store is
    restarting", and a start once the file is free plays. (In this process, with the busy
    timeout and the wait before deferring shortened.)"""
    from bot.client import app
    from bot.config import Config
    from storage import backends

    monkeypatch.setattr(backends, "BUSY_TIMEOUT_MS", 600)
    monkeypatch.setattr(app, "DEFER_AFTER", 0.2)
    await in_process(app.ParlourBot(Config(token="fake", database=database_url)))
    async with database_held(database_url, seconds=60):
        r = await driver.slash("alice", "quarters start", piles=FOUR_PILES)
    assert r.type == 5 and r.text() == "The game store is restarting; try again in a moment."
    assert boards(driver) == [] and fake.unanswered() == []
    r = await driver.slash("alice", "quarters start", piles=FOUR_PILES)
    assert r.message is not None and boards(driver) == [r.message]  # deferred or not


async def test_a_next_game_answered_too_late_gets_its_board_in_the_channel(
    fake: FakeDiscord, driver: Driver, start_bot: Any
) -> None:
    """ "Play again" answered after Discord's 3 s (a bot slowed by a busy machine; Discord
    answers 10062 "Unknown interaction"): the next game has begun, so its board is posted in
    the channel rather than lost with the answer (which left the channel with a game nobody
    could see nor replace), and it is played there; the late answer is a warning, no error."""
    bot = await start_checked(fake, start_bot)
    board = await start_vs_computer(driver, piles="1,1")
    await take(driver, "alice", board, 1, 1)  # the computer is left the last coin, and loses
    await driver.wait_for(lambda: "Play again" in board.button_labels(), what="Play again")
    fake.response_deadline = 0.0  # every first answer from now on comes too late
    await click_now(driver, "alice", board, "Play again")
    await driver.wait_for(lambda: len(boards(driver)) == 2, what="the next game's board")
    fake.response_deadline = 3.0
    new = boards(driver)[-1]
    # the computer opens this one, leaving Alice the last coin: it is played on that board
    await driver.wait_for(lambda: "Play again" in new.button_labels(), what="the game's end")
    assert f"{COMPUTER} took 1" in new.content
    r = await driver.click("alice", new, label="Play again")  # the channel is free for the next
    assert r.message is not None and boards(driver)[-1] is r.message
    await bot.stop()
    assert len(boards(driver)) == 3
    assert [p.kind for p in fake.problems_found] == ["late-response"]
    assert bot.errors() == [], "the bot logged errors:\n" + "\n".join(bot.errors())


async def test_a_deferred_click_answered_by_a_webhook_edit_survives_5xx(
    fake: FakeDiscord, driver: Driver, start_bot: Any, database_url: str
) -> None:
    """A click held up by a slow database is deferred, and the board is then edited through
    the interaction's webhook, which discord.py repeats on any 5xx: the same edit either way."""
    bot = await start_checked(fake, start_bot)
    board = await start_vs_computer(driver, piles=FOUR_PILES)
    for fault in ({"status": 503}, {"status": 500, "after_processing": True}):
        await driver.click("alice", board, label=f"{first_pile(board)}·1")
        armed = fake.faults.rest(EDIT_ORIGINAL, **fault)  # type: ignore[arg-type]
        looks = len(board.history)
        async with database_held(database_url):
            r = await driver.click("alice", board, label="Remove Coins")
        assert r.type == 6  # deferred; the board's edit follows, then the computer's
        await driver.wait_for(
            lambda n=looks: len(board.history) >= n + 2 and computer_moved(driver, board)()
        )
        assert armed.spent
    assert len(boards(driver)) == 1
    await bot.stop()
    settled(fake, bot)


async def test_a_deferred_click_whose_webhook_edit_dropped_is_retried(
    fake: FakeDiscord, driver: Driver, start_bot: Any, database_url: str
) -> None:
    bot = await start_checked(fake, start_bot)
    board = await start_vs_computer(driver, piles=FOUR_PILES)
    await driver.click("alice", board, label="1·1")
    armed = fake.faults.rest(EDIT_ORIGINAL, disconnect=True)
    async with database_held(database_url):
        r = await driver.click("alice", board, label="Remove Coins")
    assert r.type == 6
    await driver.wait_for(lambda: armed.spent, what="the edit to meet the fault")
    await within(
        driver, "Alice's move and the computer's", computer_moved(driver, board), RETRY_WINDOW
    )
    await bot.stop()
    assert not driver.ephemerals("alice"), "Alice was told something went wrong"
    settled(fake, bot)


# -- Discord gone: the stop ------------------------------------------------------------------


@pytest.mark.parametrize("shards", [None, "2"], ids=["one connection", "two shards"])
async def test_a_bot_whose_discord_is_gone_stops_promptly_on_sigterm(
    fake: FakeDiscord, driver: Driver, start_bot: Any, shards: str | None
) -> None:
    """Discord ends (gateway and REST) mid-game, and discord.py waits a minute before its next
    try to reach it (``patient_bot``): SIGTERM still stops the bot well within the 10 s an
    orchestrator gives before SIGKILL, its database closed. discord.py's connection loop would
    see the stop only at that next try."""
    env = {"SHARD_COUNT": shards} if shards else {}
    # discord.py logs each failed try as an error
    bot = await start_bot("patient_bot", env=env, allow_errors=True)
    board = await start_vs_computer(driver, piles=FOUR_PILES)
    await alice_moves(driver, board)
    await fake.stop()
    waiting = re.compile(r"Attempting a reconnect (for shard ID \d )?in 60\.00s")
    for _ in range(200):  # until discord.py is asleep before its next try
        if waiting.search(bot.log):
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError(f"the bot never waited to reconnect:\n{bot.log}")
    assert await bot.stop(timeout=STOPPED_WITHIN) == 0, "killed: it did not stop in time"
    assert "database closed" in bot.log
    assert not [line for line in bot.errors() if " parlour" in line]
