"""Post-game analyses kept with the archive: one row per game, computed once.

A row is claimed by the process that computes it (``owner``), which writes its progress
(``done`` of ``total`` decisions) as it goes and the analysis's JSON (``body``) at the end;
every other request, in this process or another of a cluster, reads the row: done, it is
served; running, its progress is. A claim whose owner has not written for
``STALE_SECONDS`` (a process killed mid-analysis) is taken over by the next request, so an
analysis is never stuck and, while its owner lives, never computed twice. ``failed`` (the
record does not replay) is kept too, with the reason in ``body``.

The same statements run on SQLite (``Archive``) and PostgreSQL (``PgArchive``: migration
``0003_analyses.sql``), each in one autocommit statement; ``?`` placeholders here,
``%s`` for psycopg (``pg``). ``MemoryAnalyses`` keeps them for a server without an archive.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Final, Protocol

import attrs

from quaymoor.rules.record import GameRecord
from quaymoor.store.removed_names import renamed_analysis

#: Seconds without progress after which another request takes an analysis over.
STALE_SECONDS: Final = 60.0

SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS analyses (
    id         TEXT PRIMARY KEY,
    status     TEXT NOT NULL,
    done       INTEGER NOT NULL,
    total      INTEGER NOT NULL,
    owner      TEXT NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    body       TEXT
);
"""

READ: Final = "SELECT status, done, total, owner, updated_at, body FROM analyses WHERE id = ?"
#: Claim a game's analysis: a new row, or a running one gone stale (params: id, total,
#: owner, now, stale before). Returns a row when claimed.
CLAIM: Final = (
    "INSERT INTO analyses (id, status, done, total, owner, updated_at, body) "
    "VALUES (?, 'running', 0, ?, ?, ?, NULL) "
    "ON CONFLICT (id) DO UPDATE SET status = 'running', done = 0, total = excluded.total, "
    "owner = excluded.owner, updated_at = excluded.updated_at, body = NULL "
    "WHERE analyses.status = 'running' AND analyses.updated_at < ? "
    "RETURNING owner")
#: params: done, now, id, owner
PROGRESS: Final = ("UPDATE analyses SET done = ?, updated_at = ? "
                   "WHERE id = ? AND owner = ? AND status = 'running'")
#: params: status ('done' or 'failed'), body, now, id, owner
FINISH: Final = ("UPDATE analyses SET status = ?, done = total, body = ?, updated_at = ? "
                 "WHERE id = ? AND owner = ? AND status = 'running'")


def pg(statement: str) -> str:
    """The statement with psycopg's placeholders."""
    return statement.replace("?", "%s")


@attrs.frozen
class AnalysisRow:
    status: str  #: "running", "done" or "failed"
    done: int
    total: int
    owner: str
    updated_at: float
    body: str | None


def row_of(rows: list[Any]) -> AnalysisRow | None:
    if not rows:
        return None
    status, done, total, owner, updated_at, body = rows[0]
    return AnalysisRow(str(status), int(done), int(total), str(owner), float(updated_at),
                       None if body is None else str(body))


class AnalysisStore(Protocol):
    """What the analyst needs of a store (every method blocks: run it in a thread)."""

    def analysis(self, game_id: str) -> AnalysisRow | None: ...

    def claim_analysis(self, game_id: str, total: int, owner: str, now: float) -> bool: ...

    def analysis_progress(self, game_id: str, owner: str, done: int, now: float) -> None: ...

    def finish_analysis(self, game_id: str, owner: str, status: str, body: str,
                        now: float) -> None: ...


class StatementStore:
    """The methods over a store's ``run(statement, params) -> rows``."""

    def __init__(self, run: Callable[[str, tuple[Any, ...]], list[Any]]) -> None:
        self._run = run

    def analysis(self, game_id: str) -> AnalysisRow | None:
        return row_of(self._run(READ, (game_id,)))

    def claim_analysis(self, game_id: str, total: int, owner: str, now: float) -> bool:
        return bool(self._run(CLAIM, (game_id, total, owner, now, now - STALE_SECONDS)))

    def analysis_progress(self, game_id: str, owner: str, done: int, now: float) -> None:
        self._run(PROGRESS, (done, now, game_id, owner))

    def finish_analysis(self, game_id: str, owner: str, status: str, body: str,
                        now: float) -> None:
        self._run(FINISH, (status, body, now, game_id, owner))


class MemoryAnalyses:
    """The rows in memory, for a server without an archive (tests, throwaway runs)."""

    def __init__(self) -> None:
        self._rows: dict[str, AnalysisRow] = {}
        self._lock = threading.Lock()

    def analysis(self, game_id: str) -> AnalysisRow | None:
        return self._rows.get(game_id)

    def claim_analysis(self, game_id: str, total: int, owner: str, now: float) -> bool:
        with self._lock:
            row = self._rows.get(game_id)
            if row is not None and not (row.status == "running"
                                        and row.updated_at < now - STALE_SECONDS):
                return False
            self._rows[game_id] = AnalysisRow("running", 0, total, owner, now, None)
            return True

    def analysis_progress(self, game_id: str, owner: str, done: int, now: float) -> None:
        with self._lock:
            row = self._rows.get(game_id)
            if row is not None and row.owner == owner and row.status == "running":
                self._rows[game_id] = attrs.evolve(row, done=done, updated_at=now)

    def finish_analysis(self, game_id: str, owner: str, status: str, body: str,
                        now: float) -> None:
        with self._lock:
            row = self._rows.get(game_id)
            if row is not None and row.owner == owner and row.status == "running":
                self._rows[game_id] = attrs.evolve(row, status=status, done=row.total,
                                                   body=body, updated_at=now)

    def rename(self, game_id: str, record: GameRecord) -> None:
        """A computed analysis's players named as ``record`` names them (a deleted
        account's name taken out: ``Supervisor.account_gone``)."""
        with self._lock:
            row = self._rows.get(game_id)
            body = None if row is None or row.body is None else renamed_analysis(row.body, record)
            if row is not None and body is not None:
                self._rows[game_id] = attrs.evolve(row, body=body)


__all__ = ["STALE_SECONDS", "AnalysisRow", "AnalysisStore", "MemoryAnalyses",
           "StatementStore", "pg"]
