"""Event-loop stalls: when the loop stopped, for how long, and what it was running.

The loop-lag figure says *that* the loop stalled; this says *where*. A task in the loop
beats every quarter of the threshold; a thread outside it looks as often. When the beat
is late by more than the threshold, the thread takes the main thread's stack (what holds
the loop at that moment), and when the beat comes back it logs the stall once
(``event: "loop_stall"``): its milliseconds, how many of them the main thread spent on a
CPU (a stall much longer than its CPU time was the machine's: the process descheduled or
faulting pages in, not working), and the innermost frames of the stack.

Nothing runs per task step (a trio instrument with two clock reads a step cost 13% of
the server's CPU in the fan-out benchmark); the price is one short wake-up of a thread
and one of a task per quarter threshold. That is not free: each wake-up of the thread
takes the GIL from the loop, and at 500 tables it cost 10% more CPU a decision and
pushed the server p99 from <= 30 to <= 100 ms. So it is for finding a stall, not for
measuring: ``quaymoor serve --log-stalls MS`` turns it on, and ``quaymoor bench load
--log-stalls`` runs the benchmark's server with it at 20.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
import traceback
from types import FrameType

import trio

log = logging.getLogger("quaymoor.stalls")

FRAMES = 6  #: innermost frames of the stack a stall's log line carries


class StallWatch:
    """Logs every stall of the event loop longer than ``threshold`` seconds."""

    def __init__(self, threshold: float) -> None:
        self.threshold = threshold
        self._beat = time.perf_counter()
        self._main = threading.get_ident()  # the thread that runs the loop: this one
        self._stop = threading.Event()

    async def run(self) -> None:
        """Beat until cancelled, with the watching thread alongside."""
        self._main = threading.get_ident()
        thread = threading.Thread(target=self._watch, name="stall-watch", daemon=True)
        thread.start()
        try:
            while True:
                self._beat = time.perf_counter()
                await trio.sleep(self.threshold / 4)
        finally:
            self._stop.set()

    def _watch(self) -> None:
        period = self.threshold / 4
        clock = time.pthread_getcpuclockid(self._main)
        seen, seen_cpu = self._beat, time.clock_gettime(clock)
        where: list[str] | None = None
        while not self._stop.wait(period):
            beat = self._beat
            if beat != seen:
                if where is not None:
                    late = beat - seen - period
                    log.warning("event loop stalled", extra={
                        "event": "loop_stall", "ms": round(late * 1000, 1),
                        "cpu_ms": round((time.clock_gettime(clock) - seen_cpu) * 1000, 1),
                        "where": where})
                    where = None
                seen, seen_cpu = beat, time.clock_gettime(clock)
            elif where is None and time.perf_counter() - beat > period + self.threshold:
                where = _stack(sys._current_frames().get(self._main))


def _stack(frame: FrameType | None) -> list[str]:
    """The innermost ``FRAMES`` frames of a stack, innermost first, as "function
    (file:line)" with the file's path from the package or library on."""
    if frame is None:
        return []
    summary = traceback.extract_stack(frame)[-FRAMES:]
    return [f"{f.name} ({_short_path(f.filename)}:{f.lineno})" for f in reversed(summary)]


def _short_path(path: str) -> str:
    for marker in ("/site-packages/", "/lib/python3"):
        if marker in path:
            return path.split(marker, 1)[1]
    parts = path.split("/")
    return "/".join(parts[-2:])
