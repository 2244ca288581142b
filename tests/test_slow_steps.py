"""The slow-step instrument names the task that held the event loop, and for how long."""

from __future__ import annotations

import logging
import time

import pytest
import trio

from quaymoor.ops.slow_steps import SlowSteps


async def _hog() -> None:
    await trio.lowlevel.checkpoint()
    time.sleep(0.06)  # holds the loop: a blocking call inside one step, off the CPU
    await trio.lowlevel.checkpoint()


async def _busy() -> None:
    await trio.lowlevel.checkpoint()
    until = time.thread_time() + 0.06
    while time.thread_time() < until:  # holds the loop working, 60 ms of CPU
        pass


async def _polite() -> None:
    for _ in range(50):
        await trio.sleep(0.001)


async def _main() -> None:
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_hog)
        nursery.start_soon(_busy)
        nursery.start_soon(_polite)


def test_only_the_steps_that_hold_the_loop_are_logged_with_their_task_and_cpu(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="quaymoor.slow_steps"):
        trio.run(_main, instruments=[SlowSteps(0.03)])
    steps = {r.__dict__["task"]: r.__dict__ for r in caplog.records
             if r.__dict__.get("event") == "slow_step"}
    assert set(steps) == {"test_slow_steps._hog", "test_slow_steps._busy"}
    hog, busy = steps["test_slow_steps._hog"], steps["test_slow_steps._busy"]
    assert hog["ms"] >= 55 and busy["ms"] >= 55
    assert hog["cpu_ms"] < 20  # asleep, not working
    assert busy["cpu_ms"] >= 55  # working
