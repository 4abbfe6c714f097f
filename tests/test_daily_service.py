"""The daily puzzles without Discord: playing each puzzle through the service on both
back-ends, refusals, one attempt per day, shares without the solution, board and streaks."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.tables.daily.play import (
    HINT,
    checkers_game,
    quarters_game,
    quatorze_game,
    quatorze_hint,
)
from bot.tables.daily.service import DailyService, next_midnight
from games.checkers import egdb
from games.checkers.board import Board, Move
from games.daily import puzzles_for
from games.daily.checkers import database, scored_moves
from games.quarters.strategy import winning_moves
from storage import Database
from storage.daily import AttemptStatus

MIDNIGHT = datetime(2026, 12, 7, tzinfo=UTC).timestamp()


class Clock:
    def __init__(self) -> None:
        self.now = MIDNIGHT + 3600

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def daily(db_path):
    db = await Database.open(db_path)
    yield DailyService(db, Clock())
    await db.close()


def select_action(screen, move):
    """The select action (``m<n>=<move>``) that plays ``move`` on a board."""
    for row in screen.rows:
        if not isinstance(row, tuple) and move in [o.value for o in row.options]:
            return f"{row.action}={move}"
    raise AssertionError(f"{move} is not offered")


async def attempt_of(daily, user, kind):
    return await daily.db.daily.find(user, daily.today(), kind)


async def test_quarters_is_solved_by_the_answer_and_perfect_play(daily):
    puzzles = puzzles_for(daily.today())
    answer = await daily.open("quarters", 1, "Ann", 10, "en")
    move = puzzles.quarters.answer
    while True:
        attempt = await attempt_of(daily, 1, "quarters")
        answer = await daily.act(
            attempt.id, attempt.version, 1, select_action(answer.screen, move), "en"
        )
        assert answer.error is None
        attempt = await attempt_of(daily, 1, "quarters")
        if attempt.over:
            break
        move = winning_moves(quarters_game(puzzles, attempt).piles)[0]
    assert attempt.status is AttemptStatus.SOLVED
    share = await daily.act(attempt.id, None, 1, "share", "en")
    assert share.post.startswith("Parlour daily 2026-12-07, Quarters: 🟩")
    assert puzzles.quarters.answer not in share.post


async def test_a_wrong_first_move_fails_checkers_and_a_second_click_counts_once(daily):
    puzzles = puzzles_for(daily.today())
    answer = await daily.open("checkers", 2, "Bob", 10, "en")
    attempt = await attempt_of(daily, 2, "checkers")
    board = Board.from_fen(puzzles.checkers.fen)
    wrong = next(str(m) for m in board.legal_moves if str(m) != puzzles.checkers.answer)
    action = select_action(answer.screen, wrong)
    answer = await daily.act(attempt.id, attempt.version, 2, action, "en")
    assert "slip away" in answer.screen.embed.description
    again = await daily.act(attempt.id, attempt.version, 2, action, "en")
    assert again.error is not None
    stored = await attempt_of(daily, 2, "checkers")
    assert stored.status is AttemptStatus.FAILED and stored.moves == 1
    reopened = await daily.open("checkers", 2, "Bob", 10, "en")
    assert [row[0].action for row in reopened.screen.rows] == ["share"]
    share = await daily.act(stored.id, None, 2, "share", "en")
    assert "🟥" in share.post and wrong not in share.post


async def test_checkers_is_solved_by_the_answer_and_the_quickest_win(daily):
    puzzles = puzzles_for(daily.today())
    db = database()
    answer = await daily.open("checkers", 3, "Cy", 10, "en")
    move = puzzles.checkers.answer
    for _ in range(puzzles.checkers.distance):
        attempt = await attempt_of(daily, 3, "checkers")
        answer = await daily.act(
            attempt.id, attempt.version, 3, select_action(answer.screen, move), "en"
        )
        assert answer.error is None
        attempt = await attempt_of(daily, 3, "checkers")
        if attempt.over:
            break
        board = Board.from_fen(checkers_game(puzzles, attempt).view(None)["fen"])
        wins = [m for m in scored_moves(db, *board._raw()) if m[1] == egdb.WIN]
        move = str(Move.from_raw(min(wins, key=lambda m: m[2])[0]))
    assert attempt.status is AttemptStatus.SOLVED
    assert attempt.moves == (puzzles.checkers.distance + 1) // 2


async def test_quatorze_is_cleared_by_following_the_hints(daily):
    puzzles = puzzles_for(daily.today())
    await daily.open("quatorze", 4, "Di", 10, "en")
    while True:
        attempt = await attempt_of(daily, 4, "quatorze")
        if attempt.over:
            break
        hinted = await daily.act(attempt.id, attempt.version, 4, HINT, "en")
        assert "Try cells" in hinted.screen.embed.description
        attempt = await attempt_of(daily, 4, "quatorze")
        move = quatorze_hint(quatorze_game(puzzles, attempt))
        screen = hinted.screen
        answer = await daily.act(attempt.id, attempt.version, 4, select_action(screen, move), "en")
        assert answer.error is None, answer.error
    assert attempt.status is AttemptStatus.SOLVED and attempt.score == 26
    share = await daily.act(attempt.id, None, 4, "share", "en")
    assert "🟩" * 10 in share.post and "26 of 26 pairs" in share.post


async def test_someone_elses_board_is_refused(daily):
    await daily.open("quarters", 1, "Ann", 10, "en")
    attempt = await attempt_of(daily, 1, "quarters")
    answer = await daily.act(attempt.id, attempt.version, 2, "m0=1-1", "en")
    assert answer.error == "This is not your puzzle."


async def test_the_overview_names_the_next_midnight(daily):
    screen = await daily.overview(1, "en")
    assert f"<t:{int(MIDNIGHT + 86400)}:R>" in screen.embed.description
    assert next_midnight(MIDNIGHT) == MIDNIGHT + 86400


async def posted(daily, languages):
    """The due posts, each marked posted as the bot does once it went."""
    due = await daily.posts_due(languages)
    for guild_id, _channel, _screen in due:
        await daily.mark_posted(guild_id, daily.today())
    return due


async def test_the_daily_post_comes_once_a_day_and_once_after_downtime(daily):
    await daily.db.set_guild_setting(10, "daily_channel", "555")
    first = await posted(daily, {10: "en", 20: "en"})
    assert [(g, c) for g, c, _s in first] == [(10, 555)]
    assert "Nobody here solved yesterday" in first[0][2].embed.description
    assert await posted(daily, {10: "en", 20: "en"}) == []
    await daily.open("quarters", 1, "Ann", 10, "en")
    attempt = await attempt_of(daily, 1, "quarters")
    attempt.status = AttemptStatus.SOLVED
    await daily.db.daily.save(attempt, now=daily.clock())
    daily.clock.now += 86400
    assert "Yesterday's solvers: Ann." in (await posted(daily, {10: "en"}))[0][2].embed.description
    daily.clock.now += 3 * 86400  # the bot was down for three midnights: one post when back
    assert len(await posted(daily, {10: "en"})) == 1
    assert await posted(daily, {10: "en"}) == []


async def test_a_daily_post_not_marked_sent_is_due_again(daily):
    await daily.db.set_guild_setting(10, "daily_channel", "555")
    assert len(await daily.posts_due({10: "en"})) == 1  # sending it failed: not marked
    assert len(await daily.posts_due({10: "en"})) == 1
    await daily.mark_posted(10, daily.today())
    assert await daily.posts_due({10: "en"}) == []


async def test_the_daily_post_reads_the_servers_language(daily):
    await daily.db.set_guild_setting(10, "daily_channel", "555")
    await daily.db.set_guild_setting(20, "daily_channel", "666")
    await daily.db.set_guild_setting(20, "language", "de")  # /settings language comes first
    posts = {g: s for g, _c, s in await daily.posts_due({10: "fr", 20: "fr"})}
    assert posts[10].embed.title == "Défis du jour"
    assert posts[20].embed.title == "Tagesrätsel"


async def test_a_finished_puzzle_is_shared_once_in_the_channels_language(daily):
    await daily.open("quarters", 1, "Ann", 10, "fr")
    attempt = await attempt_of(daily, 1, "quarters")
    attempt.status = AttemptStatus.FAILED
    await daily.db.daily.save(attempt, now=daily.clock())
    first = await daily.act(attempt.id, None, 1, "share", "fr", "en")
    assert first.post.startswith("Parlour daily 2026-12-07, Quarters: ")
    second = await daily.act(attempt.id, None, 1, "share", "fr", "en")
    assert second.post is None and second.error
    assert second.error == "Tu as déjà partagé ce défi."  # in the member's language


async def test_stats_show_streaks_after_a_solve(daily):
    assert await daily.streak_field(1, "en") is None
    await daily.open("quarters", 1, "Ann", 10, "en")
    attempt = await attempt_of(daily, 1, "quarters")
    attempt.status = AttemptStatus.SOLVED
    await daily.db.daily.save(attempt, now=daily.clock())
    field = await daily.streak_field(1, "en")
    assert "Quarters: 1 now, best 1" in field.value and "All three: 0 now, best 0" in field.value
    board = await daily.board(10, "en")
    assert board.embed.fields[0].value == "1. Ann: 0 moves"
