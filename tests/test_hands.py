"""The private hand as one message a member (``bot.client.hands``), with stand-ins for the
interactions: replaced hands are deleted, changed hands edited in place, and a hand empties
itself before its interaction expires."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import discord
import pytest

from bot.client import hands as hands_module
from bot.client.hands import Hands
from bot.tables.screens import HandUpdate, Screen

TABLE = 7


class Response:
    def __init__(self, interaction: Interaction) -> None:
        self.interaction = interaction
        self.done = False

    def is_done(self) -> bool:
        return self.done

    async def send_message(self, **kwargs):
        self.done = True
        message_id = self.interaction.log.new_message(kwargs)
        return SimpleNamespace(message_id=message_id)

    async def edit_message(self, **kwargs):
        self.done = True
        self.interaction.log.edits.append((self.interaction.message.id, kwargs))


class Followup:
    def __init__(self, log: Log) -> None:
        self.log = log

    async def edit_message(self, message_id: int, **kwargs):
        if message_id in self.log.deleted:
            raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"), "gone")
        self.log.edits.append((message_id, kwargs))

    async def delete_message(self, message_id: int):
        self.log.deleted.append(message_id)


class Log:
    def __init__(self) -> None:
        self.sent: list[int] = []
        self.edits: list[tuple[int, dict]] = []
        self.deleted: list[int] = []

    def new_message(self, kwargs) -> int:
        self.sent.append(100 + len(self.sent))
        return self.sent[-1]


class Interaction:
    def __init__(self, log: Log, user_id: int = 1, message_id: int | None = None) -> None:
        self.log = log
        self.user = SimpleNamespace(id=user_id)
        self.locale = "ja"  # the member's language: a refreshed hand is rendered in it
        self.message = None if message_id is None else SimpleNamespace(id=message_id)
        self.response = Response(self)
        self.followup = Followup(log)


class Service:
    def __init__(self) -> None:
        self.key = "a"
        self.final = False
        self.locales: list[str] = []

    async def private_hand(self, table_id, user_id, shown, locale="en"):
        self.locales.append(locale)
        if shown == self.key:
            return HandUpdate(shown, None, self.final)
        return HandUpdate(self.key, Screen(content=f"hand {self.key}"), self.final)


@pytest.fixture
def spawned():
    tasks: list[asyncio.Task] = []
    yield lambda coro: tasks.append(asyncio.ensure_future(coro))
    for task in tasks:
        task.cancel()


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_a_hand_is_replaced_updated_in_place_and_closed_before_it_expires(
    spawned, monkeypatch
) -> None:
    log, service = Log(), Service()
    hands = Hands(service, spawned)  # type: ignore[arg-type]
    await hands.show(Interaction(log), Screen(content="hand a"), TABLE, "a", in_place=False)
    await hands.show(Interaction(log), Screen(content="hand a"), TABLE, "a", in_place=False)
    assert log.sent == [100, 101] and log.deleted == [100]  # asked again: the old one goes

    hands.refresh(TABLE)
    await settle()
    assert log.edits == []  # nothing changed: no edit
    service.key = "b"  # e.g. it became the member's turn
    hands.refresh(TABLE)
    await settle()
    [(message, kwargs)] = log.edits
    assert message == 101 and kwargs["content"] == "hand b"

    # A tap on the hand edits it in place and keeps it the member's one hand.
    await hands.show(
        Interaction(log, message_id=101), Screen(content="b"), TABLE, "b", in_place=True
    )
    assert len(hands) == 1 and log.deleted == [100]

    monkeypatch.setattr(hands_module, "USABLE_FOR", 0.01)
    await hands.show(Interaction(log), Screen(content="hand b"), TABLE, "b", in_place=False)
    await asyncio.sleep(0.05)
    await settle()
    message, kwargs = log.edits[-1]
    assert message == 102 and kwargs["view"] is None
    assert "手札は閉じました" in kwargs["content"]  # in the member's language
    assert kwargs["attachments"] == [] and len(hands) == 0


class SlowService(Service):
    """A service whose hand screens wait for ``gate``: an update in flight."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()

    async def private_hand(self, table_id, user_id, shown, locale="en"):
        await self.gate.wait()
        return await super().private_hand(table_id, user_id, shown, locale)


async def test_an_update_of_a_hand_replaced_meanwhile_does_not_forget_the_new_one(
    spawned,
) -> None:
    log, service = Log(), SlowService()
    hands = Hands(service, spawned)  # type: ignore[arg-type]
    service.gate.set()
    await hands.show(Interaction(log), Screen(content="hand a"), TABLE, "a", in_place=False)
    service.gate.clear()
    service.key = "b"
    hands.refresh(TABLE)  # an update of hand 100 starts and waits for its screen
    await settle()
    # Meanwhile the member asks again: hand 101 replaces hand 100, which is deleted.
    await hands.show(Interaction(log), Screen(content="hand b"), TABLE, "b", in_place=False)
    service.gate.set()
    await settle()  # the update's edit of hand 100 finds it gone
    assert log.deleted == [100] and len(hands) == 1
    # Hand 101 is still the member's hand: asking once more deletes it.
    await hands.show(Interaction(log), Screen(content="hand b"), TABLE, "b", in_place=False)
    assert log.deleted == [100, 101]


async def test_a_hand_at_a_finished_game_shows_its_last_state_and_is_let_go(spawned) -> None:
    log, service = Log(), Service()
    hands = Hands(service, spawned)  # type: ignore[arg-type]
    await hands.show(Interaction(log), Screen(content="hand a"), TABLE, "a", in_place=False)
    await hands.show(
        Interaction(log, user_id=2), Screen(content="hand a"), TABLE, "a", in_place=False
    )
    service.key, service.final = "b", True  # the last trick: the game is over
    hands.refresh(TABLE)
    await settle()
    assert sorted(message for message, _ in log.edits) == [100, 101]  # both show the end
    assert len(hands) == 0 and not hands._members  # and nothing is kept for the table
    hands.refresh(TABLE)
    await settle()
    assert len(log.edits) == 2
