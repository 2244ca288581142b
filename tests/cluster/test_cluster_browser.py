"""The web client through a cluster (HAProxy, 2 processes, PostgreSQL), in headless
Debian chromium: Play now from the lobby, play by clicking, the websocket carries its
table for the router; the table's process is killed and the page, reconnecting, shows
the game's end with its seed; the status page lists both processes and HAProxy's view."""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tests.cluster.running import RunningCluster, cluster, operator_token
from tests.server_process import browser_skip_reason, chromium
from tests.web.table_page import new_page, play_by_clicking, play_now, shot, wait_turn


@pytest.fixture(scope="module")
def running() -> Iterator[RunningCluster]:
    reason = browser_skip_reason()
    if reason:
        pytest.skip(reason)
    # A 10 s lease (45 s by default): the killed process's games end sooner.
    with cluster("--bot-delay", "0", "--decision-seconds", "60", "--lease-seconds", "10") as c:
        yield c


def processes(running: RunningCluster) -> dict[str, dict[str, Any]]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{running.port}/status.json",
        headers={"Authorization": f"Bearer {operator_token(running.folder)}"})
    with urllib.request.urlopen(request, timeout=10) as res:
        body: dict[str, Any] = json.load(res)
    return {p["name"]: p for p in body["processes"] if p["alive"]}


def test_play_through_the_router_then_the_process_dies(running: RunningCluster) -> None:
    url = f"http://127.0.0.1:{running.port}"
    with chromium() as browser:
        context, page, watch = new_page(browser)
        sockets: list[str] = []
        page.on("websocket", lambda ws: sockets.append(ws.url))
        play_now(page, url, players=2, name="Ada")
        table = page.evaluate("new URLSearchParams(location.search).get('table')")
        assert sockets and all(s.endswith(f"/ws?table={table}") for s in sockets), sockets
        assert play_by_clicking(page, until=4) == 4
        shot(page, "cluster-table-playing")

        owner = processes(running)[f"w{table[:2]}"]
        os.kill(int(owner["pid"]), signal.SIGKILL)
        # The page reconnects by itself; once a survivor has archived the game, it is told
        # the game ended and shows the seed.
        page.locator("#seed").wait_for(timeout=40_000)
        assert wait_turn(page) == "ended"
        # Told the table is gone, the page stops reconnecting: no banner over the end.
        page.wait_for_function("() => !document.querySelector('#banner:not([hidden])')"
                               " || !document.querySelector('#banner').textContent.trim()")
        shot(page, "cluster-table-after-kill")
        seed_text = page.locator("#seed").inner_text()
        with urllib.request.urlopen(f"{url}/games/{table}.json", timeout=10) as res:
            record = json.load(res)
        assert record["end_reason"] == "shutdown"
        assert record["seed"][:12] in seed_text.replace(" ", "").replace("\n", "")
        # (The console shows the refused reconnects while the process was down: expected.)
        errors = [p for p in watch.problems if p.startswith("page error")]
        assert not errors, errors

        # The status page: both table processes (the killed one's replacement too) and
        # HAProxy's view of each.
        deadline = time.monotonic() + 30
        while len(processes(running)) < 2:
            assert time.monotonic() < deadline, "no replacement for the killed process"
            time.sleep(0.5)
        status = context.new_page()
        status.goto(f"{url}/status")
        status.fill("#auth-token", operator_token(running.folder))
        status.keyboard.press("Enter")
        status.locator("#processes-card").wait_for()
        status.wait_for_function(
            "() => document.querySelectorAll('#processes tr').length >= 4")
        rows = status.locator("#processes tr").all_inner_texts()
        assert rows[-1].startswith("All 2 live"), rows
        assert sum("serving" in r and "UP" in r for r in rows) == 2, rows
        assert any("stopped" in r for r in rows), rows
        # The headline is the cluster's, labelled so (not the answering process's own).
        status.wait_for_function(
            "() => document.querySelector('#now-scope').textContent.includes('cluster')")
        assert status.locator("#now-scope").inner_text() == (
            "(cluster totals: 2 live processes)")
        assert status.locator("#summary").inner_text().startswith("Cluster: ")
        shot(status, "cluster-status")
        context.close()
