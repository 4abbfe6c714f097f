"""Quatorze end to end: the real bot process against the fake Discord, played by a member."""

from __future__ import annotations

import re

import pytest
from e2e_helpers import TableRows

from fakediscord import Driver, Message

pytestmark = pytest.mark.both_backends

PNG = b"\x89PNG\r\n\x1a\n"
SCORE = re.compile(r"Score \*\*(\d+)\*\*/52")
MAX_MOVES = 30


def score(board: Message) -> int:
    found = SCORE.search(board.content)
    assert found, board.content
    return int(found[1])


def over(board: Message) -> bool:
    return board.button_labels() == ["Play again"]


async def take_a_pair(driver: Driver, board: Message) -> None:
    """Choose the first pair in the menu (or, past 25 pairs, a first card and its partner)."""
    menu = board.selects()[0]
    if menu["placeholder"] != "Take a pair…":
        first = menu["options"][0]["value"]
        await driver.select("alice", board, [first], custom_id=menu["custom_id"])
        menu = board.selects()[1]
    r = await driver.select(
        "alice", board, [menu["options"][0]["value"]], custom_id=menu["custom_id"]
    )
    assert r.type == 7 and r.message is board


async def test_a_whole_game_with_the_menu_and_the_hint_then_one_given_up(
    driver: Driver, start_bot, rows: TableRows
) -> None:
    await start_bot()
    r = await driver.slash("alice", "quatorze start", winnable=True)
    board = r.message
    assert board is not None and not r.ephemeral
    assert "Alice's solitaire (a winnable deal)" in board.content
    assert board.button_labels() == ["Hint", "Give up"]
    [menu] = board.selects()
    assert menu["placeholder"] == "Take a pair…"
    assert (await driver.attachment_bytes(board)).startswith(PNG)
    assert board.attachments[0].description.startswith("Quatorze, score 0 of 52")

    # Someone else cannot play it, nor ask its hint.
    refused = await driver.select("bob", board, [menu["options"][0]["value"]])
    assert refused.ephemeral and "not seated" in refused.text()
    refused = await driver.click("bob", board, label="Hint")
    assert refused.ephemeral and "not seated" in refused.text()

    # Two pairs on the hint's advice, from its private message; then the menu to the end.
    for _ in range(2):
        before = score(board)
        r = await driver.click("alice", board, label="Hint")
        hint = r.message
        assert r.ephemeral and hint.content.startswith("💡 Take **")
        assert "Selected: " in hint.attachments[0].description
        r = await driver.click("alice", hint, label="Take this pair")
        assert r.type == 7 and r.message is hint and hint.content.startswith("✅ You took")
        await driver.wait_for(lambda b=before: over(board) or score(board) == b + 2)
    for _ in range(MAX_MOVES):
        if over(board):
            break
        before = score(board)
        await take_a_pair(driver, board)
        assert over(board) or score(board) == before + 2
    assert over(board)
    final = score(board)
    result = await driver.wait_for_message(
        "games", lambda m: m.content.startswith("🏁 **Quatorze**"), after=board.id
    )
    assert f"final score **{final}**/52" in result.content
    assert rows.results() == [("Alice", "win" if final == 52 else "loss", 0)]

    # Play again, and give up at once (after confirming privately).
    r = await driver.click("alice", board, label="Play again")
    second = r.message
    assert second is not board and score(second) == 0
    r = await driver.click("alice", second, label="Give up")
    assert r.ephemeral and "Really give up with **0** points?" in r.text()
    assert not over(second)
    r = await driver.click("alice", r.message, label="Yes, give up")
    assert "You gave up with 0 points" in r.message.content
    await driver.wait_for(lambda: over(second))
    assert "gave up with **0** points" in second.content

    r = await driver.slash("bob", "scoreboard", game="Quatorze")
    line = next(ln for ln in r.text().splitlines() if "Alice" in ln)
    assert line.split() == ["1", "Alice", "2", str(final), str(int(final == 52))]
