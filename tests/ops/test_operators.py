"""The operators' side: the token on /status.json and /metrics, the Prometheus text,
live figures, structured logs, and no hidden information in any of them."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import trio
from prometheus_client.parser import text_string_to_metric_families

from quaymoor.actors.status import LOBBY_FIELDS
from quaymoor.actors.supervisor import STATUS_SLICE, Supervisor
from quaymoor.config import ServerConfig, TableConfig
from quaymoor.http.api import operator_refusal
from quaymoor.http.frontdoor import HttpRequest
from quaymoor.ops.logs import JsonFormatter
from quaymoor.rules.fairness import seed_to_hex
from quaymoor.server import run_server
from quaymoor.store.archive import Archive
from tests.store.test_archive import small_record

TOKEN = "s3cret-operator-token"


@asynccontextmanager
async def serving(token: str | None) -> AsyncIterator[tuple[int, Supervisor]]:
    async with trio.open_nursery() as nursery:
        config = ServerConfig(port=0, table=TableConfig(bot_delay=0.05), archive_path=None,
                              operator_token=token)
        port, supervisor = await nursery.start(run_server, config)
        yield port, supervisor
        nursery.cancel_scope.cancel()


async def get(port: int, path: str, auth: str | None = None,
              body: bytes | None = None) -> tuple[int, dict[str, str], str]:
    head = [f"{'POST' if body is not None else 'GET'} {path} HTTP/1.1", "Host: 127.0.0.1",
            "Connection: close"]
    if auth is not None:
        head.append(f"Authorization: {auth}")
    if body is not None:
        head += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    async with stream:
        await stream.send_all(("\r\n".join(head) + "\r\n\r\n").encode() + (body or b""))
        raw = b""
        while chunk := await stream.receive_some(65536):
            raw += chunk
    top, _, rest = raw.partition(b"\r\n\r\n")
    status_line, *lines = top.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines)}
    return int(status_line.split()[1]), headers, rest.decode()


async def test_with_a_token_both_need_it_and_show_no_hidden_information() -> None:
    with trio.fail_after(30):
        async with serving(TOKEN) as (port, supervisor):
            status, _, text = await get(port, "/api/play-now", body=json.dumps(
                {"name": "Op", "players": 3}).encode())
            assert status == 201
            made = json.loads(text)
            seat_token = made["token"]
            status, _, _ = await get(port, f"/api/tables/{made['table']}/start",
                                     body=json.dumps({"token": seat_token}).encode())
            assert status == 200  # play-now seats; the player starts
            status, _, _ = await get(port, "/api/play-now", body=json.dumps(
                {"name": "Waits", "players": 3}).encode())
            assert status == 201  # a table nobody starts: waiting for players
            await trio.sleep(1.0)  # bots play a little
            for path in ("/status.json", "/metrics"):
                status, headers, _ = await get(port, path)
                assert status == 401 and headers["www-authenticate"].startswith("Bearer")
                status, _, _ = await get(port, path, auth="Bearer wrong")
                assert status == 401
                status, _, _ = await get(port, path, auth=f"Basic {TOKEN}")
                assert status == 401
            status, _, text = await get(port, "/status.json", auth=f"Bearer {TOKEN}")
            assert status == 200
            data = json.loads(text)
            assert data["table_count"] == 2
            assert sorted(t["state"] for t in data["tables"]) == ["playing", "waiting"]
            # The headline, labelled as this process's own (a cluster's are its sums).
            assert data["totals"] == {"scope": "process", "processes": 1, "tables": 2,
                                      "playing": 1, "waiting": 1,
                                      "connections": data["connections"],
                                      "games_finished": data["games_finished"]}
            live = data["live"]
            assert live["rss_bytes"] > 0
            assert {"p50", "p99"} <= set(live["action_latency_ms"])
            status, headers, metrics = await get(port, "/metrics", auth=f"Bearer {TOKEN}")
            assert status == 200 and headers["content-type"].startswith("text/plain")
            families = {f.name: f for f in text_string_to_metric_families(metrics)}
            assert "quaymoor_tables" in families and "quaymoor_connections" in families
            assert "quaymoor_event_loop_lag_seconds" in families
            assert "process_resident_memory_bytes" in families
            playing = [s for s in families["quaymoor_tables"].samples
                       if s.labels["state"] == "playing"]
            assert sum(s.value for s in playing) == 1
            table = next(iter(supervisor.tables.values()))
            seed = seed_to_hex(table.seed)
            for body in (text, metrics):
                assert seed not in body and seat_token not in body
                assert '"seals"' not in body


async def test_without_a_token_only_loopback_may_read() -> None:
    with trio.fail_after(30):
        async with serving(None) as (port, _):
            status, _, text = await get(port, "/status.json")
            assert status == 200 and "live" in json.loads(text)
            status, _, _ = await get(port, "/metrics")
            assert status == 200
    outside = HttpRequest("GET", "/status.json", {}, {}, b"", "203.0.113.7")
    refused = operator_refusal(outside, None)
    assert refused is not None and refused.status == 403
    assert operator_refusal(HttpRequest("GET", "/metrics", {}, {}, b"", "::1"), None) is None
    with_token = HttpRequest("GET", "/metrics", {}, {"authorization": f"Bearer {TOKEN}"},
                             b"", "203.0.113.7")
    assert operator_refusal(with_token, TOKEN) is None


def test_logs_are_one_json_object_per_line() -> None:
    record = logging.LogRecord("quaymoor.table", logging.INFO, __file__, 1,
                               "table %s started", ("ab12",), None)
    record.event = "table_started"
    record.table = "ab12"
    line = JsonFormatter().format(record)
    assert "\n" not in line
    data = json.loads(line)
    assert data["message"] == "table ab12 started" and data["level"] == "info"
    assert data["event"] == "table_started" and data["table"] == "ab12"
    assert data["logger"] == "quaymoor.table" and data["ts"].endswith("+00:00")


async def test_status_and_lobby_lists_of_many_tables_are_whole_and_let_the_loop_run() -> None:
    """/status.json and /api/tables over more tables than one slice (STATUS_SLICE): every
    table listed once, and other tasks ran while the lists were built."""
    with trio.fail_after(60):
        async with serving(None) as (port, supervisor):
            made = {(await supervisor.create_table(3)).id for _ in range(5 * STATUS_SLICE + 5)}
            ticks = 0

            async def tick() -> None:
                nonlocal ticks
                while True:
                    ticks += 1
                    await trio.lowlevel.checkpoint()

            async with trio.open_nursery() as nursery:
                nursery.start_soon(tick)
                before = ticks
                status = json.loads(await supervisor.status_json())
                during_status = ticks - before
                before = ticks
                lobby = json.loads(await supervisor.lobby_json())
                during_lobby = ticks - before
                nursery.cancel_scope.cancel()
            assert during_status >= 2 and during_lobby >= 2  # built as one step: 0
            assert [t["id"] for t in status["tables"]] == list(supervisor.tables)
            assert {t["id"] for t in status["tables"]} == made
            assert status["table_count"] == len(made) and "live" in status
            assert [t["id"] for t in lobby["tables"]] == list(supervisor.tables)
            assert set(lobby["tables"][0]) == set(LOBBY_FIELDS)
            code, _, text = await get(port, "/status.json")
            assert code == 200 and len(json.loads(text)["tables"]) == len(made)
            code, _, text = await get(port, "/api/tables")
            assert code == 200 and len(json.loads(text)["tables"]) == len(made)


def test_the_archives_writes_are_on_metrics_and_status() -> None:
    """Healthy here (a failing disk's figures: tests/store/test_disk_faults.py)."""
    archive = Archive(":memory:")
    supervisor = Supervisor(TableConfig(), archive=archive)
    archive.submit("00000000c1", small_record(1))  # no writer running: written at once
    families = {f.name: f for f in text_string_to_metric_families(
        supervisor.metrics.exposition().decode())}
    values = {name: families[name].samples[0].value for name in (
        "quaymoor_archive_write_failures", "quaymoor_archive_pending_records",
        "quaymoor_archive_failing", "quaymoor_archive_last_failure_timestamp_seconds",
        "quaymoor_archive_records_lost")}
    assert values == dict.fromkeys(values, 0.0)
    assert supervisor.summary()["archive"] == {
        "pending": 0, "limit": 1000, "failures": 0, "failing_since": None,
        "last_failure": None, "last_error": None, "lost": 0, "failing": False,
        "full": False, "text": "archive ok, 0 pending"}
    assert archive.count_sync() == 1
