"""A flood of actions in one channel under Discord's rate limits (issue 13).

Four members play a hand of Hearts as fast as the bot answers: every card is played from a
private hand, so every card changes the public board, far faster than Discord lets a bot edit
it: through the interaction of the click that started the game while its token lives (its
webhook's bucket, 5 edits per 2 s), else through the channel's (5 per 5 s). With the fake's
rate limits on:

- every click gets its answer within 3 s (the interaction response, which has no bucket);
- the bot is never told 429, so no member waits on one;
- no board edit carries a state that was already superseded when it was sent: the members play
  one at a time, so the test knows when each newer state existed (the answer to the click that
  made it had arrived);
- the edits are coalesced (fewer than the states, each newer than the one before) and paced:
  never more than 5 in 2 s;
- at the end the board shows the final state.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from e2e_helpers import TableRows

from fakediscord import Driver, FakeDiscord, Message

PLAYERS = ("alice", "bob", "carol", "dave")
VERSION = re.compile(r"^t:\d+:(\d+):ask=resign$")  # the Leave game button
MARGIN = 0.25  # seconds between the bot choosing a state and its edit reaching the fake
PACE, WINDOW = 5, 2.0  # at most 5 edits of the board in any 2 s (an interaction's webhook)


@pytest.fixture
def rows(tmp_path: Path) -> TableRows:
    return TableRows(tmp_path / "parlour.db")


def drawn_version(components: list[dict]) -> int:
    """The table version a board look was drawn for (its "Leave game" button carries it)."""
    from fakediscord.state import walk_components

    for c in walk_components(components):
        m = VERSION.match(c.get("custom_id") or "")
        if m:
            return int(m[1])
    raise AssertionError("no versioned Leave game button on the board")


async def test_a_flood_of_plays_in_one_channel_stays_inside_the_rate_limits(
    fake: FakeDiscord, driver: Driver, start_bot, rows: TableRows
) -> None:
    limits = fake.enable_rate_limits()
    edits: list[tuple[float, int]] = []  # (arrival, version) of each channel edit of the board
    board_id = 0
    original = fake._apply_edit

    def record(message: Message, payload: dict, attachments: list) -> None:
        original(message, payload, attachments)
        if message.id == board_id and "components" in payload:
            edits.append((time.monotonic(), drawn_version(message.components)))

    fake._apply_edit = record  # type: ignore[method-assign]
    await start_bot()

    r = await driver.slash("alice", "hearts start", level="beginner", delay=0)
    lobby = r.message
    assert lobby is not None
    for member in PLAYERS[1:]:
        await driver.click(member, lobby, label="Join")
    await driver.click("alice", lobby, label="Start")
    board_id = lobby.id
    latencies: list[float] = []
    made: list[tuple[float, int]] = []  # (answer arrived, version it made)

    async def act(member: str, hand: Message, custom_id: str) -> None:
        played = await driver.click(member, hand, custom_id=custom_id)
        assert played.latency is not None
        latencies.append(played.latency)
        made.append((time.monotonic(), rows.last().version))

    def buttons(hand: Message, kind: str) -> list[str]:
        """The enabled buttons of a hand doing ``kind`` (``pick=``, ``pass=``, ``play=``); for
        ``pick=``, only the cards not picked yet (a picked card is green, style 3)."""
        return [
            b["custom_id"]
            for b in hand.buttons()
            if b["custom_id"].split(":", 3)[3].startswith(kind)
            and not b.get("disabled")
            and not (kind == "pick=" and b.get("style") == 3)
        ]

    for member in PLAYERS:  # everyone passes three cards: a tap a card, then Pass
        mine = await driver.click(member, lobby, label="Your hand")
        latencies.append(mine.latency or 0)
        hand = mine.message
        for _ in range(3):
            picked = await driver.click(member, hand, custom_id=buttons(hand, "pick=")[0])
            latencies.append(picked.latency or 0)
        await act(member, hand, buttons(hand, "pass=")[0])

    plays = 0
    while plays < 52:
        for member in PLAYERS:  # whoever's hand has a card to play plays its first one
            mine = await driver.click(member, lobby, label="Your hand")
            latencies.append(mine.latency or 0)
            playable = buttons(mine.message, "play=")
            if playable:
                await act(member, mine.message, playable[0])
                plays += 1
                break

    final = rows.last().version
    await driver.wait_for(lambda: drawn_version(lobby.components) == final, timeout=20)

    assert max(latencies) < 3.0, f"slowest answer {max(latencies):.2f}s"
    assert limits.hits == [], f"the bot was told 429: {limits.hits[:3]}"
    versions = [v for _, v in edits]
    assert versions == sorted(set(versions)), "an edit went out after a newer one"
    assert len(edits) < len(made), f"{len(edits)} edits for {len(made)} states"
    times = [t for t, _ in edits]
    fastest = min((b - a for a, b in zip(times, times[PACE:], strict=False)), default=WINDOW)
    assert fastest > WINDOW - MARGIN, f"{PACE + 1} edits within {fastest:.2f} s"
    for arrived, version in edits:
        newer = [t for t, v in made if v > version and t < arrived - MARGIN]
        assert not newer, f"the edit to version {version} was superseded before it was sent"
