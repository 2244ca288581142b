"""The one background writer of both archives (SQLite's ``archive``, PostgreSQL's
``pg_archive``): a queue of write operations drained in batches, each batch written in a
worker thread so that the event loop never waits on a database.

How it works. ``put`` (synchronous: a table's actor calls it) queues an operation on a
bounded memory channel and returns at once; past the channel's size the operation waits
on an overflow list, which one task of the writer's moves into the channel as room comes,
so that the caller never waits and the order of every operation is kept. The writer task
(``run``) takes what is queued, at most ``batch`` operations at a time; with
``gather_seconds`` a batch whose first operation is not ``urgent`` lets more gather for
that long first (an urgent one, queued meanwhile, ends the wait). Each batch goes through
``keep`` (the operations still worth writing: a later one may supersede an earlier one)
to ``write`` in a worker thread (one transaction), then to ``written`` on the event loop.
``flush`` waits until everything queued so far has gone through.

Errors. An error of ``transient`` (the database restarting; for SQLite a full disk, a
read-only or failing filesystem) makes the batch wait and go again, until it commits: the
first wait is ``retry_seconds``, each next one twice as long, up to ``max_retry_seconds``
(backoff: a disk that stays full is not hammered). While a batch fails the writer is
*failing* (``health``: since when, how many failures, the last error); the first commit
after that ends it. Nothing queued is dropped meanwhile: every operation waits in the
channel and the overflow (whoever owns the writer bounds how much it lets wait).

An error of ``refused`` (the database refuses what a batch holds: a bug, a constraint)
has the batch written one operation at a time, each refused one logged and dropped rather
than retried for ever. Any other error ends the writer (and the nursery it runs in), and
its batch is tried once more on the way out.

When the writer is not running (never started, or gone: cancelled with the rest of the
server) nothing is lost: on its way out it writes at once, blocking, the batch it had in
hand (when the writer was cancelled or failed before it committed) and whatever is still
queued, and a ``put`` after that writes its operation at once, blocking, as the process
is going down. If that last write fails too (the disk is still full as the process
exits) the operations are logged by name as lost and counted (``health().lost``): never
dropped in silence.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import attrs
import trio

from quaymoor.ops.channels import waiting

T = TypeVar("T")

Errors = tuple[type[BaseException], ...]


@attrs.frozen
class WriteHealth:
    """How an archive's writes are going, for ``/status``, ``/metrics`` and the
    supervisor (which opens no new table while ``full``)."""

    pending: int  #: records submitted and not yet written
    limit: int  #: past this many pending records no new table opens
    failures: int  #: failed attempts to write a batch, since the start
    failing_since: float | None  #: wall-clock time of the first failure of this streak
    last_failure: float | None  #: wall-clock time of the last failure, ever
    last_error: str | None  #: what the last failure said
    lost: int  #: operations the exit could not write (logged by name)

    @property
    def failing(self) -> bool:
        return self.failing_since is not None

    @property
    def full(self) -> bool:
        """As many records wait as the archive lets wait: no new tables until they drain."""
        return self.pending >= self.limit

    def text(self) -> str:
        """One line for the status page: "archive ok" or "archive failing since ...,
        N pending"."""
        if self.failing_since is None:
            return f"archive ok, {self.pending} pending"
        since = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(self.failing_since))
        text = f"archive failing since {since}, {self.pending} pending"
        return text + (f" (limit {self.limit} reached: no new tables)" if self.full else "")

    def as_json(self) -> dict[str, Any]:
        return {**attrs.asdict(self), "failing": self.failing, "full": self.full,
                "text": self.text()}


class Writer(Generic[T]):
    """Queues operations of type ``T`` and writes them in batches (the module's
    docstring). ``label`` begins every message it logs on ``log``; ``describe`` names a
    dropped operation in them. Run it with ``await nursery.start(writer.run)``."""

    def __init__(
        self,
        write: Callable[[list[T]], None],
        written: Callable[[list[T]], None],
        *,
        label: str,
        log: logging.Logger,
        queue_size: int,
        batch: int,
        keep: Callable[[list[T]], list[T]] | None = None,
        gather_seconds: float = 0.0,
        urgent: Callable[[T], bool] | None = None,
        transient: Errors = (),
        refused: Errors = (),
        retry_seconds: float = 1.0,
        max_retry_seconds: float | None = None,
        describe: Callable[[T], str] = repr,
    ) -> None:
        self._write = write
        self._written = written
        self._keep = keep
        self._label = label
        self._log = log
        self._batch = batch
        self._gather = gather_seconds
        self._is_urgent = urgent
        self._transient = transient
        self._refused = refused
        self._retry_seconds = retry_seconds
        self._max_retry = retry_seconds if max_retry_seconds is None else max_retry_seconds
        self._describe = describe
        self._failures = 0
        self._failing_since: float | None = None  #: wall clock, for people
        self._failing_at = 0.0  #: trio's clock, for ``flush``'s patience
        self._last_failure: float | None = None
        self._last_error: str | None = None
        self._lost = 0
        self._send, self._recv = trio.open_memory_channel[T](queue_size)
        self._overflow: deque[T] = deque()
        self._unwritten: list[T] = []  #: the batch in hand when the writer ended
        self._moving = False
        self._queued = 0
        self._idle = trio.Event()
        self._idle.set()
        #: set when an urgent operation is queued: the batch being gathered goes at once
        self._urgent = trio.Event()
        self._nursery: trio.Nursery | None = None
        self._running = False

    @property
    def queued(self) -> int:
        """Operations put and not yet through ``written``."""
        return self._queued

    def health(self, *, pending: int, limit: int) -> WriteHealth:
        """Its failures now; ``pending`` and ``limit`` are the owner's (records, not ops)."""
        return WriteHealth(pending, limit, self._failures, self._failing_since,
                           self._last_failure, self._last_error, self._lost)

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """The single writer, until cancelled or ``close``d. On the way out (cancelled
        too), whatever is still queued is written at once."""
        try:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                self._running = True
                task_status.started()
                async for first in self._recv:
                    if self._gather:
                        if self._urgent_op(first):
                            self._urgent.set()
                        with trio.move_on_after(self._gather):  # let the batch fill a little
                            await self._urgent.wait()
                        self._urgent = trio.Event()
                    batch = [first, *waiting(self._recv, self._batch - 1)]
                    try:
                        await self._write_until_done(batch)
                    except BaseException:  # cancelled too: written on the way out
                        self._unwritten = batch
                        raise
        finally:
            self._running = False
            self._nursery = None
            self._write_rest()

    def put(self, op: T) -> None:
        """Queue ``op``; returns at once (from any task of this thread's trio run). When
        the writer is not running, writes it at once, blocking; its error, if any, is
        logged and raised."""
        self._queued += 1
        if self._idle.is_set():
            self._idle = trio.Event()
        if self._urgent_op(op):
            self._urgent.set()
        if not self._running:
            self._write_now([op])
            return
        if not self._overflow:
            try:
                self._send.send_nowait(op)
                return
            except trio.WouldBlock:
                pass
        self._overflow.append(op)
        if not self._moving and self._nursery is not None:
            with contextlib.suppress(RuntimeError):  # the writer is going: it writes the rest
                self._nursery.start_soon(self._move_overflow)
                self._moving = True

    async def flush(self, *, failing_wait: float | None = None) -> bool:
        """Wait until every operation put so far has been written (or dropped as
        refused). With the writer gone, writes what it left at once. With
        ``failing_wait``, gives up once the writes have been failing that many seconds
        (the process is exiting and the disk is still full): returns False then, with
        the operations still queued (False too when the writer is gone and its last write
        failed)."""
        while self._queued:
            if not self._running:
                self._write_rest()
                return not self._queued  # what it could not write is logged as lost
            if failing_wait is None:
                await self._idle.wait()
                continue
            with trio.move_on_after(0.1):
                await self._idle.wait()
            if (self._failing_since is not None
                    and trio.current_time() - self._failing_at >= failing_wait):
                return False
        return True

    def close(self) -> None:
        """Take no more operations into the channel: the writer ends once it has written
        what it holds. (Whoever owns the writer refuses later ``put``s.)"""
        self._send.close()

    # ------------------------------------------------------------ inside

    def _urgent_op(self, op: T) -> bool:
        return self._gather > 0 and (self._is_urgent is None or self._is_urgent(op))

    async def _move_overflow(self) -> None:
        """Move the overflow into the channel, oldest first, as the channel has room."""
        try:
            while self._overflow:
                await self._send.send(self._overflow[0])
                self._overflow.popleft()
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass  # the writer is closing: the rest is written on its way out
        finally:
            self._moving = False

    async def _write_until_done(self, batch: list[T]) -> None:
        """Write ``batch``; retry it while the errors are transient, one operation at a
        time when the database refuses it."""
        todo = self._kept(batch)
        delay = self._retry_seconds
        while todo:
            try:
                try:
                    await trio.to_thread.run_sync(self._write, todo)
                except self._transient:
                    raise
                except self._refused:
                    self._log.exception("%s: a batch of %d was refused; one at a time",
                                        self._label, len(todo))
                    await trio.to_thread.run_sync(self._write_each, todo)
            except self._transient as exc:
                self._failed(exc)
                self._log.warning(
                    "%s: a batch of %d could not be written (%s); retrying in %.2g s",
                    self._label, len(todo), exc, delay,
                    extra={"event": "archive_write_failed"})
                await trio.sleep(delay)
                delay = min(delay * 2, self._max_retry)
                continue
            break
        if self._failing_since is not None:
            self._log.warning("%s: writing again after %.1f s of failures", self._label,
                              time.time() - self._failing_since,
                              extra={"event": "archive_write_recovered"})
            self._failing_since = None
        self._done(batch, todo)

    def _failed(self, exc: BaseException) -> None:
        now = time.time()
        self._failures += 1
        self._last_failure = now
        self._last_error = f"{type(exc).__name__}: {exc}"
        if self._failing_since is None:
            self._failing_since = now
            self._failing_at = trio.current_time()

    def _write_each(self, todo: list[T]) -> None:
        for op in todo:
            try:
                self._write([op])
            except self._transient:
                raise
            except self._refused:
                self._log.exception("%s: dropped a refused %s", self._label,
                                    self._describe(op))

    def _write_rest(self) -> None:
        """Write what is still queued (the batch in hand, the channel, then the
        overflow), blocking."""
        rest, self._unwritten = self._unwritten, []
        while True:
            try:
                rest.append(self._recv.receive_nowait())
            except (trio.WouldBlock, trio.EndOfChannel, trio.ClosedResourceError):
                break
        rest.extend(self._overflow)
        self._overflow.clear()
        if rest:
            with contextlib.suppress(Exception):  # logged and counted by ``_write_now``
                self._write_now(rest)

    def _write_now(self, batch: list[T]) -> None:
        todo = self._kept(batch)
        if todo:
            try:
                self._write(todo)
            except Exception:
                self._lost += len(todo)
                self._log.exception("%s: %d writes lost: %s", self._label, len(todo),
                                    ", ".join(self._describe(op) for op in todo),
                                    extra={"event": "archive_writes_lost"})
                raise
        self._done(batch, todo)

    def _kept(self, batch: list[T]) -> list[T]:
        return batch if self._keep is None else self._keep(batch)

    def _done(self, batch: list[T], todo: list[T]) -> None:
        self._written(todo)
        self._queued -= len(batch)
        if self._queued == 0:
            self._idle.set()
