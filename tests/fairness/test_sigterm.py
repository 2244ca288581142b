"""A ``quaymoor serve`` process stopped mid-game with SIGTERM archives every running game,
seeds revealed, before it exits; a server restarted on the same archive serves those
records, and they verify (``verify_record`` and the ``quaymoor verify`` command)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from functools import partial
from pathlib import Path
from typing import Any

import trio

from quaymoor.rules.record import GameRecord
from quaymoor.rules.verify import verify_record
from tests.actors.test_end_to_end import (
    Client,
    connect,
    create_table,
    http,
    join,
    play_now,
    seed_matches,
)
from tests.server_process import ROOT, start_server

LIMIT = 40


async def test_sigterm_archives_every_running_game_and_a_restart_serves_them(
    tmp_path: Path,
) -> None:
    archive = tmp_path / "var" / "games.sqlite3"
    with trio.fail_after(LIMIT):
        first = await trio.to_thread.run_sync(
            lambda: start_server(archive, "--bot-delay", "0.2", "--decision-seconds", "30"))
        try:
            port = first.port
            solo = await play_now(port, players=3, name="Ada")
            made = await create_table(port, 2)
            token = await join(port, made["table"], "Bede")
            games: list[dict[str, Any]] = [
                {"table": solo["table"], "token": solo["token"], "players": 3,
                 "fingerprint": solo["fingerprint"]},
                {"table": made["table"], "token": token, "players": 2,
                 "fingerprint": made["fingerprint"]},
            ]
            start = await http(port, "POST", f"/api/tables/{made['table']}/start",
                               {"token": token})
            assert start.status == 200
            ended: dict[str, dict[str, Any]] = {}

            async with connect(port) as a, connect(port) as b:
                clients: list[Client] = [a, b]

                async def play(game: dict[str, Any], client: Client) -> None:
                    await client.hello(game["table"], game["token"])
                    frame = await client.play()
                    assert frame is not None
                    ended[game["table"]] = frame

                async with trio.open_nursery() as nursery:
                    for game, client in zip(games, clients, strict=True):
                        nursery.start_soon(play, game, client)
                    while min((c.last_version() if c.of_type("update") else 0)
                              for c in clients) < 6:
                        await trio.sleep(0.05)
                    for game in games:  # running: no record, no seed
                        running = await http(port, "GET", f"/games/{game['table']}.json")
                        assert running.status == 404 and "seed" not in json.dumps(running.body)
                    first.proc.send_signal(signal.SIGTERM)
            code = await trio.to_thread.run_sync(lambda: first.proc.wait(timeout=20))
            assert code == 0
        finally:
            first.stop()

        for game in games:
            frame = ended[game["table"]]
            assert frame["reason"] == "shutdown"
            assert seed_matches(frame["seed"], game)  # the table's fingerprint (fair-2)

        second = await trio.to_thread.run_sync(lambda: start_server(archive, "--bot-delay", "0"))
        try:
            for game in games:
                table = game["table"]
                reply = await http(second.port, "GET", f"/games/{table}.json")
                assert reply.status == 200, reply
                text = json.dumps(reply.body)
                record = GameRecord.from_json(text)
                assert record.game == table and record.end_reason == "shutdown"
                assert record.fingerprint == game["fingerprint"]
                assert record.seed == ended[table]["seed"]  # the seed revealed at the end
                assert len(record.actions) >= 6 and record.result is None
                assert record.seats[0].bot is False and record.seats[-1].bot is True
                verdict = verify_record(record)
                assert verdict.ok and "not finished (ended: shutdown)" in verdict.message
                path = tmp_path / f"{table}.json"
                path.write_text(text)
                done = await trio.to_thread.run_sync(partial(
                    subprocess.run, [sys.executable, "-m", "quaymoor", "verify", str(path)],
                    cwd=ROOT, capture_output=True, text=True, timeout=60, check=False))
                assert done.returncode == 0, done.stderr
                page = await http(second.port, "GET", f"/api/games/{table}")
                assert page.status == 200 and page.body["reason"] == "shutdown"
            listed = (await http(second.port, "GET", "/api/games")).body["games"]
            assert {g["table"] for g in games} <= {g["id"] for g in listed}
        finally:
            second.stop()
