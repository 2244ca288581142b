"""A cluster's process drained (a deploy) and one killed (SIGKILL), through HAProxy with
2 processes and PostgreSQL (issue 15).

Drain: the process takes no new tables, its game plays to the end through the router,
then it exits; a rolling deploy (SIGHUP to ``quaymoor cluster``) starts a new process
beside the old one, which drains: no game ends early, no stream loses or repeats an event.

Kill: the survivor notices (heartbeat row older than the lease's window, here shortened to
``LEASE_SECONDS``; HAProxy's checks), ends the dead process's games as "shutdown" with
every action it had played, seeds revealed, records that ``quaymoor verify`` accepts, logs
and counts them; a player reconnecting through HAProxy is told the game ended; the other
process's games go on to their end."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
import trio

from quaymoor.protocol.codes import Close
from tests.actors.test_end_to_end import (
    Client,
    create_table,
    http,
    join,
    play_now,
    seed_matches,
)
from tests.cluster.running import (
    RunningCluster,
    cluster,
    connect_to,
    file_names_live_processes,
    get_json,
    in_order,
    live_processes,
    operator_token,
    play_some,
    servers_on_disk,
    status,
    until,
    verify_with_cli,
    worker_port,
)
from tests.server_process import ROOT

LIMIT = 120
#: The lease's window here (45 s by default: ``cluster.lease``), so that the test is fast.
LEASE_SECONDS = 12
KILLED_GAMES = 20  #: games running on the process that is killed (and as many on the other)
FINISHED_AFTER = 4  #: the other process's games played to their end after the kill


async def http_text(port: int, path: str, token: str) -> str:
    """``GET path`` with the operator token: the body as text (``/metrics``)."""
    head = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close",
            f"Authorization: Bearer {token}"]
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    async with stream:
        await stream.send_all(("\r\n".join(head) + "\r\n\r\n").encode())
        raw = b""
        while chunk := await stream.receive_some(65536):
            raw += chunk
    return raw.partition(b"\r\n\r\n")[2].decode()


@pytest.fixture
def running() -> Iterator[RunningCluster]:
    with cluster("--bot-delay", "0.05", "--decision-seconds", "60",
                 "--lease-seconds", str(LEASE_SECONDS)) as c:
        yield c


async def tables_on_each(port: int, per_process: int) -> dict[str, list[dict[str, Any]]]:
    """Play-now tables until each of the two processes has ``per_process`` of them."""
    by_prefix: dict[str, list[dict[str, Any]]] = {"00": [], "01": []}
    for _ in range(per_process * 6):
        if all(len(v) >= per_process for v in by_prefix.values()):
            break
        info = await play_now(port, players=2, name="Ada")
        by_prefix[info["table"][:2]].append(info)
    assert all(len(v) >= per_process for v in by_prefix.values()), by_prefix
    return by_prefix


async def waiting_table_on(port: int, prefix: str) -> dict[str, Any]:
    """A table not started, on the process whose slot is ``prefix``, with one player
    joined: its ``table`` and that player's ``token``."""
    for _ in range(12):
        info = await create_table(port, 2)
        if info["table"].startswith(prefix):
            return {"table": info["table"], "token": await join(port, info["table"], "Hild")}
    raise AssertionError(f"no table landed on slot {prefix} in 12 tries")


async def play_to_end(port: int, info: dict[str, Any]) -> Client:
    async with connect_to(port, info["table"]) as client:
        await client.hello(info["table"], info["token"], since=0)
        frame = await client.play()
        assert frame is not None
        return client


async def play_all_to_end(port: int, games: list[dict[str, Any]]) -> None:
    """Play these games at once, each to its end: finished, every stream in order."""

    async def one(info: dict[str, Any]) -> None:
        client = await play_to_end(port, info)
        assert client.of_type("game_ended")[-1]["reason"] == "finished"
        assert in_order(client), info["table"]

    async with trio.open_nursery() as nursery:
        for info in games:
            nursery.start_soon(one, info)


async def test_drain_then_rolling_deploy_end_no_game(running: RunningCluster) -> None:
    port = running.port
    with trio.fail_after(LIMIT):
        games = await tables_on_each(port, 1)
        a, b = games["00"][0], games["01"][0]
        await play_some(port, a, 3)
        await play_some(port, b, 3)
        # A table on w01 still waiting for its players, one of them connected: the drain
        # closes it at once (it would pin w01 for its lobby's hour), its player told why.
        waiting = await waiting_table_on(port, "01")
        stack = contextlib.AsyncExitStack()
        waiter = await stack.enter_async_context(connect_to(port, waiting["table"]))
        await waiter.hello(waiting["table"], waiting["token"])
        await waiter.until("welcome")

        drained = await trio.to_thread.run_sync(lambda: subprocess.run(
            [sys.executable, "-m", "quaymoor", "drain", "w01", "--folder", str(running.folder)],
            cwd=ROOT, capture_output=True, text=True, check=False))
        assert drained.returncode == 0, drained.stderr
        assert "w01 is draining" in drained.stdout

        async def w01_draining() -> bool:
            return bool((await live_processes(running))["w01"]["draining"])

        await until(w01_draining, 10)
        assert await waiter.drain() == Close.TABLE_CLOSED
        told = waiter.of_type("error")
        assert told and told[-1]["code"] == "table_closed", waiter.frames[-3:]
        assert "restarting" in told[-1]["message"]
        await stack.aclose()

        # The runner replaces the drained process at once (in a free slot, w02): as
        # many processes as before take tables.
        async def replacement() -> bool:
            procs = await live_processes(running)
            return sorted(n for n, p in procs.items() if not p["draining"]) == ["w00", "w02"]

        await until(replacement, 30)
        await until(lambda: file_names_live_processes(running), 5)  # w01 at weight 0
        fresh = [await play_now(port, players=2, name="Bede") for _ in range(6)]
        assert "01" not in {f["table"][:2] for f in fresh}, "a draining process took a table"

        # The draining process's game plays to its end through the router ...
        client_b = await play_to_end(port, b)
        assert client_b.of_type("game_ended")[-1]["reason"] == "finished"
        assert in_order(client_b)

        # ... and then the process exits (exit 0: its replacement is already serving).
        async def w01_gone() -> bool:
            return "w01" not in await live_processes(running)

        await until(w01_gone, 15)

        # A rolling deploy: new processes join, w00 and w02 drain; their games still
        # finish, and a spectator connected all through the deploy sees every event once,
        # in order.
        async with connect_to(port, a["table"]) as watcher:
            await watcher.hello(a["table"])
            await watcher.until("update")
            running.proc.send_signal(signal.SIGHUP)

            async def replaced() -> bool:
                procs = await live_processes(running)
                old = {n for n, p in procs.items() if p["draining"]}
                return old == {"w00", "w02"} and len(procs) == 4

            await until(replaced, 30)
            newer = await play_now(port, players=2, name="Cuthbert")
            assert newer["table"][:2] not in ("00", "02")
            await play_all_to_end(port, [a, *fresh])
            final = await watcher.until("game_ended")
            assert final["reason"] == "finished"
            assert in_order(watcher)
            assert watcher.views.view is not None and watcher.views.view["version"] == max(
                f["version"] for f in watcher.of_type("update"))

        async def w00_gone() -> bool:
            return not {"w00", "w02"} & set(await live_processes(running))

        await until(w00_gone, 15)
        client = await play_to_end(port, newer)
        assert client.of_type("game_ended")[-1]["reason"] == "finished"
        reasons: dict[str, str] = {}

        async def all_archived() -> bool:  # the last record's batch commits a moment later
            listed = await http(port, "GET", "/api/games?limit=100")
            reasons.update({g["id"]: g["reason"] for g in listed.body["games"]})
            return all(info["table"] in reasons for info in [a, b, *fresh, newer])

        await until(all_archived, 10)
        for info in [a, b, *fresh, newer]:
            assert reasons[info["table"]] == "finished"


async def test_sigkill_with_20_games_loses_no_record(running: RunningCluster) -> None:
    port = running.port
    with trio.fail_after(LIMIT):
        games = await tables_on_each(port, KILLED_GAMES)
        seen: dict[str, int] = {}

        async def some(info: dict[str, Any]) -> None:
            seen[info["table"]] = await play_some(port, info, 4)

        async with trio.open_nursery() as nursery:
            for info in games["00"] + games["01"]:
                nursery.start_soon(some, info)
        await trio.sleep(0.5)  # the last actions' batch commits (docs/deploy.md: the window)

        victim = (await live_processes(running))["w01"]
        os.kill(int(victim["pid"]), signal.SIGKILL)
        killed_at = trio.current_time()

        async def archived() -> bool:
            listed = await http(port, "GET", "/api/games?limit=100")
            ids = {g["id"] for g in listed.body["games"] if g["reason"] == "shutdown"}
            return {i["table"] for i in games["01"]} <= ids

        await until(archived, LEASE_SECONDS + 22)
        # Not before the window: a process is reaped only once its beat is that old.
        assert trio.current_time() - killed_at >= LEASE_SECONDS - 1
        # The survivor logged the games it ended, and counts them.
        reaps = [json.loads(line) for line in (running.folder / "w00.log").read_text()
                 .splitlines() if '"event": "games_reaped"' in line]
        assert reaps and set(reaps[0]["games"]) == {i["table"] for i in games["01"]}
        assert reaps[0]["slot"] == "w00" and reaps[0]["dead_instance"] == victim["instance"]
        survivor = (await live_processes(running))["w00"]
        token = operator_token(running.folder)
        code, own = await get_json(worker_port(survivor), "/status.json", token)
        assert code == 200 and own["lease"]["games_reaped"] == KILLED_GAMES, own.get("lease")
        metrics = await http_text(worker_port(survivor), "/metrics", token)
        assert f"quaymoor_games_reaped_total {float(KILLED_GAMES)}" in metrics
        assert "quaymoor_lease_age_seconds" in metrics and "quaymoor_tables_paused 0.0" in metrics
        # The file on disk no longer names the dead process: its replacement instead.
        await until(lambda: file_names_live_processes(running), 15)
        assert servers_on_disk(running)["w01"][1] == " disabled"

        async def check(info: dict[str, Any]) -> None:
            got = await http(port, "GET", f"/games/{info['table']}.json")
            assert got.status == 200, got
            record = got.body
            assert record["end_reason"] == "shutdown" and record["result"] is None
            assert len(record["actions"]) == seen[info["table"]], "actions were lost"
            assert seed_matches(record["seed"], info)
            checked = await trio.to_thread.run_sync(
                verify_with_cli, json.dumps(record), running.folder, info["table"])
            assert checked.returncode == 0, checked.stderr

            # The player's browser, reconnecting through HAProxy, is told the game ended.
            async with connect_to(port, info["table"]) as client:
                await client.hello(info["table"], info["token"], since=seen[info["table"]])
                ended = await client.until("game_ended")
                assert ended["reason"] == "shutdown" and ended["seed"] == record["seed"]
                assert ended["record_url"] == f"/games/{info['table']}.json"

        async def untouched(info: dict[str, Any]) -> None:
            """A survivor's game is where its player left it, and serves it."""
            async with connect_to(port, info["table"]) as client:
                await client.hello(info["table"], info["token"], since=seen[info["table"]])
                first = await client.until("update")
                assert first["version"] == seen[info["table"]]

        async with trio.open_nursery() as nursery:
            for info in games["01"]:
                nursery.start_soon(check, info)
            # The survivor's games were untouched: each is where it was, and a few of them
            # are played on to their end meanwhile (all of them would only take longer).
            for info in games["00"][FINISHED_AFTER:]:
                nursery.start_soon(untouched, info)
            nursery.start_soon(play_all_to_end, port, games["00"][:FINISHED_AFTER])

        report = await status(running)
        dead = [p for p in report["processes"] if p["instance"] == victim["instance"]]
        assert dead and not dead[0]["alive"] and dead[0]["stopped_at"] is not None
