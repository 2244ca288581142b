"""One process's table directory when it keeps its running games in SQLite
(``store.sqlite_live``): what a SIGKILL must not take.

Told, as it happens: a game started (its seeds and seats, once), each new action and each
hint given,
queued on the live store's writer from the table's actor (cheap: the new actions' list
slice); a table closed whose game was played (its record was submitted just before), so
that its rows go once the archive has written the record. A table that never started
writes nothing.

Asked about a table this process does not hold: the table may be one a killed process
held, whose game a restart ended and archived (``LiveStore.end_unfinished``), or one that
ended before the restart. A player reconnecting with its old table id is told the game
ended, with its seed and record (``archived_elsewhere``), not that the table is unknown.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from quaymoor.actors.directory import GameProgress, LocalDirectory
from quaymoor.actors.supervisor import Supervisor
from quaymoor.store.archive import Archive, ArchiveError
from quaymoor.store.live_games import LiveGame
from quaymoor.store.sqlite_live import LiveStore

if TYPE_CHECKING:
    from quaymoor.actors.table import Table
    from quaymoor.rules.record import GameRecord
    from quaymoor.store.pg_archive import PgArchive

#: A table id as the server makes them: anything else is no table of anyone's.
_TABLE_ID = re.compile(r"[0-9a-f]{10}")


class LiveDirectory(LocalDirectory):
    """``LocalDirectory`` whose games are written to ``live`` as they are played."""

    def __init__(self, here: Callable[[], Awaitable[bytes]], live: LiveStore) -> None:
        super().__init__(here)
        self.live = live
        self._progress = GameProgress()

    def progressed(self, table: Table) -> None:
        """The seeds once, then the new actions."""
        news = self._progress.news(table)
        if news is None:
            return
        if (start := news.start) is not None:
            self.live.began(LiveGame(table.id, table.players, start.seed, start.client_seeds,
                                     start.seat_seeds, start.seats, [],
                                     algorithm=start.algorithm))
        if news.actions:
            self.live.acted(table.id, news.done, news.actions)
        if news.hints is not None:
            self.live.hinted(table.id, news.hints)
        if news.accounts is not None:
            self.live.seated(table.id, news.accounts)

    def closed(self, table: Table) -> None:
        if self._progress.forget(table.id):
            self.live.ended(table.id)

    async def archived_elsewhere(self, table_id: str) -> GameRecord | None:
        """The record of a game that is not running here any more (ended before a restart,
        or by it), from the archive; None too when the archive cannot be read."""
        if not _TABLE_ID.fullmatch(table_id):
            return None
        try:
            return await self.live.archive.record(table_id)
        except (ArchiveError, ValueError):
            return None


def keep_running_games(supervisor: Supervisor, store: Archive | PgArchive | None
                       ) -> LiveStore | None:
    """One process with an archive file: its running games kept beside it as they are
    played (``supervisor``'s directory becomes a ``LiveDirectory``); returns that store,
    or None where there is nothing to keep across a kill (no archive file, or a cluster's
    PostgreSQL, which keeps its live rows itself)."""
    if not isinstance(store, Archive):
        return None
    live = LiveStore.beside(store)
    if live is not None:
        supervisor.directory = LiveDirectory(supervisor.lobby_json, live)
    return live
