"""The bot process's log: with LOG_FORMAT=json every line is one JSON object; no token and no
hidden Hearts card ever reaches it, even at LOG_LEVEL=DEBUG."""

from __future__ import annotations

import json

import pytest
from e2e_helpers import TableRows, open_hand, pass_three, playable
from hearts_leaks import cards_named, hidden_cards

from fakediscord import Driver, FakeDiscord

pytestmark = pytest.mark.both_backends


def entries(log: str) -> list[dict]:
    """The bot's log lines (the launcher's own lines are not the bot's logging)."""
    return [
        json.loads(line)
        for line in log.splitlines()
        if not line.startswith(("--- start", "[fakediscord.launch]"))
    ]


async def test_json_log_lines_parse_and_hold_no_token(fake: FakeDiscord, driver: Driver, start_bot):
    bot = await start_bot(env={"LOG_FORMAT": "json", "LOG_LEVEL": "DEBUG"})
    r = await driver.slash("alice", "quarters start", opponent="bob")
    assert r.message is not None
    await bot.stop()
    found = entries(bot.log)
    assert len(found) > 3
    assert {"time", "level", "logger", "message"} <= set(found[0])
    assert not any(e["logger"].startswith("discord") and e["level"] == "DEBUG" for e in found)
    assert fake.world.token not in bot.log


def mark(board) -> tuple:
    """What changes with every version of the board: its controls' custom_ids."""
    return tuple(b["custom_id"] for b in board.buttons())


async def test_a_whole_hearts_game_logs_no_card_of_another_seat(
    driver: Driver, start_bot, rows: TableRows
):
    bot = await start_bot(env={"LOG_FORMAT": "json", "LOG_LEVEL": "DEBUG"})
    lobby = (await driver.slash("alice", "hearts start", level="beginner", delay=0)).message
    board = (await driver.click("alice", lobby, label="Start")).message
    await driver.wait_for(
        lambda: (s := rows.last().state) is not None and None not in s["passes"][1:]
    )
    table = rows.last()
    secret = hidden_cards(table.state, 0)  # the computers' hands, as dealt
    rows.set_state(table.id, {**table.state, "totals": [0, 99, 99, 99]})  # one hand is the game
    mine = await open_hand(driver, "alice", board)
    await pass_three(driver, "alice", mine)
    for _ in range(13):
        await driver.wait_for(lambda: bool(playable(mine)) or "🏆" in board.content, 15)
        if "🏆" in board.content:
            break
        drawn_for = mark(board)
        await driver.click("alice", mine, label=playable(mine)[0])
        # The board's edit may follow the answer (edits of one board are paced and coalesced).
        await driver.wait_for(lambda was=drawn_for: mark(board) != was, 15)
    await driver.wait_for(lambda: "🏆" in board.content, 15)
    await driver.wait_for_message("games", lambda m: m.content.startswith("🏁"))
    assert rows.last().status == "finished"
    await bot.stop()
    found = entries(bot.log)
    assert len(secret) == 39 and len(found) > 3
    assert cards_named(bot.log) & secret == set()
    # The game's interactions are all in it, one line each, with their fields.
    lines = [e for e in found if e["logger"] == "parlour.interactions"]
    assert {"hearts.start", "start", "hand", "pass", "play"} <= {e["action"] for e in lines}
    assert all(e["level"] == "INFO" and e["outcome"] == "applied" for e in lines)
    assert all(isinstance(e["latency_ms"], float) and e["guild"] for e in lines)
    # Discord's acceptance of the first answer is seen on the bot's HTTP session.
    assert all(0 < e["first_response_ms"] <= e["latency_ms"] for e in lines)
