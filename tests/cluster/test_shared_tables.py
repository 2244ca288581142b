"""The cluster's table directory (``cluster.shared_tables.SharedTables``) on a real
PostgreSQL, without a whole cluster: what one process tells it is what another reads
(the lobby, an address's open tables elsewhere), a dead process's table is live until its
record is archived and then ended, and an id no server makes never reaches the
database (a NUL or a lone surrogate would be an error there, not an answer)."""

from __future__ import annotations

import json

import trio

from quaymoor.actors.supervisor import Supervisor
from quaymoor.cluster.shared_tables import SharedTables
from quaymoor.config import TableConfig
from quaymoor.rules.record import EndReason
from quaymoor.store.pg_archive import PgArchive
from quaymoor.tools.selfplay import random_game
from tests.actors.running import running


async def joined(database: str, instance: str, name: str) -> PgArchive:
    store = PgArchive(database, instance=instance)
    await store.read("INSERT INTO processes (instance, name, address, pid) VALUES"
                     " (%s, %s, 'test', 0) RETURNING instance", instance, name)
    return store


async def test_one_process_tells_what_another_reads(database: str) -> None:
    mine, other = await joined(database, "shared-00", "w70"), await joined(
        database, "shared-01", "w71")
    here, there = SharedTables(mine), SharedTables(other)
    sup = Supervisor(TableConfig(), archive=mine)
    sup.directory = here
    sup.table_prefix = "70"
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            await nursery.start(mine.run)
            await nursery.start(other.run)
            async with running(sup):
                table = await sup.create_table(3)
                here.created_by(table, "10.0.0.7")
                await sup.join(table.id, "Ada")
                await mine.flush()

                (row,) = json.loads(await there.lobby_json())["tables"]
                assert row["id"] == table.id and row["state"] == "waiting"
                assert [s["name"] for s in row["seats"]][:1] == ["Ada"]  # the join's change
                assert await there.lobby_json() == await here.lobby_json()
                assert await there.open_elsewhere("10.0.0.7") == 1
                assert await here.open_elsewhere("10.0.0.7") == 0  # its own: from memory
                assert await there.open_elsewhere("10.0.0.8") == 0

                # Its process died: the table is live until a survivor archives its game.
                assert await there.live_elsewhere(table.id)
                assert await there.ended_elsewhere(table.id) is None
                game, _ = random_game(3, b"\x09" * 32)
                record = game.record(game=table.id, end_reason="shutdown", ended_at=1e9)
                other.submit(table.id, record)
                await other.flush()
                assert not await there.live_elsewhere(table.id)
                ended = await there.ended_elsewhere(table.id)
                assert ended is not None and ended.reason is EndReason.SHUTDOWN
                assert ended.seed == record.seed and ended.table == table.id
                assert json.loads(await there.lobby_json())["tables"] == []

                for stranger in ("70\x00", "7" * 11, "ZZZZZZZZZZ", "\ud800" * 10):
                    assert await there.ended_elsewhere(stranger) is None
                    assert not await there.live_elsewhere(stranger)
            await mine.close()
            await other.close()
            nursery.cancel_scope.cancel()
