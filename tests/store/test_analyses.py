"""Post-game analyses kept with the archive, alike in SQLite and a real PostgreSQL: the
first claim wins and any other process only reads its progress; only the owner writes
progress and the result; a claim gone stale is taken over; a done analysis is never
claimed again."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from quaymoor.store.analyses import STALE_SECONDS, AnalysisStore, MemoryAnalyses
from quaymoor.store.archive import Archive
from quaymoor.store.pg_archive import PgArchive

GAME = "0123abcdef"


@pytest.fixture(params=["sqlite", "postgresql", "memory"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[AnalysisStore]:
    if request.param == "sqlite":
        yield Archive(tmp_path / "a.sqlite3").analyses
    elif request.param == "memory":
        yield MemoryAnalyses()
    else:
        database: str = request.getfixturevalue("database")
        archive = PgArchive(database, "p1")
        archive.analyses._run("DELETE FROM analyses", ())  # a database shared by the tests
        yield archive.analyses


def test_one_claim_wins_and_only_its_owner_writes(store: AnalysisStore) -> None:
    now = time.time()
    assert store.analysis(GAME) is None
    assert store.claim_analysis(GAME, 40, "a", now)
    assert not store.claim_analysis(GAME, 40, "b", now + 1)  # another process: only reads
    store.analysis_progress(GAME, "b", 30, now + 2)  # not its claim: nothing changes
    store.analysis_progress(GAME, "a", 12, now + 2)
    row = store.analysis(GAME)
    assert row is not None and (row.status, row.done, row.total, row.owner) == (
        "running", 12, 40, "a")
    store.finish_analysis(GAME, "b", "done", '{"x": 2}', now + 3)
    store.finish_analysis(GAME, "a", "done", '{"x": 1}', now + 3)
    row = store.analysis(GAME)
    assert row is not None and (row.status, row.done, row.body) == ("done", 40, '{"x": 1}')
    # done is done: never claimed again, however old
    assert not store.claim_analysis(GAME, 40, "c", now + STALE_SECONDS * 10)


def test_a_stale_claim_is_taken_over(store: AnalysisStore) -> None:
    now = time.time()
    assert store.claim_analysis(GAME, 40, "dead", now)
    store.analysis_progress(GAME, "dead", 7, now + 1)
    assert not store.claim_analysis(GAME, 40, "b", now + STALE_SECONDS)  # not yet stale
    assert store.claim_analysis(GAME, 41, "b", now + 1 + STALE_SECONDS + 0.5)
    row = store.analysis(GAME)
    assert row is not None and (row.owner, row.done, row.total) == ("b", 0, 41)
    store.analysis_progress(GAME, "dead", 9, now + 100)  # the old owner, back: ignored
    row = store.analysis(GAME)
    assert row is not None and (row.owner, row.done) == ("b", 0)
