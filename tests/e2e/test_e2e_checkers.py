"""Checkers end to end: the real bot process against the fake Discord, played by members."""

from __future__ import annotations

import io

import pytest
from e2e_helpers import TableRows
from PIL import Image

from fakediscord import Driver, FakeDiscord
from games.checkers import read_pdn
from games.checkers.pdn import state_from_pdn
from render.checkers import describe
from render.samples import sample_checkers_moves

pytestmark = pytest.mark.both_backends

RED_TO_MOVE_AND_LOSE = "W:W9:B1,2"  # Red's man must step next to Black's men and is lost


def pieces(description: str) -> list[str]:
    """The pieces part of a board's alt text (``b: 1,2.``, ``R: 9.``)."""
    words = description.split(" ")
    return [
        f"{w} {words[i + 1]}" for i, w in enumerate(words[:-1]) if w in ("b:", "B:", "r:", "R:")
    ]


async def test_a_game_against_the_computer_then_a_drawn_game_between_members(
    fake: FakeDiscord, driver: Driver, start_bot, rows: TableRows
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
    assert board.button_labels() == ["Play again", "Replay"]

    # Replay: anyone may watch the finished game again; it is an animation of every position
    # (the start and one a move) plus the final position held.
    watched = await driver.click("carol", board, label="Replay")
    assert watched.ephemeral and "replay of game" in watched.text()
    [reel] = watched.message.attachments
    assert reel.filename.endswith(".gif") and "Replay of" in (reel.description or "")
    frames = animation_frames(await driver.attachment_bytes(watched.message))
    assert frames == 1 + len(replayed.to_dict()["moves"]) + 1
    typed = await driver.slash("bob", "checkers replay")
    assert not typed.ephemeral and typed.message.attachments[0].filename == reel.filename
    assert animation_frames(await driver.attachment_bytes(typed.message)) == frames

    asked = await driver.slash("carol", "checkers record")
    assert asked.ephemeral and asked.message.attachments[0].filename == record.filename

    # -- between two members: challenge, a move, a draw offered and accepted ----------------
    r = await driver.slash("alice", "checkers start", opponent="bob", color="black")
    challenge = r.message
    r = await driver.click("bob", challenge, label="Accept")
    board = r.message
    assert f"<@{alice.id}> to move (Black)" in board.content
    # A typed move answers with the updated board at the bottom; the old one stops working.
    typed = await driver.slash("alice", "checkers move", move="11-15")
    assert not typed.ephemeral and typed.message is not board
    assert "played **11-15**" in typed.message.content and typed.message.attachments
    assert "Bob may claim" not in typed.message.content and "Alice may claim" in (
        typed.message.content
    )
    await driver.wait_for(lambda: board.button_labels() == [])
    # The retired board says so, and links to the newest (a link Discord shows as words).
    assert board.content.startswith("⏭️ Moved on — see the [newest board](https://discord.com/")
    assert board.content.endswith(f"/{typed.message.id}).") and board.attachments
    board = typed.message
    refused = await driver.click("alice", board, label="Offer draw")
    assert refused.ephemeral and "not your turn" in refused.content
    await driver.click("bob", board, label="Offer draw")
    assert "offers a draw" in board.content
    await driver.select("bob", board, ["22-18"])
    assert "played **22-18**" in board.content
    await driver.click("alice", board, label="Accept draw")
    result = await driver.wait_for_message(
        "games", lambda m: m.content.startswith("🏁") and "drawn" in m.content
    )
    assert "1/2-1/2" in (await driver.attachment_bytes(result)).decode()

    scores = await driver.slash("dave", "scoreboard", game="Checkers")
    assert "Rating" in scores.text() and "1200" in scores.text()

    # A long game's replay takes seconds to draw: the answer still comes in time (deferred,
    # privately), with every position. (The finished game's moves are swapped for a long
    # game's, as a restored backup could leave them.)
    table = rows.last()
    moves = sample_checkers_moves(150, seed=111)  # a game that lasts 150 plies
    assert len(moves) == 150
    rows.set_state(table.id, {**table.state, "fen": None, "moves": moves})
    long = await driver.click("erin", board, label="Replay", timeout=120)
    assert long.ephemeral and f"{len(moves)} moves" in long.text()
    assert animation_frames(await driver.attachment_bytes(long.message)) == len(moves) + 2


def animation_frames(data: bytes) -> int:
    """How many frames an attached animation has, as Pillow decodes it."""
    with Image.open(io.BytesIO(data)) as image:
        assert image.is_animated
        return image.n_frames
