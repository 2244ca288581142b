"""``cluster.pg_standby`` on real servers, and how the store's connection strings are read
(``store.pg_db``): a commit acknowledged by the primary is on the standby when the primary
is killed (synchronous replication); a store pointed at a standby retries its writes
(read-only) rather than dropping them, and they land once it is promoted; several hosts
get ``target_session_attrs=read-write``; no password is ever printed."""

from __future__ import annotations

import socket
import time

import psycopg
import pytest
import trio
from psycopg.conninfo import conninfo_to_dict

from quaymoor.cluster.local_pg import DATABASE, USER, PostgresError
from quaymoor.cluster.pg_standby import StandbyPair, start_standby
from quaymoor.store.archive import ArchiveError
from quaymoor.store.pg_archive import PgArchive
from quaymoor.store.pg_db import (
    CONNECT_TIMEOUT_EACH_OF_SEVERAL,
    check_database,
    connect,
    conninfo,
    redacted,
)
from quaymoor.tools.selfplay import random_game


def test_several_hosts_connect_to_the_one_that_takes_writes() -> None:
    url = "postgresql://quaymoor@127.0.0.1:5001,127.0.0.1:5002/quaymoor"
    assert "target_session_attrs=read-write" in conninfo(url)
    assert "host=127.0.0.1,127.0.0.1" in conninfo(url) and "port=5001,5002" in conninfo(url)
    kv = "host=a,b port=1,2 dbname=q target_session_attrs=any"
    assert "target_session_attrs=any" in conninfo(kv)  # said explicitly: kept
    assert "target_session_attrs" not in conninfo("postgresql://u@h:1/q")  # one host
    assert "connect_timeout=4" in conninfo(url) and "connect_timeout=10" in conninfo("host=h")
    assert "keepalives_idle=5" in conninfo(url) and "tcp_user_timeout=5000" in conninfo(url)
    assert "connect_timeout=2" in conninfo("host=h connect_timeout=2")  # its own wins
    with pytest.raises(ArchiveError, match="not a PostgreSQL connection string") as refused:
        conninfo("password s3cret")
    assert "s3cret" not in str(refused.value)


def test_a_printed_database_never_shows_its_password() -> None:
    for url in ("postgresql://quaymoor:s3cret@h1:1,h2:2/quaymoor",
                "host=h1,h2 port=1,2 user=quaymoor password=s3cret dbname=quaymoor"):
        shown = redacted(url)
        assert "s3cret" not in shown
        assert "host=h1,h2" in shown and "port=1,2" in shown and "user=quaymoor" in shown
    assert "s3cret" not in redacted("password=s3cret garbage")




async def test_a_standby_takes_over_with_every_commit_and_every_queued_write(
        pair: StandbyPair) -> None:
    await trio.to_thread.run_sync(check_database, pair.url)
    with pytest.raises(PostgresError, match="holds a database already"):
        start_standby(pair.primary, pair.standby)
    # A store pointed at the standby alone: its writes are refused as read-only ...
    standby_url = f"postgresql://{USER}@127.0.0.1:{pair.standby.port}/{DATABASE}"
    store = PgArchive(standby_url, instance="test-standby")
    ids = [f"7d0000000{i}" for i in range(3)]
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        for i, game_id in enumerate(ids):
            game, _ = random_game(2, bytes([i + 1]) * 32)
            store.submit(game_id, game.record(game=game_id, end_reason="finished",
                                              ended_at=1e9 + i))
        # ... meanwhile the primary commits and dies at once: the commit is on the standby.
        with psycopg.connect(pair.url, autocommit=True) as db:
            db.execute("INSERT INTO processes (instance, name, address, pid) VALUES"
                       " ('just-before', 'w7d', 'test', 0)")
        await trio.to_thread.run_sync(pair.kill_primary)
        await trio.sleep(1.5)  # a retry or two
        assert store.pending == 3 and store.written == 0  # kept, not dropped
        await trio.to_thread.run_sync(pair.promote)
        with trio.fail_after(15):
            await store.flush()
        assert store.pending == 0 and store.written == 3
        assert sorted(g.id for g in await store.recent(5)) == ids
        await store.close()
        nursery.cancel_scope.cancel()
    with psycopg.connect(pair.url, autocommit=True) as db:  # the multi-host URL: the new one
        assert db.info.port == pair.standby.port
        assert db.execute("SELECT count(*) FROM processes WHERE instance = 'just-before'"
                          ).fetchone() == (1,)


def test_a_silent_first_host_costs_seconds_not_minutes(database: str) -> None:
    """The first host accepts TCP and never answers (a host gone silent); the second is a
    real server: the connection lands there once the first host's timeout is up."""
    port = int(str(conninfo_to_dict(database)["port"]))
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)  # the kernel completes the handshake; nothing ever answers
        hole = silent.getsockname()[1]
        url = f"host=127.0.0.1,127.0.0.1 port={hole},{port} user={USER} dbname={DATABASE}"
        began = time.monotonic()
        db = connect(url)
        took = time.monotonic() - began
        try:
            assert db.info.port == port
        finally:
            db.close()
    assert CONNECT_TIMEOUT_EACH_OF_SEVERAL - 1 <= took < CONNECT_TIMEOUT_EACH_OF_SEVERAL + 3


def test_a_pair_starts_again_and_never_goes_back_to_a_stale_primary(
        pair: StandbyPair) -> None:
    """Stopped and started again (the primary synchronous from the first pairing), the
    standby is copied afresh and, promoted, commits alone; once promoted, the pair
    refuses to start on the old primary."""
    pair.stop()
    assert pair.start() and pair.standby.port != 0
    pair.kill_primary()
    pair.promote()
    # Promoted, it commits alone (it does not wait for a standby of its own).
    with psycopg.connect(pair.url, autocommit=True) as db:
        assert db.execute("SHOW synchronous_standby_names").fetchone() == ("",)
        began = time.monotonic()
        db.execute("CREATE TABLE after_promotion (x int)")
        assert time.monotonic() - began < 3
    pair.stop()
    with pytest.raises(PostgresError, match="was promoted"):
        pair.start()
