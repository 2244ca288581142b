"""What this process tells the shared store (``PgArchive``) about its tables, as it happens:
opened (and by which client address), its lobby changed, started (with its seeds, which
only operators may read), every new action, closed. Each call snapshots the table on the
actor's own task (cheap: the public summary and the new actions) and queues one write;
the writer applies them in that order, in batches, off the event loop.

The lobby row is the table's public summary (``status.summary``'s lobby fields), so that
any process answers ``GET /api/tables`` from the database alone. The creators' addresses
let each process count an address's open tables on the others (``open_elsewhere``), so
that the cap on open tables per address holds across the cluster.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from quaymoor.actors.status import LOBBY_FIELDS
from quaymoor.rules.fairness import seed_to_hex
from quaymoor.store.pg_archive import PgArchive
from quaymoor.store.pg_lobby import (
    Acted,
    Changed,
    Closed,
    CreatedBy,
    Opened,
    Started,
    action_rows,
    open_tables_elsewhere,
)

if TYPE_CHECKING:
    from quaymoor.actors.table import Table

def lobby_row(table: Table) -> dict[str, Any]:
    summary = table.summary()
    row = {k: summary[k] for k in LOBBY_FIELDS}
    row["created"] = table.created
    return row


class SharedTables:
    """The tables of this process, as the store shows them to every process."""

    def __init__(self, store: PgArchive) -> None:
        self.store = store
        self._logged: dict[str, int] = {}  #: table id -> actions written (or queued)

    def opened(self, table: Table) -> None:
        self.store.put(Opened(table.id, self.store.instance, table.players, lobby_row(table)))

    def created_by(self, table: Table, address: str) -> None:
        """``address`` opened ``table`` (after ``opened``: the cap on open tables per
        address counts it on every other process from then on)."""
        self.store.put(CreatedBy(table.id, address))

    async def open_elsewhere(self, address: str) -> int:
        """Open tables (waiting or playing) that ``address`` holds on the other processes.
        Raises ``ArchiveError`` when the database cannot be read."""
        return await open_tables_elsewhere(self.store, address)

    def changed(self, table: Table) -> None:
        """Seats or state changed (a join, the game's end)."""
        self.store.put(Changed(table.id, lobby_row(table)))

    def progressed(self, table: Table) -> None:
        """The game started or moved on: the seeds once, the new actions, the lobby row."""
        game = table.game
        if game is None:
            return
        done = self._logged.get(table.id)
        if done is None:
            self.store.put(Started(
                table.id, seed_to_hex(game.seed), list(game.client_seeds),
                table.seats.seat_seeds(),
                [{"name": s.name or f"Seat {s.index + 1}", "bot": s.bot} for s in table.seats],
            ))
            done = 0
        new = game.history[done:]
        if new:
            self.store.put(Acted(table.id, done, action_rows(new)))
        self._logged[table.id] = len(game.history)
        self.changed(table)

    def closed(self, table: Table) -> None:
        """The table left this process (its record, if any, was archived before)."""
        self._logged.pop(table.id, None)
        self.store.put(Closed(table.id))
