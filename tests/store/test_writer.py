"""The archives' one background writer (``store.writer``), on a fake database: every
operation written once and in order (past the channel's size too), in batches off the
event loop, gathered until an urgent one comes, retried while the database is away,
written one at a time when it refuses a batch, and nothing lost when the writer is
cancelled or gone; retries back off, the writer says since when it fails, a flush on the
way out gives up when told, and what the exit cannot write is named and counted."""

from __future__ import annotations

import logging
import threading
import time
from itertools import pairwise

import pytest
import trio

from quaymoor.store.writer import Writer

log = logging.getLogger("tests.store.writer")


class Transient(Exception):
    """The database is away."""


class Refused(Exception):
    """The database refuses what the batch holds."""


class FakeDb:
    """Records each committed batch; ``away`` fails every write as transient, a batch
    holding an op in ``refuse`` fails as refused."""

    def __init__(self) -> None:
        self.batches: list[list[int]] = []
        self.threads: set[str] = set()
        self.done: list[int] = []
        self.away = False
        self.refuse: set[int] = set()
        self.tries = 0

    def write(self, batch: list[int]) -> None:
        self.tries += 1
        self.threads.add(threading.current_thread().name)
        if self.away:
            raise Transient("away")
        if self.refuse & set(batch):
            raise Refused(f"refused {sorted(self.refuse & set(batch))}")
        self.batches.append(list(batch))

    def written(self, batch: list[int]) -> None:
        self.done.extend(batch)

    @property
    def rows(self) -> list[int]:
        return [op for batch in self.batches for op in batch]


def writer(db: FakeDb, **options: object) -> Writer[int]:
    settings: dict[str, object] = {"label": "fake", "log": log, "queue_size": 4,
                                   "batch": 8, "transient": (Transient,),
                                   "refused": (Refused,), "retry_seconds": 0.01}
    settings.update(options)
    return Writer[int](db.write, db.written, **settings)  # type: ignore[arg-type]


async def test_every_op_is_written_once_in_order_past_the_channels_size() -> None:
    db = FakeDb()
    w = writer(db)
    async with trio.open_nursery() as nursery:
        await nursery.start(w.run)
        for i in range(100):  # 4 fit in the channel; the rest wait on the overflow
            w.put(i)
        assert w.queued == 100
        with trio.fail_after(10):
            await w.flush()
        assert db.rows == list(range(100)) and db.done == list(range(100))
        assert w.queued == 0
        assert max(len(b) for b in db.batches) <= 8 and len(db.batches) >= 100 // 8
        assert threading.main_thread().name not in db.threads
        w.close()
    assert db.rows == list(range(100))


async def test_kept_ops_only_are_written_and_the_rest_count_as_done() -> None:
    db = FakeDb()
    w = writer(db, keep=lambda batch: [op for op in batch if op % 2 == 0])
    async with trio.open_nursery() as nursery:
        await nursery.start(w.run)
        for i in range(10):
            w.put(i)
        with trio.fail_after(10):
            await w.flush()
        assert db.rows == [0, 2, 4, 6, 8] and db.done == [0, 2, 4, 6, 8]
        nursery.cancel_scope.cancel()


async def test_a_batch_gathers_until_an_urgent_op_comes() -> None:
    db = FakeDb()
    w = writer(db, queue_size=64, gather_seconds=0.5, urgent=lambda op: op >= 100)
    async with trio.open_nursery() as nursery:
        await nursery.start(w.run)
        w.put(1)
        await trio.sleep(0.1)
        w.put(2)
        await trio.sleep(0.1)
        assert db.batches == []  # still gathering
        w.put(100)
        with trio.fail_after(5):
            await w.flush()
        assert db.batches == [[1, 2, 100]]
        started = trio.current_time()
        w.put(3)
        with trio.fail_after(5):
            await w.flush()  # nothing urgent: the batch waits out the gathering time
        assert trio.current_time() - started >= 0.5 and db.batches[-1] == [3]
        nursery.cancel_scope.cancel()


async def test_a_batch_is_retried_while_the_database_is_away() -> None:
    db = FakeDb()
    w = writer(db)
    async with trio.open_nursery() as nursery:
        await nursery.start(w.run)
        db.away = True
        for i in range(3):
            w.put(i)
        await trio.sleep(0.1)
        assert db.tries >= 3 and db.rows == [] and w.queued == 3
        db.away = False
        with trio.fail_after(5):
            await w.flush()
        assert db.rows == [0, 1, 2]
        nursery.cancel_scope.cancel()


async def test_a_refused_batch_goes_one_op_at_a_time_and_the_refused_are_dropped(
    caplog: pytest.LogCaptureFixture,
) -> None:
    db = FakeDb()
    db.refuse = {2}
    w = writer(db, queue_size=64, describe=lambda op: f"op {op}")
    with caplog.at_level(logging.ERROR, logger=log.name):
        async with trio.open_nursery() as nursery:
            await nursery.start(w.run)
            for i in range(5):
                w.put(i)
            with trio.fail_after(5):
                await w.flush()
            nursery.cancel_scope.cancel()
    assert db.batches == [[0], [1], [3], [4]]
    assert db.done == [0, 1, 2, 3, 4]  # the refused one is done with (dropped)
    messages = [r.getMessage() for r in caplog.records]
    assert "fake: a batch of 5 was refused; one at a time" in messages
    assert "fake: dropped a refused op 2" in messages


async def test_what_is_queued_is_written_when_the_writer_is_cancelled() -> None:
    db = FakeDb()
    w = writer(db)
    async with trio.open_nursery() as nursery:
        await nursery.start(w.run)
        for i in range(50):  # in the channel, in the writer's hand and on the overflow
            w.put(i)
        nursery.cancel_scope.cancel()  # before the writer has had a turn
    assert db.rows == list(range(50)) and w.queued == 0
    w.put(50)  # the writer is gone: written at once, on this thread
    assert db.batches[-1] == [50] and threading.main_thread().name in db.threads
    await w.flush()


async def test_an_error_of_no_known_kind_ends_the_writer_and_is_raised() -> None:
    db = FakeDb()
    tries: list[list[int]] = []

    def broken(batch: list[int]) -> None:
        tries.append(list(batch))
        raise RuntimeError("a bug")

    w = Writer[int](broken, db.written, label="fake", log=log, queue_size=4, batch=8)
    with pytest.raises(ExceptionGroup) as caught:
        async with trio.open_nursery() as nursery:
            await nursery.start(w.run)
            w.put(1)
            await trio.sleep_forever()
    assert caught.group_contains(RuntimeError, match="a bug")
    assert tries == [[1], [1]]  # in the writer's thread, then once more on its way out
    assert db.done == [] and w.queued == 1


class TimedDb(FakeDb):
    """A ``FakeDb`` that keeps when each write was tried."""

    def __init__(self) -> None:
        super().__init__()
        self.tried_at: list[float] = []

    def write(self, batch: list[int]) -> None:
        self.tried_at.append(time.monotonic())
        super().write(batch)


async def test_retries_back_off_and_the_writer_says_since_when_it_fails() -> None:
    db = TimedDb()
    w = writer(db, retry_seconds=0.02, max_retry_seconds=0.16)
    tries_at = db.tried_at
    async with trio.open_nursery() as nursery:
        await nursery.start(w.run)
        assert not w.health(pending=0, limit=10).failing
        db.away = True
        w.put(1)
        await trio.sleep(0.8)
        failing = w.health(pending=1, limit=10)
        assert failing.failing and failing.failures == len(tries_at) >= 5
        assert failing.last_error == "Transient: away"
        assert failing.failing_since is not None and failing.last_failure is not None
        assert failing.text().startswith("archive failing since ")
        assert failing.text().endswith(", 1 pending")
        gaps = [b - a for a, b in pairwise(tries_at)]
        assert gaps[0] < 0.06 and gaps[3] >= 0.15  # 0.02, 0.04, 0.08, then 0.16 ...
        assert max(gaps) < 0.3  # ... and no longer
        db.away = False
        with trio.fail_after(5):
            await w.flush()
        mended = w.health(pending=0, limit=10)
        assert not mended.failing and mended.failures == failing.failures
        assert mended.last_failure == failing.last_failure and db.rows == [1]
        nursery.cancel_scope.cancel()


async def test_a_flush_gives_up_after_failing_for_as_long_as_it_is_told() -> None:
    db = FakeDb()
    w = writer(db)
    async with trio.open_nursery() as nursery:
        await nursery.start(w.run)
        db.away = True
        w.put(1)
        started = trio.current_time()
        with trio.fail_after(5):
            assert await w.flush(failing_wait=0.2) is False
        assert 0.2 <= trio.current_time() - started < 1.0 and w.queued == 1
        db.away = False
        with trio.fail_after(5):
            assert await w.flush(failing_wait=0.2) is True
        nursery.cancel_scope.cancel()


async def test_what_the_exit_cannot_write_is_named_and_counted_not_raised(
    caplog: pytest.LogCaptureFixture,
) -> None:
    db = FakeDb()
    w = writer(db, describe=lambda op: f"op {op}")
    with caplog.at_level(logging.ERROR, logger=log.name):
        async with trio.open_nursery() as nursery:
            await nursery.start(w.run)
            db.away = True
            w.put(1)
            w.put(2)
            await trio.sleep(0.05)
            nursery.cancel_scope.cancel()  # the process exits with the database away
    assert w.health(pending=2, limit=10).lost == 2 and db.rows == []
    assert await w.flush() is False and w.queued == 2  # given up: not written, not done
    assert w.health(pending=2, limit=10).lost == 2
    assert "fake: 2 writes lost: op 1, op 2" in [r.getMessage() for r in caplog.records]
