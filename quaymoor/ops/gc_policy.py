"""When the server's garbage collector runs, so that it never stops the event loop for long.

CPython frees almost everything by reference counting; the cyclic collector is only for
reference cycles, and a full collection scans every tracked object. With 2,000
connections and 500 games (about a million tracked objects) one full collection stops the
event loop for half a second, and with the default thresholds it runs every couple of
seconds under load. Measured under that load (``quaymoor bench load``): play makes almost
no cyclic garbage (the young collections during play freed nothing), and an ended table,
its connections with it, is freed by reference counting (``Table.release`` breaks the
cycles through it; tests/actors/test_no_cycles.py holds that).

So the server:

- collects once at start and freezes what exists then (the imported code and the rules
  data), so that no collection ever scans it again;
- turns off the automatic young collections too. What survives a young collection under
  load is mostly the coroutine frames and trap objects of connections' pending awaits
  (sampled from the running server: about 7,000 young objects at any moment, 60% of them
  trio's), which live about as long as a player thinks and are then freed by reference
  counting: scanning them frees nothing. Measured with ``quaymoor bench load --tables 500
  --think 1.0`` (server CPU per decision, and the young pauses):

  | young collections | CPU per decision | young pauses |
  |---|---|---|
  | generations 0 and 1 automatic (700, 3) | 2.05 ms | 28% of the server's CPU |
  | generation 0 automatic, 1 never | 1.37 ms | 16%, up to 500 ms |
  | generation 0 every 100 ms from a task | 1.33 ms | 11%, 10 ms each |
  | none | 1.18 ms | none |

  (the first row is before the views shared their unchanged parts, which cut what
  each version leaves behind to its changed parts: ``protocol.patch.diff``). The resident
  size at the end of the load was the same with or without them (187 against 192 MiB):
  play makes little cyclic garbage, and what there is waits for the full collection;
- turns off the automatic full collection, and runs it from a task instead
  (``run_full_collections``): every ``interval`` seconds (an hour by default), or
  sooner when the process has grown by 1 GiB since the last one, but never twice within
  a minute. A collection that frees almost nothing found the growth to be live state:
  the next one then waits twice as long and for twice the growth, up to 8 times. Each
  full collection freezes what survived it (``gc.freeze``): that is live state, and the
  next one scans only what came after. The price: a cycle made later of frozen objects
  is never freed; the tables and connections, which are nearly all of the heap, make
  none (an ended table is freed by reference counting, ``Table.release``;
  tests/actors/test_no_cycles.py).

  Why so seldom. A full collection costs a pause that follows the live heap, and play
  makes almost no cyclic garbage to find: at 10,000 connections one took 2.9-3.8 s and
  freed 0 objects. With the earlier trigger (every ten minutes, or after 256 MiB of
  growth) the first one came during play, as the heap grew from the connections' state,
  and put about 1% of the actions of a ten-minute run at 10,000 connections over a
  second. Collecting often and in small pieces does not help: what a collection scans
  is what was made since the last freeze and is still alive, and under load that is
  mostly the coroutine frames of pending awaits, which every message renews (measured:
  collecting and freezing each 20,000 objects made, net, gave 84 pauses in 200 s, the
  longest 2.3 s; CPython's count of objects made is net of frozen ones freed, and so
  far under what is new). An hour between full collections holds a pause of a few
  seconds at 10,000 connections to one an hour; memory held by cycles stays bounded
  by the growth trigger. (The trigger is a size, not a ratio: a server filling up with
  connections grows from 50 to 470 MiB, and a ratio would stop it at each step.)

``quaymoor_gc_pause_seconds`` (by generation) shows every pause, these included.
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Callable

import trio

log = logging.getLogger("quaymoor.gc")

#: The young generations' thresholds where they stay automatic (CPython's defaults).
YOUNG_THRESHOLDS = (700, 10)
#: A threshold that is never reached: full collections come from the task.
NO_AUTOMATIC_FULL = 1 << 30
FULL_INTERVAL = 3600.0  #: seconds between full collections at most
GROWTH = 1 << 30  #: ... or sooner, when the resident size has grown by this many bytes
MIN_GAP = 60.0  #: ... but never more often than this
CHECK_EVERY = 5.0  #: how often the size is read
#: A full collection that frees fewer objects than this found the growth to be live
#: state: the next one waits twice as long and for twice the growth, up to ``BACK_OFF``
#: times the defaults; one that frees more goes back to them.
FOUND_NOTHING = 1000
BACK_OFF = 8


def configure_collector(*, young: bool = True) -> None:
    """Collect and freeze what exists now; no automatic full collection, and no
    automatic young one either unless ``young`` (the server passes False; the load
    benchmark's client processes keep them)."""
    gc.collect()
    gc.freeze()
    if young:
        gc.set_threshold(*YOUNG_THRESHOLDS, NO_AUTOMATIC_FULL)
    else:
        gc.set_threshold(0)  # a first threshold of 0: no automatic collection at all


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
    ``growth`` bytes since the last one (but at most once per ``min_gap``). Forever.
    After a collection that freed almost nothing (fewer than ``FOUND_NOTHING`` objects)
    both wait twice as long, up to ``BACK_OFF`` times; after one that freed more, they
    are as given again."""
    last = trio.current_time()
    base = size()
    factor = 1
    while True:
        await trio.sleep(check_every)
        now = trio.current_time()
        if now - last < min_gap:
            continue
        current = size()
        grown = (base is not None and current is not None
                 and current >= base + growth * factor)
        if not grown and now - last < interval * factor:
            continue
        started = time.perf_counter()
        freed = gc.collect()
        gc.freeze()  # what survived is live state: the next collection scans only the new
        pause = time.perf_counter() - started
        last = trio.current_time()
        base = size()
        factor = min(factor * 2, BACK_OFF) if freed < FOUND_NOTHING else 1
        log.info("full garbage collection: %d objects freed in %.0f ms (%s); the next "
                 "after %.0f s or %d MiB of growth", freed, pause * 1000,
                 "the process grew" if grown else "periodic", interval * factor,
                 (growth * factor) >> 20, extra={"event": "full_gc"})
