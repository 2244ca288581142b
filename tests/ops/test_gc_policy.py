"""The server's garbage-collection policy: no automatic collection in the server, full ones from a
task, on a timer or when the process grows."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest
import trio

from quaymoor.ops.gc_policy import (
    NO_AUTOMATIC_FULL,
    YOUNG_THRESHOLDS,
    configure_collector,
    rss_bytes,
    run_full_collections,
)


class Node:
    """Something that can sit in a reference cycle."""

    def __init__(self) -> None:
        self.other: Node | None = None


@pytest.fixture
def collector_off() -> Iterator[None]:
    """Automatic collections off for the test (so that only the task under test collects),
    and everything as it was afterwards."""
    thresholds = gc.get_threshold()
    enabled = gc.isenabled()
    gc.disable()
    yield
    gc.unfreeze()  # what the task froze is this process's to collect again
    gc.set_threshold(*thresholds)
    if enabled:
        gc.enable()


def cycle() -> weakref.ref[Node]:
    """A reference cycle nobody refers to: only a full collection frees it."""
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_configure_collector_freezes_and_turns_off_automatic_full_collections(
        collector_off: None) -> None:
    frozen_before = gc.get_freeze_count()
    try:
        configure_collector()
        assert gc.get_threshold() == (*YOUNG_THRESHOLDS, NO_AUTOMATIC_FULL)
        assert gc.get_freeze_count() >= frozen_before
        assert gc.get_freeze_count() > 0
        configure_collector(young=False)
        assert gc.get_threshold()[0] == 0  # the server's: nothing automatic
    finally:
        gc.unfreeze()


async def test_the_task_frees_cycles_on_its_timer(collector_off: None,
                                                  autojump_clock: trio.abc.Clock) -> None:
    ref = cycle()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(lambda: run_full_collections(interval=600, min_gap=60,
                                                        size=lambda: 100))
        await trio.sleep(590)
        assert ref() is not None, "collected before its time"
        await trio.sleep(20)
        assert ref() is None, "the cycle outlived the periodic full collection"
        nursery.cancel_scope.cancel()


async def test_the_task_collects_sooner_when_the_process_grows(
        collector_off: None, autojump_clock: trio.abc.Clock) -> None:
    size = [100]
    ref = cycle()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(lambda: run_full_collections(
            interval=600, growth=100, min_gap=60, check_every=5, size=lambda: size[0]))
        await trio.sleep(1)
        size[0] = 200  # grown by the allowance, at once ...
        await trio.sleep(49)
        assert ref() is not None, "collected within the minimum gap"
        await trio.sleep(20)  # ... but not within the first minute
        assert ref() is None, "growth did not bring the full collection forward"
        ref = cycle()
        await trio.sleep(120)  # the size is steady at its new level: no more early runs
        assert ref() is not None
        nursery.cancel_scope.cancel()


async def test_the_task_waits_longer_after_a_collection_that_freed_nothing(
        collector_off: None, autojump_clock: trio.abc.Clock) -> None:
    """Growth that is live state (10,000 players connecting) must not bring a full
    collection of a large heap every few minutes: after one that frees nothing, the next
    waits twice as long; after one that frees something, the defaults come back."""
    gc.collect()  # no garbage of earlier tests for the first collection to find
    async with trio.open_nursery() as nursery:
        nursery.start_soon(lambda: run_full_collections(interval=600, min_gap=60,
                                                        size=lambda: 100))
        await trio.sleep(610)  # the first periodic one ran, and found nothing
        ref = cycle()
        await trio.sleep(600)  # 1,210 s: a second one at 1,200 s would have freed it
        assert ref() is not None, "the next collection did not wait longer"
        garbage = [cycle() for _ in range(2000)]  # enough to count as found
        await trio.sleep(620)  # 1,830 s: the one at 1,810 s frees them (and ref)
        assert ref() is None and all(r() is None for r in garbage)
        ref = cycle()
        await trio.sleep(620)  # it found something: 600 s again, at 2,410 s
        assert ref() is None, "the interval did not come back after finding garbage"
        nursery.cancel_scope.cancel()


async def test_what_a_full_collection_leaves_is_not_scanned_again(
        collector_off: None, autojump_clock: trio.abc.Clock) -> None:
    """Survivors of a full collection are live state: frozen, so that the next
    collection's pause follows what came after, not the whole heap."""
    live = [Node() for _ in range(10_000)]
    frozen_before = gc.get_freeze_count()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(lambda: run_full_collections(interval=600, min_gap=60,
                                                        size=lambda: 100))
        await trio.sleep(610)
        assert gc.get_freeze_count() >= frozen_before + len(live)
        tracked = {id(o) for o in gc.get_objects()}  # what a collection scans
        assert not any(id(node) in tracked for node in live)
        later = Node()
        assert id(later) in {id(o) for o in gc.get_objects()}
        nursery.cancel_scope.cancel()


def test_rss_is_read_from_proc() -> None:
    size = rss_bytes()
    assert size is None or size > 1 << 20
