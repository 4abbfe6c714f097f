"""Requests per action: a Quarters game against the computer, counted route by route (issue 44).

Discord's global limit (50 requests a second) counts every channel request, and a channel's
edits have a bucket of their own (5 per 5 s), so each channel request a click costs decides how
many tables a bot serves before members see 429s. Here the bot reads each edit's answer late
(the fake makes the edit at once and answers it seconds later, as a busy bot's loop would read
it), so every click lands while the computer's edit is still in flight: the case where the
board's edits once sent the click's board again.

A click on the board is answered in place (the interaction's own callback, which the global
limit leaves out); the computer's move that follows is one edit through that click's
interaction (its webhook, also outside the global limit); nothing goes through the channel, and
Discord never answers 429.
"""

from __future__ import annotations

import re

from fakediscord import Driver, FakeDiscord, Message

COIN = re.compile(r"^\d+·\d+$")
SUCCESS = 3  # a selected coin's button style
EDIT = "PATCH /channels/{channel}/messages/{mid}"
RIDE = "PATCH /webhooks/{app}/{token}/messages/{mid}"
HELD = 2.5  # seconds the fake holds each channel edit's answer (under the bot's 5 s timeout)
MOVES = 4


def to_move(driver: Driver, board: Message) -> bool:
    return f"{driver.user('alice').mention} to move" in board.content


def coin_to_click(board: Message) -> str | None:
    """The label of a coin to select, or None when one is selected (Remove Coins is next)."""
    buttons = board.buttons()
    if any(b.get("style") == SUCCESS and COIN.match(b.get("label") or "") for b in buttons):
        return None
    coin = next(b for b in buttons if COIN.match(b.get("label") or "") and not b.get("disabled"))
    return str(coin["label"])


async def test_the_computers_reply_rides_on_the_click_when_the_bot_reads_edits_late(
    fake: FakeDiscord, driver: Driver, start_bot
) -> None:
    limits = fake.enable_rate_limits()
    await start_bot()
    r = await driver.slash("alice", "quarters start")
    board = r.message
    assert board is not None and to_move(driver, board)
    for route in (EDIT, RIDE):
        fake.faults.rest(route, after_processing=True, delay=HELD, times=None)
    first = len(fake.requests)
    clicks = computer_moves = 0
    for _ in range(MOVES):
        if not to_move(driver, board):
            break
        label = coin_to_click(board)
        if label is not None:  # select a coin: the board changes in place
            r = await driver.click("alice", board, label=label)
            assert r.type == 7 and r.message is board, r.text()
            clicks += 1
        made = edits_made(fake)
        r = await driver.click("alice", board, label="Remove Coins")
        assert r.type == 7 and r.message is board, r.text()
        clicks += 1
        if "🏆" in board.content:
            break
        # the computer's move reaches the board at once; the bot reads the edit's answer later
        await driver.wait_for(lambda m=made: edits_made(fake) > m and to_move(driver, board), 15)
        computer_moves += 1
    assert computer_moves >= 2
    made = edits_made(fake)
    await driver.wait_for(  # every edit the fake made has been answered
        lambda: requests(fake, first, "PATCH", "/webhooks/") >= made, HELD * 4
    )
    fake.faults.clear()

    assert requests(fake, first, "PATCH", "/webhooks/") == computer_moves
    assert requests(fake, first, "PATCH", "/channels/") == 0  # the channel's bucket untouched
    assert requests(fake, first, "POST", "/channels/") == 0  # no posts: the game goes on
    callbacks = [p for m, p, s in fake.requests[first:] if p.endswith("/callback")]
    assert len(callbacks) == clicks  # each click answered once, in place
    assert all(s != 429 for _, _, s in fake.requests[first:])
    assert not limits.hits


def edits_made(fake: FakeDiscord) -> int:
    """Board edits the fake has made (their answers may still be held)."""
    return sum(1 for f in fake.faults.log if f.what.startswith(("PATCH /channels/", "PATCH /web")))


def requests(fake: FakeDiscord, first: int, method: str, prefix: str) -> int:
    """Requests of ``method`` on routes starting with ``prefix`` since request ``first``."""
    return sum(1 for m, p, _ in fake.requests[first:] if m == method and p.startswith(prefix))
