"""A single process's running games in SQLite, so that a SIGKILL or a power loss loses
none of them: written as they are played, ended and archived when the process starts
again.

What is kept. In a file beside the archive (``live_path``: ``games.sqlite3-live`` for
``games.sqlite3``; the archive's own file and schema stay as they are), which one process
at a time may hold (``_hold``: a lock the kernel drops when the process dies), for each game
being played: its seeds and seats, written once when it starts (``live_games``), and
each action as it happens (``live_actions``). The seeds are hidden information: nothing
serves this file, and the seeds leave it only in the record of a game that has ended.
A table that never started leaves nothing (no game, no record).

How it is written. As the PostgreSQL store writes its live rows (``pg_lobby``): every
write is an operation queued on one ``store.writer.Writer``, in the order it happened,
and applied in batches, one transaction each in a worker thread, the file in WAL mode
with ``synchronous=FULL`` (a commit is on the disk when it returns, power loss too). A
game's start goes at once; actions gather for ``GATHER_SECONDS`` first, which bounds what
a kill can take: the actions of the last batch not yet committed. A game's rows are
deleted only once its record is no longer pending in the archive (``ended``), so that at
every moment one of the two holds the game.

After a crash. ``end_unfinished`` (at start, before the server listens) ends every game
the file still holds as "shutdown", replayed from its seeds through the rules
(``live_games.ended_record``: the replay the cluster's survivors use), and archives the
record; a game whose record the archive holds already (the process died between the two
writes) only has its rows dropped.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import shutil
import socket
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Final, TypeAlias

import attrs
import trio

from quaymoor.rules.record import RecordedAction
from quaymoor.store.archive import (
    EXIT_WAIT,
    MAX_RETRY_SECONDS,
    RETRY_SECONDS,
    Archive,
    ArchiveError,
)
from quaymoor.store.live_games import LiveGame, action_rows, actions_from_rows, ended_record
from quaymoor.store.ratings import GameAccounts
from quaymoor.store.writer import Writer

log = logging.getLogger("quaymoor.store.live")

QUEUE_SIZE: Final = 4096
BATCH: Final = 512
#: As ``pg_archive.GATHER_SECONDS``: how long a batch of actions fills before it is
#: written (each batch is a transaction, an fsync and a trip to a worker thread); what a
#: SIGKILL or a power loss can take of the actions as they happen.
GATHER_SECONDS: Final = 0.02
#: Free bytes below which a failed write is not tried again (the archive's come first).
GIVE_WAY_BYTES: Final = 1 << 20
#: How often ended games whose record is still pending in the archive are looked at again.
ENDED_CHECK_SECONDS: Final = 0.5

_SCHEMA = """
CREATE TABLE IF NOT EXISTS live_games (
    table_id     TEXT PRIMARY KEY,
    players      INTEGER NOT NULL,
    seed         TEXT NOT NULL,
    client_seeds TEXT NOT NULL,
    seat_seeds   TEXT NOT NULL,
    seats        TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS live_hints (
    table_id TEXT NOT NULL,
    seat     INTEGER NOT NULL,
    given    INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS live_algorithms (
    table_id  TEXT PRIMARY KEY,
    algorithm TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS live_accounts (
    table_id TEXT PRIMARY KEY,
    accounts TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS live_actions (
    table_id TEXT NOT NULL,
    n        INTEGER NOT NULL,
    action   TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
) WITHOUT ROWID;
"""


def live_path(archive_path: str) -> str:
    """Where the running games of the archive at ``archive_path`` are kept."""
    return archive_path + "-live"


# ---------------------------------------------------------------- what is written


@attrs.frozen
class Began:
    """A game started: its seeds and seats (hidden until it ends)."""

    game: LiveGame

    def apply(self, db: sqlite3.Connection) -> None:
        g = self.game
        db.execute("INSERT OR REPLACE INTO live_games (table_id, players, seed, client_seeds,"
                   " seat_seeds, seats) VALUES (?, ?, ?, ?, ?, ?)",
                   (g.table_id, g.players, g.seed, json.dumps(g.client_seeds),
                    json.dumps(g.seat_seeds), json.dumps(g.seats)))
        db.execute("INSERT OR REPLACE INTO live_algorithms (table_id, algorithm) VALUES (?, ?)",
                   (g.table_id, g.algorithm))


@attrs.frozen
class Acted:
    """Actions ``first``, ``first + 1``, ... of the game (turned into rows in the
    writer's thread, off the event loop)."""

    table_id: str
    first: int
    actions: list[RecordedAction]

    def apply(self, db: sqlite3.Connection) -> None:
        db.executemany(
            "INSERT OR IGNORE INTO live_actions (table_id, n, action) VALUES (?, ?, ?)",
            [(self.table_id, self.first + i, json.dumps(row))
             for i, row in enumerate(action_rows(self.actions))])


@attrs.frozen
class Hinted:
    """The hints each seat was given so far (a player's use of hints is theirs: the
    record of a killed game says it too)."""

    table_id: str
    given: list[int]

    def apply(self, db: sqlite3.Connection) -> None:
        db.executemany(
            "INSERT OR REPLACE INTO live_hints (table_id, seat, given) VALUES (?, ?, ?)",
            [(self.table_id, seat, n) for seat, n in enumerate(self.given)])


@attrs.frozen
class Seated:
    """Who sits where (``ratings.GameAccounts``: accounts, bot levels, who left), so that a
    killed game's record is archived with its accounts: in their games, and rated if its
    last action ended it."""

    table_id: str
    accounts: GameAccounts

    def apply(self, db: sqlite3.Connection) -> None:
        db.execute("INSERT OR REPLACE INTO live_accounts (table_id, accounts) VALUES (?, ?)",
                   (self.table_id, json.dumps(self.accounts.to_json())))


@attrs.frozen
class Ended:
    """The games' records are archived: their rows go."""

    table_ids: list[str]

    def apply(self, db: sqlite3.Connection) -> None:
        ids = [(t,) for t in self.table_ids]
        db.executemany("DELETE FROM live_actions WHERE table_id = ?", ids)
        db.executemany("DELETE FROM live_hints WHERE table_id = ?", ids)
        db.executemany("DELETE FROM live_accounts WHERE table_id = ?", ids)
        db.executemany("DELETE FROM live_algorithms WHERE table_id = ?", ids)
        db.executemany("DELETE FROM live_games WHERE table_id = ?", ids)


LiveOp: TypeAlias = Began | Acted | Hinted | Seated | Ended


def _urgent(op: LiveOp) -> bool:
    """A game's start goes at once (without its seeds none of its actions can be replayed);
    actions and ends gather."""
    return isinstance(op, Began)


# ---------------------------------------------------------------- the store


class LiveStore:
    """The running games of this process, in SQLite at ``path``; ``archive`` is where
    their records go. Run the writer with ``await nursery.start(store.run)``."""

    def __init__(self, path: str, archive: Archive) -> None:
        self.path = path
        self.archive = archive
        self._held = _hold(path)
        try:
            self._db: sqlite3.Connection | None = _open(path)
        except ArchiveError:
            self._held.close()
            raise
        self._lock = threading.Lock()  #: the writer's thread, and the reads at start
        self._writer = Writer[LiveOp](
            self._write, lambda _: None, label=f"live games {path}", log=log,
            queue_size=QUEUE_SIZE, batch=BATCH, gather_seconds=GATHER_SECONDS,
            urgent=_urgent, transient=(sqlite3.OperationalError,), refused=(sqlite3.Error,),
            retry_seconds=RETRY_SECONDS, max_retry_seconds=MAX_RETRY_SECONDS,
            describe=lambda op: type(op).__name__)
        #: games ended whose rows wait for their records to leave the archive's pending
        self._ending: list[str] = []
        self._ending_due = trio.Event()
        self._closed = False
        self.batches = 0  #: transactions committed since start

    @classmethod
    def beside(cls, archive: Archive) -> LiveStore | None:
        """The store beside ``archive``'s file; None for an archive in memory (nothing is
        kept across a kill)."""
        if archive.path == ":memory:":
            return None
        return cls(live_path(archive.path), archive)

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """The writer, and the task that drops the rows of games once archived; until
        cancelled. On the way out (the writer has written what was queued) the file's lock
        is let go."""
        try:
            async with trio.open_nursery() as nursery:
                await nursery.start(self._writer.run)
                nursery.start_soon(self._drop_archived)
                task_status.started()
        finally:  # what was queued is written: the next server on this archive may start
            self._held.close()

    # ------------------------------------------------------------ told (from an actor)

    def began(self, game: LiveGame) -> None:
        self._put(Began(game))

    def acted(self, table_id: str, first: int, actions: list[RecordedAction]) -> None:
        self._put(Acted(table_id, first, actions))

    def hinted(self, table_id: str, given: list[int]) -> None:
        self._put(Hinted(table_id, list(given)))

    def seated(self, table_id: str, accounts: GameAccounts) -> None:
        self._put(Seated(table_id, accounts))

    def ended(self, table_id: str) -> None:
        """The game's record has been submitted to the archive: its rows go once the
        archive has written it."""
        self._ending.append(table_id)
        self._ending_due.set()

    def _put(self, op: LiveOp) -> None:
        if not self._closed:
            self._writer.put(op)

    async def _drop_archived(self) -> None:
        """Forever: the rows of ended games whose records the archive has written go;
        those still pending (a batch being written, or a disk failing) are looked at again
        every ``ENDED_CHECK_SECONDS``. (Not ``Archive.flush``: that is for the way out, and
        says so when the disk fails.)"""
        while True:
            await self._ending_due.wait()
            await trio.sleep(ENDED_CHECK_SECONDS)
            self._ending_due = trio.Event()
            self._drop_written()
            if self._ending:
                self._ending_due.set()

    def _drop_written(self) -> None:
        written = [t for t in self._ending if self.archive.pending_record(t) is None]
        if written:
            done = set(written)
            self._ending = [t for t in self._ending if t not in done]
            self._put(Ended(written))

    async def close(self) -> None:
        """After the supervisor's shutdown (every record submitted, the archive flushed):
        drop the rows of the games archived, write what is queued (while the disk fails,
        ``EXIT_WAIT`` seconds of failures at most), close the file. A game whose record is
        still pending keeps its rows: a restart ends it again."""
        await self.archive.flush()
        self._drop_written()
        if not await self._writer.flush(failing_wait=EXIT_WAIT):  # the disk still fails
            log.error("live games %s: %d writes not made (a restart ends the games from "
                      "what was written)", self.path, self._writer.queued,
                      extra={"event": "live_writes_unwritten"})
            self._closed = True  # the writer keeps its file until the process exits
            return
        self._closed = True
        self._writer.close()
        with self._lock:
            if self._db is not None:
                self._db.close()
        self._held.close()

    def _write(self, batch: list[LiveOp]) -> None:
        """One transaction (in a worker thread, or blocking on the way out). A failing
        disk closes the file (its space and its mount let go, as the archive's writes
        do); the retry opens it again, never creating it (a disk unmounted meanwhile),
        and not while the disk is nearly full: the archive's records have the space
        first."""
        with self._lock:
            if self._db is None:
                self._db = _reopen(self.path)
            try:
                with _transaction(self._db) as db:
                    for op in batch:
                        op.apply(db)
            except (sqlite3.OperationalError, OSError):
                with contextlib.suppress(sqlite3.Error):
                    self._db.close()
                self._db = None
                raise
        self.batches += 1

    # ------------------------------------------------------------ after a crash

    async def end_unfinished(self) -> list[str]:
        """End every game a killed process left in the file (see the module's docstring);
        returns their table ids. The archive's writer must be running."""
        games = await trio.to_thread.run_sync(self.unfinished)
        ended: list[str] = []
        for game in games:
            if not await self.archive.has(game.table_id):
                try:
                    record = await trio.to_thread.run_sync(ended_record, game)
                except Exception:  # kept for an operator: its rows stay
                    log.exception("table %s left by a killed process could not be replayed",
                                  game.table_id)
                    continue
                self.archive.submit(game.table_id, record, game.accounts)
                log.warning("table %s: its process was killed; ended as a shutdown after %d "
                            "actions", game.table_id, len(game.actions),
                            extra={"event": "killed_game_ended", "table": game.table_id})
            ended.append(game.table_id)
            self.ended(game.table_id)
        return ended

    def unfinished(self) -> list[LiveGame]:
        """Every game in the file, with its actions (blocking: call it in a thread)."""
        with self._lock:
            return self._unfinished()

    def _unfinished(self) -> list[LiveGame]:
        if self._db is None:
            self._db = _reopen(self.path)
        games = self._db.execute(
            "SELECT table_id, players, seed, client_seeds, seat_seeds, seats FROM live_games"
            " ORDER BY table_id").fetchall()
        out = []
        for table_id, players, seed, client_seeds, seat_seeds, seats in games:
            rows = self._db.execute("SELECT n, action FROM live_actions WHERE table_id = ?"
                                    " ORDER BY n", (table_id,)).fetchall()
            # One writer writes them in order, so they run 0, 1, 2, ...: should a gap ever
            # be found, what follows it could not be replayed anyway.
            actions = [json.loads(a) for i, (n, a) in enumerate(rows) if n == i]
            hints = [0] * int(players)
            for seat, given in self._db.execute(
                    "SELECT seat, given FROM live_hints WHERE table_id = ?", (table_id,)):
                if 0 <= seat < len(hints):
                    hints[seat] = int(given)
            seated = self._db.execute("SELECT accounts FROM live_accounts WHERE table_id = ?",
                                      (table_id,)).fetchone()
            who = None if seated is None else GameAccounts.from_json(json.loads(seated[0]))
            dealt_by = self._db.execute("SELECT algorithm FROM live_algorithms WHERE"
                                        " table_id = ?", (table_id,)).fetchone()
            out.append(LiveGame(str(table_id), int(players), str(seed), json.loads(client_seeds),
                                json.loads(seat_seeds), json.loads(seats),
                                actions_from_rows(actions), hints, who,
                                "" if dealt_by is None else str(dealt_by[0])))
        return out


def _hold(path: str) -> socket.socket:
    """The lock that makes this process the only one keeping the running games at
    ``path``: an abstract unix socket named after the file (nothing on the disk, so a
    failing disk can still be unmounted; the kernel drops it when the process dies; one
    network namespace's). A second server on the same archive would end the first one's
    games at its start, and publish their seeds while they are still being played: it is
    refused instead."""
    name = hashlib.sha256(os.path.realpath(path).encode()).hexdigest()[:32]
    held = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        held.bind(f"\0quaymoor-live-{name}")
    except OSError:
        held.close()
        raise ArchiveError(f"{path}: another quaymoor serve keeps its running games here "
                           "(it uses the same --archive): give this one an archive of its "
                           "own") from None
    return held


def _reopen(path: str) -> sqlite3.Connection:
    """The file opened again after a failure: never created, and not on a nearly full
    disk (``GIVE_WAY_BYTES``); raises ``sqlite3.OperationalError`` (retried) else."""
    try:
        free = shutil.disk_usage(os.path.dirname(os.path.abspath(path))).free
    except OSError as exc:
        raise sqlite3.OperationalError(f"{path}: {exc}") from exc
    if free < GIVE_WAY_BYTES:
        raise sqlite3.OperationalError(f"{path}: {free} bytes free: the archive's first")
    db = sqlite3.connect(f"file:{path}?mode=rw", uri=True, check_same_thread=False,
                         isolation_level=None, timeout=30.0)
    try:
        db.execute("PRAGMA synchronous=FULL")
    except sqlite3.Error:
        db.close()
        raise
    return db


def _open(path: str) -> sqlite3.Connection:
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30.0)
    except (OSError, sqlite3.Error) as exc:
        raise ArchiveError(f"{path}: cannot open the running games' file: {exc}") from exc
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.executescript(_SCHEMA)
    except sqlite3.Error as exc:
        db.close()
        raise ArchiveError(f"{path}: cannot open the running games' file: {exc}") from exc
    return db


@contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
