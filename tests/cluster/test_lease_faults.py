"""Leases with fencing, for real (issue 23): a 2-process ``quaymoor cluster`` with games
mid-play on both, through HAProxy, and its real PostgreSQL stopped (``pg_ctl -m
immediate stop``) or a process's row stopped behind its back.

Outage: PostgreSQL away for 20 s (four times the old 5 s heartbeat, under the 45 s
lease). Nobody is reaped, no record exists for a game still running, every connected
player is told ``table_paused`` then ``table_resumed``, and the games then play to their
end with records that ``quaymoor verify`` accepts.

Stopped row: ``UPDATE processes SET stopped_at = now()`` for w01 (as a reaper would): w01
stops serving at once (its players told the game ended, its process gone) and writes no
record of its own games (the survivor archives them later)."""

from __future__ import annotations

import json
import os
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest
import trio

from quaymoor.cluster.local_pg import LocalPostgres
from quaymoor.cluster.runner import PG_FOLDER
from tests.actors.test_end_to_end import Client, http, seed_matches
from tests.cluster.running import (
    RunningCluster,
    cluster,
    connect_to,
    in_order,
    live_processes,
    play_some,
    status,
    until,
    verify_with_cli,
)
from tests.cluster.test_faults import tables_on_each

LIMIT = 180
GAMES = 2  #: games mid-play on each process
OUTAGE_SECONDS = 20.0  #: PostgreSQL away: four times the old 5 s heartbeat


@pytest.fixture
def running() -> Iterator[RunningCluster]:
    with cluster("--bot-delay", "0.05", "--decision-seconds", "60") as c:
        yield c


def _postgres(folder: Path) -> LocalPostgres:
    return LocalPostgres(folder / PG_FOLDER)


def _url(folder: Path) -> str:
    return (folder / "database.url").read_text().strip()


def stop_postgres(folder: Path) -> None:
    """The cluster's own PostgreSQL stopped as a crash would (no shutdown checkpoint)."""
    _postgres(folder).pg_ctl("-m", "immediate", "-w", "stop")


def start_postgres(folder: Path) -> None:
    """Started again with the options it had (``postmaster.opts``: the same port)."""
    _postgres(folder).pg_ctl("-w", "-t", "60", "-l", str(folder / PG_FOLDER / "restart.log"),
                             "restart")


def sql(folder: Path, query: str, *params: Any) -> list[tuple[Any, ...]]:
    with psycopg.connect(_url(folder), autocommit=True) as db:
        cur = db.execute(query.encode(), params)
        return cur.fetchall() if cur.description else []


def _taken_lines(running: RunningCluster) -> list[str]:
    """What the cluster's command printed since the last call."""
    lines = []
    while not running.lines.empty():
        lines.append(running.lines.get_nowait())
    return lines


@asynccontextmanager
async def seated(port: int, games: list[dict[str, Any]], seen: dict[str, int]
                 ) -> AsyncIterator[dict[str, Client]]:
    """Each game's player connected (through HAProxy), caught up to where it left."""
    async with AsyncExitStack() as stack:
        clients: dict[str, Client] = {}
        for info in games:
            client = await stack.enter_async_context(connect_to(port, info["table"]))
            await client.hello(info["table"], info["token"], since=0)
            update = await client.until("update")
            assert update["version"] == seen[info["table"]]
            clients[info["table"]] = client
        yield clients


async def test_a_20_s_database_outage_reaps_nobody_and_every_game_finishes(
        running: RunningCluster) -> None:
    port, folder = running.port, running.folder
    with trio.fail_after(LIMIT):
        by_process = await tables_on_each(port, GAMES)
        games = by_process["00"][:GAMES] + by_process["01"][:GAMES]
        seen: dict[str, int] = {}

        async def some(info: dict[str, Any]) -> None:
            seen[info["table"]] = await play_some(port, info, 3)

        async with trio.open_nursery() as nursery:
            for info in games:
                nursery.start_soon(some, info)
        await trio.sleep(0.5)  # the last actions' batches commit
        before = {name: p["instance"] for name, p in (await live_processes(running)).items()}
        assert set(before) == {"w00", "w01"}

        async with seated(port, games, seen) as clients:
            await trio.to_thread.run_sync(stop_postgres, folder)
            stopped_at = time.monotonic()

            async def told_paused(info: dict[str, Any]) -> None:
                paused = await clients[info["table"]].until("table_paused")
                assert paused["reason"] == "waiting for its database"

            with trio.fail_after(15):  # the pause comes 6 s after the last heartbeat
                async with trio.open_nursery() as nursery:
                    for info in games:
                        nursery.start_soon(told_paused, info)
            paused_after = time.monotonic() - stopped_at

            # While paused, an act is refused and changes nothing.
            probe = clients[games[0]["table"]]
            last = [f for f in probe.frames if f["type"] == "update"][-1]
            if last["view"]["legal"]:
                await probe.send({"type": "act", "action": last["view"]["legal"][0]})
                refused = await probe.until("error")
                assert refused["code"] == "table_paused", refused

            await trio.sleep(max(0.0, OUTAGE_SECONDS - (time.monotonic() - stopped_at)))
            await trio.to_thread.run_sync(start_postgres, folder)
            outage = time.monotonic() - stopped_at

            async def told_resumed(info: dict[str, Any]) -> None:
                await clients[info["table"]].until("table_resumed")

            with trio.fail_after(20):
                async with trio.open_nursery() as nursery:
                    for info in games:
                        nursery.start_soon(told_resumed, info)

            # Nobody was reaped: both processes are the ones from before, not stopped,
            # and no game still being played has a record (its seed unpublished).
            rows = sql(folder, "SELECT name, instance, stopped_at FROM processes")
            for name, instance in before.items():
                assert (name, instance, None) in rows, rows
            assert sql(folder, "SELECT id FROM games") == []
            for info in games:
                got = await http(port, "GET", f"/games/{info['table']}.json")
                assert got.status == 404, (info["table"], got.status)
            report = await status(running)
            lease = report["lease"]
            assert lease["paused"] is False and lease["paused_tables"] == 0
            assert lease["games_reaped"] == 0 and lease["age_seconds"] < 3

            # The games then play to their end on the same connections.
            async def finish(info: dict[str, Any]) -> None:
                client = clients[info["table"]]
                await client.send({"type": "resync"})  # a view to act on, after a refusal
                ended = await client.play()
                assert ended is not None and ended["reason"] == "finished"
                assert in_order(client), info["table"]
                kinds = [f["type"] for f in client.frames]
                assert kinds.index("table_paused") < kinds.index("table_resumed")

            async with trio.open_nursery() as nursery:
                for info in games:
                    nursery.start_soon(finish, info)

        async def check(info: dict[str, Any]) -> None:
            got = await http(port, "GET", f"/games/{info['table']}.json")
            assert got.status == 200, got
            assert got.body["end_reason"] == "finished"
            assert seed_matches(got.body["seed"], info)
            checked = await trio.to_thread.run_sync(
                verify_with_cli, json.dumps(got.body), folder, info["table"])
            assert checked.returncode == 0, checked.stderr

        async with trio.open_nursery() as nursery:
            for info in games:
                nursery.start_soon(check, info)
        assert {name: p["instance"] for name, p in
                (await live_processes(running)).items()} == before
        print(f"outage {outage:.1f} s, paused after {paused_after:.1f} s, "
              f"{len(games)} games finished and verified")


async def test_a_process_whose_row_is_stopped_stops_serving_and_writes_no_record(
        running: RunningCluster) -> None:
    port, folder = running.port, running.folder
    with trio.fail_after(LIMIT):
        by_process = await tables_on_each(port, 2)
        games = by_process["01"][:2]
        seen = {info["table"]: await play_some(port, info, 3) for info in games}
        await trio.sleep(0.5)
        victim = (await live_processes(running))["w01"]
        async with seated(port, games, seen) as clients:
            sql(folder, "UPDATE processes SET stopped_at = now(), stopped_by = instance"
                        " || '-by-hand' WHERE instance = %s", victim["instance"])
            stopped_at = time.monotonic()

            async def told(info: dict[str, Any]) -> None:
                ended = await clients[info["table"]].until("game_ended")
                assert ended["record_url"] == f"/games/{info['table']}.json"
                assert seed_matches(ended["seed"], info)

            with trio.fail_after(15):
                async with trio.open_nursery() as nursery:
                    for info in games:
                        nursery.start_soon(told, info)

        def gone() -> bool:
            try:
                os.kill(int(victim["pid"]), 0)
            except ProcessLookupError:
                return True
            return False

        async def exited() -> bool:
            return gone()

        await until(exited, 15)
        took = time.monotonic() - stopped_at
        # It wrote nothing of its games: no record, the live rows as they were.
        ids = [info["table"] for info in games]
        assert sql(folder, "SELECT id FROM games WHERE id = ANY(%s)", ids) == []
        assert len(sql(folder, "SELECT id FROM live_tables WHERE id = ANY(%s)", ids)) == 2
        actions = dict(sql(folder, "SELECT table_id, count(*) FROM table_actions"
                                   " WHERE table_id = ANY(%s) GROUP BY table_id", ids))
        assert actions == seen
        said = ""
        with trio.move_on_after(5):
            while "w01 died (exit 2)" not in said:  # the cluster starts another
                said += "".join(await trio.to_thread.run_sync(_taken_lines, running))
                await trio.sleep(0.2)
        assert "w01 died (exit 2)" in said, said[-2000:]
        log = (folder / "w01.log").read_text()
        assert '"event": "taken_for_dead"' in log
        lines = [json.loads(x) for x in log.splitlines() if x.startswith("{")]
        assert all(line.get("slot") == "w01" and line.get("process") for line in lines
                   if line.get("level") in ("warning", "error")), "a line without its process"
        print(f"w01 stopped serving and exited {took:.1f} s after its row was stopped")
