"""The figures of a load, printed: the clients' results, the server's CPU and memory
from outside, and its log (``server_report``: its own histograms and /status.json)."""

from __future__ import annotations

import os
import sys
from collections import Counter
from typing import NamedTuple

from quaymoor.tools.server_bench.load_run import LoadRun
from quaymoor.tools.server_bench.served import Served
from quaymoor.tools.server_bench.settings import LATENCY_WINDOW


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def latency_windows(latencies: list[float], ended_at: list[float], go: float,
                    width: float = LATENCY_WINDOW) -> list[tuple[int, list[float]]]:
    """The latency samples by window of ``width`` seconds after ``go`` (by when each
    ended): ``(window index, samples)``, windows without samples left out."""
    windows: dict[int, list[float]] = {}
    for value, at in zip(latencies, ended_at, strict=True):
        windows.setdefault(max(0, int((at - go) // width)), []).append(value)
    return sorted(windows.items())


class LoadFigures(NamedTuple):
    """What a comparison shows of the clients' side of a load."""

    decisions_per_s: float
    cpu_ms_per_decision: float  #: the table processes' CPU (summed) per decision
    router_ms_per_decision: float | None  #: HAProxy's CPU per decision (None: no HAProxy)
    database_ms_per_decision: float | None  #: PostgreSQL's (None: no database of its own)
    client_p99_ms: float


def report_load(run: LoadRun, seconds: float, *, idle_kib: float | None,
                served: Served) -> LoadFigures:
    """Prints the load's figures: the clients' results, and the server's CPU and RSS from
    outside (summed over a cluster's table processes, then each one's, and HAProxy's
    CPU); returns what a comparison shows."""
    done, go, held = run.done, run.go, run.held

    def total(key: str) -> int:
        return sum(int(r[key]) for r in done)

    def merged(key: str) -> dict[str, int]:
        out: Counter[str] = Counter()
        for r in done:
            out.update(r[key])
        return dict(out)

    span = max(r["play_end"] for r in done) - go
    latencies = [x for r in done for x in r["latencies"]]
    started, finished = total("tables_started"), total("finished_tables")
    ok, bad = total("streams_ok"), total("streams_bad")
    order_errors = [e for r in done for e in r["order_errors"]]
    updates = total("updates")
    update_rate = updates / span if span > 0 else 0.0
    print(f"load: {span:.1f} s of play (bound {seconds:.0f} s)")
    print(f"  peak concurrent connections held: {held} (all welcomed before the start); "
          f"max open per client process {[r['peak_open'] for r in done]}")
    print(f"  games finished / started: {finished} / {started}"
          f"{'  (unfinished: ' + str(started - finished) + ', e.g. ' + str([t for r in done for t in r['unfinished_tables']][:5]) + ')' if started > finished else ''}")  # noqa: E501
    faults = total("order_faults")
    print(f"  integrity: in order: {'yes' if faults == 0 else 'NO'} ({faults} streams with "
          f"faults of {ok + bad}{': ' + '; '.join(order_errors[:5]) if order_errors else ''}); "
          f"complete to game_ended(finished) and in order: {ok} of {ok + bad} streams "
          f"(game_ended reasons {merged('ended') or 'none'}); snapshot updates at an "
          f"unchanged version {total('snapshots')}")
    print(f"  connections closed before game_ended: {merged('closed_early') or 'none'}; "
          f"connect failures: {merged('connect_failures') or 'none'}; start failures: "
          f"{merged('start_failures') or 'none'}")
    print(f"  acts refused by the server: {merged('errors') or 'none'}; client rate-limit "
          f"waits {total('rate_waits')}")
    print(f"  decisions: {total('acts')} = {total('acts') / span:,.0f}/s; action-to-update "
          f"latency p50 {pct(latencies, 0.5) * 1000:.1f} ms, p99 "
          f"{pct(latencies, 0.99) * 1000:.1f} ms, max "
          f"{max(latencies, default=float('nan')) * 1000:.1f} ms ({len(latencies)} samples)")
    acts = total("acts")
    cpu_ms = run.server_cpu / acts * 1000 if acts else float("nan")
    router_ms, database_ms = (
        (run.cpu_by[p.name] / acts * 1000 if acts else float("nan")) if p is not None
        else None for p in (served.router, served.database))
    print(f"  CPU during the load: server {run.server_cpu:.1f} s = "
          f"{run.server_cpu / span:.2f} cores{_each_cpu(run, served, span)}; "
          f"client processes {[round(r['cpu'] / span, 2) for r in done]} cores "
          f"(of {os.cpu_count()}); {cpu_ms:.2f} ms of server CPU a decision"
          f"{_beside(('HAProxy', router_ms), ('PostgreSQL', database_ms))}")
    per_idle = f"; RSS per idle table: {idle_kib:.1f} KiB" if idle_kib is not None else ""
    each_rss = (f" summed over the table processes (each one's peak: "
                f"{', '.join(f'{n} {kib / 1024:.1f} MiB' for n, kib in run.peak_rss_by.items())})"
                if served.cluster else "")
    print(f"  server RSS at peak: {run.peak_rss / 1024:.1f} MiB{each_rss}{per_idle}")
    deltas = total("deltas")
    print(f"  player updates delivered during the load: {updates} frames "
          f"({total('update_bytes') / updates if updates else 0:,.0f} B average; "
          f"{deltas} deltas, {total('delta_bytes') / deltas if deltas else 0:,.0f} B average) "
          f"= {update_rate:,.0f} frames/s", flush=True)
    ended_at = [x for r in done for x in r["latency_at"]]
    _report_windows(latencies, ended_at, go)
    return LoadFigures(acts / span if span > 0 else 0.0, cpu_ms, router_ms, database_ms,
                       pct(latencies, 0.99) * 1000)


def _beside(*figures: tuple[str, float | None]) -> str:
    """`` (HAProxy 0.21 ms, PostgreSQL 0.57 ms)``: the figures that are known."""
    known = [f"{name} {ms:.2f} ms" for name, ms in figures if ms is not None]
    return f" ({', '.join(known)})" if known else ""


def _each_cpu(run: LoadRun, served: Served, span: float) -> str:
    """`` (w00 0.41, w01 0.39 cores; HAProxy 3.2 s = 0.11 cores; PostgreSQL ...)`` in a
    cluster."""
    if not served.cluster or served.router is None:
        return ""
    each = ", ".join(f"{p.name} {run.cpu_by[p.name] / span:.2f}" for p in served.servers)
    router = run.cpu_by[served.router.name]
    database = run.cpu_by[served.database.name] if served.database is not None else None
    pg = (f"; PostgreSQL {database:.1f} s = {database / span:.2f} cores"
          if database is not None else "")
    return f" ({each} cores; HAProxy {router:.1f} s = {router / span:.2f} cores{pg})"


def _report_windows(latencies: list[float], ended_at: list[float], go: float) -> None:
    print(f"  client action-to-update latency by {LATENCY_WINDOW:g} s window after go "
          f"(samples: p50 / p99 / max ms):")
    for index, values in latency_windows(latencies, ended_at, go):
        window = f"{index * LATENCY_WINDOW:.0f}-{(index + 1) * LATENCY_WINDOW:.0f} s"
        print(f"    {window:>9}: {len(values):6d}: {pct(values, 0.5) * 1000:6.1f} / "
              f"{pct(values, 0.99) * 1000:6.1f} / {max(values) * 1000:6.1f}")
    sys.stdout.flush()


#: How the log writes an error or a warning: one JSON object a line (ops/logs.py), or the
#: plain text of a logger that wrote before it was set up.
_LEVELS = ('"level": "error"', '"level": "critical"', '"level": "warning"', " ERROR ",
           " WARNING ")


def scan_log(path: str, name: str = "server") -> None:
    """Prints what the log of the table process ``name`` says of drops, errors and
    tracebacks."""
    counts: Counter[str] = Counter()
    with open(path, errors="replace") as f:
        for line in f:
            if "too slow" in line:
                counts["connections dropped as too slow"] += 1
            elif "Traceback" in line:
                counts["tracebacks"] += 1
            elif any(level in line for level in _LEVELS):
                counts["errors/warnings"] += 1
    print(f"{name} log: {dict(counts) or 'no drops, errors or tracebacks'}", flush=True)
