"""When the server's garbage collector runs, so that it never stops the event loop for long.

CPython frees almost everything by reference counting; the cyclic collector is only for
reference cycles, and a full collection scans every tracked object. With 2,000
connections and 500 games (about a million tracked objects) one full collection stops the
event loop for half a second, and with the default thresholds it runs every couple of
seconds under load. Measured under that load (``quaymoor bench load``): play makes almost
no cyclic garbage (the young collections during play freed nothing); the cycles come when
connections close and tables end.

So the server:

- collects once at start and freezes what exists then (the imported code and the rules
  data), so that no collection ever scans it again;
- keeps the automatic collection of generation 0 at CPython's default threshold (700),
  and turns off the automatic collection of generation 1. What survives a young
  collection under load is mostly the coroutine frames and trap objects of connections'
  pending awaits (sampled from the running server: about 7,000 young objects, 60% of them
  trio's), which live about as long as a player thinks and are then freed by reference
  counting. Scanning them a second time in generation 1 found nothing to free and cost
  more than generation 0 itself (500 tables: 4.2 s of generation-1 pauses in a minute,
  mean 8.9 ms, against 3.0 s for generation 0). Cyclic garbage that is still young is
  freed by generation 0; the rest waits for the full collection below. Every version of
  a game's views now keeps only its changed parts as new objects
  (``protocol.patch.diff``), so few of them reach the young collections at all;
- turns off the automatic full collection, and runs it from a task instead
  (``run_full_collections``): every ``interval`` seconds (ten minutes by default), or
  sooner when the process has grown by 256 MiB since the last one, but never twice within
  a minute. A pause of a few hundred milliseconds every ten minutes touches well under one
  action in a thousand; memory held by cycles stays bounded by the growth trigger. (The
  trigger is a size, not a ratio: a server filling up with connections grows from 40 to
  200 MiB, and a ratio would stop it for half a second at each step of that.)

``quaymoor_gc_pause_seconds`` (by generation) shows every pause, these included.
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Callable

import trio

log = logging.getLogger("quaymoor.gc")

#: The young generations' thresholds (CPython's defaults are 700 and 10): generation 1
#: is never collected automatically.
YOUNG_THRESHOLDS = (700, 1 << 30)
#: A full-collection threshold that is never reached: full collections come from the task.
NO_AUTOMATIC_FULL = 1 << 30
FULL_INTERVAL = 600.0  #: seconds between full collections at most
GROWTH = 256 << 20  #: ... or sooner, when the resident size has grown by this many bytes
MIN_GAP = 60.0  #: ... but never more often than this
CHECK_EVERY = 5.0  #: how often the size is read


def configure_collector() -> None:
    """Collect and freeze what exists now; generation 0 automatic, the others not."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*YOUNG_THRESHOLDS, NO_AUTOMATIC_FULL)


def rss_bytes() -> int | None:
    """This process's resident size, or None where /proc is not there."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


async def run_full_collections(
    *,
    interval: float = FULL_INTERVAL,
    growth: int = GROWTH,
    min_gap: float = MIN_GAP,
    check_every: float = CHECK_EVERY,
    size: Callable[[], int | None] = rss_bytes,
) -> None:
    """Run a full collection every ``interval`` seconds, or once ``size()`` has grown by
    ``growth`` bytes since the last one (but at most once per ``min_gap``). Forever."""
    last = trio.current_time()
    base = size()
    while True:
        await trio.sleep(check_every)
        now = trio.current_time()
        if now - last < min_gap:
            continue
        current = size()
        grown = base is not None and current is not None and current >= base + growth
        if not grown and now - last < interval:
            continue
        started = time.perf_counter()
        freed = gc.collect()
        pause = time.perf_counter() - started
        last = trio.current_time()
        base = size()
        log.info("full garbage collection: %d objects freed in %.0f ms (%s)", freed,
                 pause * 1000, "the process grew" if grown else "periodic",
                 extra={"event": "full_gc"})
