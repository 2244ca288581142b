"""``/status.json``'s ``processes`` (``cluster.member.cluster_status``) on a real
PostgreSQL: a live process shows the figures of its own heartbeat; one that is not alive
(killed: its heartbeat stale) shows the tables the database still holds for it, not its
last heartbeat's count, which may be older than its newest table (the stale row after a
kill: 0 tables shown for a process that held one). ``totals``, the page's headline in a
cluster, are the sums over the live processes only."""

from __future__ import annotations

from typing import Any

import trio
from psycopg.types.json import Jsonb

from quaymoor.actors.supervisor import Supervisor
from quaymoor.cluster.heartbeat import Membership
from quaymoor.cluster.member import cluster_status
from quaymoor.config import TableConfig
from quaymoor.store.pg_archive import PgArchive
from quaymoor.store.pg_lobby import Closed, Opened

DEAD = "dead-instance-01"


async def rows(member: Membership) -> dict[str, dict[str, Any]]:
    status = await cluster_status(member, None)
    return {p["name"]: p for p in status["processes"]}


async def test_a_killed_processs_row_counts_what_the_database_holds(database: str) -> None:
    store = PgArchive(database, instance="status-rows-00")
    member = Membership(store, "w00", Supervisor(TableConfig()))
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            await nursery.start(store.run)
            await member.join("127.0.0.1:1")
            # w01 beat with no table, then opened one and was killed within the beat.
            await store.read(
                "INSERT INTO processes (instance, name, address, pid, beat_at, stats) VALUES"
                " (%s, 'w01', '127.0.0.1:2', 1, now() - interval '60 seconds', %s)"
                " RETURNING instance", DEAD, Jsonb({"tables": 0, "playing": 0,
                                                    "connections": 0, "rss_bytes": 1}))
            for table, state in (("01000000aa", "playing"), ("01000000bb", "waiting")):
                store.put(Opened(table, DEAD, 2, {"id": table, "state": state,
                                                  "created": 1.0}))
            # w02 is alive, with figures of its own.
            w02 = {"tables": 3, "playing": 1, "waiting": 2, "connections": 5,
                   "games_finished": 7, "rss_bytes": 1}
            await store.read(
                "INSERT INTO processes (instance, name, address, pid, stats) VALUES"
                " ('live-instance-02', 'w02', '127.0.0.1:3', 1, %s) RETURNING instance",
                Jsonb(w02))
            await store.flush()
            await member.beat()

            found = await rows(member)
            dead, alive = found["w01"], found["w00"]
            # Older than the lease's window (45 s): not alive.
            assert not dead["alive"] and dead["beat_age_seconds"] >= member.window
            assert (dead["tables"], dead["playing"], dead["connections"]) == (2, 1, None)
            assert dead["waiting"] == 1
            totals = (await cluster_status(member, None))["totals"]
            assert totals == {"scope": "cluster", "processes": 2, "tables": 3, "playing": 1,
                              "waiting": 2, "connections": 5, "games_finished": 7}
            assert dead["rss_bytes"] == 1  # the rest: its last heartbeat's, as it said
            assert alive["alive"] and alive["this"]
            assert (alive["tables"], alive["connections"]) == (0, 0)  # its own figures

            # A survivor ended its tables: the row says it holds none.
            store.put(Closed("01000000aa"))
            store.put(Closed("01000000bb"))
            await store.flush()
            assert (await rows(member))["w01"]["tables"] == 0
            await store.close()
            nursery.cancel_scope.cancel()
