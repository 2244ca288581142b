"""``quaymoor bench server`` and ``quaymoor bench load``: the steps in order, and the
verdict of the load proof."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from multiprocessing.connection import Connection as Pipe

from quaymoor.ops.open_files import raise_open_files
from quaymoor.tools.server_bench.fanout import fanout_step
from quaymoor.tools.server_bench.load_run import LoadRun, run_load
from quaymoor.tools.server_bench.procfs import rss_kib
from quaymoor.tools.server_bench.report import (
    report_load,
    report_server_metrics,
    report_status,
    scan_log,
)
from quaymoor.tools.server_bench.rig import rig
from quaymoor.tools.server_bench.server_http import post
from quaymoor.tools.server_bench.settings import LATENCY_TARGET, WARMUP_TABLES


def bench_server(tables: int = 500, players: int = 4, client_procs: int = 2,
                 seconds: float = 120.0, think: float = 0.0, *,
                 start_spread: float = 10.0, stalls: bool = False) -> int:
    """Idle tables, the spectator and raw fan-outs, then a load of ``tables`` tables of
    ``players`` seats over ``client_procs`` client processes, bounded at ``seconds``; all
    figures printed. Returns 0."""
    began = time.monotonic()
    limit = raise_open_files()
    print(f"python {sys.version.split()[0]}; {os.cpu_count()} CPUs; open-file limit {limit}; "
          f"{tables} tables x {players} players over {client_procs} client processes; "
          f"load bounded at {seconds:.0f} s; players think {think:.2f} s on average; "
          f"tables started over {start_spread:g} s", flush=True)
    with rig(client_procs, stalls=stalls) as (server, port, pipes, server_log):
        idle_kib = _idle_tables(server, port, tables, players)
        fanout_step(server, port, pipes)
        _load_step(server, port, pipes, tables=tables, players=players, seconds=seconds,
                   think=think, start_spread=start_spread, idle_kib=idle_kib)
        scan_log(server_log.name)
        print(f"run time {time.monotonic() - began:.1f} s", flush=True)
        return 0


def _load_step(server: subprocess.Popen[str], port: int, pipes: list[Pipe], *, tables: int,
               players: int, seconds: float, think: float, start_spread: float,
               idle_kib: float | None) -> tuple[LoadRun, bool | None]:
    """The load, with its figures, the server's histograms and its /status.json readings
    printed; returns the run and whether the server met the latency target (None: not
    known)."""
    run = run_load(server, port, pipes, tables=tables, players=players,
                   seconds=seconds, think=think, start_spread=start_spread)
    report_load(run.done, run.go, seconds, run.held, peak_rss=run.peak_rss,
                server_cpu=run.server_cpu, idle_kib=idle_kib)
    met = report_server_metrics(run.metrics_before, run.metrics_after)
    report_status(run.samples)
    return run, met


def _idle_tables(server: subprocess.Popen[str], port: int, tables: int, players: int) -> float:
    """Creates ``tables`` lobby tables (after a few warm-up ones); prints and returns the
    server's KiB per idle table."""
    for _ in range(WARMUP_TABLES):
        post(port, "/api/tables", {"players": players})
    time.sleep(0.3)
    before = rss_kib(server.pid)
    t0 = time.monotonic()
    for _ in range(tables):
        post(port, "/api/tables", {"players": players})
    create_s = time.monotonic() - t0
    time.sleep(0.3)
    after = rss_kib(server.pid)
    idle_kib = (after - before) / tables
    print(f"idle tables: {tables} created in {create_s:.1f} s; server RSS "
          f"{before / 1024:.1f} -> {after / 1024:.1f} MiB: {idle_kib:.1f} KiB per idle "
          f"table (they close after an hour)", flush=True)
    return idle_kib


def bench_load(tables: int = 500, players: int = 4, client_procs: int = 4,
               seconds: float = 300.0, think: float = 0.5, *,
               start_spread: float = 10.0, window: bool = False,
               stalls: bool = False) -> int:
    """The load proof: ``tables`` tables of ``players`` humans, each a websocket in one of
    ``client_procs`` client processes, every game played to its end within ``seconds``.
    Returns 0 when every game finished with every client's stream complete and in
    order, 1 otherwise. With ``window`` (human pace: games need not finish), 0 when
    every table started, every connection was welcomed and held to the end of the
    window, and every stream was in order up to it."""
    began = time.monotonic()
    limit = raise_open_files()
    print(f"quaymoor bench load: python {sys.version.split()[0]}; {os.cpu_count()} CPUs; "
          f"open-file limit {limit}; {tables} tables x {players} players = "
          f"{tables * players} websockets over {client_procs} client processes; players "
          f"think {think:.2f} s on average; load bounded at {seconds:.0f} s; tables "
          f"started over {start_spread:g} s", flush=True)
    with rig(client_procs, stalls=stalls) as (server, port, pipes, server_log):
        idle_rss = rss_kib(server.pid)  # the client processes add nothing to the server
        run, met = _load_step(server, port, pipes, tables=tables, players=players,
                              seconds=seconds, think=think, start_spread=start_spread,
                              idle_kib=None)
        print(f"  server RSS: {idle_rss / 1024:.1f} MiB at start, "
              f"{run.start_rss / 1024:.1f} MiB with every client connected, "
              f"{run.peak_rss / 1024:.1f} MiB at peak", flush=True)
        scan_log(server_log.name)
        total = sum(r["streams_ok"] + r["streams_bad"] for r in run.done)
        ok = sum(r["streams_ok"] for r in run.done)
        started = sum(r["tables_started"] for r in run.done)
        finished = sum(r["finished_tables"] for r in run.done)
        if window:
            faults = sum(r["order_faults"] for r in run.done)
            closed = sum(sum(r["closed_early"].values()) for r in run.done)
            failed = sum(sum(r["connect_failures"].values()) + sum(r["start_failures"].values())
                         for r in run.done)
            proved = (started == tables and run.held == tables * players
                      and faults == closed == failed == 0)
            print(f"verdict (window): {'PASS' if proved else 'FAIL'}: {started} of {tables} "
                  f"tables started, {finished} finished; {run.held} of {tables * players} "
                  f"connections welcomed, {closed} closed before the end of the window; "
                  f"{total - faults} of {total} streams in order to it; connect or start "
                  f"failures {failed}", flush=True)
        else:
            proved = (started == finished == tables and ok == total == tables * players)
            print(f"verdict: {'PASS' if proved else 'FAIL'}: {finished} of {tables} games "
                  f"finished; {ok} of {tables * players} client streams complete (to "
                  f"game_ended, reason finished) and in order", flush=True)
        print(f"latency target (server p99 < {LATENCY_TARGET * 1000:g} ms): "
              f"{'unknown' if met is None else 'met' if met else 'not met'}", flush=True)
        print(f"run time {time.monotonic() - began:.1f} s", flush=True)
        return 0 if proved else 1
