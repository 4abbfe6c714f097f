"""Members' data through the fake Discord: /privacy show and its JSON file, /privacy forget
(scoreboards stay consistent), a server admin's erasure, and a server that removes the bot; on
SQLite and on PostgreSQL."""

from __future__ import annotations

import json

import pytest
from e2e_helpers import TableRows
from test_e2e_quarters import computer_answers, secret_move, start_vs_computer, take

from fakediscord import Driver, FakeDiscord

pytestmark = pytest.mark.both_backends

TABLES = ("game_tables", "results", "ratings", "guild_settings")


async def play_to_the_end(driver: Driver, member: str, channel: str) -> None:
    """``member`` beats the computer at Quarters in ``channel`` (with the Secret's help)."""
    board = await start_vs_computer(driver, member, channel=channel)
    for _ in range(10):
        if "wins!" in board.content:
            return
        pile, count = await secret_move(driver, member, board)
        await take(driver, member, board, pile, count)
        await computer_answers(driver, board, member)
    raise AssertionError("the game did not end")


def scoreboard_lines(text: str) -> dict[str, list[str]]:
    return {
        words[1]: words
        for line in text.splitlines()
        if len(words := line.split()) > 2 and words[0].isdigit()
    }


def rows_by_guild(rows: TableRows) -> dict[str, dict[int, int]]:
    """How many rows each table holds for each server."""
    server = {"ratings": "place_id"}  # ratings name their place (a server: its guild id)
    return {
        table: dict(
            rows.run(
                f"SELECT {server.get(table, 'guild_id')}, COUNT(*) FROM {table} "
                f"GROUP BY {server.get(table, 'guild_id')}"
            )
        )
        for table in TABLES
    }


async def test_show_download_forget_and_erase_the_servers_data(
    driver: Driver, start_bot, rows: TableRows
):
    await start_bot()
    await play_to_the_end(driver, "alice", "games")
    await play_to_the_end(driver, "bob", "lobby")
    before = scoreboard_lines((await driver.slash("carol", "scoreboard", game="Quarters")).text())
    assert set(before) == {"Alice", "Bob"}

    r = await driver.slash("alice", "privacy show")
    assert r.ephemeral and "**Results**: 1 (Quarters: 1 result)" in r.text()
    assert r.message.button_labels() == ["Download JSON"]
    file = await driver.click("alice", r.message, label="Download JSON")
    assert file.ephemeral
    data = json.loads(await driver.attachment_bytes(file.message))
    assert data["member"] == str(driver.user("alice").id)
    assert [(g["game"], g["status"]) for g in data["games"]] == [("quarters", "finished")]
    assert [x["outcome"] for x in data["results"]] == ["win"]

    r = await driver.slash("alice", "privacy forget")
    assert r.ephemeral and "**1 result**" in r.text()
    assert r.message.button_labels() == ["Forget me", "Cancel"]
    done = await driver.click("alice", r.message, label="Forget me")
    assert (
        "Done: 1 result and 0 ratings erased" in done.text() and done.message.button_labels() == []
    )
    after = scoreboard_lines((await driver.slash("carol", "scoreboard", game="Quarters")).text())
    assert set(after) == {"Bob"}
    assert after["Bob"][2:] == before["Bob"][2:]  # Bob's games, wins and rate unchanged
    r = await driver.slash("alice", "privacy show")
    assert "**Results**: none." in r.text() and "**Games**: none." in r.text()

    # Only a member who may manage the server may erase it; the owner confirms, then it's gone.
    r = await driver.slash("carol", "privacy erase-server")
    assert r.ephemeral and "Manage Server" in r.text() and r.message.button_labels() == []
    r = await driver.slash("olivia", "privacy erase-server")
    assert r.message.button_labels() == ["Erase everything", "Cancel"]
    done = await driver.click("olivia", r.message, label="Erase everything")
    assert "were erased" in done.text()
    guild = driver.channel("games").guild_id
    assert all(guild not in counts for counts in rows_by_guild(rows).values())
    r = await driver.slash("carol", "scoreboard", game="Quarters")
    assert "No games finished yet" in r.text()


async def test_forget_waits_for_the_members_open_game(driver: Driver, start_bot):
    await start_bot()
    await start_vs_computer(driver, "alice")
    r = await driver.slash("alice", "privacy forget")
    done = await driver.click("alice", r.message, label="Forget me")
    assert "Finish, resign or leave your open game first" in done.text()


async def test_a_server_that_removes_the_bot_has_its_tables_closed_and_its_data_purged(
    fake: FakeDiscord, driver: Driver, start_bot, rows: TableRows
):
    bot = await start_bot(env={"PARLOUR_RETENTION_DAYS": "0"})
    await play_to_the_end(driver, "alice", "games")
    await play_to_the_end(driver, "alice", "general")
    board = await start_vs_computer(driver, "alice", channel="general")
    assert board is not None
    home = driver.channel("games").guild_id
    away = driver.channel("general").guild_id
    kept = {table: counts[home] for table, counts in rows_by_guild(rows).items() if home in counts}

    await fake.gateway.dispatch("GUILD_DELETE", {"id": str(away), "unavailable": False})
    await driver.wait_for(lambda: "purged server" in bot.log, 10)
    counts = rows_by_guild(rows)
    assert all(away not in c for c in counts.values())
    assert {table: c[home] for table, c in counts.items() if home in c} == kept

    # Removed while the bot was down: noticed at the next start (here: purged, retention 0).
    await bot.stop()
    fake.world.guilds = [g for g in fake.world.guilds if g.id != home]
    await bot.start()
    await driver.wait_for(lambda: bot.log.count("purged server") == 2, 10)
    assert all(not c for c in rows_by_guild(rows).values())
