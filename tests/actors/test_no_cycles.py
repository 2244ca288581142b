"""An ended table is freed by reference counting, not left to the cyclic collector.

The server runs few full collections (ops/gc_policy.py), so a table whose objects form a
cycle after its end would hold its history, views and seats until the next one. Each
test ends games and then asks the collector what it would free: nothing of ours."""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

import trio

from quaymoor.actors.supervisor import Supervisor
from quaymoor.config import TableConfig
from tests.actors.running import running
from tests.actors.test_end_to_end import connect, play_now, serving

OURS = "quaymoor"
QUICK = TableConfig(bot_delay=0.0, decision_seconds=0.05, linger_seconds=0.2)
SOCKETS = TableConfig(bot_delay=0.0, decision_seconds=30.0, linger_seconds=0.2)


@contextmanager
def cyclic_garbage() -> Iterator[Counter[str]]:
    """Collect before the block; after it, the types (of ours) of what a collection
    would free, counted."""
    gc.collect()
    found: Counter[str] = Counter()
    yield found
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        found.update(type(o).__qualname__ for o in gc.garbage
                     if type(o).__module__.startswith(OURS))
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


async def test_tables_that_end_leave_no_cycles() -> None:
    with trio.fail_after(60), cyclic_garbage() as found:
        async with running(Supervisor(QUICK)) as sup:
            for i in range(6):  # one human who never acts: timed out, then a bot takes over
                table, joined = await sup.play_now(3 + i % 3, f"p{i}", "easy")
                await sup.start(table.id, joined.token)
            while sup.tables:
                await trio.sleep(0.1)
            assert sup.games_finished == 6
    assert not found, found


async def test_a_game_played_over_sockets_leaves_no_cycles() -> None:
    with trio.fail_after(60), cyclic_garbage() as found:
        async with serving(SOCKETS) as (port, supervisor):
            info = await play_now(port, players=3)
            async with connect(port) as client:
                await client.hello(info["table"], info["token"])
                await client.until("welcome")
                assert await client.play() is not None
            while supervisor.tables:
                await trio.sleep(0.1)
    assert not found, found
