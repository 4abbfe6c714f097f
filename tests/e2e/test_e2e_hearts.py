"""Hearts end to end: the real bot process against the fake Discord, one member and three
computers, from the lobby to the scoreboard — and no card of a hand in the channel before it is
played, in any version of any public message.

To keep the test short the game is shortened, not the bot: once the computers have chosen their
passes, the stored totals are set to 0/99/99/99 (``TableRows.set_state``, as a crash and a
restored backup could leave them), so the first hand is the last whatever happens in it.
"""

from __future__ import annotations

import io
import re

import pytest
from e2e_helpers import TableRows, open_hand, pass_three, playable
from hearts_leaks import cards_named
from PIL import Image

from fakediscord import Driver, Message

pytestmark = pytest.mark.both_backends

PNG = b"\x89PNG\r\n\x1a\n"
HAND = re.compile(r"^Hearts, hand (\d+),")
CARDS_LEFT = re.compile(r": (\d+) cards,")


def versions(message: Message) -> list[tuple[str, list[str]]]:
    """Every look the message had: its texts (content, embeds) and attachment alt texts."""
    looks = [*message.history, message]
    found = []
    for look in looks:
        texts = [look.content]
        for embed in look.embeds:
            texts += [embed.get("title", ""), embed.get("description", "")]
            texts += [f.get("name", "") + " " + f.get("value", "") for f in embed.get("fields", [])]
            texts.append(embed.get("footer", {}).get("text", ""))
        found.append(("\n".join(texts), [a.description or "" for a in look.attachments]))
    return found


def hands_of(driver: Driver) -> list[Message]:
    """Alice's private hand messages she can still see."""
    return [m for m in driver.ephemerals("alice") if "**Your hand**" in m.content]


def played_then(history: list[dict], description: str) -> set[str]:
    """The cards played so far in the hand a board's alt text describes."""
    hand = int(HAND.match(description)[1]) - 1  # type: ignore[index]
    left = sum(int(n) for n in CARDS_LEFT.findall(description))
    plays = next(h["plays"] for h in history if h["hand"] == hand).split()
    return set(plays[: 52 - left])


async def test_one_member_and_three_computers_play_to_the_scoreboard_without_a_leak(
    driver: Driver, start_bot, rows: TableRows
) -> None:
    await start_bot()
    alice = driver.user("alice")
    r = await driver.slash("alice", "hearts start", level="beginner", delay=0)
    lobby = r.message
    assert lobby is not None and not r.ephemeral
    assert "Alice (host)" in lobby.content and lobby.button_labels() == ["Join", "Leave", "Start"]
    refused = await driver.click("carol", lobby, label="Start")
    assert refused.ephemeral and "not seated" in refused.text()

    r = await driver.click("alice", lobby, label="Start")
    board = r.message
    assert board is lobby and r.type == 7
    assert board.button_labels() == ["Your hand", "Scores", "Leave game"]
    # The computers choose their passes at once; then the game waits for Alice.
    await driver.wait_for(
        lambda: (s := rows.last().state) is not None and None not in s["passes"][1:]
    )
    table = rows.last()
    rows.set_state(table.id, {**table.state, "totals": [0, 99, 99, 99]})

    stranger = await driver.click("carol", board, label="Your hand")
    assert stranger.ephemeral and "not seated" in stranger.text()

    mine = await open_hand(driver, "alice", board)
    assert mine.ephemeral and "Tap three cards to pass" in mine.text()
    [image] = mine.attachments
    assert (await driver.attachment_bytes(mine)).startswith(PNG)
    assert image.description.startswith("Your hand:")
    assert len(mine.buttons()) == 13 + 2  # a card a button, Pass 0/3, Refresh
    passed = await pass_three(driver, "alice", mine)
    assert passed.type == 7 and "You passed" in passed.text()

    typed = await driver.slash("erin", "hearts scores")  # anyone, at any time
    assert typed.ephemeral and "Total" in typed.text()
    # Asking again gives a fresh hand and deletes the old one: one hand message at a time.
    typed = await driver.slash("alice", "hearts hand")
    assert typed.ephemeral and "**Your hand**" in typed.text() and typed.message.attachments
    await driver.wait_for(lambda: hands_of(driver) == [typed.message])
    hand = await open_hand(driver, "alice", board)
    await driver.wait_for(lambda: hands_of(driver) == [hand])

    # One tap a card: the same message offers the legal cards as buttons whenever it is
    # Alice's turn, without her asking again.
    plays = 0
    while True:
        await driver.wait_for(lambda: bool(playable(hand)) or "🏆" in board.content, timeout=15)
        if "🏆" in board.content:
            break
        await driver.wait_for(lambda: f"<@{alice.id}> to play" in board.content, timeout=15)
        assert "**Your turn**" in hand.content or "**Your lead**" in hand.content
        scores = await driver.click("dave", board, label="Scores")
        assert scores.ephemeral and "Total" in scores.text()
        assert len(hand.buttons()) == 13 - plays + 1  # every card, and Refresh
        drawn_for = board.buttons()[-1]["custom_id"]  # "Leave game" carries the version
        played = await driver.click("alice", hand, label=playable(hand)[0])
        assert played.type == 7 and played.message is hand and "You played" in played.text()
        # The board's edit may follow the answer (edits of one board are paced and coalesced).
        await driver.wait_for(
            lambda was=drawn_for: board.buttons()[-1]["custom_id"] != was, timeout=15
        )
        plays += 1
        assert plays <= 13
    assert hands_of(driver) == [hand]  # no stale hands piled up
    assert plays == 13  # the game ends with the hand
    assert board.button_labels() == ["Play again"]
    result = await driver.wait_for_message("games", lambda m: m.content.startswith("🏁"))
    assert "Final scores" in result.text()
    state = rows.last().state
    assert rows.last().status == "finished" and state is not None
    outcome = "win" if state["totals"][0] == min(state["totals"]) else "loss"
    assert rows.results() == [("Alice", outcome, 1)]

    scoreboard = await driver.slash("bob", "scoreboard", game="Hearts")
    line = next(ln for ln in scoreboard.text().splitlines() if "Alice" in ln)
    assert line.split()[:4] == ["1", "Alice", "1", "1" if outcome == "win" else "0"]

    # The finished game: its running totals as a chart, and its hand replayed face up.
    [chart] = result.attachments
    assert chart.filename == "hearts-totals.png" and "Alice" in (chart.description or "")
    replay = await driver.slash("bob", "hearts replay", hand=1)
    assert not replay.ephemeral and replay.message.attachments[0].filename.endswith(".gif")
    with Image.open(io.BytesIO(await driver.attachment_bytes(replay.message))) as reel:
        assert reel.n_frames == 1 + 13 + 1  # the hands after the pass, each trick, the scores
    refused = await driver.slash("bob", "hearts replay", hand=2)
    assert refused.ephemeral and "rounds 1 to 1" in refused.text()

    # Every look of every public message: no card before it was played.
    history = state["history"]
    checked = 0
    for message in driver.channel_messages():
        for text, descriptions in versions(message):
            named = cards_named(text)
            boards = [d for d in descriptions if HAND.match(d)]
            if not boards:
                assert not named, f"cards {named} named in {text!r}"
                continue
            for description in boards:
                played = played_then(history, description)
                named_here = named | cards_named(description)
                assert named_here <= played, f"unplayed {named_here - played}: {description!r}"
                checked += 1
    assert checked > 20  # seen through the hand (edits are coalesced: not after every card)
