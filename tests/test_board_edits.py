"""Board edits coalesced per message and paced per channel (bot.client.coalesce)."""

from __future__ import annotations

import asyncio

from bot.client.coalesce import BoardEdits, ChannelPace


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
