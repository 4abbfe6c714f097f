"""Checkers end to end: the real bot process against the fake Discord, played by members."""

from __future__ import annotations

import pytest

from bot.fakediscord import Driver, FakeDiscord
from games.checkers import read_pdn
from games.checkers.pdn import state_from_pdn
from render.checkers import describe

pytestmark = pytest.mark.both_backends

RED_TO_MOVE_AND_LOSE = "W:W9:B1,2"  # Red's man must step next to Black's men and is lost


def pieces(description: str) -> list[str]:
    """The pieces part of a board's alt text (``b: 1,2.``, ``R: 9.``)."""
    words = description.split(" ")
    return [
        f"{w} {words[i + 1]}" for i, w in enumerate(words[:-1]) if w in ("b:", "B:", "r:", "R:")
    ]


async def test_a_game_against_the_computer_then_a_drawn_game_between_members(
    fake: FakeDiscord, driver: Driver, start_bot
) -> None:
    await start_bot()
    alice = driver.user("alice")

    # -- against the computer, from a position: the computer (Red) moves first ---------------
    r = await driver.slash(
        "alice",
        "checkers start",
        color="black",
        level="beginner",
        position=RED_TO_MOVE_AND_LOSE,
    )
    board = r.message
    assert board is not None and "The computer is thinking" in board.content
    assert all(s.get("disabled") for s in board.selects())
    await driver.wait_for(lambda: f"<@{alice.id}> to move (Black)" in board.content)
    assert "Computer (beginner) played" in board.content
    assert board.attachments[0].description.startswith("Black to move.")

    choices = await driver.autocomplete("alice", "checkers move", focused="move", move="2")
    assert choices and all(c["value"].startswith("2") for c in choices)
    wrong = await driver.slash("bob", "checkers move", move="2-6")
    assert wrong.ephemeral and "not seated" in wrong.content
    illegal = await driver.slash("alice", "checkers move", move="5-9")
    assert illegal.ephemeral and "Legal" in illegal.content

    options = [o["value"] for o in board.selects()[0]["options"]]
    captures = [o for o in options if "x" in o]
    winning = captures[0] if captures else next(o for o in options if o.startswith("2-"))
    await driver.select("alice", board, [winning])
    result = await driver.wait_for_message("games", lambda m: m.content.startswith("🏁"))
    assert "wins** (Black)" in result.content and "cannot move" in result.content
    [record] = result.attachments
    assert record.filename.endswith(".pdn")
    text = (await driver.attachment_bytes(result)).decode()
    replayed = state_from_pdn(text)
    assert read_pdn(text).board().fen() == replayed.board.fen()
    assert pieces(describe(replayed.view(None))) == pieces(board.attachments[0].description)
    assert '[FEN "W:W9:B1,2"]' in text and "1-0" in text
    assert board.button_labels() == ["Play again"]

    asked = await driver.slash("carol", "checkers record")
    assert asked.ephemeral and asked.message.attachments[0].filename == record.filename

    # -- between two members: challenge, a move, a draw offered and accepted ----------------
    r = await driver.slash("alice", "checkers start", opponent="bob", color="black")
    challenge = r.message
    r = await driver.click("bob", challenge, label="Accept")
    board = r.message
    assert f"<@{alice.id}> to move (Black)" in board.content
    refused = await driver.click("bob", board, label="Offer draw")
    assert refused.ephemeral and "not your turn" in refused.content
    await driver.click("alice", board, label="Offer draw")
    assert "offers a draw" in board.content
    await driver.select("alice", board, ["11-15"])
    assert "played **11-15**" in board.content
    await driver.click("bob", board, label="Accept draw")
    result = await driver.wait_for_message(
        "games", lambda m: m.content.startswith("🏁") and "drawn" in m.content
    )
    assert "1/2-1/2" in (await driver.attachment_bytes(result)).decode()

    scores = await driver.slash("dave", "scoreboard", game="Checkers")
    assert "Rating" in scores.text() and "1200" in scores.text()
