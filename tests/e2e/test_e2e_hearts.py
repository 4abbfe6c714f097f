"""Hearts end to end: the real bot process against the fake Discord, one member and three
computers, from the lobby to the scoreboard — and no card of a hand in the channel before it is
played, in any version of any public message.

To keep the test short the game is shortened, not the bot: once the computers have chosen their
passes, the stored totals are set to 0/99/99/99 (``TableRows.set_state``, as a crash and a
restored backup could leave them), so the first hand is the last whatever happens in it.
"""

from __future__ import annotations

import re

import pytest
from e2e_helpers import TableRows
from hearts_leaks import cards_named

from bot.fakediscord import Driver, Message

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

    mine = await driver.click("alice", board, label="Your hand")
    assert mine.ephemeral and "Choose three cards to pass" in mine.text()
    [image] = mine.message.attachments
    assert (await driver.attachment_bytes(mine.message)).startswith(PNG)
    assert image.description.startswith("Your hand:")
    [select] = mine.message.selects()
    assert (select["min_values"], select["max_values"]) == (3, 3)
    values = [o["value"] for o in select["options"]][:3]
    passed = await driver.select("alice", mine.message, values)
    assert passed.type == 7 and "You passed" in passed.text()

    typed = await driver.slash("erin", "hearts scores")  # anyone, at any time
    assert typed.ephemeral and "Total" in typed.text()
    typed = await driver.slash("alice", "hearts hand")
    assert typed.ephemeral and "**Your hand**" in typed.text() and typed.message.attachments

    to_play = f"<@{alice.id}> to play"
    plays = 0
    while True:
        await driver.wait_for(lambda: to_play in board.content or "🏆" in board.content, timeout=15)
        if "🏆" in board.content:
            break
        scores = await driver.click("dave", board, label="Scores")
        assert scores.ephemeral and "Total" in scores.text()
        mine = await driver.click("alice", board, label="Your hand")
        assert "**Your turn**" in mine.text() or "**Your lead**" in mine.text()
        [select] = mine.message.selects()
        card = select["options"][0]["value"]
        drawn_for = board.buttons()[-1]["custom_id"]  # "Leave game" carries the version
        played = await driver.select("alice", mine.message, [card])
        assert played.type == 7 and "You played" in played.text()
        # The board's edit may follow the answer (edits of one board are paced and coalesced).
        await driver.wait_for(
            lambda was=drawn_for: board.buttons()[-1]["custom_id"] != was, timeout=15
        )
        plays += 1
        assert plays <= 13

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
