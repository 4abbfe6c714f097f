"""The table service's locks: one holder a table at a time, and none kept once free."""

from __future__ import annotations

import asyncio

from bot.tables.locks import TableLocks


async def test_holders_of_one_table_take_turns_and_other_tables_do_not_wait():
    locks = TableLocks()
    order: list[str] = []
    release = asyncio.Event()

    async def hold(table_id: int, name: str, wait: bool) -> None:
        async with locks.hold(table_id):
            order.append(f"{name} in")
            if wait:
                await release.wait()
            order.append(f"{name} out")

    first = asyncio.create_task(hold(1, "a", True))
    await asyncio.sleep(0)
    second = asyncio.create_task(hold(1, "b", False))
    other = asyncio.create_task(hold(2, "c", False))
    await other
    assert order == ["a in", "c in", "c out"]  # table 2 did not wait for table 1
    release.set()
    await asyncio.gather(first, second)
    assert order[3:] == ["a out", "b in", "b out"]


async def test_a_tables_lock_is_forgotten_when_its_last_holder_leaves():
    locks = TableLocks()
    for table_id in range(1000):
        async with locks.hold(table_id):
            assert len(locks) == 1
    assert len(locks) == 0


async def test_a_holder_that_raises_or_is_cancelled_leaves_no_lock_behind():
    locks = TableLocks()
    try:
        async with locks.hold(7):
            raise ValueError("a defect")
    except ValueError:
        pass
    blocker = asyncio.Event()

    async def wait_forever() -> None:
        async with locks.hold(8):
            await blocker.wait()

    task = asyncio.create_task(wait_forever())
    await asyncio.sleep(0)
    waiter = asyncio.create_task(wait_forever())
    await asyncio.sleep(0)
    assert len(locks) == 1
    waiter.cancel()
    task.cancel()
    await asyncio.gather(task, waiter, return_exceptions=True)
    assert len(locks) == 0
