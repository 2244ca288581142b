"""The game archive: every finished or ended game's record, in SQLite, across restarts.

How it works. One table, ``games``: the record's JSON exactly as it is served for download,
plus indexed columns to list and filter by (id, ended_at, players, reason) and a few more
for the list page (seats, winners, totals, number of actions). The archive is the only
thing the server keeps across restarts.

Writes never run on the event loop. ``submit`` (synchronous: the supervisor's record hook
calls it from a table's actor) puts the record in ``pending`` and on the queue of the
archive's writer (``store.writer``), a single task that takes what is queued, in batches,
and writes each batch in one transaction in a worker thread. A record is served from
``pending`` until its write has committed, so a game's record can be downloaded the moment
the game ends. ``flush`` waits until everything submitted has been written: the shutdown
path (``Supervisor.shutdown``) calls it before the process exits.

When the writer is gone (cancelled with the rest of the server, or never started) nothing
is lost: the writer writes whatever is still queued synchronously on its way out, and a
``submit`` that comes after that writes at once, blocking, as the process is going down.
Rewriting a record is harmless (``INSERT OR REPLACE`` by id).

When the disk fails (full, remounted read-only, I/O errors: ``DiskTrouble``) the server
stays up and nothing is dropped: the batch is retried with backoff (``RETRY_SECONDS`` up to
``MAX_RETRY_SECONDS``) until it commits, and every record waits in ``pending`` meanwhile,
served from memory to the game pages (the download, ``/games/<id>.json``, answers 202
"pending" while the archive is failing: ``http.games``). Each failure also closes both
connections, so that a filesystem mended underneath (space freed, remounted, replaced) is
opened afresh, and an unmount is not kept busy by the server; a reopen opens only a
database that is there (never a new one where the filesystem is not mounted yet).

Past ``PENDING_LIMIT`` records waiting, the supervisor opens no new table
(``WriteHealth.full``): the games being played still end and their records wait too, so
what is held in memory is bounded by the limit plus the tables open. A process that exits
while the disk is still failing waits ``EXIT_WAIT`` seconds of failures for it, then logs
each record it could not write by id (lost, counted). ``health`` says how it goes
(``/status``, ``/metrics``).

Reads (one game's record, the recent list) run in worker threads too, on a connection of
their own (WAL mode lets them read while a batch is written). A path of ``:memory:`` keeps
the archive in memory (one connection shared by both sides), for tests and throwaway runs.
"""

from __future__ import annotations

import abc
import contextlib
import json
import logging
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final, TypeVar

import attrs
import trio

from quaymoor.rules.record import GameRecord
from quaymoor.store import accounts, analyses, ratings
from quaymoor.store.ratings import GameAccounts
from quaymoor.store.removed_names import listed_seats
from quaymoor.store.writer import WriteHealth, Writer

log = logging.getLogger("quaymoor.store.archive")
T = TypeVar("T")
#: A record queued for the writer: (sequence number, game id, record, who sat where).
_Queued = tuple[int, str, GameRecord, GameAccounts | None]

#: Where ``quaymoor serve`` keeps the archive unless told otherwise (under the current folder).
DEFAULT_ARCHIVE: Final = "var/quaymoor.sqlite3"
SCHEMA_VERSION: Final = 3  #: 2: accounts (``store.accounts``); 3: ratings (``store.ratings``)
QUEUE_SIZE: Final = 1024
BATCH: Final = 256
MAX_LIST: Final = 100
#: Records waiting for a failing disk past which no new table opens (a record is tens of
#: kilobytes: this bounds the memory they take to tens of megabytes, plus the open tables').
PENDING_LIMIT: Final = 1000
RETRY_SECONDS: Final = 0.25
MAX_RETRY_SECONDS: Final = 4.0
#: Seconds of failing writes the exit waits for before it gives the records up (logged).
EXIT_WAIT: Final = 10.0
#: SQLite's primary result codes of a disk that may mend: busy or locked, read-only, I/O
#: error, full, cannot open (a corrupt or non-database file is not among them).
_DISK_CODES: Final = frozenset({5, 6, 8, 10, 13, 14})

#: The ``games`` table (also in ``store.memory_store``, which keeps no records in it).
GAMES_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS games (
    id        TEXT PRIMARY KEY,
    ended_at  REAL NOT NULL,
    players   INTEGER NOT NULL,
    reason    TEXT NOT NULL,
    seats     TEXT NOT NULL,
    winners   TEXT NOT NULL,
    totals    TEXT NOT NULL,
    actions   INTEGER NOT NULL,
    algorithm TEXT NOT NULL,
    record    TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_by_end ON games (ended_at);
CREATE INDEX IF NOT EXISTS games_by_players ON games (players, ended_at);
CREATE INDEX IF NOT EXISTS games_by_reason ON games (reason, ended_at);
"""


class ArchiveError(Exception):
    """The archive cannot be opened, or is closed."""


class DiskTrouble(ArchiveError):
    """A write failed for a reason the disk may mend (full, read-only, I/O error): the
    writer retries it."""


def _disk_trouble(exc: BaseException) -> bool:
    if isinstance(exc, OSError):
        return True
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(exc, sqlite3.OperationalError) and (
        code is None or code & 0xFF in _DISK_CODES)


@attrs.frozen
class ArchivedGame:
    """One row: what the list shows, and the record."""

    id: str
    ended_at: float
    players: int
    reason: str
    seats: list[dict[str, Any]]
    winners: list[int]
    totals: list[int]
    actions: int
    algorithm: str

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id, "ended_at": self.ended_at, "players": self.players,
            "reason": self.reason, "seats": self.seats, "winners": self.winners,
            "totals": self.totals, "actions": self.actions,
            "url": f"/games/{self.id}", "record_url": f"/games/{self.id}.json",
        }


def summary_of(game_id: str, record: GameRecord) -> ArchivedGame:
    """The columns stored beside ``record`` (cheap: no JSON)."""
    result = record.result
    return ArchivedGame(
        id=game_id,
        ended_at=record.ended_at if record.ended_at is not None else 0.0,
        players=record.players,
        reason=record.reason,
        seats=listed_seats(record),
        winners=list(result.winners) if result is not None else [],
        totals=[x.total for x in result.scores] if result is not None else [],
        actions=len(record.actions),
        algorithm=record.algorithm,
    )


def _connect(path: str, *, create: bool) -> sqlite3.Connection:
    """A connection to the database at ``path``; with ``create`` False only to one that is
    there (a reopen after a failure must not make an empty archive in a mount point whose
    filesystem is away: it would take the records, then be hidden by the mount)."""
    if create or path == ":memory:":
        return sqlite3.connect(path, check_same_thread=False, isolation_level=None,
                               timeout=30.0)
    return sqlite3.connect(f"{Path(path).absolute().as_uri()}?mode=rw", uri=True,
                           check_same_thread=False, isolation_level=None, timeout=30.0)


def _open(path: str, *, create: bool = True) -> sqlite3.Connection:
    try:
        if path != ":memory:" and create:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = _connect(path, create=create)
    except (OSError, sqlite3.Error) as exc:
        raise ArchiveError(f"{path}: cannot open the archive: {exc}") from exc
    try:
        if path != ":memory:":
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise ArchiveError(f"{path}: archive schema {version} is newer than this "
                               f"server's ({SCHEMA_VERSION})")
        db.executescript(GAMES_SCHEMA + analyses.SCHEMA + accounts.SCHEMA + ratings.SCHEMA)
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    except sqlite3.Error as exc:
        db.close()
        raise ArchiveError(f"{path}: cannot open the archive: {exc}") from exc
    except ArchiveError:
        db.close()
        raise
    return db


def check_archive(path: str | Path) -> None:
    """Open (creating it if need be) and close the archive at ``path``: raises
    ``ArchiveError`` saying why it cannot be used."""
    _open(str(path)).close()


class RecordReads(abc.ABC):
    """A record read as both archives read it: one submitted and not yet written comes
    from memory, any other from the database (off the event loop). Each archive says
    how it keeps the two (the abstract methods)."""

    @abc.abstractmethod
    def pending_record(self, game_id: str) -> GameRecord | None:
        """The record submitted under ``game_id`` and not yet written, if any."""

    @abc.abstractmethod
    def record_json_sync(self, game_id: str) -> str | None:
        """The written record's JSON text, or None (blocking: call it in a thread)."""

    async def record_json(self, game_id: str) -> str | None:
        """The record's JSON text as archived (or as it will be), or None."""
        pending = self.pending_record(game_id)
        if pending is not None:
            return await trio.to_thread.run_sync(pending.to_json)
        return await trio.to_thread.run_sync(self.record_json_sync, game_id)

    async def record(self, game_id: str) -> GameRecord | None:
        """The record, parsed, or None."""
        pending = self.pending_record(game_id)
        if pending is not None:
            return pending
        text = await trio.to_thread.run_sync(self.record_json_sync, game_id)
        if text is None:
            return None
        return await trio.to_thread.run_sync(GameRecord.from_json, text)


class Archive(RecordReads):
    """Finished and ended games in SQLite at ``path``. Run the writer with
    ``await nursery.start(archive.run)``; ``submit`` records, ``flush`` to wait for them."""

    def __init__(self, path: str | Path, *, queue_size: int = QUEUE_SIZE,
                 pending_limit: int = PENDING_LIMIT,
                 retry_seconds: float = RETRY_SECONDS) -> None:
        self.path = str(path)
        self.pending_limit = pending_limit
        self._write_db: sqlite3.Connection | None = _open(self.path)
        self._read_db: sqlite3.Connection | None = (
            self._write_db if self.path == ":memory:" else _open(self.path))
        self._write_lock = threading.Lock()
        self._read_lock = self._write_lock if self._read_db is self._write_db else (
            threading.Lock())
        #: each queued write is (sequence number, game id, record, who sat where):
        #: ``_take`` skips one that a newer submit for the same game superseded
        self._writer = Writer[_Queued](
            self._write, self._written, keep=self._take,
            label=f"archive {self.path}", log=log, queue_size=queue_size, batch=BATCH,
            transient=(DiskTrouble,), retry_seconds=retry_seconds,
            max_retry_seconds=max(retry_seconds, MAX_RETRY_SECONDS),
            describe=lambda op: f"record of game {op[1]}")
        self._pending: dict[str, tuple[int, GameRecord]] = {}
        self._seq = 0
        self._closed = False
        self.written = 0  #: records committed since start (rewrites count again)
        self._gave_up = False  #: a flush on the way out has given up on a failing disk
        #: the games' analyses, in the same database (``store.analyses``)
        self.analyses = analyses.StatementStore(self._statement)
        #: accounts, passkeys and sessions, in the same database (``store.accounts``)
        self.accounts = accounts.AccountStore(self._transact, ratings.forget_account)
        #: players' ratings and games, written with the records (``store.ratings``)
        self.ratings = ratings.RatingStore(self._transact)

    # ------------------------------------------------------------ writing

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """The single writer (``store.writer``): batches from its queue, each in one
        transaction in a thread. On the way out (cancelled too), what is queued is
        written at once."""
        await self._writer.run(task_status=task_status)

    def submit(self, game_id: str, record: GameRecord, who: GameAccounts | None = None
               ) -> None:
        """Archive ``record`` under ``game_id`` (a later submit for the same id replaces it),
        with ``who`` sat at it (accounts: their games and, rated, their ratings, in the
        same transaction: ``store.ratings``). Returns at once; the write happens in the
        writer's thread."""
        if self._closed:
            raise ArchiveError("the archive is closed")
        self._seq += 1
        self._pending[game_id] = (self._seq, record)
        self._writer.put((self._seq, game_id, record, who))

    async def flush(self) -> None:
        """Wait until every record submitted so far has been written; while the disk
        fails, for ``EXIT_WAIT`` seconds of failures at most (then the records still
        pending are logged: the callers are on the way out)."""
        if not await self._writer.flush(failing_wait=EXIT_WAIT) and not self._gave_up:
            self._gave_up = True  # said once: ``close`` flushes again after ``shutdown``
            log.error("archive %s: still failing after %.0f s; %d records not written: %s",
                      self.path, EXIT_WAIT, len(self._pending), ", ".join(self._pending),
                      extra={"event": "archive_records_unwritten"})

    async def close(self) -> None:
        """Write what is pending, stop taking records and close the database."""
        await self.flush()
        self._closed = True
        self._writer.close()
        with self._both_locks():
            self._close_connections()

    @property
    def pending(self) -> int:
        return len(self._pending)

    def health(self) -> WriteHealth:
        """How the writes go: failing since when, how many records wait."""
        return self._writer.health(pending=len(self._pending), limit=self.pending_limit)

    def _take(self, batch: list[_Queued]) -> list[_Queued]:
        """The records still pending at the sequence numbers queued (a newer submit for
        the same id supersedes an older one: only the newest is written)."""
        out = []
        for queued in batch:
            entry = self._pending.get(queued[1])
            if entry is not None and entry[0] == queued[0]:
                out.append(queued)
        return out

    def _written(self, done: list[_Queued]) -> None:
        for seq, game_id, _, _ in done:
            entry = self._pending.get(game_id)
            if entry is not None and entry[0] == seq:
                del self._pending[game_id]
        self.written += len(done)

    def _write(self, todo: list[_Queued]) -> None:
        """One transaction (runs in a worker thread, or blocking at the end)."""
        rows = []
        for _, game_id, record, _ in todo:
            entry, text = summary_of(game_id, record), record.to_json()
            rows.append((
                entry.id, entry.ended_at, entry.players, entry.reason, json.dumps(entry.seats),
                json.dumps(entry.winners), json.dumps(entry.totals), entry.actions,
                entry.algorithm, text,
            ))
        with self._write_lock:
            self._check_open()
            try:
                if self._write_db is None:
                    self._write_db = _open(self.path, create=False)
                with _transaction(self._write_db) as db:
                    db.executemany(
                        "INSERT OR REPLACE INTO games (id, ended_at, players, reason, seats, "
                        "winners, totals, actions, algorithm, record) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        rows,
                    )

                    def run(sql: str, params: tuple[Any, ...]) -> list[Any]:
                        return db.execute(sql, params).fetchall()

                    for _, game_id, record, who in todo:
                        if who is not None:
                            ratings.record_game(run, game_id, record, who)
            except (sqlite3.Error, OSError, ArchiveError) as exc:
                cause = exc.__cause__ if isinstance(exc, ArchiveError) else exc
                if cause is None or not _disk_trouble(cause):
                    raise
                if self.path != ":memory:":
                    with self._read_lock:  # the write lock is held: both are
                        self._close_connections()
                raise DiskTrouble(f"{self.path}: {exc}") from exc

    @contextmanager
    def _both_locks(self) -> Iterator[None]:
        """The write lock, then the read lock when it is another (``:memory:`` has one)."""
        with self._write_lock:
            if self._read_lock is self._write_lock:
                yield
            else:
                with self._read_lock:
                    yield

    def _close_connections(self) -> None:
        """Close both connections (the caller holds both locks); the next write or read
        opens its own again."""
        for db in {id(c): c for c in (self._write_db, self._read_db) if c is not None}.values():
            with contextlib.suppress(sqlite3.Error):
                db.close()
        self._write_db = self._read_db = None

    def _reader(self) -> sqlite3.Connection:
        """The read connection (the caller holds the read lock), opened again after a
        failure closed it: plainly, for it writes nothing (on a full or read-only disk
        ``_open``'s schema statements could not run)."""
        self._check_open()
        if self._read_db is None:
            try:
                self._read_db = _connect(self.path, create=False)
            except sqlite3.Error as exc:
                raise ArchiveError(f"{self.path}: cannot read the archive: {exc}") from exc
        return self._read_db

    def _query(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        """Rows of ``sql`` on the read connection; a disk that cannot be read now is an
        ``ArchiveError`` (answered 503), and its connection is opened afresh next time."""
        with self._read_lock:
            db = self._reader()
            try:
                return db.execute(sql, params).fetchall()
            except sqlite3.OperationalError as exc:
                if self.path != ":memory:":
                    with contextlib.suppress(sqlite3.Error):
                        db.close()
                    self._read_db = None
                raise ArchiveError(f"{self.path}: cannot read the archive: {exc}") from exc

    def _statement(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        """One statement on the write connection (an analysis's row: small, rare), its
        rows; a disk that fails is an ``ArchiveError`` (answered 503)."""
        with self._write_lock:
            self._check_open()
            try:
                if self._write_db is None:
                    self._write_db = _open(self.path, create=False)
                return self._write_db.execute(sql, params).fetchall()
            except (sqlite3.Error, OSError) as exc:
                raise ArchiveError(f"{self.path}: cannot keep the analysis: {exc}") from exc

    def _transact(self, work: Callable[[accounts.Run], T]) -> T:
        """``work`` in one transaction on the write connection (an account's rows: small,
        rare); a disk that fails is an ``ArchiveError`` (answered 503)."""
        with self._write_lock:
            self._check_open()
            try:
                if self._write_db is None:
                    self._write_db = _open(self.path, create=False)
                db = self._write_db

                def run(sql: str, params: tuple[Any, ...]) -> list[Any]:
                    return db.execute(sql, params).fetchall()

                with _transaction(db):
                    return work(run)
            except (sqlite3.Error, OSError) as exc:
                raise ArchiveError(f"{self.path}: cannot keep the account: {exc}") from exc

    # ------------------------------------------------------------ reading

    def pending_record(self, game_id: str) -> GameRecord | None:
        pending = self._pending.get(game_id)
        return None if pending is None else pending[1]

    async def has(self, game_id: str) -> bool:
        """Whether a game is archived (or being written) under ``game_id``."""
        if game_id in self._pending:
            return True
        return await trio.to_thread.run_sync(self.has_sync, game_id)

    async def recent(self, limit: int = 20) -> list[ArchivedGame]:
        """The games that ended last, newest first (those still being written too)."""
        limit = max(1, min(MAX_LIST, limit))
        stored = await trio.to_thread.run_sync(self.recent_sync, limit)
        fresh = [summary_of(gid, rec) for gid, (_, rec) in list(self._pending.items())]
        seen = {g.id for g in fresh}
        merged = fresh + [g for g in stored if g.id not in seen]
        merged.sort(key=lambda g: g.ended_at, reverse=True)
        return merged[:limit]

    def record_json_sync(self, game_id: str) -> str | None:
        rows = self._query("SELECT record FROM games WHERE id = ?", (game_id,))
        return str(rows[0][0]) if rows else None

    def has_sync(self, game_id: str) -> bool:
        return bool(self._query("SELECT 1 FROM games WHERE id = ?", (game_id,)))

    def recent_sync(self, limit: int = 20) -> list[ArchivedGame]:
        rows = self._query(
            "SELECT id, ended_at, players, reason, seats, winners, totals, actions, "
            "algorithm FROM games ORDER BY ended_at DESC LIMIT ?", (limit,))
        return [
            ArchivedGame(r[0], r[1], r[2], r[3], json.loads(r[4]), json.loads(r[5]),
                         json.loads(r[6]), r[7], r[8])
            for r in rows
        ]

    def count_sync(self) -> int:
        return int(self._query("SELECT COUNT(*) FROM games", ())[0][0])

    def _check_open(self) -> None:
        if self._closed:
            raise ArchiveError("the archive is closed")


@contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
        db.execute("COMMIT")
    except BaseException:
        # SQLite rolls a transaction back itself on some errors (a full disk): a ROLLBACK
        # then would fail and hide the error that matters
        if db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
        raise
