"""An account deleted through another process of a cluster, on a real PostgreSQL: the
seats it holds at this process's tables show "Seat N (name removed)" after this
process's next heartbeat (``Membership.beat``), once, and the seats of accounts that
still exist keep their names."""

from __future__ import annotations

import trio

from quaymoor.actors.supervisor import Supervisor
from quaymoor.cluster.heartbeat import Membership
from quaymoor.config import TableConfig
from quaymoor.store.pg_archive import PgArchive
from tests.actors.running import running


async def test_a_seat_of_an_account_deleted_elsewhere_shows_no_name(database: str) -> None:
    store = PgArchive(database, "names-elsewhere")
    sup = Supervisor(TableConfig(), max_tables=4)
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            await nursery.start(store.run)
            await trio.to_thread.run_sync(lambda: store.accounts.create_account(
                "u-stays", "Stays", "stays", credential_id="c-stays", public_key="k",
                sign_count=0, now=1_800_000_000.0))
            async with running(sup):
                member = Membership(store, "w50", sup)
                await member.join("127.0.0.1:3")
                table = await sup.create_table(3)
                await sup.join(table.id, "Gone", "u-gone")  # no such account: deleted
                await sup.join(table.id, "Stays", "u-stays")
                assert [s.name for s in table.seats][:2] == ["Gone", "Stays"]
                await member.beat()
                assert [s.name for s in table.seats][:2] == ["Seat 1 (name removed)", "Stays"]
                assert table.seats[0].name_removed and not table.seats[1].name_removed
                assert await sup.account_gone("u-gone") == 0  # once: nothing left to do
            nursery.cancel_scope.cancel()
