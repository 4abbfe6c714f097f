"""A bot with its hands full says so at once: a click beyond the interactions it can finish in
time is refused privately, nothing is done, and the next click once there is room works."""

from __future__ import annotations

from test_e2e_quarters import selected_coins, start_vs_computer

from fakediscord import Driver


async def test_a_click_on_a_bot_with_its_hands_full_is_refused_at_once_and_nothing_is_done(
    in_process, driver: Driver, tmp_path
):
    from bot.client.app import ParlourBot
    from bot.config import Config

    bot = await in_process(ParlourBot(Config(token="fake", database=tmp_path / "p.db")))
    board = await start_vs_computer(driver, "alice")
    content = board.content
    bot.tracker.limit = 0  # as if 400 interactions were open
    answer = await driver.click("alice", board, label="1·1")
    assert answer.ephemeral and "very busy right now, so nothing was done" in answer.text()
    assert board.content == content and selected_coins(board) == []
    bot.tracker.limit = 400
    answer = await driver.click("alice", board, label="1·1")
    assert answer.type == 7 and selected_coins(board) == ["1·1"]
