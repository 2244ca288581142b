"""Two table processes behind HAProxy, sharing a PostgreSQL (issue 15), over real sockets:
games are placed on both, every request about a table reaches its process, the lobby and
the archive are the same from every process, spectators and reconnects work through the
router, and the records verify."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
import trio

from quaymoor.rules.fairness import seed_commitment
from tests.actors.test_end_to_end import http, play_now, seed_matches
from tests.cluster.running import (
    RunningCluster,
    cluster,
    connect_to,
    live_processes,
    verify_with_cli,
    worker_port,
)
from tests.server_process import ROOT

LIMIT = 90


@pytest.fixture(scope="module")
def running() -> Iterator[RunningCluster]:
    with cluster("--bot-delay", "0.05", "--decision-seconds", "30") as c:
        yield c


async def test_games_on_both_processes_lobby_and_archive_agree(running: RunningCluster) -> None:
    port = running.port
    with trio.fail_after(LIMIT):
        processes = await live_processes(running)
        assert sorted(processes) == ["w00", "w01"]
        tables = [await play_now(port, players=2, name=f"P{i}") for i in range(6)]
        prefixes = {t["table"][:2] for t in tables}
        assert prefixes == {"00", "01"}, "Play now placed every table on one process"

        # The lobby is the same from each process (asked directly, not through HAProxy),
        # once the owners' last writes have committed (a batch: milliseconds).
        with trio.fail_after(5):
            while True:
                lobbies = []
                for proc in processes.values():
                    listed = await http(worker_port(proc), "GET", "/api/tables")
                    assert listed.status == 200
                    lobbies.append({t["id"]: t["state"] for t in listed.body["tables"]})
                if lobbies[0] == lobbies[1] and all(
                        lobbies[0].get(t["table"]) == "playing" for t in tables):
                    break
                await trio.sleep(0.05)

        # Each game played to its end over a websocket through HAProxy.
        ended: dict[str, dict[str, Any]] = {}

        async def play(info: dict[str, Any]) -> None:
            async with connect_to(port, info["table"]) as client:
                await client.hello(info["table"], info["token"])
                welcome = await client.until("welcome")
                assert welcome["table"] == info["table"] and welcome["seat"] == 0
                frame = await client.play()
                assert frame is not None
                ended[info["table"]] = frame
            # The record_url works the moment game_ended arrives: HAProxy routes it to the
            # process that played the game, which serves it while the write commits.
            got = await http(port, "GET", frame["record_url"])
            assert got.status == 200, got
            assert got.body["game"] == info["table"]

        async with trio.open_nursery() as nursery:
            for info in tables:
                nursery.start_soon(play, info)

        for info in tables:
            frame = ended[info["table"]]
            assert frame["reason"] == "finished"
            assert seed_matches(frame["seed"], info)

        # The archive answers the same record from either process, and it verifies.
        for info in tables:
            records = []
            for proc in processes.values():
                got = await http(worker_port(proc), "GET", f"/games/{info['table']}.json")
                assert got.status == 200, got
                records.append(got.body)
            assert records[0] == records[1]
            assert records[0]["game"] == info["table"] and records[0]["end_reason"] == "finished"
            checked = await trio.to_thread.run_sync(
                verify_with_cli, json.dumps(records[0]), running.folder, info["table"])
            assert checked.returncode == 0, checked.stderr
        listed = await http(port, "GET", "/api/games?limit=100")
        assert {t["table"] for t in tables} <= {g["id"] for g in listed.body["games"]}
        # The finished games have left the lobby of both processes.
        for proc in processes.values():
            lobby = await http(worker_port(proc), "GET", "/api/tables")
            assert not {t["table"] for t in tables} & {t["id"] for t in lobby.body["tables"]}


async def test_join_spectate_and_reconnect_through_the_router(running: RunningCluster) -> None:
    port = running.port
    with trio.fail_after(LIMIT):
        for _ in range(2):  # a table on each process in turn (leastconn over two)
            made = await http(port, "POST", "/api/tables", {"players": 2})
            assert made.status == 201
            table = made.body["table"]
            joined = await http(port, "POST", f"/api/tables/{table}/join", {"name": "Ada"})
            assert joined.status == 200, joined
            token = joined.body["token"]
            for verb, body in (
                    ("commit", {"token": token,
                                "commitment": seed_commitment(table, 0, "Ada's dice")}),
                    ("start", {"token": token}),
                    ("reveal", {"token": token, "client_seed": "Ada's dice"})):
                answered = await http(port, "POST", f"/api/tables/{table}/{verb}", body)
                assert answered.status == 200, answered

            async with connect_to(port, table) as watcher:
                await watcher.hello(table)
                welcome = await watcher.until("welcome")
                assert welcome["table"] == table and welcome["seat"] is None
                async with connect_to(port, table) as player:
                    await player.hello(table, token)
                    assert (await player.until("welcome"))["seat"] == 0
                    await player.play(acts=3)
                    seen = player.last_version()
                # Back with the last version seen: every event since, then play on.
                async with connect_to(port, table) as back:
                    await back.hello(table, token, since=seen)
                    assert (await back.until("welcome"))["seat"] == 0
                    frame = await back.play()
                    assert frame is not None and frame["reason"] == "finished"
                    assert back.of_type("update")[0]["since"] == seen
                final = await watcher.until("game_ended")
                assert final["seed"] == frame["seed"]
                versions = [f["version"] for f in watcher.of_type("update")]
                assert versions == sorted(versions), "the spectator's stream went back"


def test_a_second_process_in_a_taken_slot_is_refused(running: RunningCluster) -> None:
    url = (running.folder / "database.url").read_text().strip()
    refused = subprocess.run(
        [sys.executable, "-m", "quaymoor", "serve", "--port", "0", "--database", url,
         "--slot", "1"], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert refused.returncode == 2, refused.stderr
    assert "slot w01 is held by a live process" in refused.stderr


async def test_an_account_made_on_one_process_signs_in_on_the_other(
        running: RunningCluster) -> None:
    """Accounts live in PostgreSQL: a ceremony begun on one process is answered on the
    other, a session opened on one is known to the other and to HAProxy's front, and a
    sign-out everywhere on one ends it on both."""
    from tests.accounts.soft_authenticator import SoftAuthenticator

    origin = f"http://localhost:{running.port}"  # the runner's --public-origin
    with trio.fail_after(LIMIT):
        processes = await live_processes(running)
        one, other = (worker_port(p) for p in processes.values())
        keys = SoftAuthenticator()
        made = await http(one, "POST", "/api/accounts/register/options", {"name": "Routa"})
        assert made.status == 200, made
        answer = keys.register(made.body["options"], origin)
        done = await http(other, "POST", "/api/accounts/register",
                          {"ceremony": made.body["ceremony"], "credential": answer})
        assert done.status == 201, done
        cookie = done.headers["set-cookie"].split(";", 1)[0]
        me = await http(running.port, "GET", "/api/accounts/me", headers={"Cookie": cookie})
        assert me.body["name"] == "Routa" and me.body["signed_in"], me
        asked = await http(other, "POST", "/api/accounts/signin/options", {})
        signed = await http(one, "POST", "/api/accounts/signin", {
            "ceremony": asked.body["ceremony"],
            "credential": keys.sign_in(asked.body["options"], origin)})
        assert signed.status == 200, signed
        second = signed.headers["set-cookie"].split(";", 1)[0]
        ended = await http(one, "POST", "/api/accounts/signout-everywhere", {},
                           headers={"Cookie": second, "X-CSRF-Token": signed.body["csrf"]})
        assert ended.body == {"signed_out": 2}, ended
        for port in (one, other, running.port):
            for jar in (cookie, second):
                gone = await http(port, "GET", "/api/accounts/me", headers={"Cookie": jar})
                assert gone.body == {"signed_in": False}, (port, gone)


async def test_two_rated_games_of_one_player_on_two_processes(running: RunningCluster) -> None:
    """One account plays a rated game on each process, both at once, to the end: its
    rating moves exactly once per game (two rated games on the leaderboard, and the second
    update starts from the rating the first wrote, whichever process committed first)."""
    from tests.accounts.soft_authenticator import SoftAuthenticator

    origin = f"http://localhost:{running.port}"
    with trio.fail_after(LIMIT * 2):
        processes = await live_processes(running)
        ports = [worker_port(p) for p in processes.values()]
        keys = SoftAuthenticator()
        made = await http(running.port, "POST", "/api/accounts/register/options",
                          {"name": "Twice"})
        done = await http(running.port, "POST", "/api/accounts/register", {
            "ceremony": made.body["ceremony"],
            "credential": keys.register(made.body["options"], origin)})
        assert done.status == 201, done
        signed = {"Cookie": done.headers["set-cookie"].split(";", 1)[0],
                  "X-CSRF-Token": done.body["csrf"]}
        games = []
        for port in ports:  # one table on each process
            table = await http(port, "POST", "/api/play-now",
                               {"players": 2, "bots": "easy", "rated": True}, headers=signed)
            assert table.status == 201, table
            info = table.body
            started = await http(port, "POST", f"/api/tables/{info['table']}/start",
                                 {"token": info["token"]}, headers=signed)
            assert started.status == 200, started
            games.append((port, info["table"], info["token"]))
        assert games[0][1][:2] != games[1][1][:2]  # two processes' tables

        async def play(port: int, table: str, token: str) -> None:
            async with connect_to(port, table) as player:
                await player.hello(table, token)
                ended = await player.play()
                assert ended is not None and ended["reason"] == "finished", ended

        async with trio.open_nursery() as nursery:
            for game in games:
                nursery.start_soon(play, *game)
        for _ in range(100):  # each record (and its rating) is written a moment after
            page = await http(running.port, "GET", "/api/players/Twice")
            if page.body["games"] == 2:
                break
            await trio.sleep(0.1)
        assert page.body["games"] == 2, page.body
        history = page.body["history"]
        assert sorted(h["game"] for h in history) == sorted(g[1] for g in games)
        befores = sorted(h["rating"] - h["change"] for h in history)
        afters = {h["rating"] for h in history}
        assert 1500 in befores  # one update started from a newcomer's rating...
        assert len([b for b in befores if b in afters]) == 1  # ...the other from its result
        assert page.body["rating"] in afters
        board = await http(running.port, "GET", "/api/players")
        assert [(p["name"], p["games"]) for p in board.body["players"]] == [("Twice", 2)]
