"""What a fault is injected into: a real ``quaymoor cluster`` (HAProxy, two ``quaymoor
serve`` processes, a PostgreSQL of its own) or one ``quaymoor serve`` on SQLite, started
for one fault and stopped after it.

The cluster is the load benchmark's (``server_bench.cluster_rig``: a temporary folder, a
free port, the benchmark's serve options, stopped with SIGTERM in order). The single
process is started here because its faults need more than the load's rig: the same port
and archive across a restart (a player's browser comes back to the same address), and an
archive folder of the fault's choosing (a tiny filesystem for the full disk).

Both answer the same questions for the bench: the public port, the ports to read records
from when the public one is down (every live table process's own port), and the table
processes as the cluster's ``/status.json`` lists them.
"""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

import trio

from quaymoor.cluster.haproxy import HaproxyError, runtime
from quaymoor.cluster.local_pg import LocalPostgres
from quaymoor.cluster.runner import PG_FOLDER
from quaymoor.tools.fault_bench.http_get import get_json
from quaymoor.tools.server_bench.cluster_rig import cluster_under_test
from quaymoor.tools.server_bench.launch import start_process
from quaymoor.tools.server_bench.served import Served
from quaymoor.tools.server_bench.settings import serve_options

SERVING = r"serving on http://[\d.]+:(\d+)/"  #: what ``quaymoor serve`` prints
STOP_SECONDS = 60.0  #: a process's orderly stop (it archives its games)


class System(Protocol):
    """A system under test, as the bench reads it."""

    @property
    def port(self) -> int:
        """The one address the players use."""

    async def read_ports(self) -> list[int]:
        """Where records can be read now: the public port, then each live process's own."""


class Cluster:
    """A running ``quaymoor cluster`` (``cluster_under_test``)."""

    def __init__(self, served: Served) -> None:
        self.served = served
        assert served.router_socket is not None
        self.folder = Path(served.router_socket).parent
        self.token = served.token
        self.known_ports = {p.port for p in served.servers if p.port is not None}
        assert served.router is not None
        #: ``quaymoor cluster`` itself (it writes no pid file): HAProxy's parent.
        stat = Path(f"/proc/{served.router.pid}/stat").read_text()
        self.runner_pid = int(stat.rsplit(")", 1)[1].split()[1])

    @property
    def port(self) -> int:
        return self.served.port

    @property
    def postgres(self) -> LocalPostgres:
        return LocalPostgres(self.folder / PG_FOLDER)

    async def processes(self) -> list[dict[str, Any]]:
        """The table processes the cluster's ``/status.json`` lists as alive, read through
        the public port or, when it is down, any process's own."""
        for port in [self.port, *sorted(self.known_ports)]:
            status = await get_json(port, "/status.json", token=self.token, timeout=3.0)
            if isinstance(status, dict):
                alive = [p for p in status.get("processes", []) if p.get("alive")]
                for p in alive:
                    if p.get("address"):
                        self.known_ports.add(int(str(p["address"]).rsplit(":", 1)[1]))
                return alive
        return []

    async def haproxy_pid(self) -> int | None:
        """HAProxy's pid now, from its runtime API (None: it does not answer)."""
        assert self.served.router_socket is not None
        try:
            info = await runtime(self.served.router_socket, "show info")
        except HaproxyError:
            return None
        for line in info.splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "Pid":
                return int(value)
        return None

    async def read_ports(self) -> list[int]:
        await self.processes()
        return [self.port, *sorted(self.known_ports)]


@contextlib.contextmanager
def cluster(options: tuple[str, ...] = ()) -> Iterator[Cluster]:
    """A two-process cluster for one fault (with these more ``quaymoor cluster``
    ``options``); stopped (SIGTERM, in order) afterwards."""
    with cluster_under_test(2, stalls=False, extra=options) as (served, _logs):
        yield Cluster(served)


class Single:
    """One ``quaymoor serve`` on SQLite, which a fault may kill and start again on the same
    port and archive."""

    def __init__(self, archive: Path) -> None:
        self.archive = archive
        self.proc: subprocess.Popen[str] | None = None
        self._port = 0
        self.logs: list[str] = []
        self.starts = 0

    @property
    def port(self) -> int:
        return self._port

    def start(self) -> None:
        """Start the server (on its earlier port when it had one); blocks until it serves."""
        proc, port, log = start_process(
            [sys.executable, "-m", "quaymoor", "serve", "--port", str(self._port),
             "--archive", str(self.archive), *serve_options(False)], SERVING)
        log.close()
        self.proc, self._port = proc, port
        self.logs.append(log.name)
        self.starts += 1

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def signal(self, signum: signal.Signals) -> None:
        if self.alive():
            assert self.proc is not None
            self.proc.send_signal(signum)

    async def wait_exit(self, seconds: float) -> int | None:
        """Wait up to ``seconds`` for the process to exit: its exit code (None: still up)."""
        with trio.move_on_after(seconds):
            while self.alive():
                await trio.sleep(0.1)
        return None if self.proc is None else self.proc.poll()

    async def restart(self) -> None:
        """Start it again on the same port and archive (in a thread: it blocks)."""
        await trio.to_thread.run_sync(self.start)

    def stop(self) -> None:
        """SIGTERM (every game ends and is archived), then SIGKILL after ``STOP_SECONDS``."""
        if not self.alive():
            return
        assert self.proc is not None
        self.proc.terminate()
        try:
            self.proc.wait(STOP_SECONDS)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)

    async def read_ports(self) -> list[int]:
        return [self._port]


@contextlib.contextmanager
def single(archive_folder: Path | None = None) -> Iterator[Single]:
    """One ``quaymoor serve`` whose archive is in ``archive_folder`` (a temporary folder
    when None); stopped afterwards."""
    with tempfile.TemporaryDirectory(prefix="quaymoor-faults-") as tmp:
        folder = archive_folder if archive_folder is not None else Path(tmp)
        server = Single(folder / "archive.sqlite3")
        try:
            server.start()
            yield server
        finally:
            server.stop()
            print(f"  server logs: {', '.join(server.logs)}", flush=True)
