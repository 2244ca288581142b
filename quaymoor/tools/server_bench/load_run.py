"""One load through the rig: every client process sets up and connects its share of the
tables, then plays from go until every game ends or the bound passes, while the server is
watched from outside (RSS, CPU, ``/status.json`` each second, ``/metrics`` around it):
each table process of a cluster on its own, and HAProxy's CPU."""

from __future__ import annotations

import time
from multiprocessing.connection import Connection as Pipe
from typing import Any, NamedTuple

from quaymoor.tools.server_bench.client_process import LoadJob
from quaymoor.tools.server_bench.rig import recv, split
from quaymoor.tools.server_bench.served import Served
from quaymoor.tools.server_bench.settings import SETUP_SECONDS


class LoadRun(NamedTuple):
    done: list[dict[str, Any]]  #: each client process's results
    go: float  #: time.monotonic() at the start of play
    held: int  #: websockets welcomed before the start
    start_rss: int  #: server KiB when every client was connected (summed over processes)
    peak_rss: int  #: the peak of that sum
    server_cpu: float  #: seconds during play, summed over the table processes
    samples: list[dict[str, dict[str, Any]]]  #: /status.json of each process, each second
    metrics_before: dict[str, str | None]  #: /metrics of each process right before go
    metrics_after: dict[str, str | None]  #: ... and after the load (None: not read)
    peak_rss_by: dict[str, int]  #: each table process's peak KiB
    cpu_by: dict[str, float]  #: CPU seconds during play of each process, HAProxy's too


def run_load(served: Served, pipes: list[Pipe], *, tables: int, players: int,
             seconds: float, think: float, start_spread: float, spectators: int = 0,
             label: str = "setup") -> LoadRun:
    """Set up and connect every table's seats (and ``spectators`` per table) in the client
    processes, start the tables over ``start_spread`` seconds after go, play until every
    game ends or ``seconds`` pass; /status.json is read every second meanwhile, /metrics
    right before go and after the load."""
    t0 = time.monotonic()
    if spectators and len(pipes) > 1:
        readies = _players_apart(served.port, pipes, tables=tables, players=players,
                                 think=think, start_spread=start_spread,
                                 spectators=spectators)
        shares = [tables]
    else:
        shares = split(tables, len(pipes))
        for i, (pipe, share) in enumerate(zip(pipes, shares, strict=True)):
            pipe.send(("load", LoadJob(served.port, share, players, think, start_spread, i,
                                       len(pipes), spectators)))
        readies = [recv(pipe, SETUP_SECONDS + 60, "ready") for pipe in pipes]
    setup_s = time.monotonic() - t0
    held = sum(r[1] for r in readies)
    watching = (f" and {sum(r[4] for r in readies)} spectators" if spectators else "")
    counted = {name: s.get("connections", s.get("error"))
               for name, s in served.status().items()}
    numbers = [c for c in counted.values() if isinstance(c, int)]
    server_conns = str(sum(numbers)) if len(numbers) == len(counted) else "?"
    if served.cluster or server_conns == "?":
        server_conns += f" ({', '.join(f'{name} {c}' for name, c in counted.items())})"
    rss = served.rss()
    barrier_rss = sum(rss.values())
    print(f"{label}: {sum(shares)} tables joined, {held} websockets{watching} welcomed in "
          f"{setup_s:.1f} s; the server counts {server_conns} connections; server RSS "
          f"{barrier_rss / 1024:.1f} MiB; setup failures "
          f"{[r[3] for r in readies if r[3]] or 'none'}", flush=True)
    before = served.metrics()
    go = time.monotonic()
    cpu_at_go = served.cpu()
    for pipe in pipes:
        pipe.send(("go", go, go + seconds))
    peak_rss = barrier_rss
    peak_by = dict(rss)
    samples: list[dict[str, dict[str, Any]]] = []
    next_sample = go + 1.0
    results: list[dict[str, Any] | None] = [None] * len(pipes)
    hard_end = go + seconds + 60
    while any(r is None for r in results) and time.monotonic() < hard_end:
        rss = served.rss()
        peak_rss = max(peak_rss, sum(rss.values()))
        peak_by = {name: max(kib, peak_by.get(name, 0)) for name, kib in rss.items()}
        if time.monotonic() >= next_sample:
            samples.append(served.status())
            next_sample = time.monotonic() + 1.0
        for i, pipe in enumerate(pipes):
            if results[i] is None and pipe.poll(0.1):
                results[i] = pipe.recv()[1]
    cpu_by = {name: spent - cpu_at_go[name] for name, spent in served.cpu().items()}
    if any(r is None for r in results):
        raise TimeoutError("a client process did not report its load results")
    after = served.metrics()
    done = [r for r in results if r is not None]
    server_cpu = sum(cpu_by[p.name] for p in served.servers)
    return LoadRun(done, go, held, barrier_rss, peak_rss, server_cpu, samples, before, after,
                   peak_by, cpu_by)


def _players_apart(port: int, pipes: list[Pipe], *, tables: int, players: int,
                   think: float, start_spread: float, spectators: int) -> list[Any]:
    """Every table and its players in the first client process, and the spectators of
    those tables spread over the others; their "ready" reports. The players drive the
    games: in a process of their own the spectators' frames do not queue ahead of their
    turns (on a real site they are other machines), so the games go as fast as the
    server lets them."""
    first, rest = pipes[0], pipes[1:]
    first.send(("load", LoadJob(port, tables, players, think, start_spread, 0, 1)))
    readies = [recv(first, SETUP_SECONDS + 60, "ready")]
    ids: list[str] = readies[0][5]
    for i, pipe in enumerate(rest):
        mine = tuple(ids[j] for j in range(len(ids))
                     for k in range(spectators) if (j * spectators + k) % len(rest) == i)
        pipe.send(("load", LoadJob(port, 0, players, think, start_spread, i, len(rest),
                                   watch=mine)))
    readies += [recv(pipe, SETUP_SECONDS + 60, "ready") for pipe in rest]
    return readies
