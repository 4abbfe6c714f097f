"""The table service's shell: per-table locks held one at a time and dropped when unused, the
``*`` version refused on the public board, and a click accepted before it may be deferred."""

from __future__ import annotations

import asyncio

from support import member

from bot.tables.locks import TableLocks
from bot.tables.trust import Origin

ALICE = member(1, "Alice")


async def test_a_lock_serialises_its_table_and_is_dropped_once_nobody_holds_it():
    locks = TableLocks()
    order: list[str] = []

    async def hold(name: str, table_id: int) -> None:
        async with locks.hold(table_id):
            order.append(f"{name} in")
            await asyncio.sleep(0)
            order.append(f"{name} out")

    await asyncio.gather(hold("a", 1), hold("b", 1), hold("c", 2))
    assert order.index("a out") < order.index("b in")  # table 1: one after the other
    assert len(locks) == 0


async def test_a_lock_given_up_by_a_cancelled_waiter_is_still_dropped():
    locks = TableLocks()
    async with locks.hold(1):
        waiter = asyncio.create_task(_enter(locks, 1))
        await asyncio.sleep(0)
        waiter.cancel()
        await asyncio.gather(waiter, return_exceptions=True)
        assert len(locks) == 1  # still held here
    assert len(locks) == 0


async def _enter(locks: TableLocks, table_id: int) -> None:
    async with locks.hold(table_id):
        pass


async def test_the_service_keeps_no_lock_after_many_tables_were_played(service):
    for channel in range(5):
        who = member(1, "Alice", channel=3000 + channel)
        reply = await service.start(who, "quarters")
        reply = await service.act(who, reply.table_id, reply.version, "c=1.1")
        assert reply.error is None, reply.error
        await service.play_computer(reply.table_id)
        await service.show(who)
    assert len(service.locks) == 0


async def test_a_star_version_click_on_the_public_board_is_refused_and_changes_nothing(service):
    reply = await service.start(ALICE, "quarters")
    await service.board_posted(reply.table_id, 777)
    before = await service.db.get_table(reply.table_id)
    refused = await service.act(ALICE, reply.table_id, None, "c=1.1", Origin(777))
    assert refused.error and "out of date" in refused.error and refused.board is None
    after = await service.db.get_table(reply.table_id)
    assert (after.version, after.ui, after.state) == (before.version, before.ui, before.state)
    chosen = await service.act(ALICE, reply.table_id, before.version, "c=1.1", Origin(777))
    assert chosen.error is None and chosen.board is not None


async def test_a_click_is_accepted_after_its_checks_privately_when_it_answers_privately(service):
    reply = await service.start(ALICE, "quarters")
    await service.board_posted(reply.table_id, 777)
    told: list[bool] = []
    board, mine = Origin(777), Origin(None, private=True)
    stale = await service.act(ALICE, reply.table_id, reply.version + 1, "c=1.1", board, told.append)
    assert stale.error and told == []  # refused before it was accepted: answered privately
    secret = await service.act(ALICE, reply.table_id, None, "secret", board, told.append)
    assert secret.private is not None and told == [True]
    await service.act(ALICE, reply.table_id, None, "secret", mine, told.append)
    chosen = await service.act(ALICE, reply.table_id, reply.version, "c=1.1", board, told.append)
    assert chosen.error is None and told == [True, False, False]
