"""Hearts in a group DM (the bot not a member) with a busy bot that defers every click: the
public board follows the cards played from the private hands. A hand's click may edit only the
hand, and a "Your hand" click answered privately may not edit the board either; the board is
edited through the interaction that posted it, while its token lives. The board's state does
not depend on the back-end: SQLite only."""

from __future__ import annotations

from e2e_helpers import SUCCESS_STYLE, TableRows, open_hand, playable

from fakediscord import Driver, FakeDiscord, Message


def picks(hand: Message, chosen: bool) -> list[str]:
    """The custom_ids of the hand's card buttons, picked to pass (``chosen``) or not."""
    return [
        b["custom_id"]
        for b in hand.buttons()
        if b["custom_id"].split(":", 3)[3].startswith("pick=")
        and (b.get("style") == SUCCESS_STYLE) == chosen
    ]


async def pass_three(driver: Driver, member: str, hand: Message) -> None:
    """Three cards tapped and passed, each click answered after a deferral."""
    for count in range(1, 4):
        await driver.click(member, hand, custom_id=picks(hand, chosen=False)[0])
        await driver.wait_for(lambda n=count: len(picks(hand, chosen=True)) == n)
    await driver.click(member, hand, label="Pass 3/3")
    await driver.wait_for(lambda: "You passed" in hand.text())


async def test_cards_played_from_private_hands_update_the_group_dms_board(
    fake: FakeDiscord, start_bot, rows: TableRows
) -> None:
    await start_bot("deferring_bot")
    friends = Driver(fake, channel="friends")
    lobby = (await friends.slash("alice", "hearts start", level="beginner", delay=0)).message
    assert lobby is not None
    for member in ("bob", "carol"):
        await friends.click(member, lobby, label="Join")
        await friends.wait_for(lambda m=member: m.capitalize() in lobby.content)  # deferred
    board = (await friends.click("alice", lobby, label="Start")).message
    assert board is lobby
    await friends.wait_for(lambda: "Your hand" in board.button_labels())  # after the deferral
    assert "updates when someone acts" in board.content
    players = ("alice", "bob", "carol")
    hands = {m: await open_hand(friends, m, board) for m in players}
    for member in players:
        await pass_three(friends, member, hands[member])
    ids = {friends.user(m).mention: m for m in players}
    await friends.wait_for(lambda: any(f"{i} to play" in board.content for i in ids), timeout=20)
    for _ in range(2):  # two cards from the hands, each shown on the board
        member = next(m for i, m in ids.items() if f"{i} to play" in board.content)
        hand = hands[member]
        await friends.wait_for(lambda hand=hand: bool(playable(hand)), timeout=15)
        shown = board.buttons()[-1]["custom_id"]  # carries the table's version
        card = playable(hand)[0]
        await friends.click(member, hand, label=card)
        await friends.wait_for(
            lambda was=shown: board.buttons()[-1]["custom_id"] != was, timeout=15
        )
        await friends.wait_for(
            lambda: any(f"{i} to play" in board.content for i in ids), timeout=20
        )
    assert rows.last().status == "active"
