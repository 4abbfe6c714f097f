"""The C heap's free pages go back to the system (``bot.ops.memory``)."""

from __future__ import annotations

import os
import platform

import pytest

from bot.ops import memory

PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_pages() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1])


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="malloc_trim is glibc's")
def test_memory_freed_in_the_middle_of_the_heap_leaves_the_rss() -> None:
    memory.trim()
    chunks = [bytes(64 * 1024) for _ in range(320)]  # 20 MiB in the heap, under mmap's size
    pin = chunks.pop()  # the last one stays: freeing the others leaves a hole, not a free top
    del chunks
    before = rss_pages()
    assert memory.trim()
    freed_mib = (before - rss_pages()) * PAGE / 2**20
    assert freed_mib > 10, f"only {freed_mib:.1f} MiB went back"
    assert len(pin) == 64 * 1024


def test_what_lives_at_start_up_is_frozen_out_of_the_collectors_walks() -> None:
    import gc

    try:
        memory.freeze_startup()
        assert gc.get_freeze_count() > 1000  # this process's modules, classes and functions
        cycle: list[object] = []
        cycle.append(cycle)  # garbage made after start-up is still found
        del cycle
        assert gc.collect() >= 1
    finally:
        gc.unfreeze()
