"""The SQLite game archive: records survive a restart, writes run off the event loop one
batch at a time, nothing pending is lost when the writer is cancelled or gone, and old
(format 1) records still read and verify."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

import attrs
import pytest
import trio

from quaymoor.bots.prng import SplitMix64
from quaymoor.rules.game import Game
from quaymoor.rules.record import GameRecord, SeatInfo
from quaymoor.rules.verify import verify_record
from quaymoor.store.archive import Archive, ArchiveError, check_archive
from quaymoor.tools.selfplay import game_seed, play_random
from tests.fairness.conftest import game_record


def small_record(i: int, *, ended_at: float | None = None, reason: str = "finished"
                 ) -> GameRecord:
    game = Game(2, game_seed(99, i), [f"c{i}"], events=True)
    if reason == "finished":
        play_random(game, SplitMix64(i))
    else:
        for _ in range(5):
            seat = game.deciding()[0]
            game.apply(seat, game.legal_actions(seat)[0])
    return game.record([SeatInfo("Ada", False), SeatInfo("Bede (bot)", True)],
                       game=f"{i:010x}", end_reason=reason,
                       ended_at=ended_at if ended_at is not None else 1_800_000_000.0 + i)


async def test_records_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "folder" / "games.sqlite3"  # folders are created
    records = {f"{i:010x}": small_record(i, reason="finished" if i % 2 else "shutdown")
               for i in range(4)}
    async with trio.open_nursery() as nursery:
        archive = Archive(path)
        await nursery.start(archive.run)
        for game_id, rec in records.items():
            archive.submit(game_id, rec)
        await archive.flush()
        assert archive.pending == 0
        await archive.close()
    again = Archive(path)
    for game_id, rec in records.items():
        text = await again.record_json(game_id)
        assert text == rec.to_json()
        assert await again.record(game_id) == rec
        assert await again.has(game_id)
    assert await again.record_json("ffffffffff") is None
    assert not await again.has("ffffffffff")
    recent = await again.recent(3)
    assert [g.id for g in recent] == [f"{i:010x}" for i in (3, 2, 1)]  # newest first
    assert recent[0].reason == "finished" and recent[1].reason == "shutdown"
    assert recent[0].seats[0] == {"seat": 0, "name": "Ada", "bot": False}
    assert recent[1].winners == [] and recent[1].actions == 5
    assert recent[0].totals == [x.total for x in records[recent[0].id].result.scores]  # type: ignore[union-attr]
    # the indexed columns are there for anyone with sqlite3
    db = sqlite3.connect(path)
    columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
    assert {"id", "ended_at", "players", "reason", "record"} <= columns
    indexed = {row[2] for name, in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'games'")
        for row in db.execute(f"PRAGMA index_info({name})")}
    assert {"ended_at", "players", "reason"} <= indexed
    db.close()


async def test_writes_run_in_a_worker_thread_one_batch_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: set[str] = set()
    running = 0
    most = 0
    original = Archive._write

    def watched(self: Archive, todo: list[Any]) -> None:
        nonlocal running, most
        threads.add(threading.current_thread().name)
        running += 1
        most = max(most, running)
        try:
            original(self, todo)
        finally:
            running -= 1

    monkeypatch.setattr(Archive, "_write", watched)
    rec = small_record(1)
    async with trio.open_nursery() as nursery:
        archive = Archive(tmp_path / "a.sqlite3", queue_size=4)  # overflow past 4 queued
        await nursery.start(archive.run)
        for i in range(300):
            archive.submit(f"{i:010x}", attrs.evolve(rec, game=f"{i:010x}"))
        assert archive.pending == 300
        assert await archive.record_json("000000012b") is not None  # pending: served already
        await archive.flush()
        assert archive.written == 300
        assert archive.count_sync() == 300
        await archive.close()
    assert threading.main_thread().name not in threads
    assert most == 1


async def test_a_newer_record_for_the_same_game_replaces_the_older(tmp_path: Path) -> None:
    async with trio.open_nursery() as nursery:
        archive = Archive(tmp_path / "a.sqlite3")
        await nursery.start(archive.run)
        first, second = small_record(1, reason="shutdown"), small_record(1)
        archive.submit("0000000001", first)
        archive.submit("0000000001", second)
        await archive.flush()
        assert await archive.record("0000000001") == second
        assert archive.count_sync() == 1
        await archive.close()


async def test_what_is_pending_is_written_when_the_writer_is_cancelled(tmp_path: Path) -> None:
    path = tmp_path / "a.sqlite3"
    archive = Archive(path)
    async with trio.open_nursery() as nursery:
        await nursery.start(archive.run)
        for i in range(50):
            archive.submit(f"{i:010x}", small_record(i % 3))
        nursery.cancel_scope.cancel()  # before the writer has had a turn
    assert archive.pending == 0
    archive.submit("00000000ff", small_record(7))  # the writer is gone: written at once
    assert archive.pending == 0
    assert Archive(path).count_sync() == 51


async def test_an_old_format_1_record_is_still_read_and_verified(tmp_path: Path) -> None:
    data = json.loads(small_record(3).to_json())
    for key in ("game", "end_reason", "ended_at", "first_warden", "turned_up", "seat_seeds"):
        del data[key]
    data["format"] = 1
    old = GameRecord.from_json(json.dumps(data))
    assert old.format == 1 and old.turned_up is None and old.end_reason is None
    assert verify_record(old).ok, verify_record(old).message
    archive = Archive(tmp_path / "a.sqlite3")
    archive.submit("0000000003", old)
    assert await archive.record("0000000003") == old
    (row,) = archive.recent_sync()
    assert row.reason == "finished" and row.ended_at == 0.0


def test_a_format_3_record_says_what_the_seed_drew() -> None:
    rec = game_record("a0a0a0a0a3")
    assert rec.format == 3 and rec.seat_seeds == [None, None, None]
    assert rec.game == "a0a0a0a0a3" and rec.end_reason == "finished"
    assert rec.first_warden == rec.actions[0].seat
    assert rec.turned_up is not None and rec.turned_up[0].source == "setup"
    assert rec.turned_up[0].step == 0 and len(rec.turned_up[0].goods) == rec.players + 1
    assert verify_record(rec).ok
    changed = attrs.evolve(rec, turned_up=[rec.turned_up[0], *rec.turned_up[2:]])
    message = verify_record(changed).message
    assert message.startswith("plots turned up #2: the replay turns up"), message
    assert "missing from the record" in message
    wrong_warden = attrs.evolve(rec, first_warden=(rec.first_warden or 0) + 1)
    assert verify_record(wrong_warden).message.startswith("first Warden: ")
    ended = attrs.evolve(rec, end_reason="shutdown")
    assert verify_record(ended).message.startswith("end reason: ")


def test_an_archive_that_cannot_be_used_is_refused(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(ArchiveError):
        check_archive(blocker / "games.sqlite3")
    newer = tmp_path / "newer.sqlite3"
    db = sqlite3.connect(newer)
    db.execute("PRAGMA user_version = 99")
    db.close()
    with pytest.raises(ArchiveError, match="newer"):
        check_archive(newer)


async def test_an_archive_in_memory_closes() -> None:
    """(Its two sides share one connection and one lock.)"""
    archive = Archive(":memory:")
    async with trio.open_nursery() as nursery:
        await nursery.start(archive.run)
        archive.submit("00000000d1", small_record(1))
        with trio.fail_after(5):
            await archive.close()
        nursery.cancel_scope.cancel()
    assert archive.written == 1 and archive.pending == 0
    with pytest.raises(ArchiveError):
        archive.count_sync()
