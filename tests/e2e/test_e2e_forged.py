"""Forged and odd interactions against the real bot process (issue 11, points 1-6): a private
control sent against the public board, a click from another channel, odd digits, huge and loose
ids, junk custom_ids, /settings without the permission. Every one is answered privately, none
changes the game, none shows a hand in public, and the bot logs no error."""

from __future__ import annotations

from pathlib import Path

import pytest
from e2e_helpers import TableRows, open_hand, pass_three
from forge import STRING_SELECT, forge

from fakediscord import Driver


@pytest.fixture
def rows(tmp_path: Path) -> TableRows:
    return TableRows(tmp_path / "parlour.db")


def refused(response, *words: str) -> None:
    assert response.ephemeral, f"not private: {response.text()!r}"
    text = response.text()
    for word in words:
        assert word in text, f"{word!r} not in {text!r}"


async def test_a_private_control_against_the_board_or_from_another_channel_is_refused(
    driver: Driver, start_bot, rows: TableRows
) -> None:
    await start_bot()
    lobby = (await driver.slash("alice", "hearts start", level="beginner", delay=0)).message
    board = (await driver.click("alice", lobby, label="Start")).message
    await driver.wait_for(
        lambda: (s := rows.last().state) is not None and None not in s["passes"][1:]
    )
    mine = await open_hand(driver, "alice", board)
    refresh = next(b for b in mine.buttons() if b.get("label") == "Refresh")
    picks = [b["custom_id"] for b in mine.buttons() if ":pick=" in b["custom_id"]]
    cards = [cid.rpartition("=")[2] for cid in picks[:3]]
    table_id = rows.last().id
    before = (board.content, [a.filename for a in board.attachments], board.components)
    state = rows.last().state

    # 1. The hand's Refresh, and the pass, sent against the public board.
    r = await forge(driver, "alice", board, refresh["custom_id"])
    refused(r, "private message")
    r = await forge(driver, "alice", board, picks[0])
    refused(r, "private message")
    r = await forge(driver, "alice", board, f"t:{table_id}:*:pass={','.join(cards)}")
    refused(r, "private message")
    assert (board.content, [a.filename for a in board.attachments], board.components) == before
    assert all("hand" not in a.filename for m in driver.channel_messages() for a in m.attachments)
    assert rows.last().state == state

    # 2. The board's own button, clicked from another channel of the server.
    lobby_channel = driver.channel("lobby")
    r = await forge(driver, "alice", board, f"t:{rows.last().id}:*:hand", channel="lobby")
    refused(r, "another channel")
    assert [m for m in driver.channel_messages(lobby_channel) if not m.ephemeral] == []

    # The real controls still work, on the right messages.
    passed = await pass_three(driver, "alice", mine)
    assert passed.type == 7 and "You passed" in passed.text()


async def test_odd_digits_huge_and_loose_ids_and_junk_are_answered_without_an_error(
    driver: Driver, start_bot, rows: TableRows
) -> None:
    bot = await start_bot()
    for piles, words in [
        ("²,3", ("0-9", "²")),
        ("３,４,５", ("0-9", "３")),
        ("٣,٤", ("0-9", "٣")),
        ("-1,-2", ("negative",)),
        ("-1", ("negative",)),
    ]:
        refused(await driver.slash("alice", "quarters start", piles=piles), *words)
    assert rows.all() == []
    r = await driver.slash("alice", "quarters start", piles="3,4,5")
    board = r.message
    table = rows.last()
    version = table.version

    # 3. Odd digits in custom_ids.  4. Huge ids.  5. A `*` move, junk, a wrong component type.
    for custom_id in [
        f"t:{table.id}:{version}:c=².1",
        f"t:{table.id}:{version}:pile=²",
        f"t:{table.id}:{version}:take=３",
        f"t:{2**63}:1:resign",
        f"t:{table.id}:{2**64}:resign",
        f"t:{table.id}:*:remove",
        f"t:{table.id}:*:m=1-1",
        f"t:-1:{version}:resign",
        f"t:0{table.id}:{version}:resign",
        "junk",
        "",
    ]:
        r = await forge(driver, "alice", board, custom_id)
        assert r.ephemeral, custom_id
    r = await forge(driver, "alice", board, f"t:{table.id}:{version}:nothing", claim=False)
    refused(r, "not one of this game's")  # no such button on the board
    r = await forge(driver, "alice", board, f"s:{table.id}:{version}:take", values=["1"])
    assert r.ephemeral  # a select's custom_id on a button
    r = await forge(
        driver, "alice", board, f"s:{table.id}:{version}:take", ctype=STRING_SELECT, values=["٣"]
    )
    assert r.ephemeral
    assert rows.last().state == table.state and rows.last().status == "active"
    assert "refused a component interaction with custom_id 'junk'" in bot.log  # and logged

    # 6. /settings from a member without Manage Server.
    refused(await driver.slash("carol", "settings", claim_minutes=5), "Manage Server")
    shown = await driver.slash("carol", "settings")
    assert shown.ephemeral and "10 minutes" in shown.text()
    changed = await driver.slash("olivia", "settings", claim_minutes=5)  # the server's owner
    assert changed.ephemeral and "5 minutes" in changed.text()
