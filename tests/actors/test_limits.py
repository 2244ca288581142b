"""Per-client limits (``config.ClientLimits``): tables created per minute and open at once
per address, websockets per address, the idle timeout. Each refusal is a clear error that
changes nothing, and other addresses are served as before. The table limits go straight
through ``HttpApi`` (addresses are made up) on trio's autojump clock; the websocket limits
and a spectator storm run over real sockets under ``trio.fail_after``."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import trio
from trio_websocket import open_websocket_url

from quaymoor.actors.inbox import Shutdown
from quaymoor.actors.supervisor import Supervisor
from quaymoor.config import ClientLimits, ServerConfig, TableConfig
from quaymoor.http.api import HttpApi
from quaymoor.http.frontdoor import HttpRequest
from quaymoor.protocol.messages import WATCHERS_EVERY
from quaymoor.rules.record import EndReason
from quaymoor.server import run_server
from tests.actors.running import running
from tests.actors.test_end_to_end import PLAY, Client, play_now

ATTACKER, PLAYER = "203.0.113.66", "198.51.100.7"

# ---------------------------------------------------------------- tables per address


@asynccontextmanager
async def api_with(limits: ClientLimits, *, max_tables: int = 5000) -> AsyncIterator[HttpApi]:
    sup = Supervisor(TableConfig(bot_delay=0.0, lobby_seconds=600.0), max_tables=max_tables)
    async with running(sup):
        yield HttpApi(sup, limits=limits)


async def post(api: HttpApi, client: str, path: str,
               body: dict[str, Any]) -> tuple[int, dict[str, str], Any]:
    response = await api(HttpRequest("POST", path, {}, {"content-type": "application/json"},
                                     json.dumps(body).encode(), client))
    return response.status, dict(response.headers), json.loads(response.body)


async def test_tables_per_minute_per_address(autojump_clock: trio.testing.MockClock) -> None:
    async with api_with(ClientLimits(tables_per_minute=3, open_tables=100)) as api:
        for _ in range(3):
            assert (await post(api, ATTACKER, "/api/tables", {"players": 2}))[0] == 201
        status, headers, body = await post(api, ATTACKER, "/api/tables", {"players": 2})
        assert (status, body["error"]["code"]) == (429, "too_many_new_tables")
        assert "3 new tables a minute" in body["error"]["message"]
        assert headers["Retry-After"] == "20"
        status, _, body = await post(api, ATTACKER, "/api/play-now", {"players": 2})
        assert (status, body["error"]["code"]) == (429, "too_many_new_tables")
        assert len(api.supervisor.tables) == 3  # the refusals changed nothing
        # everybody else is served meanwhile, play-now included
        status, _, made = await post(api, PLAYER, "/api/play-now", {"players": 2})
        assert status == 201 and made["seat"] == 0 and made["token"]
        # a refused body does not use up the address's allowance
        assert (await post(api, PLAYER, "/api/tables", {"players": 9}))[0] == 400
        for _ in range(2):
            assert (await post(api, PLAYER, "/api/tables", {"players": 2}))[0] == 201
        # the bucket refills evenly: one more table 20 s later
        await trio.sleep(20)
        assert (await post(api, ATTACKER, "/api/tables", {"players": 2}))[0] == 201
        assert (await post(api, ATTACKER, "/api/tables", {"players": 2}))[0] == 429


async def test_open_tables_per_address_and_play_now_for_others(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async with api_with(ClientLimits(tables_per_minute=100, open_tables=3),
                        max_tables=5) as api:
        made = [(await post(api, ATTACKER, "/api/tables", {"players": 2}))[2]
                for _ in range(3)]
        status, _, body = await post(api, ATTACKER, "/api/tables", {"players": 2})
        assert (status, body["error"]["code"]) == (429, "too_many_open_tables")
        assert "3 open tables" in body["error"]["message"]
        assert len(api.supervisor.tables) == 3
        # the server is not full for anybody else: play-now still works
        for _ in range(2):
            status, _, game = await post(api, PLAYER, "/api/play-now", {"players": 2})
            assert status == 201, game
        # a table of the address that ends frees its place
        table = api.supervisor.tables[made[0]["table"]]
        join = await post(api, ATTACKER, f"/api/tables/{table.id}/join", {"name": "Ada"})
        await post(api, ATTACKER, f"/api/tables/{table.id}/start", {"token": join[2]["token"]})
        await table.inbox.send(Shutdown(EndReason.SHUTDOWN))
        await trio.sleep(1)  # the supervisor lets go of it
        status, _, body = await post(api, ATTACKER, "/api/tables", {"players": 2})
        assert status == 201, body



# ---------------------------------------------------------------- websockets, over sockets

LIMIT = 60  #: seconds for a whole test


@asynccontextmanager
async def serving(limits: ClientLimits) -> AsyncIterator[tuple[int, Supervisor]]:
    async with trio.open_nursery() as nursery:
        config = ServerConfig(port=0, table=PLAY, archive_path=":memory:", limits=limits)
        port, supervisor = await nursery.start(run_server, config)
        yield port, supervisor
        nursery.cancel_scope.cancel()


@asynccontextmanager
async def connect(port: int) -> AsyncIterator[Client]:
    async with open_websocket_url(f"ws://127.0.0.1:{port}/ws") as ws:
        yield Client(ws)


async def test_websockets_per_address_are_capped() -> None:
    with trio.fail_after(LIMIT):
        async with serving(ClientLimits(websockets=3)) as (port, _):
            info = await play_now(port)
            async with connect(port) as a, connect(port) as b, connect(port) as c:
                for client in (a, b, c):
                    await client.hello(info["table"])
                    assert (await client.until("welcome"))["seat"] is None
                async with connect(port) as refused:
                    frame = await refused.next()
                    assert frame is not None and frame["type"] == "error"
                    assert frame["code"] == "too_many_connections"
                    assert "at most 3" in frame["message"]
                    assert await refused.drain() == 4006
                await a.send({"type": "ping"})  # the others were not disturbed
                assert (await a.until("pong"))["type"] == "pong"
            while True:  # once they have gone, the address may connect again
                async with connect(port) as again:
                    await again.hello(info["table"])
                    frame = await again.next()
                    if frame is not None and frame["type"] == "welcome":
                        break
                await trio.sleep(0.05)


async def test_a_silent_connection_is_closed_and_a_pinging_one_stays() -> None:
    with trio.fail_after(LIMIT):
        async with serving(ClientLimits(idle_seconds=0.5)) as (port, _):
            info = await play_now(port)
            async with connect(port) as silent, connect(port) as pinging:
                await silent.hello(info["table"])
                await pinging.hello(info["table"], info["token"])
                started = trio.current_time()
                while trio.current_time() - started < 1.5:
                    await pinging.send({"type": "ping"})
                    await pinging.until("pong")
                    await trio.sleep(0.2)
                assert await silent.drain() == 4007
                errors = silent.of_type("error")
                assert [e["code"] for e in errors] == ["idle_timeout"]
                assert "0.5 s" in errors[0]["message"]
                assert silent.frames[0]["type"] == "welcome"
                assert pinging.close_code is None
                await pinging.send({"type": "ping"})
                assert (await pinging.until("pong"))["type"] == "pong"


async def test_a_spectator_storm_over_sockets_leaves_the_player_alone() -> None:
    spectators = 120
    with trio.fail_after(LIMIT):
        async with serving(ClientLimits(websockets=spectators + 10)) as (port, supervisor):
            info = await play_now(port)
            async with connect(port) as player:
                await player.hello(info["table"], info["token"])
                while True:  # until the game waits for the player (bots answer at once)
                    update = await player.until("update")
                    if update["view"]["legal"]:
                        break
                before = len(player.frames)
                began = trio.current_time()
                async with trio.open_nursery() as storm:
                    joined = trio.Semaphore(0)
                    stop = trio.Event()

                    async def watch() -> None:
                        async with connect(port) as spectator:
                            await spectator.hello(info["table"])
                            await spectator.until("update")
                            joined.release()
                            await stop.wait()

                    for _ in range(spectators):
                        storm.start_soon(watch)
                    for _ in range(spectators):
                        await joined.acquire()
                    table = supervisor.tables[info["table"]]
                    assert len(table.fanout.connections) == spectators + 1
                    await player.send({"type": "ping"})
                    await player.until("pong")
                    extra = player.frames[before:]
                    # nothing else came but who watches, coalesced (at most one per 2 s)
                    told = [f for f in extra if f["type"] == "watchers"]
                    assert [f["type"] for f in extra if f not in told] == ["pong"]
                    assert len(told) <= 2 + (trio.current_time() - began) / WATCHERS_EVERY
                    stop.set()
                await player.send({"type": "act", "action": update["view"]["legal"][0]})
                assert (await player.until("update"))["version"] > update["version"]
                assert player.close_code is None
