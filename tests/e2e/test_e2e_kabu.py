"""Kabu end to end: the real bot process against the fake Discord, played by members."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from e2e_helpers import TableRows

from fakediscord import Driver, Message, Response

pytestmark = pytest.mark.both_backends

PNG = b"\x89PNG\r\n\x1a\n"
CHANCE = re.compile(r"• (Draw|Stand): \*\*[\d.]+%\*\* \((\d+)/(\d+)\)")
POSITION = re.compile(r"^([1-5]) · ")


def refused(response: Response, *words: str) -> None:
    assert response.ephemeral, f"expected a private answer, got {response.text()!r}"
    for word in words:
        assert word in response.text(), f"{word!r} not in {response.text()!r}"


def position_button(board: Message, position: int) -> str:
    """The label of a position's button ("3 · 7♠")."""
    return next(b for b in board.button_labels() if b.startswith(f"{position} · "))


async def follow_hint(driver: Driver, member: str, board: Message) -> str:
    """Ask the Hint (privately) and press what it says is better."""
    r = await driver.click(member, board, label="Hint")
    assert r.ephemeral and "Your chances" in r.text()
    chances = {m[1]: Fraction(int(m[2]), int(m[3])) for m in CHANCE.finditer(r.text())}
    assert set(chances) == {"Draw", "Stand"}
    choice = "Draw" if chances["Draw"] > chances["Stand"] else "Stand"
    r = await driver.click(member, board, label=choice)
    assert r.type == 7 and r.message is board
    return choice


async def test_a_lone_player_plays_two_rounds_to_the_scoreboard(
    driver: Driver, start_bot, rows: TableRows
) -> None:
    await start_bot()
    r = await driver.slash("alice", "kabu start")
    lobby = r.message
    assert lobby is not None and not r.ephemeral
    assert lobby.button_labels() == ["Join", "Leave", "Deal"]
    assert "Seated (1/5): Alice" in lobby.content

    r = await driver.click("alice", lobby, label="Deal")
    board = r.message
    assert r.type == 7 and board is lobby
    assert "pick your position" in board.content
    assert [POSITION.match(label)[1] for label in board.button_labels()] == list("12345")
    assert (await driver.attachment_bytes(board)).startswith(PNG)
    assert board.attachments[0].description.startswith("Kabu. Dealer:")

    for round_ in range(2):
        await driver.click("alice", board, label=position_button(board, 2))
        assert "position 2 holds" in board.content
        assert board.button_labels() == ["Draw", "Stand", "Hint"]
        await follow_hint(driver, "alice", board)
        assert board.button_labels() == ["Deal again"]
        assert "Dealer:" in board.content and "**Alice** (position 2)" in board.content
        assert "Position 2 (Alice)" in board.attachments[0].description
        result = await driver.wait_for_message(
            "games", lambda m: m.content.startswith("🏁 **Kabu**"), after=board.id
        )
        # One short announcement; the reveal (WIN or LOSE) is on the board only.
        assert ("**WIN**" in board.content) != ("LOSE" in board.content)
        won = "**WIN**" in board.content
        assert result.content == f"🏁 **Kabu**: {'Alice' if won else 'The dealer'} won it."
        if round_ == 0:
            r = await driver.click("alice", board, label="Deal again")
            assert r.message is not board and not r.ephemeral
            board = r.message
            assert "pick your position" in board.content

    results = rows.results()
    assert [(name, vs) for name, _outcome, vs in results] == [("Alice", 1), ("Alice", 1)]
    wins = sum(outcome == "win" for _name, outcome, _vs in results)
    r = await driver.slash("bob", "scoreboard", game="Kabu")
    line = next(ln for ln in r.text().splitlines() if "Alice" in ln)
    assert line.split()[:5] == ["1", "Alice", "2", str(wins), str(2 - wins)]


async def test_two_people_at_one_table(driver: Driver, start_bot, rows: TableRows) -> None:
    await start_bot()
    r = await driver.slash("alice", "kabu start", arashi=False)
    lobby = r.message
    assert "Arashi off" in lobby.content
    await driver.click("bob", lobby, label="Join")
    await driver.click("carol", lobby, label="Join")
    assert "Seated (3/5): Alice, Bob, and Carol." in lobby.content
    await driver.click("carol", lobby, label="Leave")
    assert "Seated (2/5): Alice and Bob." in lobby.content
    refused(await driver.click("bob", lobby, label="Deal"), "Alice opened this table")
    await driver.click("alice", lobby, label="Deal")
    board = lobby

    refused(await driver.click("bob", board, label=position_button(board, 1)), "not your turn")
    refused(await driver.click("carol", board, label=position_button(board, 1)), "not seated")
    await driver.click("alice", board, label=position_button(board, 4))
    assert "4 · Alice" in board.button_labels()
    await driver.click("bob", board, label=position_button(board, 1))

    bob = driver.user("bob").mention
    assert f"{bob} — position 1 holds" in board.content
    refused(await driver.click("alice", board, label="Stand"), "not your turn")
    refused(await driver.click("carol", board, label="Hint"), "not seated")
    r = await driver.click("alice", board, label="Hint")
    assert r.ephemeral and "**Bob** is deciding" in r.text()
    assert all("is deciding" not in m.content for m in driver.ephemerals("bob"))
    await follow_hint(driver, "bob", board)
    alice = driver.user("alice").mention
    assert f"{alice} — position 4 holds" in board.content
    await follow_hint(driver, "alice", board)

    assert board.button_labels() == ["Deal again"]
    result = await driver.wait_for_message("games", lambda m: m.content.startswith("🏁 **Kabu**"))
    assert "**Alice** (position 4)" in board.content and "**Bob** (position 1)" in board.content
    assert "(Arashi)" not in board.content
    assert "won it." in result.content and "position" not in result.content
    assert sorted(name for name, _outcome, _vs in rows.results()) == ["Alice", "Bob"]

    r = await driver.click("bob", board, label="Deal again")
    again = r.message
    assert again is not board and f"{alice} — pick your position" in again.content
    # The bot remembers the new board and takes the controls off the old one after answering.
    await driver.wait_for(lambda: rows.last().board_message_id == again.id and not board.buttons())
    assert rows.last().seats[0]["name"] == "Alice" and rows.last().seats[1]["name"] == "Bob"
