"""Finished games over HTTP, from the archive, with the whole server in this process: the
record download, the game page, the list, the replay; 404 (and never a seed) for a running
or unknown game; crashed and cancelled games archived too."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import trio

from quaymoor.actors.supervisor import Supervisor
from quaymoor.config import ServerConfig, TableConfig
from quaymoor.rules.converter import converter
from quaymoor.rules.fairness import table_fingerprint
from quaymoor.rules.record import GameRecord
from quaymoor.rules.verify import verify_record
from quaymoor.server import run_server
from quaymoor.store.archive import Archive
from tests.actors.test_end_to_end import http, play_now

LIMIT = 30
#: Nobody connects to the human seat: it times out at once and a bot takes it over.
SELF_RUNNING = TableConfig(bot_delay=0.0, decision_seconds=0.01, takeover_after=1,
                           linger_seconds=0.5)
WAITING = TableConfig(bot_delay=0.0, decision_seconds=60.0, linger_seconds=0.5)
SLOW = TableConfig(bot_delay=0.05, decision_seconds=0.01, takeover_after=1, linger_seconds=0.5)


@asynccontextmanager
async def serving(table: TableConfig, archive: Path) -> AsyncIterator[tuple[int, Supervisor]]:
    async with trio.open_nursery() as nursery:
        config = ServerConfig(port=0, table=table, archive_path=str(archive))
        port, supervisor = await nursery.start(run_server, config)
        yield port, supervisor
        nursery.cancel_scope.cancel()


async def raw_get(port: int, path: str) -> tuple[int, dict[str, str], bytes]:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    async with stream:
        await stream.send_all(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                              "Connection: close\r\n\r\n".encode())
        raw = b""
        while chunk := await stream.receive_some(65536):
            raw += chunk
    top, _, body = raw.partition(b"\r\n\r\n")
    status_line, *lines = top.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines)}
    return int(status_line.split()[1]), headers, body


async def wait_until_over(supervisor: Supervisor, table: str) -> None:
    while table in supervisor.tables and supervisor.tables[table].end_reason is None:
        await trio.sleep(0.02)


async def test_a_finished_game_is_archived_and_served(tmp_path: Path) -> None:
    with trio.fail_after(LIMIT):
        async with serving(SELF_RUNNING, tmp_path / "a.sqlite3") as (port, supervisor):
            game = await play_now(port, players=2, name="Ada")
            table = game["table"]
            await wait_until_over(supervisor, table)
            status, headers, body = await raw_get(port, f"/games/{table}.json")
            assert status == 200
            assert headers["content-disposition"] == (
                f'attachment; filename="quaymoor-{table}.json"')
            record = GameRecord.from_json(body.decode())
            assert verify_record(record).ok, verify_record(record).message
            assert record.game == table and record.end_reason == "finished"
            assert record.fingerprint == game["fingerprint"]
            assert [s.bot for s in record.seats] == [False, True]
            assert all(step.at is not None for step in record.actions)
            assert record.turned_up and record.first_warden is not None

            listed = (await http(port, "GET", "/api/games?limit=5")).body["games"]
            assert listed[0]["id"] == table and listed[0]["reason"] == "finished"
            assert listed[0]["actions"] == len(record.actions)

            info = (await http(port, "GET", f"/api/games/{table}")).body
            assert info["seed"] == record.seed and info["steps"] == len(record.actions)
            assert info["result"] == converter.unstructure(record.result)
            assert info["result"]["scores"][0].keys() >= {"seals", "building_points", "bonuses"}

            replay = (await http(port, "GET", f"/api/games/{table}/replay")).body
            assert replay["steps"] == len(record.actions) and replay["error"] is None
            assert replay["turned_up"] == converter.unstructure(record.turned_up)
            assert replay["result"] == info["result"]
            assert replay["actions"][0]["events"][0]["type"] == "role_picked"

            start = (await http(port, "GET", f"/api/games/{table}/replay?step=0")).body
            assert start["action"] is None and start["events"] == []
            assert start["view"]["board"]["warden"] == record.first_warden
            assert start["view"]["board"]["face_up"] == converter.unstructure(
                record.turned_up[0].goods)
            end = (await http(port, "GET",
                              f"/api/games/{table}/replay?step={len(record.actions)}")).body
            assert end["over"] and end["view"]["result"] == info["result"]
            assert [s["total"] for s in end["scores"]] == [
                s["total"] for s in info["result"]["scores"]]
            bad = await http(port, "GET", f"/api/games/{table}/replay?step=99999")
            assert bad.status == 404 and bad.body["error"]["code"] == "bad_step"

            page, _, html = await raw_get(port, f"/games/{table}")
            assert page == 200 and b'src="/game.js"' in html
            for query in ("limit=0", "limit=101", "limit=x"):
                assert (await http(port, "GET", f"/api/games?{query}")).status == 400


async def test_a_running_or_unknown_game_is_a_clear_404_without_its_seed(
    tmp_path: Path
) -> None:
    with trio.fail_after(LIMIT):
        async with serving(WAITING, tmp_path / "a.sqlite3") as (port, supervisor):
            game = await play_now(port, players=3, name="Ada")
            table = game["table"]
            seed = supervisor.tables[table].seed.hex()
            for game_id in (table, "0123456789"):
                for path in (f"/games/{game_id}.json", f"/api/games/{game_id}",
                             f"/api/games/{game_id}/replay", f"/api/games/{game_id}/replay?step=0"):
                    status, _, body = await raw_get(port, path)
                    assert status == 404, path
                    error = json.loads(body)["error"]
                    assert error["code"] == "unknown_game"
                    assert "running game" in error["message"]
                    assert seed.encode() not in body and b'"seed"' not in body
                status, _, body = await raw_get(port, f"/games/{game_id}")
                assert status == 404 and seed.encode() not in body  # the page says so itself
            listed = (await http(port, "GET", "/api/games")).body["games"]
            assert table not in [g["id"] for g in listed]
            refused = await http(port, "POST", f"/api/games/{table}", {})
            assert refused.status == 405


async def test_crashed_and_cancelled_games_are_archived(tmp_path: Path) -> None:
    path = tmp_path / "a.sqlite3"
    with trio.fail_after(LIMIT):
        async with serving(SLOW, path) as (port, supervisor):
            doomed = (await play_now(port, players=2, name="Ada"))["table"]
            running = (await play_now(port, players=4, name="Bede"))["table"]
            while any(t.game is None or t.game.version < 4
                      for t in (supervisor.tables[doomed], supervisor.tables[running])):
                await trio.sleep(0.02)
            fingerprint = supervisor.tables[running].fingerprint
            await supervisor.tables[doomed].inbox.send(object())  # type: ignore[arg-type]  # not an inbox message: the table raises
            while doomed in supervisor.tables:
                await trio.sleep(0.01)
            _, _, body = await raw_get(port, f"/games/{doomed}.json")
            crashed = GameRecord.from_json(body.decode())
        # leaving the block cancels the whole server, the running game with it
    archive = Archive(path)
    assert crashed.end_reason == "crashed" and crashed.result is None
    assert verify_record(crashed).ok
    text = archive.record_json_sync(running)
    assert text is not None, "a game cancelled with the server was not archived"
    record = GameRecord.from_json(text)
    assert record.end_reason == "shutdown" and record.fingerprint == fingerprint
    assert table_fingerprint(bytes.fromhex(record.seed), running, 4) == fingerprint
    assert verify_record(record).ok, verify_record(record).message
    assert {g.id: g.reason for g in archive.recent_sync()} == {
        doomed: "crashed", running: "shutdown"}

