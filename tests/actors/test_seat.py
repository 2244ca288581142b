"""A seat's worker: one timer task for the seat's decisions, bot moves, a lazy start."""

from __future__ import annotations

import trio
import trio.testing

from quaymoor.actors.inbox import InboxMessage, TimedOut
from quaymoor.actors.seat import SeatWorker


async def test_each_decision_times_out_once_with_its_number(
        autojump_clock: trio.testing.MockClock) -> None:
    send, recv = trio.open_memory_channel[InboxMessage](4)
    worker = SeatWorker(0, send)
    async with trio.open_nursery() as nursery:
        worker.attach(nursery)
        worker.start_timer(7, 90.0)  # starts the worker (and its timer) in the nursery
        started = trio.current_time()
        assert await recv.receive() == TimedOut(0, 7)
        assert trio.current_time() - started >= 90.0
        assert worker.deadline is None  # reported once: nothing is running now
        worker.start_timer(8, 30.0)
        worker.start_timer(9, 5.0)  # a new decision before the first ran out
        assert await recv.receive() == TimedOut(0, 9)
        await trio.sleep(100)
        assert recv.statistics().current_buffer_used == 0  # decision 8 never reported
        nursery.cancel_scope.cancel()


async def test_a_timer_that_fired_sleeps_until_the_next_decision() -> None:
    """After a timeout the timer task waits for a new decision; it must not wake again
    and again on the deadline that has passed (it did once: a busy loop)."""
    send, recv = trio.open_memory_channel[InboxMessage](4)
    worker = SeatWorker(0, send)
    async with trio.open_nursery() as nursery:
        await nursery.start(worker.run)
        worker.start_timer(1, 0.01)
        assert await recv.receive() == TimedOut(0, 1)
        busy = 0
        for _ in range(20):
            await trio.sleep(0.005)
            busy += trio.lowlevel.current_statistics().tasks_runnable
        assert busy == 0
        nursery.cancel_scope.cancel()


async def test_a_stopped_timer_reports_nothing(autojump_clock: trio.testing.MockClock) -> None:
    send, recv = trio.open_memory_channel[InboxMessage](4)
    worker = SeatWorker(0, send)
    async with trio.open_nursery() as nursery:
        worker.attach(nursery)
        worker.start_timer(3, 10.0)
        await trio.sleep(1)
        worker.stop()
        await trio.sleep(60)
        assert recv.statistics().current_buffer_used == 0
        nursery.cancel_scope.cancel()
