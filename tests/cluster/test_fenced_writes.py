"""The store's fence on a real PostgreSQL (``store.pg_archive``): once another process
has stopped this process's row (it was taken for dead), a batch this process writes
lands nowhere, and its heartbeat stops it; its own clean stop (``leave``) fences nothing."""

from __future__ import annotations

import trio

from quaymoor.actors.supervisor import Supervisor
from quaymoor.cluster.heartbeat import Membership
from quaymoor.config import TableConfig
from quaymoor.store.pg_archive import PgArchive
from quaymoor.store.pg_lobby import Opened


def opened(table: str, instance: str) -> Opened:
    return Opened(table, instance, 2, {"id": table, "state": "waiting", "created": 1.0})


async def test_a_write_after_the_row_was_stopped_by_another_does_not_land(
        database: str) -> None:
    store = PgArchive(database, instance="fenced-00")
    member = Membership(store, "w30", Supervisor(TableConfig()))
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            await nursery.start(store.run)
            await member.join("127.0.0.1:1")
            store.put(opened("30000000aa", store.instance))
            await store.flush()
            assert await store.read("SELECT id FROM live_tables WHERE id = '30000000aa'")

            await store.read("UPDATE processes SET stopped_at = now(), stopped_by = 'reaper'"
                             " WHERE instance = %s RETURNING instance", store.instance)
            store.put(opened("30000000bb", store.instance))
            await store.flush()
            assert store.fenced and store.fenced_writes == 1
            assert not await store.read("SELECT id FROM live_tables WHERE id = '30000000bb'")
            store.put(opened("30000000cc", store.instance))  # dropped at once now
            assert store.fenced_writes == 2

            await member.beat()  # the heartbeat sees it, and stops serving
            assert member.fencing.taken.is_set()
            await member.leave()  # leaves the reaper's mark on the row
            by = await store.read("SELECT stopped_by FROM processes WHERE instance = %s",
                                  store.instance)
            assert by == [("reaper",)]
            nursery.cancel_scope.cancel()


async def test_a_clean_stop_fences_nothing(database: str) -> None:
    store = PgArchive(database, instance="fenced-01")
    member = Membership(store, "w31", Supervisor(TableConfig()))
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            await nursery.start(store.run)
            await member.join("127.0.0.1:1")
            await member.leave()
            store.put(opened("31000000aa", store.instance))
            await store.flush()
            assert not store.fenced
            assert await store.read("SELECT id FROM live_tables WHERE id = '31000000aa'")
            nursery.cancel_scope.cancel()
