"""The PostgreSQL store of ``quaymoor cluster``: the archive's interface (``Archive`` in
``archive``), plus each running table's lobby row and actions as they happen.

Why psycopg 3's sync API in worker threads: its async API is built on asyncio and does not
run under trio; a blocking connection used from ``trio.to_thread.run_sync`` does, and the
event loop never waits on the database. Two connections per process: one for the
writer, one for reads, which the heartbeat and the survivors' checks
(``quaymoor.cluster.heartbeat``) share with the lobby and the archive pages, so that a
slow batch never makes a process look dead (a slow read delays its beat).

Writes. Everything a process writes goes, in the order it happened, onto one bounded
queue of ``Op``: a table opened (and by which client address: ``operators.
table_creators``), its lobby changed, it started (the seeds go to ``operators.
table_seeds``), its new actions, its record archived (which deletes its live rows in the
same transaction), it closed. A single writer task takes what is queued in
batches and applies each batch in one transaction in a worker thread. So a table's rows
are never written out of order, and a record replaces a live game atomically. A batch
that fails (the database restarting) is retried, on a new connection, until it commits;
the queue fills meanwhile and past ``QUEUE_SIZE`` a submit waits in a task of the writer's
nursery rather than on the table's actor.

Records are served from ``pending`` until their write commits, as the SQLite archive does,
and ``flush`` waits for everything queued. Migrations are ``quaymoor.store.migrations``.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Final, TypeAlias

import attrs
import psycopg
import trio
from psycopg.types.json import Jsonb

from quaymoor.ops.channels import waiting
from quaymoor.rules.converter import converter
from quaymoor.rules.record import GameRecord, RecordedAction
from quaymoor.store.archive import (
    MAX_LIST,
    ArchivedGame,
    ArchiveError,
    RecordReads,
    summary_of,
)
from quaymoor.store.migrations import MigrationError, migrate

log = logging.getLogger("quaymoor.store.pg")

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

Db: TypeAlias = psycopg.Connection[tuple[Any, ...]]


def connect(url: str) -> Db:
    """A connection in autocommit mode (transactions are explicit). Raises
    ``ArchiveError`` saying why when the database cannot be reached."""
    try:
        return psycopg.connect(url, autocommit=True, connect_timeout=10)
    except psycopg.Error as exc:
        raise ArchiveError(f"cannot connect to PostgreSQL: {exc}") from exc


def check_database(url: str) -> None:
    """Connect and bring the schema up to date; raises ``ArchiveError`` saying why not."""
    db = connect(url)
    try:
        migrate(db)
    except (psycopg.Error, MigrationError) as exc:
        raise ArchiveError(f"the database's schema: {exc}") from exc
    finally:
        db.close()


# ---------------------------------------------------------------- what is written


@attrs.frozen
class Opened:
    table_id: str
    instance: str
    players: int
    lobby: dict[str, Any]

    def apply(self, db: Db) -> None:
        db.execute("INSERT INTO live_tables (id, instance, players, lobby) VALUES"
                   " (%s, %s, %s, %s) ON CONFLICT (id) DO UPDATE SET lobby = EXCLUDED.lobby",
                   (self.table_id, self.instance, self.players, Jsonb(self.lobby)))


@attrs.frozen
class Changed:
    """The table's public summary now (seats, state, round, phase)."""

    table_id: str
    lobby: dict[str, Any]

    def apply(self, db: Db) -> None:
        db.execute("UPDATE live_tables SET lobby = %s, updated_at = now() WHERE id = %s",
                   (Jsonb(self.lobby), self.table_id))


@attrs.frozen
class Started:
    """The game began: its seeds, hidden in ``operators.table_seeds`` until it ends."""

    table_id: str
    seed: str
    client_seeds: list[str]
    seat_seeds: list[str | None]
    seats: list[dict[str, Any]]

    def apply(self, db: Db) -> None:
        db.execute("INSERT INTO operators.table_seeds (table_id, seed, client_seeds,"
                   " seat_seeds, seats) SELECT %s, %s, %s, %s, %s WHERE EXISTS"
                   " (SELECT 1 FROM live_tables WHERE id = %s) ON CONFLICT DO NOTHING",
                   (self.table_id, self.seed, Jsonb(self.client_seeds),
                    Jsonb(self.seat_seeds), Jsonb(self.seats), self.table_id))


@attrs.frozen
class CreatedBy:
    """The client address that opened the table (``operators.table_creators``), which the
    cluster-wide cap on open tables per address counts (``open_tables_elsewhere``)."""

    table_id: str
    address: str

    def apply(self, db: Db) -> None:
        db.execute("INSERT INTO operators.table_creators (table_id, address) SELECT %s, %s"
                   " WHERE EXISTS (SELECT 1 FROM live_tables WHERE id = %s)"
                   " ON CONFLICT DO NOTHING", (self.table_id, self.address, self.table_id))


@attrs.frozen
class Acted:
    """Actions ``first``, ``first + 1``, ... of the game (unstructured)."""

    table_id: str
    first: int
    actions: list[Any]

    def apply(self, db: Db) -> None:
        with db.cursor() as cur:
            cur.executemany(
                "INSERT INTO table_actions (table_id, n, action) SELECT %s, %s, %s WHERE"
                " EXISTS (SELECT 1 FROM live_tables WHERE id = %s) ON CONFLICT DO NOTHING",
                [(self.table_id, self.first + i, Jsonb(a), self.table_id)
                 for i, a in enumerate(self.actions)])


@attrs.frozen
class Archived:
    """A finished or ended game's record; its live rows go in the same transaction."""

    table_id: str
    record: GameRecord

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


@attrs.frozen
class Closed:
    """The table is gone (never started, or its record is archived already)."""

    table_id: str

    def apply(self, db: Db) -> None:
        db.execute("DELETE FROM live_tables WHERE id = %s", (self.table_id,))


Op: TypeAlias = Opened | Changed | Started | CreatedBy | Acted | Archived | Closed


class ActedMany:
    """Several tables' actions in one statement (what ``compacted`` makes of ``Acted``)."""

    def __init__(self, acted: list[Acted]) -> None:
        self.rows = [(op.table_id, op.first + i, Jsonb(a), op.table_id)
                     for op in acted for i, a in enumerate(op.actions)]

    def apply(self, db: Db) -> None:
        with db.cursor() as cur:
            cur.executemany(
                "INSERT INTO table_actions (table_id, n, action) SELECT %s, %s, %s WHERE"
                " EXISTS (SELECT 1 FROM live_tables WHERE id = %s) ON CONFLICT DO NOTHING",
                self.rows)


def compacted(batch: list[Op]) -> list[Op | ActedMany]:
    """``batch`` with the same effect in fewer statements: within each run of ``Acted``
    and ``Changed`` ops (the other kinds keep their places and order), every action row in
    one statement, and only each table's last summary (a later one replaces it anyway).
    The two kinds touch different rows, so their order within a run does not matter."""
    out: list[Op | ActedMany] = []
    acted: list[Acted] = []
    changed: dict[str, Changed] = {}

    def flush() -> None:
        if acted:
            out.append(ActedMany(acted))
            acted.clear()
        out.extend(changed.values())
        changed.clear()

    for op in batch:
        if isinstance(op, Acted):
            acted.append(op)
        elif isinstance(op, Changed):
            changed.pop(op.table_id, None)
            changed[op.table_id] = op
        else:
            flush()
            out.append(op)
    flush()
    return out


def action_rows(actions: list[RecordedAction]) -> list[Any]:
    return [converter.unstructure(a) for a in actions]


def actions_from_rows(rows: list[Any]) -> list[RecordedAction]:
    return [converter.structure(r, RecordedAction) for r in rows]


# ---------------------------------------------------------------- the store


class PgStore(RecordReads):
    """The shared store at ``url`` for the process ``instance``. Run the writer with
    ``await nursery.start(store.run)``."""

    def __init__(self, url: str, instance: str) -> None:
        self.url = url
        self.path = "postgresql"  #: as ``Archive.path``, for messages
        self.instance = instance
        self._write_db: Db | None = None
        self._read_db = connect(url)
        self._read_lock = threading.Lock()
        self._send, self._recv = trio.open_memory_channel[Op](QUEUE_SIZE)
        self._pending: dict[str, GameRecord] = {}
        self._queued = 0
        self._idle = trio.Event()
        self._idle.set()
        #: set when a write that others read at once is queued (a record, a new or closed
        #: table): the batch being gathered goes without waiting out ``GATHER_SECONDS``
        self._urgent = trio.Event()
        self._nursery: trio.Nursery | None = None
        self._running = False
        self._closed = False
        self.written = 0  #: records committed since start
        self.batches = 0

    # ------------------------------------------------------------ writing

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        try:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                self._running = True
                task_status.started()
                async for first in self._recv:
                    if not isinstance(first, Acted | Changed):
                        self._urgent.set()
                    with trio.move_on_after(GATHER_SECONDS):  # let the batch fill a little
                        await self._urgent.wait()
                    self._urgent = trio.Event()
                    batch = [first, *waiting(self._recv, BATCH - 1)]
                    await self._write_until_done(batch)
        finally:
            self._running = False
            self._nursery = None
            rest = []
            while True:
                try:
                    rest.append(self._recv.receive_nowait())
                except (trio.WouldBlock, trio.EndOfChannel, trio.ClosedResourceError):
                    break
            if rest:
                self._write_now(rest)

    async def _write_until_done(self, batch: list[Op]) -> None:
        """Write ``batch``; while the database is away, retry it every second. A batch
        the database refuses (a bug: a constraint, a type) is written one op at a time,
        and the refused ops are logged and dropped rather than retried for ever."""
        while True:
            try:
                try:
                    await trio.to_thread.run_sync(self._write, batch)
                except (psycopg.OperationalError, ArchiveError):
                    raise
                except psycopg.Error:
                    log.exception("postgresql: a batch of %d was refused; one at a time",
                                  len(batch))
                    await trio.to_thread.run_sync(self._write_each, batch)
            except (psycopg.OperationalError, ArchiveError) as exc:
                log.warning("postgresql: a batch of %d could not be written (%s); retrying",
                            len(batch), exc)
                await trio.sleep(RETRY_SECONDS)
                continue
            self._done(batch)
            return

    def _write_each(self, batch: list[Op]) -> None:
        for op in batch:
            try:
                self._write([op])
            except (psycopg.OperationalError, ArchiveError):
                raise
            except psycopg.Error:
                log.exception("postgresql: dropped a refused %s of table %s",
                              type(op).__name__, op.table_id)

    def _write_now(self, batch: list[Op]) -> None:
        try:
            self._write(batch)
        except (psycopg.Error, ArchiveError):
            log.exception("postgresql: %d writes lost at exit", len(batch))
            raise
        self._done(batch)

    def _write(self, batch: list[Op]) -> None:
        """One transaction (in a worker thread). A broken connection is replaced next time."""
        if self._write_db is None or self._write_db.closed:
            self._write_db = connect(self.url)
        db = self._write_db
        try:
            with db.transaction():
                for op in compacted(batch):
                    op.apply(db)
        except psycopg.OperationalError:
            db.close()
            raise
        self.batches += 1

    def _done(self, batch: list[Op]) -> None:
        for op in batch:
            if isinstance(op, Archived) and self._pending.get(op.table_id) is op.record:
                del self._pending[op.table_id]
                self.written += 1
        self._queued -= len(batch)
        if self._queued == 0:
            self._idle.set()

    def put(self, op: Op) -> None:
        """Queue ``op`` (returns at once; from any task of this thread's trio run). Once
        the store is closed only a record is refused: the process's exit removes its
        live rows (``heartbeat.leave``)."""
        if self._closed:
            if isinstance(op, Archived):
                raise ArchiveError("the store is closed")
            return
        self._queued += 1
        if self._idle.is_set():
            self._idle = trio.Event()
        if not isinstance(op, Acted | Changed):
            self._urgent.set()
        if not self._running:
            self._write_now([op])
            return
        try:
            self._send.send_nowait(op)
        except trio.WouldBlock:
            assert self._nursery is not None
            self._nursery.start_soon(self._send.send, op)

    def submit(self, game_id: str, record: GameRecord) -> None:
        """Archive ``record`` under ``game_id``; its live rows go with the same write."""
        self._pending[game_id] = record
        self.put(Archived(game_id, record))

    async def flush(self) -> None:
        """Wait until everything queued so far has been written."""
        while self._queued:
            if not self._running:
                break
            await self._idle.wait()

    async def close(self) -> None:
        await self.flush()
        self._closed = True
        self._send.close()
        with self._read_lock:
            self._read_db.close()
        if self._write_db is not None:
            self._write_db.close()

    @property
    def pending(self) -> int:
        return len(self._pending)

    # ------------------------------------------------------------ reading

    def _read(self, query: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """Rows of ``query`` on the read connection (in a worker thread); one reconnect
        when the connection broke."""
        with self._read_lock:
            if self._closed:
                raise ArchiveError("the store is closed")
            for attempt in (1, 2):
                try:
                    if self._read_db.closed:
                        self._read_db = connect(self.url)
                    return self._read_db.execute(query.encode(), params).fetchall()
                except psycopg.OperationalError as exc:
                    self._read_db.close()
                    if attempt == 2:
                        raise ArchiveError(f"PostgreSQL cannot be read: {exc}") from exc
        raise AssertionError("unreachable")

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

    async def lobby(self) -> list[dict[str, Any]]:
        """Every open or running table of every live process, oldest first."""
        rows = await self.read(
            "SELECT t.lobby FROM live_tables t JOIN processes p USING (instance)"
            " WHERE p.stopped_at IS NULL ORDER BY (t.lobby->>'created')::float, t.id")
        return [dict(r[0]) for r in rows]

    async def open_tables_elsewhere(self, address: str) -> int:
        """Tables waiting or playing on the other live processes that ``address`` opened
        (as their owners' writers have committed them: a batch behind, milliseconds)."""
        rows = await self.read(
            "SELECT count(*) FROM operators.table_creators c JOIN live_tables t ON"
            " t.id = c.table_id JOIN processes p ON p.instance = t.instance"
            " WHERE c.address = %s AND t.instance <> %s AND p.stopped_at IS NULL"
            " AND t.lobby->>'state' IN ('waiting', 'playing')", address, self.instance)
        return int(rows[0][0])
