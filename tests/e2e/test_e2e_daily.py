"""The daily puzzles end to end: the real bot in this process against the fake Discord, with a
clock the test moves (midnights come without waiting).

bob (in "Parlour Test") and frank (in "Other Guild") get the same puzzles; bob solves all
three, frank fails Checkers; shares post one line each without the solution; ``/daily board``
and the streaks are right across three days with a missed one; the daily post comes once a
day, and once after downtime.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from bot.client import daily_commands
from bot.tables.daily.play import checkers_game, quarters_game, quatorze_game, quatorze_hint
from fakediscord import Driver, Message
from games.checkers import egdb
from games.checkers.board import Board, Move
from games.daily import puzzles_for
from games.daily.checkers import database, scored_moves
from games.quarters.strategy import winning_moves
from storage import Database

DAY = 86400
START = datetime(2026, 12, 7, 9, tzinfo=UTC).timestamp()  # a Monday, 09:00 UTC


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


pytestmark = pytest.mark.both_backends


async def start_bot(in_process, database_url: str, clock: Clock):
    from bot.client.app import ParlourBot
    from bot.config import Config
    from bot.tables.ai import AiRunner
    from bot.tables.service import TableService

    db = await Database.open(database_url)
    service = TableService(db, ai=AiRunner(1, threads=True), clock=clock)
    client = await in_process(ParlourBot(Config(token="fake", database=database_url), service))
    client.clock = clock
    return client


@pytest.fixture
async def bot(in_process, database_url):
    return await start_bot(in_process, database_url, Clock(START))


def daily_posts(driver: Driver) -> list[Message]:
    """The daily posts in #games (whoever sent them: this test or the bot's own loop)."""
    return [
        m for m in driver.channel_messages("games") if "Play today's puzzles" in m.button_labels()
    ]


async def midnight_passes(bot, driver: Driver, days: int, posts_before: int) -> None:
    """Move the clock ``days`` midnights on; the daily post comes once, however often asked."""
    bot.clock.now += days * DAY
    for _ in range(3):
        await daily_commands.post_due(bot)
    await driver.wait_for(lambda: len(daily_posts(driver)) >= posts_before + 1)
    assert len(daily_posts(driver)) == posts_before + 1


async def choose(driver: Driver, member: str, board: Message, move: str) -> None:
    select = next(s for s in board.selects() if move in [o["value"] for o in s["options"]])
    answer = await driver.select(member, board, [move], custom_id=select["custom_id"])
    assert answer.type == 7 and answer.message is board, answer.text()  # the board, edited


async def open_puzzle(driver: Driver, member: str, title: str, channel: str) -> Message:
    overview = await driver.slash(member, "daily today", channel=channel)
    assert overview.ephemeral and "<t:" in overview.text()
    opened = await driver.click(member, overview.message, label=f"Play {title}")
    assert opened.ephemeral
    return opened.message


async def solve_quarters(driver, member, channel, day) -> Message:
    puzzles = puzzles_for(day)
    board = await open_puzzle(driver, member, "Quarters", channel)
    move = puzzles.quarters.answer
    while board.selects():
        await choose(driver, member, board, move)
        attempt = await driver.bot.daily.db.daily.find(driver.user(member).id, day, "quarters")
        if attempt.over:
            break
        move = winning_moves(quarters_game(puzzles, attempt).piles)[0]
    assert "Solved!" in board.text()
    return board


async def solve_checkers(driver, member, channel, day) -> Message:
    puzzles = puzzles_for(day)
    db = database()
    board = await open_puzzle(driver, member, "Checkers", channel)
    move = puzzles.checkers.answer
    while board.selects():
        await choose(driver, member, board, move)
        attempt = await driver.bot.daily.db.daily.find(driver.user(member).id, day, "checkers")
        if attempt.over:
            break
        position = Board.from_fen(checkers_game(puzzles, attempt).view(None)["fen"])
        wins = [m for m in scored_moves(db, *position._raw()) if m[1] == egdb.WIN]
        move = str(Move.from_raw(min(wins, key=lambda m: m[2])[0]))
    assert "Solved!" in board.text()
    return board


async def solve_quatorze(driver, member, channel, day) -> Message:
    puzzles = puzzles_for(day)
    board = await open_puzzle(driver, member, "Quatorze", channel)
    user = driver.user(member).id
    while board.selects():
        attempt = await driver.bot.daily.db.daily.find(user, day, "quatorze")
        await choose(driver, member, board, quatorze_hint(quatorze_game(puzzles, attempt)))
    assert "Solved!" in board.text()
    return board


async def test_two_servers_three_days_shares_board_streaks_and_the_daily_post(bot, driver):
    driver.bot = bot
    day1 = date(2026, 12, 7)
    puzzles = puzzles_for(day1)

    # the server's daily channel: set by the owner, posted at once, not twice the same day
    answer = await driver.slash("olivia", "settings", daily_channel="games")
    assert answer.ephemeral and "midnight UTC" in answer.text()
    await driver.wait_for_message("games", lambda m: "Play today's puzzles" in m.button_labels())
    posts = daily_posts(driver)
    assert len(posts) == 1 and "Nobody here solved yesterday's puzzles" in posts[0].text()
    await daily_commands.post_due(bot)
    assert len(daily_posts(driver)) == 1

    # the same puzzles in both servers: the first boards look the same
    first_bob = await open_puzzle(driver, "bob", "Checkers", "games")
    first_frank = await open_puzzle(driver, "frank", "Checkers", "Other Guild/general")
    assert first_bob.attachments[0].data == first_frank.attachments[0].data
    # frank plays a move that is not the winning one: one try, over
    wrong = next(
        str(m)
        for m in Board.from_fen(puzzles.checkers.fen).legal_moves
        if str(m) != puzzles.checkers.answer
    )
    await choose(driver, "frank", first_frank, wrong)
    assert "Not solved this time" in first_frank.text() and not first_frank.selects()
    again = await open_puzzle(driver, "frank", "Checkers", "Other Guild/general")
    assert again.button_labels() == ["Share"]  # resumed, not restarted
    shared = await driver.click("frank", again, label="Share")
    assert not shared.ephemeral and "🟥" in shared.text() and wrong not in shared.text()
    twice = await driver.click("frank", again, label="Share")  # once per attempt
    assert twice.ephemeral and "already shared" in twice.text()

    # bob solves all three
    await solve_checkers(driver, "bob", "games", day1)
    await solve_quarters(driver, "bob", "games", day1)
    board = await solve_quatorze(driver, "bob", "games", day1)
    shared = await driver.click("bob", board, label="Share")
    line = shared.text()
    assert line.startswith("Parlour daily 2026-12-07, Quatorze: 🟩") and "\n" not in line
    await solve_quarters(driver, "frank", "Other Guild/general", day1)

    today = await driver.slash("bob", "daily board", channel="games")
    assert "1. Bob: 4 moves" in today.text() and "Frank" not in today.text()

    # day 2: the post once; bob solves Quarters only
    await midnight_passes(bot, driver, 1, posts_before=1)
    assert "Yesterday's solvers: Bob." in driver.last_message("games").text()
    await solve_quarters(driver, "bob", "games", date(2026, 12, 8))
    stats = await driver.slash("bob", "stats", channel="games")
    assert (
        "Quarters: 2 now, best 2" in stats.text() and "All three: 1 now, best 1" in stats.text()
    )  # today is still open

    # day 3 missed (the bot was down too); day 4: one post, and the streak starts again
    await midnight_passes(bot, driver, 2, posts_before=2)
    await solve_quarters(driver, "bob", "games", date(2026, 12, 10))
    stats = await driver.slash("bob", "stats", channel="games")
    assert "Quarters: 1 now, best 2" in stats.text() and "All three: 0 now, best 1" in stats.text()


async def test_a_loaded_bot_defers_every_daily_answer_and_each_still_lands(
    bot, driver, monkeypatch
):
    """Deferred at once (as a loaded bot does), each daily answer still arrives: the overview
    and the board as the "thinking" message edited, a move as the board edited, a share as a
    public follow-up, a refusal as a private one, and ``/daily board`` for the channel."""
    monkeypatch.setattr("bot.client.app.DEFER_AFTER", 0.0)
    driver.bot = bot
    puzzles = puzzles_for(date(2026, 12, 7))
    overview = await driver.slash("frank", "daily today", channel="Other Guild/general")
    assert overview.type == 5 and overview.ephemeral and "<t:" in overview.text()
    opened = await driver.click("frank", overview.message, label="Play Checkers")
    assert opened.type == 5 and opened.ephemeral and opened.message.selects()
    board = opened.message
    wrong = next(
        str(m)
        for m in Board.from_fen(puzzles.checkers.fen).legal_moves
        if str(m) != puzzles.checkers.answer
    )
    select = next(s for s in board.selects() if wrong in [o["value"] for o in s["options"]])
    played = await driver.select("frank", board, [wrong], custom_id=select["custom_id"])
    assert played.type == 6
    await driver.wait_for(lambda: "Not solved this time" in board.text())
    shared = await driver.click("frank", board, label="Share")
    await driver.wait_for(lambda: shared.followups)
    assert shared.type == 6 and not shared.followups[0].ephemeral
    assert "🟥" in shared.followups[0].text() and wrong not in shared.followups[0].text()
    twice = await driver.click("frank", board, label="Share")
    await driver.wait_for(lambda: twice.followups)
    assert twice.followups[0].ephemeral and "already shared" in twice.followups[0].text()
    today = await driver.slash("frank", "daily board", channel="Other Guild/general")
    assert today.type == 5 and not today.ephemeral and "Frank" not in today.text()


async def test_an_attempt_started_before_midnight_resumes_after_a_restart_on_its_own_day(
    in_process, database_url, driver
):
    day1 = date(2026, 12, 7)
    clock = Clock(START + 15 * 3600 - 10)  # 23:59:50 UTC
    first = await start_bot(in_process, database_url, clock)
    driver.bot = first
    puzzles = puzzles_for(day1)
    board = await open_puzzle(driver, "bob", "Quarters", "games")
    await choose(driver, "bob", board, puzzles.quarters.answer)
    attempt = await first.daily.db.daily.find(driver.user("bob").id, day1, "quarters")
    await first.close()

    clock.now += 20  # past midnight, and a new bot process
    second = await start_bot(in_process, database_url, clock)
    driver.bot = second
    move = winning_moves(quarters_game(puzzles, attempt).piles)[0]
    await choose(driver, "bob", board, move)  # the same private board, still working
    bob = driver.user("bob").id
    resumed = await second.daily.db.daily.find(bob, day1, "quarters")
    assert resumed.id == attempt.id and resumed.moves == 2
    assert await second.daily.db.daily.find(bob, date(2026, 12, 8), "quarters") is None


async def test_a_daily_post_that_failed_is_sent_at_the_next_check_once(
    bot, driver, fake, monkeypatch
):
    from functools import partial

    from bot.client import retry

    monkeypatch.setattr(daily_commands, "retrying", partial(retry.retrying, delays=(0, 0)))
    # only /settings and this test check for due posts (the minutely check could run between)
    for task in list(bot._background):
        if task.get_coro().__qualname__ == "post_forever":
            task.cancel()
    fault = fake.faults.rest("POST /channels/{channel}/messages", status=503, times=3)  # 3 tries
    answer = await driver.slash("olivia", "settings", daily_channel="games")
    assert answer.ephemeral and "midnight UTC" in answer.text()
    # /settings posts after its answer: let that attempt fail before this test posts
    await driver.wait_for(lambda: fault.spent)
    async with bot.daily.posting:
        pass
    assert daily_posts(driver) == []  # not sent, so not marked sent
    assert await daily_commands.post_due(bot) == 1
    assert await daily_commands.post_due(bot) == 0
    assert len(daily_posts(driver)) == 1
