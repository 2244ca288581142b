"""One load through the rig: every client process sets up and connects its share of the
tables, then plays from go until every game ends or the bound passes, while the server is
watched from outside (RSS, CPU, ``/status.json`` each second, ``/metrics`` around it)."""

from __future__ import annotations

import subprocess
import time
from multiprocessing.connection import Connection as Pipe
from typing import Any, NamedTuple

from quaymoor.tools.server_bench.client_process import LoadJob
from quaymoor.tools.server_bench.procfs import cpu_seconds, rss_kib
from quaymoor.tools.server_bench.rig import recv, split
from quaymoor.tools.server_bench.server_http import get_json, read_metrics, status_sample
from quaymoor.tools.server_bench.settings import SETUP_SECONDS


class LoadRun(NamedTuple):
    done: list[dict[str, Any]]  #: each client process's results
    go: float  #: time.monotonic() at the start of play
    held: int  #: websockets welcomed before the start
    start_rss: int  #: server KiB when every client was connected
    peak_rss: int
    server_cpu: float  #: seconds during play
    samples: list[dict[str, Any]]  #: /status.json read during play (``status_sample``)
    metrics_before: str | None  #: /metrics right before go (None: not read)
    metrics_after: str | None  #: /metrics after the load


def run_load(server: subprocess.Popen[str], port: int, pipes: list[Pipe], *, tables: int,
              players: int, seconds: float, think: float, start_spread: float,
              spectators: int = 0, label: str = "setup") -> LoadRun:
    """Set up and connect every table's seats (and ``spectators`` per table) in the client
    processes, start the tables over ``start_spread`` seconds after go, play until every
    game ends or ``seconds`` pass; /status.json is read every second meanwhile, /metrics
    right before go and after the load."""
    shares = split(tables, len(pipes))
    for i, (pipe, share) in enumerate(zip(pipes, shares, strict=True)):
        pipe.send(("load", LoadJob(port, share, players, think, start_spread, i, len(pipes),
                                   spectators)))
    t0 = time.monotonic()
    readies = [recv(pipe, SETUP_SECONDS + 60, "ready") for pipe in pipes]
    setup_s = time.monotonic() - t0
    held = sum(r[1] for r in readies)
    watching = (f" and {sum(r[4] for r in readies)} spectators" if spectators else "")
    try:
        server_conns = get_json(port, "/status.json")["connections"]
    except Exception as exc:
        server_conns = f"? ({exc})"
    barrier_rss = rss_kib(server.pid)
    print(f"{label}: {sum(shares)} tables joined, {held} websockets{watching} welcomed in "
          f"{setup_s:.1f} s; the server counts {server_conns} connections; server RSS "
          f"{barrier_rss / 1024:.1f} MiB; setup failures "
          f"{[r[3] for r in readies if r[3]] or 'none'}", flush=True)
    before = read_metrics(port)
    go = time.monotonic()
    server_cpu = cpu_seconds(server.pid)
    for pipe in pipes:
        pipe.send(("go", go, go + seconds))
    peak_rss = barrier_rss
    samples: list[dict[str, Any]] = []
    next_sample = go + 1.0
    results: list[dict[str, Any] | None] = [None] * len(pipes)
    hard_end = go + seconds + 60
    while any(r is None for r in results) and time.monotonic() < hard_end:
        peak_rss = max(peak_rss, rss_kib(server.pid))
        if time.monotonic() >= next_sample:
            samples.append(status_sample(port))
            next_sample = time.monotonic() + 1.0
        for i, pipe in enumerate(pipes):
            if results[i] is None and pipe.poll(0.1):
                results[i] = pipe.recv()[1]
    server_cpu = cpu_seconds(server.pid) - server_cpu
    if any(r is None for r in results):
        raise TimeoutError("a client process did not report its load results")
    after = read_metrics(port)
    done = [r for r in results if r is not None]
    return LoadRun(done, go, held, barrier_rss, peak_rss, server_cpu, samples, before, after)
