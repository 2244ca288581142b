"""``quaymoor bench server`` and ``quaymoor bench load``: the steps in order, and the
verdict of the load proof (on one process, on a cluster, or on both back to back)."""

from __future__ import annotations

import os
import sys
import time
from multiprocessing.connection import Connection as Pipe

from quaymoor.cluster.runner import haproxy_maxconn, open_files_for
from quaymoor.ops.open_files import hard_open_files, raise_open_files
from quaymoor.tools.server_bench.cluster_rig import router_view
from quaymoor.tools.server_bench.compare import Outcome, report_compare
from quaymoor.tools.server_bench.fanout import fanout_step
from quaymoor.tools.server_bench.load_run import LoadRun, run_load
from quaymoor.tools.server_bench.procfs import rss_kib
from quaymoor.tools.server_bench.report import LoadFigures, report_load, scan_log
from quaymoor.tools.server_bench.rig import rig
from quaymoor.tools.server_bench.served import Served, label
from quaymoor.tools.server_bench.server_http import post
from quaymoor.tools.server_bench.server_report import (
    ServerFigures,
    report_server_metrics,
    report_status,
)
from quaymoor.tools.server_bench.settings import (
    HTTP_CONCURRENCY,
    LATENCY_TARGET,
    SPECTATED_COUNTS,
    WARMUP_TABLES,
)
from quaymoor.tools.server_bench.spectated import spectated_step
from quaymoor.tools.server_bench.verdict import print_verdict


def bench_server(tables: int = 500, players: int = 4, client_procs: int = 2,
                 seconds: float = 120.0, think: float = 0.0, *,
                 start_spread: float = 10.0, stalls: bool = False,
                 only: str | None = None, given_think: bool = False,
                 spectators: tuple[int, ...] = SPECTATED_COUNTS) -> int:
    """Idle tables, the spectator and raw fan-outs, the watched table, then a load of
    ``tables`` tables of ``players`` seats over ``client_procs`` client processes, bounded
    at ``seconds``; all figures printed. ``only="watched"``: the watched table alone (its
    players thinking ``think`` seconds when ``given_think``); ``spectators``: the watched
    table's crowds, in turn (its target is read at the last).
    Returns 0, or 1 when the watched table's target was not met."""
    began = time.monotonic()
    limit = raise_open_files()
    print(f"python {sys.version.split()[0]}; {os.cpu_count()} CPUs; open-file limit {limit}; "
          f"{tables} tables x {players} players over {client_procs} client processes; "
          f"load bounded at {seconds:.0f} s; players think {think:.2f} s on average; "
          f"tables started over {start_spread:g} s", flush=True)
    with rig(client_procs, stalls=stalls) as (served, pipes, logs):
        if only is None:
            idle_kib = _idle_tables(served, tables, players)
            fanout_step(served, pipes)
        # --think is the load's; with --only watched, the watched table's
        watched = (spectated_step(served, pipes, think=think, counts=spectators)
                   if only and given_think else spectated_step(served, pipes, counts=spectators))
        if only is None:
            _load_step(served, pipes, tables=tables, players=players, seconds=seconds,
                       think=think, start_spread=start_spread, idle_kib=idle_kib)
        for name, path in logs.items():
            scan_log(path, name)
        print(f"run time {time.monotonic() - began:.1f} s", flush=True)
        return 0 if watched and watched[-1].met else 1


def _load_step(served: Served, pipes: list[Pipe], *, tables: int, players: int,
               seconds: float, think: float, start_spread: float, idle_kib: float | None
               ) -> tuple[LoadRun, LoadFigures, ServerFigures]:
    """The load, with its figures, the server's histograms and its /status.json readings
    printed; returns the run and the figures a comparison shows."""
    run = run_load(served, pipes, tables=tables, players=players,
                   seconds=seconds, think=think, start_spread=start_spread)
    load = report_load(run, seconds, idle_kib=idle_kib, served=served)
    server = report_server_metrics(run.metrics_before, run.metrics_after)
    report_status(run.samples)
    return run, load, server


def _idle_tables(served: Served, tables: int, players: int) -> float:
    """Creates ``tables`` lobby tables (after a few warm-up ones); prints and returns the
    server's KiB per idle table."""
    port, pid = served.port, served.servers[0].pid
    for _ in range(WARMUP_TABLES):
        post(port, "/api/tables", {"players": players})
    time.sleep(0.3)
    before = rss_kib(pid)
    t0 = time.monotonic()
    for _ in range(tables):
        post(port, "/api/tables", {"players": players})
    create_s = time.monotonic() - t0
    time.sleep(0.3)
    after = rss_kib(pid)
    idle_kib = (after - before) / tables
    print(f"idle tables: {tables} created in {create_s:.1f} s; server RSS "
          f"{before / 1024:.1f} -> {after / 1024:.1f} MiB: {idle_kib:.1f} KiB per idle "
          f"table (they close after an hour)", flush=True)
    return idle_kib


def bench_load(tables: int = 500, players: int = 4, client_procs: int = 4,
               seconds: float = 300.0, think: float = 0.5, *,
               start_spread: float = 10.0, window: bool = False,
               stalls: bool = False, cluster: int | None = None,
               compare: bool = False) -> int:
    """The load proof: ``tables`` tables of ``players`` humans, each a websocket in one of
    ``client_procs`` client processes, every game played to its end within ``seconds``.
    Returns 0 when every game finished with every client's stream complete and in
    order, 1 otherwise. With ``window`` (human pace: games need not finish), 0 when
    every table started, every connection was welcomed and held to the end of the
    window, and every stream was in order up to it.

    ``cluster``: through a ``quaymoor cluster`` of that many table processes behind
    HAProxy instead of one ``quaymoor serve``; with ``compare`` too, the same load on one
    process first and then on the cluster, their main figures side by side at the end (0
    only when both pass). Returns 2 without running when HAProxy could not hold the
    load's connections under the open-file limit."""
    began = time.monotonic()
    # HAProxy holds the websockets and the HTTP calls in flight: two descriptors each.
    through = tables * players + HTTP_CONCURRENCY * client_procs
    limit = raise_open_files(open_files_for(through) if cluster is not None else 0)
    modes = [None, cluster] if compare and cluster is not None else [cluster]
    where = " and ".join("one process" if m is None else f"a cluster of {m} processes "
                         "behind HAProxy" for m in modes)
    print(f"quaymoor bench load: python {sys.version.split()[0]}; {os.cpu_count()} CPUs; "
          f"open-file limit {limit}; {tables} tables x {players} players = "
          f"{tables * players} websockets over {client_procs} client processes; players "
          f"think {think:.2f} s on average; load bounded at {seconds:.0f} s; tables "
          f"started over {start_spread:g} s; on {where}", flush=True)
    if cluster is not None and haproxy_maxconn() < through:
        print(f"HAProxy cannot hold {through} connections (the websockets and "
              f"{HTTP_CONCURRENCY * client_procs} HTTP calls at once) under this open-file "
              f"limit: it takes two descriptors a connection, so it needs a hard limit of "
              f"at least {open_files_for(through)}, and the hard limit here is "
              f"{hard_open_files()}, which this command may not raise (that needs "
              f"CAP_SYS_RESOURCE). Raise it where the command starts (ulimit -Hn as root, "
              f"LimitNOFILE= in a systemd unit, docker run --ulimit nofile=...).",
              flush=True)
        return 2
    outcomes = [_load_proof(mode, tables=tables, players=players, client_procs=client_procs,
                            seconds=seconds, think=think, start_spread=start_spread,
                            window=window, stalls=stalls, heading=len(modes) > 1)
                for mode in modes]
    if len(outcomes) > 1:
        report_compare(outcomes)
    print(f"run time {time.monotonic() - began:.1f} s", flush=True)
    return 0 if all(o.proved for o in outcomes) else 1


def _load_proof(cluster: int | None, *, tables: int, players: int, client_procs: int,
                seconds: float, think: float, start_spread: float, window: bool,
                stalls: bool, heading: bool) -> Outcome:
    """One load proof on one process or on a cluster, every figure and the verdict
    printed (under a heading of its own when ``heading``)."""
    if heading:
        print(f"== {label(cluster)}", flush=True)
    with rig(client_procs, stalls=stalls, cluster=cluster) as (served, pipes, logs):
        idle_rss = sum(served.rss().values())  # the client processes add nothing to it
        run, load, server = _load_step(served, pipes, tables=tables, players=players,
                                       seconds=seconds, think=think,
                                       start_spread=start_spread, idle_kib=None)
        if served.cluster:
            print(f"  HAProxy after the load: {router_view(served)}", flush=True)
        summed = " (summed over the table processes)" if served.cluster else ""
        print(f"  server RSS{summed}: {idle_rss / 1024:.1f} MiB at start, "
              f"{run.start_rss / 1024:.1f} MiB with every client connected, "
              f"{run.peak_rss / 1024:.1f} MiB at peak", flush=True)
        for name, path in logs.items():
            scan_log(path, name)
        proved = print_verdict(run.done, run.held, tables=tables, players=players,
                               window=window)
        met = server.met
        print(f"latency target (server p99 < {LATENCY_TARGET * 1000:g} ms): "
              f"{'unknown' if met is None else 'met' if met else 'not met'}", flush=True)
        return Outcome(served.label, proved, load, server, run.peak_rss)
