"""Issue 15's rolling deploy at its size: 40 tables mid-game on 2 processes behind HAProxy,
a player's connection held on every one of them through the whole deploy; SIGHUP to
``quaymoor cluster`` drains and replaces each process in turn; every game finishes on
the process it began on, every stream is every version once, in order, with no gap, and
every game is in the archive as finished."""

from __future__ import annotations

import signal
from collections import Counter
from collections.abc import Iterator
from contextlib import AsyncExitStack
from typing import Any

import pytest
import trio

from tests.actors.test_end_to_end import Client, http, play_now
from tests.cluster.running import (
    RunningCluster,
    cluster,
    connect_to,
    live_processes,
    play_some,
    unbroken,
    until,
)

TABLES = 40
MID_GAME = 3  #: actions each table's player plays before the deploy
LIMIT = 180
OLD, NEW = ("w00", "w01"), ("w02", "w03")


@pytest.fixture
def running() -> Iterator[RunningCluster]:
    with cluster("--bot-delay", "0", "--decision-seconds", "60") as c:
        yield c


async def test_rolling_deploy_of_40_tables_mid_game_ends_none(running: RunningCluster) -> None:
    port = running.port
    with trio.fail_after(LIMIT):
        tables = [await play_now(port, players=2, name=f"P{i}") for i in range(TABLES)]
        on = Counter(t["table"][:2] for t in tables)
        assert set(on) == {"00", "01"} and min(on.values()) >= TABLES // 4, on
        mid: dict[str, int] = {}

        async def some(info: dict[str, Any]) -> None:
            mid[info["table"]] = await play_some(port, info, MID_GAME)

        async with trio.open_nursery() as nursery:
            for info in tables:
                nursery.start_soon(some, info)
        assert all(v >= MID_GAME for v in mid.values()), mid

        clients: dict[str, Client] = {}
        async with AsyncExitStack() as stack:
            # One connection per table, attached (welcome) before the deploy begins; its
            # catch-up from version 0 waits in the socket until the player reads it.
            for info in tables:
                client = await stack.enter_async_context(connect_to(port, info["table"]))
                await client.hello(info["table"], info["token"], since=0)
                assert (await client.until("welcome"))["seat"] == 0
                clients[info["table"]] = client

            running.proc.send_signal(signal.SIGHUP)

            async def replaced() -> bool:
                procs = await live_processes(running)
                return (all(procs.get(n, {}).get("draining") is True for n in OLD)
                        and all(procs.get(n, {}).get("draining") is False for n in NEW))

            await until(replaced, 60)
            # Both old processes drain with every one of their games still playing.
            procs = await live_processes(running)
            assert {n: procs[n]["playing"] for n in OLD} == {
                "w00": on["00"], "w01": on["01"]}, procs
            fresh = await play_now(port, players=2, name="Late")
            assert fresh["table"][:2] in ("02", "03"), "a draining process took a table"

            ended: dict[str, dict[str, Any]] = {}

            async def to_end(table: str) -> None:
                frame = await clients[table].play()
                assert frame is not None
                ended[table] = frame

            async with trio.open_nursery() as nursery:
                for table in clients:
                    nursery.start_soon(to_end, table)

        async def old_gone() -> bool:
            return not set(OLD) & set(await live_processes(running))

        await until(old_gone, 30)  # each exits once its last game has ended
        listed = await http(port, "GET", "/api/games?limit=100")
        reasons = {g["id"]: g["reason"] for g in listed.body["games"]}
        for info in tables:
            table = info["table"]
            assert ended[table]["reason"] == "finished", ended[table]
            assert reasons.get(table) == "finished", (table, reasons.get(table))
            record = await http(port, "GET", f"/games/{table}.json")
            assert record.status == 200 and record.body["end_reason"] == "finished"
            unbroken(clients[table], len(record.body["actions"]))
