"""Board edits coalesced per message and paced per channel (bot.client.coalesce)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import aiohttp
import discord
import pytest

from bot.client.coalesce import BoardEdits, ChannelPace, Rerouted


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def test_states_submitted_during_an_edit_collapse_to_the_newest() -> None:
    gate = asyncio.Event()
    sent: list[tuple[int, str]] = []

    async def send(message_id: int, state: str) -> None:
        await gate.wait()
        sent.append((message_id, state))

    edits: BoardEdits[str] = BoardEdits(send, ChannelPace(count=100, per=1.0))
    first = edits.submit(1, 10, 1, "v1")
    await asyncio.sleep(0)  # v1 is in flight
    later = [edits.submit(1, 10, v, f"v{v}") for v in range(2, 6)]
    other = edits.submit(1, 20, 7, "other board")
    gate.set()
    await asyncio.gather(first, *later, other)
    assert [s for m, s in sent if m == 10] == ["v1", "v5"]
    assert [s for m, s in sent if m == 20] == ["other board"]
    assert (edits.sent, edits.dropped) == (3, 3)


async def test_a_state_the_message_already_shows_is_not_sent() -> None:
    sent: list[str] = []

    async def send(message_id: int, state: str) -> None:
        sent.append(state)

    edits: BoardEdits[str] = BoardEdits(send)
    edits.shown(10, 4)  # an interaction's answer drew version 4
    await edits.submit(1, 10, 3, "v3")
    await edits.submit(1, 10, 4, "v4")
    await edits.submit(1, 10, 5, "v5")
    assert sent == ["v5"]


async def test_the_pace_keeps_a_channel_under_its_limit_and_takes_the_newest_when_free() -> None:
    clock = Clock()
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        clock.now += seconds

    pace = ChannelPace(count=2, per=5.0, clock=clock, sleep=sleep)
    sent: list[tuple[float, str]] = []

    async def send(message_id: int, state: str) -> None:
        sent.append((clock.now, state))

    edits: BoardEdits[str] = BoardEdits(send, pace)
    await edits.submit(1, 10, 1, "v1")
    await edits.submit(1, 10, 2, "v2")
    assert not edits.free(1, 10)
    assert pace.wait(1) == 5.0
    assert edits.free(2, 30)  # another channel has its own slots
    third = edits.submit(1, 10, 3, "v3")
    fourth = edits.submit(1, 10, 4, "v4")  # supersedes v3 before its slot comes
    await asyncio.wait_for(asyncio.gather(third, fourth), 2)
    assert [s for _, s in sent] == ["v1", "v2", "v4"]
    assert slept == [5.0] and sent[-1][0] == 105.0


async def test_a_failed_edit_is_logged_and_the_next_state_still_goes() -> None:
    sent: list[str] = []

    async def send(message_id: int, state: str) -> None:
        if state == "bad":
            raise RuntimeError("boom")
        sent.append(state)

    edits: BoardEdits[str] = BoardEdits(send)
    await edits.submit(1, 10, 1, "bad")
    await edits.submit(1, 10, 2, "good")
    assert sent == ["good"]


async def test_the_pace_keeps_all_channels_together_under_the_global_limit() -> None:
    clock = Clock()
    pace = ChannelPace(count=5, per=5.0, total=3, clock=clock)
    for channel in (1, 2, 3):
        assert pace.wait(channel) == 0
        await pace.slot(channel)
    assert pace.wait(4) == 1.0  # a fresh channel waits for the global window
    clock.now += 1.0
    assert pace.wait(4) == 0


class Sleeps:
    """Stands in for ``asyncio.sleep`` between tries: records the delays, waits for none."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


def server_error(status: int) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason="reason")
    return discord.DiscordServerError(response, {"code": 0, "message": "m"})  # type: ignore[arg-type]


async def test_an_edit_that_did_not_go_through_is_sent_again_with_the_newest_state() -> None:
    """A 503 (discord.py does not repeat it on a channel route): the next try sends what is
    newest by then, never the failed older state."""
    sleep = Sleeps()
    sent: list[str] = []
    edits: BoardEdits[str]

    async def send(message_id: int, state: str) -> None:
        if state == "v1":
            edits.submit(1, 10, 2, "v2")  # the game moved on while v1 was out
            raise server_error(503)
        sent.append(state)

    edits = BoardEdits(send, sleep=sleep)
    await edits.submit(1, 10, 1, "v1")
    assert sent == ["v2"] and sleep.delays == [0.5]


async def test_a_failed_edit_is_sent_again_when_nothing_newer_waits() -> None:
    sleep = Sleeps()
    failures = [aiohttp.ServerDisconnectedError(), server_error(502)]
    sent: list[str] = []

    async def send(message_id: int, state: str) -> None:
        if failures:
            raise failures.pop(0)
        sent.append(state)

    edits: BoardEdits[str] = BoardEdits(send, sleep=sleep)
    await edits.submit(1, 10, 1, "v1")
    assert sent == ["v1"] and sleep.delays == [0.5, 1.5] and edits.sent == 1


async def test_a_hung_edit_is_cut_off_and_sent_again() -> None:
    tries: list[str] = []

    async def send(message_id: int, state: str) -> None:
        tries.append(state)
        if len(tries) == 1:
            await asyncio.Event().wait()  # Discord never answers

    edits: BoardEdits[str] = BoardEdits(send, timeout=0.01, sleep=Sleeps())
    await edits.submit(1, 10, 1, "v1")
    assert tries == ["v1", "v1"] and edits.sent == 1


async def test_a_refused_edit_is_logged_not_sent_again(caplog: pytest.LogCaptureFixture) -> None:
    sleep = Sleeps()
    tries: list[str] = []

    async def send(message_id: int, state: str) -> None:
        tries.append(state)
        raise discord.Forbidden(SimpleNamespace(status=403, reason="r"), "no")  # type: ignore[arg-type]

    edits: BoardEdits[str] = BoardEdits(send, sleep=sleep)
    await edits.submit(1, 10, 1, "v1")
    assert tries == ["v1"] and sleep.delays == []
    assert [r.levelname for r in caplog.records] == ["WARNING"]


async def test_an_older_edit_in_flight_never_lands_over_a_newer_answer() -> None:
    """discord.py repeats an edit answered 5xx with the state it had; when a member's click
    shows a newer board meanwhile, the older edit is stopped and the answer's state sent after
    it, in case the older one landed last."""
    started = asyncio.Event()
    sent: list[str] = []

    async def send(message_id: int, state: str) -> None:
        if state == "v1":
            started.set()
            await asyncio.Event().wait()  # discord.py waiting to repeat a 502
        sent.append(state)

    edits: BoardEdits[str] = BoardEdits(send, sleep=Sleeps())
    first = edits.submit(1, 10, 1, "v1")
    await started.wait()
    edits.shown(10, 2, "v2 as the answer drew it")
    await first
    await edits.flush()
    assert sent == ["v2 as the answer drew it"]
    await edits.submit(1, 10, 2, "v2")  # the board already shows it
    assert sent == ["v2 as the answer drew it"]


async def test_an_edit_the_member_already_saw_is_not_followed_by_the_answer_again() -> None:
    """Under load the bot reads an edit's reply late: the member may already have clicked on
    the board that edit made. That edit landed before the click, so the answer's state is not
    sent again through the channel (one request per change, as before the overtaking case)."""
    landed = asyncio.Event()
    reply = asyncio.Event()
    sent: list[str] = []

    async def send(message_id: int, state: str) -> None:
        sent.append(state)  # Discord applied the edit ...
        landed.set()
        await reply.wait()  # ... and the bot reads its reply only now

    edits: BoardEdits[str] = BoardEdits(send, sleep=Sleeps())
    computer = edits.submit(1, 10, 2, "v2 the computer's move")
    await landed.wait()
    edits.shown(10, 3, "v3 as the answer drew it", seen=2)  # a click on the board v2 made
    reply.set()
    await computer
    await edits.flush()
    assert sent == ["v2 the computer's move"]


async def test_an_edit_still_unseen_when_overtaken_is_followed_by_the_answer() -> None:
    """The member clicked on an older board (version 1): the computer's edit (version 2) may
    land after the answer (version 3), so the answer's state follows it once."""
    landed = asyncio.Event()
    reply = asyncio.Event()
    sent: list[str] = []

    async def send(message_id: int, state: str) -> None:
        sent.append(state)
        landed.set()
        await reply.wait()

    edits: BoardEdits[str] = BoardEdits(send, sleep=Sleeps())
    computer = edits.submit(1, 10, 2, "v2")
    await landed.wait()
    reply.set()  # the answer's state waits until the try in flight has ended
    edits.shown(10, 3, "v3 as the answer drew it", seen=1)
    await computer
    await edits.flush()
    assert sent[-1] == "v3 as the answer drew it"


async def test_a_board_with_a_fresh_interaction_is_edited_through_it_outside_the_channel_pace() -> (
    None
):
    """The computer's reply to a click rides on that click's interaction: its token's own slots
    (5 per 2 s), not the channel's, which stay free for the edits nobody clicked for; a token
    Discord no longer takes sends the edit through the channel at once."""
    clock = Clock()
    channel_pace = ChannelPace(count=1, per=5.0, clock=clock)
    token_pace = ChannelPace(count=5, per=2.0, total=None, clock=clock)
    riders: dict[int, str] = {10: "click"}
    sent: list[tuple[str, str]] = []

    async def send(message_id: int, state: str) -> None:
        sent.append(("channel", state))

    async def ride(message_id: int, state: str, interaction: str) -> None:
        if state == "v3":  # the token ran out: forgotten, the edit goes again
            del riders[message_id]
            raise Rerouted(interaction)
        sent.append((interaction, state))

    def rider(message_id: int) -> tuple[int, str] | None:
        found = riders.get(message_id)
        return None if found is None else (hash(found), found)

    edits: BoardEdits[str] = BoardEdits(
        send, channel_pace, rider=rider, ride=ride, token_pace=token_pace
    )
    await edits.submit(1, 10, 1, "v1")
    await edits.submit(1, 10, 2, "v2")
    assert sent == [("click", "v1"), ("click", "v2")]  # two edits at once: no channel slot
    assert channel_pace.wait(1) == 0 and edits.free(1, 10)
    await edits.submit(1, 10, 3, "v3")
    assert sent[-1] == ("channel", "v3") and channel_pace.wait(1) == 5.0
    assert (edits.sent, edits.ridden) == (3, 2)
