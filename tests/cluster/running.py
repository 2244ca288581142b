"""A real ``quaymoor cluster`` in a subprocess (HAProxy, 2 ``quaymoor serve`` processes
and a PostgreSQL of its own in a temporary folder), and the clients the cluster tests use
through HAProxy. Every test module starts one and stops it (SIGTERM: every piece stops,
the folder goes)."""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
import trio
from trio_websocket import open_websocket_url

from tests.actors.test_end_to_end import Client
from tests.server_process import ROOT

SERVING = re.compile(r"Quaymoor cluster is serving on http://[^:]+:(\d+)/")


def needs_cluster_tools() -> None:
    """Skip (saying what to install) where HAProxy or PostgreSQL's server is missing;
    ``make test`` installs HAProxy."""
    if shutil.which("haproxy") is None and not Path("/usr/sbin/haproxy").exists():
        pytest.skip("HAProxy is not installed: make haproxy (apt-get install haproxy)")
    if not list(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl")):
        pytest.skip("PostgreSQL's server is not installed (apt-get install postgresql)")


@dataclass
class RunningCluster:
    proc: subprocess.Popen[str]
    port: int
    folder: Path
    lines: queue.Queue[str]

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def cluster(*extra: str, address_limits: bool = False) -> Iterator[RunningCluster]:
    """``quaymoor cluster --workers 2`` on a free port; stopped and removed afterwards.
    Without ``address_limits`` (``--no-address-limits``), since every test client comes
    from 127.0.0.1."""
    needs_cluster_tools()
    # PostgreSQL runs as the postgres user: the folder must be reachable by it.
    folder = Path(tempfile.mkdtemp(prefix="quaymoor-cluster-"))
    folder.chmod(0o755)
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "quaymoor", "cluster", "--workers", "2", "--port", str(port),
         "--folder", str(folder), *(() if address_limits else ("--no-address-limits",)),
         *extra],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**{k: v for k, v in os.environ.items() if k != "QUAYMOOR_OPERATOR_TOKEN"},
             "PYTHONUNBUFFERED": "1"})
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)

    threading.Thread(target=pump, daemon=True).start()
    running = RunningCluster(proc, port, folder, lines)
    try:
        deadline = time.monotonic() + 60
        seen: list[str] = []
        while True:
            if time.monotonic() > deadline or proc.poll() is not None:
                raise AssertionError("the cluster did not start:\n" + "".join(seen[-30:]))
            try:
                line = lines.get(timeout=0.5)
            except queue.Empty:
                continue
            seen.append(line)
            if SERVING.search(line):
                break
        yield running
    finally:
        code = running.stop()
        shutil.rmtree(folder, ignore_errors=True)
        assert code == 0, f"the cluster exited with {code}"


@asynccontextmanager
async def connect_to(port: int, table: str) -> AsyncIterator[Client]:
    """A websocket to ``table`` through HAProxy, as the web client opens it."""
    async with open_websocket_url(f"ws://127.0.0.1:{port}/ws?table={table}") as ws:
        yield Client(ws)


async def get_json(port: int, path: str, token: str | None = None) -> tuple[int, Any]:
    """``GET path`` (with the operator token as a bearer when given): status, JSON body."""
    head = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close"]
    if token is not None:
        head.append(f"Authorization: Bearer {token}")
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    async with stream:
        await stream.send_all(("\r\n".join(head) + "\r\n\r\n").encode())
        raw = b""
        while chunk := await stream.receive_some(65536):
            raw += chunk
    top, _, body = raw.partition(b"\r\n\r\n")
    return int(top.split()[1]), json.loads(body) if body else None


def operator_token(folder: Path) -> str:
    return (folder / "operator.token").read_text().strip()


async def status(running: RunningCluster) -> dict[str, Any]:
    code, body = await get_json(running.port, "/status.json", operator_token(running.folder))
    assert code == 200, body
    found: dict[str, Any] = body
    return found


async def live_processes(running: RunningCluster) -> dict[str, dict[str, Any]]:
    """The processes the cluster's status lists as alive, by name."""
    return {p["name"]: p for p in (await status(running))["processes"] if p["alive"]}


SERVER_LINE = re.compile(r"^\s*server (w[0-9a-f]{2}) (\S+) check( weight 0| disabled)?$",
                         re.M)


def servers_on_disk(running: RunningCluster) -> dict[str, tuple[str, str]]:
    """``haproxy.cfg``'s servers now: name -> (address, "" / " weight 0" (draining) /
    " disabled" (a spare))."""
    text = (running.folder / "haproxy.cfg").read_text()
    return {m[1]: (m[2], m[3] or "") for m in SERVER_LINE.finditer(text)}


async def file_names_live_processes(running: RunningCluster) -> bool:
    """``haproxy.cfg`` on disk routes to exactly the live processes, at their addresses,
    the draining ones at weight 0."""
    on_disk = servers_on_disk(running)
    procs = await live_processes(running)
    return {n: (a, how) for n, (a, how) in on_disk.items() if how != " disabled"} == {
        n: (p["address"], " weight 0" if p["draining"] else "") for n, p in procs.items()}


def worker_port(process: dict[str, Any]) -> int:
    return int(str(process["address"]).rsplit(":", 1)[1])


def verify_with_cli(record_text: str, folder: Path, name: str) -> subprocess.CompletedProcess[str]:
    path = folder / f"{name}.json"
    path.write_text(record_text)
    return subprocess.run([sys.executable, "-m", "quaymoor", "verify", str(path)],
                          cwd=ROOT, capture_output=True, text=True, check=False)


def record_text(body: Any) -> str:
    return json.dumps(body)


async def play_some(port: int, info: dict[str, Any], acts: int) -> int:
    """Play ``acts`` actions at the table, wait until the table is still (the bot has
    answered: the game waits for us), and leave; the version then."""
    async with connect_to(port, info["table"]) as client:
        await client.hello(info["table"], info["token"])
        await client.play(acts=acts)
        while True:
            with trio.move_on_after(1.0) as quiet:
                await client.next()
            if quiet.cancelled_caught:
                return client.last_version()


def in_order(client: Client) -> bool:
    """Every update follows the one before (deltas are checked by ``Views``), and no
    version comes twice or goes back."""
    versions = [f["version"] for f in client.of_type("update") if f["events"]]
    return versions == sorted(set(versions))


async def until(predicate: Any, seconds: float) -> None:
    with trio.fail_after(seconds):
        while not await predicate():
            await trio.sleep(0.2)


def unbroken(client: Client, final: int) -> None:
    """``client``'s stream, from a ``hello`` with ``since: 0``, is every version once, in
    order, with no gap (docs/protocol.md, section 5): the catch-up starts at 0; each
    update continues from the version of the one before; a version only moves forward
    and an update that moves none carries no event; the last update is at ``final`` (the
    record's action count) and ``game_ended`` follows it."""
    updates = client.of_type("update")
    assert updates, "no update at all"
    assert updates[0]["since"] == 0, f"the catch-up starts at {updates[0]['since']}"
    for before, after in pairwise(updates):
        assert after["since"] == before["version"], (
            f"a gap or a repeat: {before['since']}..{before['version']}"
            f" then {after['since']}..{after['version']}")
    for update in updates:
        assert update["version"] >= update["since"], update
        assert update["version"] > update["since"] or not update["events"], update
    assert updates[-1]["version"] == final, (updates[-1]["version"], final)
    assert client.frames[-1]["type"] == "game_ended", client.frames[-1]
