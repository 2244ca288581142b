"""A cluster's table directory (``actors.directory.TableDirectory``) on the shared
PostgreSQL store: what this process tells every other about its tables, and what it
answers for a table it does not hold.

Told. As it happens: a table opened (and by which client address), its lobby changed, it
started (with its seeds, which only operators may read), every new action, it closed.
Each call snapshots the table on the actor's own task (cheap: the public summary and the
new actions) and queues one write (``store.pg_lobby``); the store's writer applies them
in that order, in batches, off the event loop. The lobby row is the table's public
summary (``status.summary``'s lobby fields), so that any process answers
``GET /api/tables`` from the database alone. The creators' addresses let each process
count an address's open tables on the others (``open_elsewhere``), so that the cap on
open tables per address holds across the cluster.

Asked about a table it does not hold: HAProxy sends a request about a table to its
process while that one is up, and to any other once it is down. So the table's game has
ended with its process (a survivor archives its record: ``heartbeat``), or is about to be
archived: the client is told the game ended, with its seed and record
(``ended_elsewhere``), or to come back in a moment (``live_elsewhere``).
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from quaymoor.actors.directory import GameProgress, TableDirectory
from quaymoor.actors.status import LOBBY_FIELDS
from quaymoor.store.archive import ArchiveError
from quaymoor.store.live_games import action_rows
from quaymoor.store.pg_archive import PgArchive
from quaymoor.store.pg_lobby import (
    Acted,
    Changed,
    Closed,
    CreatedBy,
    Hinted,
    Opened,
    Seated,
    Started,
    is_live,
    lobby,
    open_tables_elsewhere,
)

if TYPE_CHECKING:
    from quaymoor.actors.table import Table
    from quaymoor.rules.record import GameRecord

#: A table id as the server makes them: anything else (a stranger's NUL, a lone
#: surrogate) is no table of anyone's, and is never sent to the database.
_TABLE_ID = re.compile(r"[0-9a-f]{10}")


def lobby_row(table: Table) -> dict[str, Any]:
    summary = table.summary()
    row = {k: summary[k] for k in LOBBY_FIELDS}
    row["created"] = table.created
    return row


class SharedTables(TableDirectory):
    """The tables of every process of the cluster, through ``store``."""

    def __init__(self, store: PgArchive) -> None:
        self.store = store
        self._progress = GameProgress()

    # ------------------------------------------------------------ told

    def opened(self, table: Table) -> None:
        self.store.put(Opened(table.id, self.store.instance, table.players, lobby_row(table)))

    def created_by(self, table: Table, address: str) -> None:
        self.store.put(CreatedBy(table.id, address))

    def changed(self, table: Table) -> None:
        self.store.put(Changed(table.id, lobby_row(table)))

    def progressed(self, table: Table) -> None:
        """The seeds once, the new actions, the hints given, who sits where, the lobby
        row."""
        news = self._progress.news(table)
        if news is None:
            return
        if (start := news.start) is not None:
            self.store.put(Started(table.id, start.seed, start.client_seeds, start.seat_seeds,
                                   start.seats, start.algorithm))
        if news.actions:
            self.store.put(Acted(table.id, news.done, action_rows(news.actions)))
        if news.hints is not None:
            self.store.put(Hinted(table.id, news.hints))
        if news.accounts is not None:
            self.store.put(Seated(table.id, news.accounts))
        self.changed(table)

    def closed(self, table: Table) -> None:
        self._progress.forget(table.id)
        self.store.put(Closed(table.id))

    # ------------------------------------------------------------ asked

    async def open_elsewhere(self, address: str) -> int:
        return await open_tables_elsewhere(self.store, address)

    async def archived_elsewhere(self, table_id: str) -> GameRecord | None:
        """From the archive; None too when the database cannot be read."""
        if not _TABLE_ID.fullmatch(table_id):
            return None
        try:
            return await self.store.record(table_id)
        except (ArchiveError, ValueError):
            return None

    async def live_elsewhere(self, table_id: str) -> bool:
        """From its live row; False too when the database cannot be read."""
        if not _TABLE_ID.fullmatch(table_id):
            return False
        try:
            return await is_live(self.store, table_id)
        except ArchiveError:
            return False

    async def lobby_json(self) -> bytes:
        """Every live process's tables, from PostgreSQL."""
        tables = [{k: t.get(k) for k in LOBBY_FIELDS} for t in await lobby(self.store)]
        return json.dumps({"tables": tables}).encode()
