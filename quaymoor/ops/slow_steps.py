"""Slow task steps: which task held the event loop, and for how long.

A trio task runs in steps, from one checkpoint to the next; while a step runs, nothing
else does. The loop-lag figure says *that* the loop stalled; this instrument says *who*:
every step longer than a threshold is logged (``event: "slow_step"``, the task's name,
its milliseconds, and how many of them the process's thread spent on a CPU: a step much
longer than its CPU time was waiting for the machine, descheduled or faulting pages in,
not working). A collection of the garbage collector
runs inside whatever step allocated last, so a long one shows here under that task's
name and in the GC pause histogram at the same time.

``quaymoor serve --log-slow-steps MS`` turns it on; the benchmarks' server has it at 20.
It costs two clock reads per step, about 1.3 microseconds.
"""

from __future__ import annotations

import logging
import time

import trio

log = logging.getLogger("quaymoor.slow_steps")


class SlowSteps(trio.abc.Instrument):
    """Logs every task step that takes longer than ``threshold`` seconds."""

    def __init__(self, threshold: float) -> None:
        self.threshold = threshold
        self._started = 0.0
        self._cpu_started = 0.0

    def before_task_step(self, task: trio.lowlevel.Task) -> None:
        self._started = time.perf_counter()
        self._cpu_started = time.thread_time()

    def after_task_step(self, task: trio.lowlevel.Task) -> None:
        took = time.perf_counter() - self._started
        if took > self.threshold:
            cpu = time.thread_time() - self._cpu_started
            log.warning("slow step", extra={"event": "slow_step", "task": _short(task.name),
                                            "ms": round(took * 1000, 1),
                                            "cpu_ms": round(cpu * 1000, 1)})


def _short(name: str) -> str:
    """A task's name without the module path trio puts before the function's
    (``quaymoor.actors.table.Table.run`` is ``Table.run``)."""
    return name if "<" in name else ".".join(name.split(".")[-2:])
