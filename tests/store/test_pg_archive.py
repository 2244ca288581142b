"""The PostgreSQL store on a real PostgreSQL of its own (a temporary folder): migrations
applied once and in order, the archive's interface (what the SQLite archive offers), a
running game's actions and seeds as they happen, and the seeds out of reach of any role
but the servers'."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import psycopg
import pytest
import trio

from quaymoor.cluster.local_pg import LocalPostgres
from quaymoor.rules.verify import verify_record
from quaymoor.store.migrations import MigrationError, migrate, migration_files
from quaymoor.store.pg_archive import PgArchive
from quaymoor.store.pg_db import check_database, connect
from quaymoor.store.pg_lobby import Closed, Opened
from quaymoor.tools.selfplay import random_game
from tests.cluster.running import needs_cluster_tools


def test_migrations_apply_once_in_order(database: str) -> None:
    db = connect(database)
    try:
        assert migrate(db) == []  # check_database applied them already
        rows = db.execute("SELECT number, name FROM schema_migrations ORDER BY number").fetchall()
        assert [(n, name) for n, name, _ in migration_files()] == rows
        db.execute("INSERT INTO schema_migrations (number, name) VALUES (999, 'future.sql')")
        with pytest.raises(MigrationError, match=r"\[999\].*newer"):
            migrate(db)
        db.execute("DELETE FROM schema_migrations WHERE number = 999")
    finally:
        db.close()


async def test_records_as_the_archive_serves_them(database: str) -> None:
    store = PgArchive(database, instance="test-records")
    await store.read("INSERT INTO processes (instance, name, address, pid) VALUES"
                     " (%s, 'w7f', 'test', 0) RETURNING instance", store.instance)
    game, _ = random_game(2, b"\x07" * 32)
    record = game.record(game="7f00000001", end_reason="finished", ended_at=1e9)
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        store.put(Opened("7f00000001", store.instance, 2, {"id": "7f00000001",
                                                          "created": 1.0}))
        store.submit("7f00000001", record)
        assert await store.record_json("7f00000001") == record.to_json()  # while pending
        await store.flush()
        assert store.pending == 0 and store.written == 1
        assert await store.record_json("7f00000001") == record.to_json()
        again = await store.record("7f00000001")
        assert again is not None and verify_record(again).ok
        assert await store.has("7f00000001") and not await store.has("7f00000002")
        recent = await store.recent(5)
        assert recent[0].id == "7f00000001" and recent[0].players == 2
        # Archiving removed the live row in the same write.
        assert await store.read("SELECT 1 FROM live_tables WHERE id = %s", "7f00000001") == []
        store.put(Closed("7f00000001"))
        await store.close()
        nursery.cancel_scope.cancel()


def test_running_games_seeds_and_creators_are_for_the_servers_role_only(database: str) -> None:
    admin = connect(database)
    try:
        admin.execute("DROP ROLE IF EXISTS reporting")
        admin.execute("CREATE ROLE reporting LOGIN")
        admin.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO reporting")
        reader_url = database.replace("quaymoor@", "reporting@", 1)
        with psycopg.connect(reader_url, autocommit=True) as reader:
            reader.execute("SELECT count(*) FROM live_tables").fetchone()  # the lobby: fine
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                reader.execute("SELECT seed FROM operators.table_seeds")
            with pytest.raises(psycopg.errors.InsufficientPrivilege):  # clients' addresses
                reader.execute("SELECT address FROM operators.table_creators")
    finally:
        admin.execute("REVOKE ALL ON ALL TABLES IN SCHEMA public FROM reporting")
        admin.execute("DROP ROLE IF EXISTS reporting")
        admin.close()


async def test_records_wait_while_postgresql_is_away() -> None:
    """PostgreSQL stopped under a running store: the records wait in its queue, the batch
    is retried, the store says since when it fails, and once the database is back every
    record is there (docs/deploy.md)."""
    needs_cluster_tools()
    folder = Path(tempfile.mkdtemp(prefix="quaymoor-pg-away-"))
    folder.chmod(0o755)
    pg = LocalPostgres(folder / "pg")
    try:
        url = await trio.to_thread.run_sync(pg.start)
        await trio.to_thread.run_sync(check_database, url)
        options = f"-p {pg.port} -k {pg.data} -c listen_addresses=127.0.0.1"
        store = PgArchive(url, instance="test-away")
        await store.read("INSERT INTO processes (instance, name, address, pid) VALUES"
                         " (%s, 'w7e', 'test', 0) RETURNING instance", store.instance)
        async with trio.open_nursery() as nursery:
            await nursery.start(store.run)
            await trio.to_thread.run_sync(pg.pg_ctl, "-m", "fast", "-w", "stop")
            ids = [f"7e0000000{i}" for i in range(3)]
            for i, game_id in enumerate(ids):
                game, _ = random_game(2, bytes([i + 1]) * 32)
                store.submit(game_id, game.record(game=game_id, end_reason="finished",
                                                  ended_at=1e9 + i))
            await trio.sleep(2.5)  # two retries
            assert store.pending == 3 and store.written == 0
            away = store.health()  # what /status and /metrics show meanwhile
            assert away.failing and away.failures >= 2 and away.pending == 3
            assert away.text().startswith("archive failing since ")
            assert away.text().endswith(", 3 pending")
            await trio.to_thread.run_sync(
                pg.pg_ctl, "-o", options, "-l", str(pg.folder / "postgres.log"), "-w", "start")
            with trio.fail_after(15):
                await store.flush()
            assert store.pending == 0 and store.written == 3
            assert not store.health().failing and store.health().failures >= away.failures
            assert [g.id for g in await store.recent(5)] == ids[::-1]
            await store.close()
            nursery.cancel_scope.cancel()
    finally:
        await trio.to_thread.run_sync(pg.stop)
        shutil.rmtree(folder, ignore_errors=True)
