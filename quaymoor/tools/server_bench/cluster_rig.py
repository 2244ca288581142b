"""The cluster under test (``bench load --cluster N``): a real ``quaymoor cluster
--workers N`` (HAProxy, N ``quaymoor serve`` processes and a PostgreSQL of its own) in a
temporary folder, on a free port, with the one-process rig's serve options
(``settings.serve_options``), which the cluster passes to each of its processes (and,
for ``--no-address-limits``, turns off HAProxy's per-address limits).

Its processes are found through the cluster itself: the table processes' names, pids and
own addresses in its ``/status.json`` ``processes`` (with the operator token the cluster
writes into the folder), HAProxy's pid and limits from its runtime API, PostgreSQL's
from its pid file (its CPU, with its backends', is the cluster's too). The cluster runs
in a session of its own, so a terminal's Ctrl-C reaches only the benchmark, which stops it
in order (SIGTERM: every process ends its games, then HAProxy and PostgreSQL stop). The
folder is kept for its logs (``wNN.log``, ``haproxy.log``, ``haproxy.cfg``); its database
is removed (its pair's too, with ``--standby``).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import trio

from quaymoor.cluster.haproxy import HaproxyError, runtime, servers_view
from quaymoor.cluster.local_pg import LocalPostgres, PostgresError, free_port
from quaymoor.cluster.runner import PAIR_FOLDER, PG_FOLDER, SOCKET_FILE, TOKEN_FILE
from quaymoor.tools.server_bench.launch import start_process
from quaymoor.tools.server_bench.served import Measured, Served
from quaymoor.tools.server_bench.server_http import get_json
from quaymoor.tools.server_bench.settings import serve_options

START_SECONDS = 120.0  #: PostgreSQL's initdb, N processes and HAProxy's first checks
STOP_SECONDS = 120.0  #: every process archives its games (the cluster allows 30 s)


@contextlib.contextmanager
def cluster_under_test(workers: int, *, stalls: bool, extra: tuple[str, ...] = ()
                       ) -> Iterator[tuple[Served, dict[str, str]]]:
    """The running cluster (with ``extra`` options of ``quaymoor cluster``) and each table
    process's log file, by name; stopped afterwards (also on error or Ctrl-C)."""
    folder = Path(tempfile.mkdtemp(prefix="quaymoor-bench-cluster-"))
    folder.chmod(0o755)  # as root, PostgreSQL runs as the postgres user: it must get in
    proc: subprocess.Popen[str] | None = None
    log: Any = None
    served: Served | None = None
    try:
        proc, port, log = start_process(
            [sys.executable, "-m", "quaymoor", "cluster", "--workers", str(workers),
             "--port", str(free_port()), "--folder", str(folder), *serve_options(stalls), *extra],
            r"Quaymoor cluster is serving on http://[\d.]+:(\d+)/",
            timeout=START_SECONDS, new_session=True)
        served = _find_processes(port, folder, workers)
        yield served, {p.name: str(folder / f"{p.name}.log") for p in served.servers}
    finally:
        _stop(proc, served, folder)
        if log is not None:
            log.close()
        for database in (PG_FOLDER, PAIR_FOLDER):  # the pair: ``cluster --standby``'s
            shutil.rmtree(folder / database, ignore_errors=True)
        print(f"cluster folder (its logs; its own log in {log.name if log else '?'}): "
              f"{folder}", flush=True)


def _find_processes(port: int, folder: Path, workers: int) -> Served:
    """The cluster's table processes (from its /status.json) and HAProxy (from its
    runtime API); raises ``RuntimeError`` when they cannot all be found."""
    token = (folder / TOKEN_FILE).read_text().strip()
    deadline = time.monotonic() + 30
    alive: list[dict[str, Any]] = []
    while time.monotonic() < deadline:
        listed = get_json(port, "/status.json", token=token).get("processes", [])
        alive = [p for p in listed if p.get("alive") and p.get("address")]
        if len(alive) >= workers:
            break
        time.sleep(0.5)  # a heartbeat row comes within a second of a process's start
    else:
        raise RuntimeError(f"the cluster's /status.json lists {len(alive)} live processes, "
                           f"not {workers}")
    servers = tuple(Measured(str(p["name"]), int(p["pid"]),
                             int(str(p["address"]).rsplit(":", 1)[1]))
                    for p in sorted(alive, key=lambda p: str(p["name"])))
    info = haproxy_info(str(folder / SOCKET_FILE))
    database = _postgres(folder)
    print(f"cluster: HAProxy pid {info.get('Pid')}, maxconn {info.get('Maxconn')}, open-file "
          f"limit {info.get('Ulimit-n')}; PostgreSQL pid "
          f"{database.pid if database else 'not found'}; table processes "
          f"{', '.join(f'{s.name} (pid {s.pid}, port {s.port})' for s in servers)}",
          flush=True)
    return Served(port, servers, router=Measured("haproxy", int(info["Pid"])),
                  database=database, token=token, router_socket=str(folder / SOCKET_FILE))


def _postgres(folder: Path) -> Measured | None:
    """The cluster's own PostgreSQL server (its postmaster, whose children are the
    backends), from its pid file; None when it cannot be read."""
    try:
        pid = int((LocalPostgres(folder / PG_FOLDER).data / "postmaster.pid")
                  .read_text().split()[0])
    except (OSError, ValueError, IndexError, PostgresError):
        return None
    return Measured("postgres", pid, tree=True)


def haproxy_info(socket_path: str) -> dict[str, str]:
    """HAProxy's ``show info`` (Pid, Maxconn, Ulimit-n, ...), by field."""
    try:
        text = trio.run(runtime, socket_path, "show info")
    except HaproxyError as exc:
        raise RuntimeError(str(exc)) from exc
    return {k.strip(): v.strip() for k, _, v in
            (line.partition(":") for line in text.splitlines()) if v}


def router_view(served: Served) -> str:
    """HAProxy's view of each table process now: its state, its last check, and how many
    times its checks took it down (a process marked down loses its tables' new requests
    to another process)."""
    if served.router_socket is None:
        return "no HAProxy"
    try:
        view = trio.run(servers_view, served.router_socket)
    except HaproxyError as exc:
        return f"not read: {exc}"
    return ", ".join(f"{s['svname']} {s['status']} (check {s['check_status'] or '?'}, "
                     f"{s['chkdown'] or 0} times down)" for s in view)


def _stop(proc: subprocess.Popen[str] | None, served: Served | None, folder: Path) -> None:
    """SIGTERM, as an operator stops a cluster; what is still up after ``STOP_SECONDS``
    is killed (the processes we know of, and the database stopped)."""
    if proc is None or proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(STOP_SECONDS)
        return
    except subprocess.TimeoutExpired:
        print(f"the cluster did not stop within {STOP_SECONDS:.0f} s: killed", flush=True)
    proc.kill()
    proc.wait(5)
    if served is not None:
        for p in (*served.servers, *([served.router] if served.router else [])):
            with contextlib.suppress(OSError):
                os.kill(p.pid, signal.SIGKILL)
    with contextlib.suppress(Exception):
        LocalPostgres(folder / PG_FOLDER).stop()
