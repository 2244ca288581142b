"""The PostgreSQL store of ``quaymoor cluster``: the archive's interface (``Archive`` in
``archive``) on PostgreSQL, and the one writer of everything a process writes there (its
records, and its tables' lobby rows: ``pg_lobby``). The connection and the schema:
``pg_db``.

Two connections per process: one for the writer, one for reads, which the heartbeat and
the survivors' checks (``quaymoor.cluster.heartbeat``) share with the lobby and the
archive pages, so that a slow batch never makes a process look dead (a slow read delays
its beat).

Writes. Everything a process writes goes, in the order it happened, onto the queue of one
writer (``store.writer``): its tables' lobby rows as they open, change, start, act and
close (``pg_lobby``), and each record archived (which deletes the table's live rows in the
same transaction). Each batch is applied in one transaction in a worker thread
(``compacted``: fewer statements). So a table's rows are never written out of order, and
a record replaces a live game atomically. A batch that fails (the database restarting) is
retried, on a new connection, until it commits (also after a failover: the new
connection goes to the new primary, ``pg_db.conninfo``, and every op is idempotent by its
key, so a batch that committed before its connection broke is not doubled); one the
database refuses (a bug: a
constraint, a type) is written one op at a time, the refused ops logged and dropped. The
queue fills meanwhile and past ``QUEUE_SIZE`` a write waits on the writer's overflow
rather than on the table's actor.

Fenced. A process taken for dead (``cluster.lease``) must not write after the process
that reaped it has claimed its games: every batch first takes a share lock on the
process's row in ``processes`` and checks the row is not stopped by another; the reaper's
claim (an ``UPDATE`` of that row) waits for the lock, so a batch either commits before
the claim (and the reaper sees what it wrote) or finds the row stopped and writes
nothing. From then on (or once the heartbeat saw the row stopped: ``fence``) the store
drops every write.

Records are served from ``pending`` until their write commits, as the SQLite archive does,
and ``flush`` waits for everything queued. Migrations are ``quaymoor.store.migrations``.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any, Final, TypeAlias, TypeVar

import attrs
import psycopg
import trio
from psycopg.errors import ReadOnlySqlTransaction
from psycopg.types.json import Jsonb

from quaymoor.rules.record import GameRecord
from quaymoor.store import accounts, analyses, ratings
from quaymoor.store.archive import (
    MAX_LIST,
    PENDING_LIMIT,
    ArchivedGame,
    ArchiveError,
    RecordReads,
    summary_of,
)
from quaymoor.store.pg_db import Db, connect
from quaymoor.store.pg_lobby import Acted, Changed, LobbyOp, compacted
from quaymoor.store.ratings import GameAccounts
from quaymoor.store.writer import WriteHealth, Writer

log = logging.getLogger("quaymoor.store.pg")
T = TypeVar("T")

QUEUE_SIZE: Final = 4096
BATCH: Final = 512
#: How long the writer lets a batch of actions and summaries fill after its first op:
#: each batch is a transaction and a trip to a worker thread, and at a few hundred
#: actions a second one per action cost the table processes a fifth of their CPU
#: (py-spy). It bounds, with the commit, what a SIGKILL can take of the actions as they
#: happen. A record, or a table opened or closed, goes at once: other processes read
#: those as soon as the players see them (the archive, the lobby).
GATHER_SECONDS: Final = 0.02
RETRY_SECONDS: Final = 1.0
#: Errors after which a connection is dropped and the next one made afresh: the server
#: went away, or it is a standby now (a failover: the new connection goes to the host
#: that takes writes, ``pg_db.conninfo``). A batch that met one is retried, not dropped.
RECONNECT: Final = (psycopg.OperationalError, ReadOnlySqlTransaction)


@attrs.frozen
class Archived:
    """A finished or ended game's record; its live rows go in the same transaction."""

    table_id: str
    record: GameRecord
    #: who sat where: accounts' games and, rated, their ratings (``store.ratings``)
    who: GameAccounts | None = None

    def apply(self, db: Db) -> None:
        entry = summary_of(self.table_id, self.record)
        db.execute(
            "INSERT INTO games (id, ended_at, players, reason, seats, winners, totals,"
            " actions, algorithm, record) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
            " ON CONFLICT (id) DO UPDATE SET ended_at = EXCLUDED.ended_at, reason ="
            " EXCLUDED.reason, seats = EXCLUDED.seats, winners = EXCLUDED.winners, totals ="
            " EXCLUDED.totals, actions = EXCLUDED.actions, record = EXCLUDED.record",
            (entry.id, entry.ended_at, entry.players, entry.reason, Jsonb(entry.seats),
             Jsonb(entry.winners), Jsonb(entry.totals), entry.actions, entry.algorithm,
             self.record.to_json()))
        db.execute("DELETE FROM live_tables WHERE id = %s", (self.table_id,))
        if self.who is not None:
            ratings.record_game(statements(db), self.table_id, self.record, self.who,
                                lock=" FOR UPDATE")


def statements(db: Db) -> accounts.Run:
    """A ``Run`` (``?`` placeholders) on the connection ``db``."""
    def run(sql: str, params: tuple[Any, ...]) -> list[Any]:
        cursor = db.execute(analyses.pg(sql).encode(), params)
        return [] if cursor.description is None else cursor.fetchall()
    return run


Op: TypeAlias = LobbyOp | Archived


def _urgent(op: Op) -> bool:
    """Whether ``op``'s batch goes without gathering: everything but actions and lobby
    summaries (``GATHER_SECONDS``)."""
    return not isinstance(op, Acted | Changed)


class PgArchive(RecordReads):
    """The shared store at ``url`` for the process ``instance``. Run the writer with
    ``await nursery.start(store.run)``."""

    def __init__(self, url: str, instance: str) -> None:
        self.url = url
        self.path = "postgresql"  #: as ``Archive.path``, for messages
        self.instance = instance
        self._write_db: Db | None = None
        self._read_db = connect(url)
        self._read_lock = threading.Lock()
        self._writer = Writer[Op](
            self._write, self._written, label="postgresql", log=log,
            queue_size=QUEUE_SIZE, batch=BATCH, gather_seconds=GATHER_SECONDS,
            urgent=_urgent,
            transient=(*RECONNECT, ArchiveError), refused=(psycopg.Error,),
            retry_seconds=RETRY_SECONDS,
            describe=lambda op: f"{type(op).__name__} of table {op.table_id}")
        self._pending: dict[str, GameRecord] = {}
        self._closed = False
        self.written = 0  #: records committed since start
        self.batches = 0
        #: Taken for dead: every write is dropped (the reaper wrote this process's games).
        self.fenced = False
        self.fenced_writes = 0  #: writes dropped so
        #: the games' analyses (``store.analyses``), each one autocommit statement
        self.analyses = analyses.StatementStore(
            lambda sql, params: self._read(analyses.pg(sql), params, rows=False))
        #: accounts, passkeys and sessions (``store.accounts``: migration 0004)
        self.accounts = accounts.AccountStore(self._transact, ratings.forget_account)
        #: players' ratings and games, written with the records (``store.ratings``)
        self.ratings = ratings.RatingStore(self._transact)

    # ------------------------------------------------------------ writing

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        await self._writer.run(task_status=task_status)

    def put(self, op: Op) -> None:
        """Queue ``op`` (returns at once; from any task of this thread's trio run). Once
        the store is closed only a record is refused: the process's exit removes its
        live rows (``heartbeat.leave``)."""
        if self.fenced:
            self.fenced_writes += 1
            return
        if self._closed:
            if isinstance(op, Archived):
                raise ArchiveError("the store is closed")
            return
        self._writer.put(op)

    def fence(self) -> None:
        """This process was taken for dead: drop every write from now on (those queued
        too, as the writer reaches them)."""
        if not self.fenced:
            log.error("the store is fenced: this process was taken for dead, nothing more "
                      "of it is written", extra={"event": "store_fenced"})
        self.fenced = True

    def submit(self, game_id: str, record: GameRecord, who: GameAccounts | None = None
               ) -> None:
        """Archive ``record`` under ``game_id``; its live rows go with the same write, and
        ``who`` sat at it (``store.ratings``: accounts' games and ratings) too.
        Fenced, nothing (not even served from memory: the reaper's record stands)."""
        if self.fenced:
            self.fenced_writes += 1
            return
        self._pending[game_id] = record
        self.put(Archived(game_id, record, who))

    async def flush(self) -> None:
        """Wait until everything queued so far has been written."""
        await self._writer.flush()

    async def close(self) -> None:
        await self.flush()
        self._closed = True
        self._writer.close()
        with self._read_lock:
            self._read_db.close()
        if self._write_db is not None:
            self._write_db.close()

    @property
    def pending(self) -> int:
        return len(self._pending)

    def health(self) -> WriteHealth:
        """How the writes go (as ``Archive.health``): failing since when, how many
        records wait for the database."""
        return self._writer.health(pending=len(self._pending), limit=PENDING_LIMIT)

    def _write(self, batch: list[Op]) -> None:
        """One transaction (in a worker thread). A broken connection is replaced next time."""
        if self._write_db is None or self._write_db.closed:
            self._write_db = connect(self.url)
        db = self._write_db
        if self.fenced:
            self.fenced_writes += len(batch)
            return
        try:
            with db.transaction():
                if self._stopped_by_another(db):
                    self.fenced = True
                    self.fenced_writes += len(batch)
                    return
                for op in compacted(batch):
                    op.apply(db)
        except RECONNECT:
            db.close()
            raise
        self.batches += 1

    def _stopped_by_another(self, db: Db) -> bool:
        """Whether this process's row was stopped by another process (a share lock on it
        until the batch's transaction ends: the reaper's claim waits for it)."""
        row = db.execute(
            "SELECT stopped_at IS NOT NULL AND stopped_by IS DISTINCT FROM instance"
            " FROM processes WHERE instance = %s FOR SHARE", (self.instance,)).fetchone()
        return bool(row and row[0])

    def _written(self, batch: list[Op]) -> None:
        if self.fenced:  # dropped: the reaper's records stand
            for op in batch:
                if isinstance(op, Archived) and self._pending.get(op.table_id) is op.record:
                    del self._pending[op.table_id]
            return
        for op in batch:
            if isinstance(op, Archived) and self._pending.get(op.table_id) is op.record:
                del self._pending[op.table_id]
                self.written += 1

    # ------------------------------------------------------------ reading

    def _on_connection(self, work: Callable[[Db], T], what: str) -> T:
        """``work`` on the read connection (in a worker thread); once more on a new
        connection when the connection broke (what the first attempt began was rolled back
        with it)."""
        with self._read_lock:
            if self._closed:
                raise ArchiveError("the store is closed")
            for attempt in (1, 2):
                try:
                    if self._read_db.closed:
                        self._read_db = connect(self.url)
                    return work(self._read_db)
                except RECONNECT as exc:
                    self._read_db.close()
                    if attempt == 2:
                        raise ArchiveError(f"PostgreSQL cannot be {what}: {exc}") from exc
        raise AssertionError("unreachable")

    def _read(self, query: str, params: tuple[Any, ...], *,
              rows: bool = True) -> list[tuple[Any, ...]]:
        """Rows of ``query`` on the read connection. ``rows=False``: a statement that may
        return none (an analysis's row is written on this connection too: small and
        rare)."""
        def work(db: Db) -> list[tuple[Any, ...]]:
            cursor = db.execute(query.encode(), params)
            if not rows and cursor.description is None:
                return []
            return cursor.fetchall()
        return self._on_connection(work, "read")

    def _transact(self, work: Callable[[accounts.Run], T]) -> T:
        """``work`` in one transaction on the read connection (an account's rows: small,
        rare)."""
        def in_transaction(db: Db) -> T:
            with db.transaction():
                return work(statements(db))
        return self._on_connection(in_transaction, "written")

    async def read(self, query: str, *params: Any) -> list[tuple[Any, ...]]:
        return await trio.to_thread.run_sync(self._read, query, params)

    def record_json_sync(self, game_id: str) -> str | None:
        rows = self._read("SELECT record FROM games WHERE id = %s", (game_id,))
        return str(rows[0][0]) if rows else None

    def pending_record(self, game_id: str) -> GameRecord | None:
        return self._pending.get(game_id)

    async def has(self, game_id: str) -> bool:
        """Whether ``game_id`` is archived, being archived, or a live table's anywhere."""
        if game_id in self._pending:
            return True
        rows = await self.read("SELECT 1 FROM games WHERE id = %s UNION ALL"
                               " SELECT 1 FROM live_tables WHERE id = %s", game_id, game_id)
        return bool(rows)

    async def recent(self, limit: int = 20) -> list[ArchivedGame]:
        limit = max(1, min(MAX_LIST, limit))
        rows = await self.read(
            "SELECT id, ended_at, players, reason, seats, winners, totals, actions, algorithm"
            " FROM games ORDER BY ended_at DESC LIMIT %s", limit)
        stored = [ArchivedGame(*r) for r in rows]
        fresh = [summary_of(gid, rec) for gid, rec in list(self._pending.items())]
        seen = {g.id for g in fresh}
        merged = fresh + [g for g in stored if g.id not in seen]
        merged.sort(key=lambda g: g.ended_at, reverse=True)
        return merged[:limit]

    def count_sync(self) -> int:
        return int(self._read("SELECT COUNT(*) FROM games", ())[0][0])
