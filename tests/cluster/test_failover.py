"""A real PostgreSQL failover under a 2-process cluster (issue 23).

A primary and its streaming standby (``cluster.pg_standby``: both started here on
loopback, in a temporary folder, the standby synchronous); ``quaymoor cluster`` given
both through one multi-host conninfo (``host=127.0.0.1,127.0.0.1 port=P1,P2``). With
games mid-play on both processes the primary is SIGKILLed (postmaster and backends) and
the standby promoted. Asserted: the status page answers during the gap and the archive's
reads fail cleanly (503); writes land on the new primary again (the outage is measured
and printed: seconds from the kill until the first write committed after it); every game
goes on to its end, every finished game's record is on the new primary and ``quaymoor
verify`` accepts it; no game was reaped and no process taken for dead; records lost: 0.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
import trio

from quaymoor.cluster.local_pg import DATABASE, USER, LocalPostgres
from quaymoor.cluster.pg_standby import StandbyPair
from quaymoor.cluster.runner import PAIR_FOLDER, URL_FILE
from tests.actors.test_end_to_end import http
from tests.cluster.running import (
    RunningCluster,
    cluster,
    get_json,
    in_order,
    operator_token,
    play_some,
    verify_with_cli,
)
from tests.cluster.test_faults import play_to_end, tables_on_each

LIMIT = 90
PER_PROCESS = 3  #: games on each process, mid-play when the primary dies
GAP = 1.0  #: seconds with no primary at all before the promotion (writes queue meanwhile)
OUTAGE_LIMIT = 4.0  #: seconds: well inside the lease's pause (6 s) and window




@pytest.fixture
def running(pair: StandbyPair) -> Iterator[RunningCluster]:
    conninfo = (f"host=127.0.0.1,127.0.0.1 port={pair.primary.port},{pair.standby.port}"
                f" user={USER} dbname={DATABASE} target_session_attrs=read-write")
    with cluster("--database", conninfo, "--bot-delay", "0.05",
                 "--decision-seconds", "60") as c:
        yield c


def direct(server: LocalPostgres) -> psycopg.Connection[tuple[Any, ...]]:
    return psycopg.connect(f"postgresql://{USER}@127.0.0.1:{server.port}/{DATABASE}",
                           autocommit=True)


def written_keys(server: LocalPostgres) -> set[str]:
    """Every action row and record on ``server``, by key."""
    with direct(server) as db:
        actions = db.execute("SELECT table_id, n FROM table_actions").fetchall()
        games = db.execute("SELECT id FROM games").fetchall()
    return {f"{t}/{n}" for t, n in actions} | {g for (g,) in games}


async def test_failover_to_the_standby_loses_no_game(pair: StandbyPair,
                                                      running: RunningCluster) -> None:
    port = running.port
    token = operator_token(running.folder)
    with trio.fail_after(LIMIT):
        by_process = await tables_on_each(port, PER_PROCESS)
        games = by_process["00"][:PER_PROCESS] + by_process["01"][:PER_PROCESS]
        async with trio.open_nursery() as nursery:
            for info in games:
                nursery.start_soon(play_some, port, info, 2)
        await trio.sleep(0.3)  # the last actions' batch commits (and reaches the standby)
        with direct(pair.primary) as db:
            instances = [r[0] for r in db.execute(
                "SELECT instance FROM processes WHERE stopped_at IS NULL").fetchall()]
        assert len(instances) == 2
        ended: dict[str, dict[str, Any]] = {}
        versions: dict[str, int] = {}
        timings: dict[str, float] = {}

        async def play(info: dict[str, Any]) -> None:
            client = await play_to_end(port, info)
            assert in_order(client), info["table"]
            ended[info["table"]] = client.of_type("game_ended")[-1]
            versions[info["table"]] = client.last_version()

        async def failover() -> None:
            await trio.sleep(0.5)  # every game is being played again
            before = await trio.to_thread.run_sync(written_keys, pair.standby)
            killed = time.monotonic()
            await trio.to_thread.run_sync(pair.kill_primary)
            # The gap (no primary at all): the status page answers, the archive's reads
            # are refused cleanly.
            code, body = await get_json(port, "/status.json", token)
            assert code == 200, body
            assert "processes_error" in body, body
            listed = await http(port, "GET", "/api/games?limit=5")
            assert listed.status == 503, listed
            await trio.sleep(max(0.0, GAP - (time.monotonic() - killed)))
            promoted = time.monotonic()
            await trio.to_thread.run_sync(pair.promote)
            timings["gap"] = promoted - killed
            timings["promote"] = time.monotonic() - promoted
            while not (await trio.to_thread.run_sync(written_keys, pair.standby)) - before:
                await trio.sleep(0.02)
            timings["outage"] = time.monotonic() - killed

        async with trio.open_nursery() as nursery:
            nursery.start_soon(failover)
            for info in games:
                nursery.start_soon(play, info)

        print(f"failover: primary killed, gap {timings['gap']:.2f} s, promotion "
              f"{timings['promote']:.2f} s; writes landed again {timings['outage']:.2f} s "
              "after the kill")
        assert timings["outage"] < OUTAGE_LIMIT, timings
        assert {e["reason"] for e in ended.values()} == {"finished"}, ended

        # Every record on the new primary (once the writers have flushed), and it verifies.
        def all_written() -> bool:
            with direct(pair.standby) as db:
                rows = db.execute("SELECT id FROM games WHERE id = ANY(%s)",
                                  ([i["table"] for i in games],)).fetchall()
            return len(rows) == len(games)

        with trio.fail_after(15):
            while not await trio.to_thread.run_sync(all_written):
                await trio.sleep(0.2)
        with direct(pair.standby) as db:
            rows = db.execute("SELECT id, reason, record::text FROM games WHERE id = ANY(%s)",
                              ([i["table"] for i in games],)).fetchall()
            stopped = db.execute("SELECT count(*) FROM processes WHERE instance = ANY(%s)"
                                 " AND stopped_at IS NOT NULL", (instances,)).fetchone()
            recovering = db.execute("SELECT pg_is_in_recovery()").fetchone()
        assert recovering == (False,)
        lost = len(games) - len(rows)
        assert lost == 0, f"records lost: {lost}"
        assert {reason for _, reason, _ in rows} == {"finished"}, "a game was reaped"
        assert stopped == (0,), "a process was taken for dead"
        for game_id, _, text in rows:  # every action once: none lost, none doubled
            assert len(json.loads(text)["actions"]) == versions[game_id], game_id
            checked = await trio.to_thread.run_sync(verify_with_cli, text, running.folder,
                                                    game_id)
            assert checked.returncode == 0, checked.stderr

        # The writers met the dead primary and retried (so the test saw a real failover).
        logs = "".join((running.folder / f"{w}.log").read_text() for w in ("w00", "w01"))
        assert "could not be written" in logs
        for bad in ("was refused", "dropped a refused", "writes lost", "heartbeat failed",
                    "taken for dead"):
            assert bad not in logs, bad

        # The heartbeats go on, on the new primary, and the archive is read from it.
        code, body = await get_json(port, "/status.json", token)
        assert code == 200 and "processes_error" not in body, body
        assert {p["instance"] for p in body["processes"] if p["alive"]} == set(instances)
        listed = await http(port, "GET", "/api/games?limit=100")
        assert listed.status == 200
        assert {i["table"] for i in games} <= {g["id"] for g in listed.body["games"]}


async def test_cluster_standby_fails_over_by_the_folder_alone() -> None:
    """``quaymoor cluster --standby``: its own primary and standby, a multi-host URL in
    ``database.url`` (mode 600); killed and promoted from the folder alone (as the fault
    bench does it, from another process), a game mid-play goes on to its end and its
    record is on the new primary."""
    with cluster("--standby", "--bot-delay", "0.05", "--decision-seconds", "60") as running:
        port = running.port
        url_file = running.folder / URL_FILE
        assert url_file.stat().st_mode & 0o077 == 0
        url = url_file.read_text().strip()
        assert "target_session_attrs=read-write" in url and url.count(",") == 1
        with trio.fail_after(LIMIT):
            info = (await tables_on_each(port, 1))["00"][0]
            await play_some(port, info, 2)
            pair = StandbyPair(running.folder / PAIR_FOLDER)
            took = await trio.to_thread.run_sync(pair.failover, 0.5)
            assert 0.5 <= took < 10
            client = await play_to_end(port, info)
            assert client.of_type("game_ended")[-1]["reason"] == "finished"

            def archived() -> bool:
                with psycopg.connect(url, autocommit=True) as db:
                    assert db.execute("SELECT pg_is_in_recovery()").fetchone() == (False,)
                    return bool(db.execute("SELECT 1 FROM games WHERE id = %s",
                                           (info["table"],)).fetchone())

            while not await trio.to_thread.run_sync(archived):
                await trio.sleep(0.2)
