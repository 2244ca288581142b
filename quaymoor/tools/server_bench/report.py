"""The figures of a load, printed: the clients' results, the server's own histograms
from ``/metrics``, its ``/status.json`` readings and its log."""

from __future__ import annotations

import os
import sys
from collections import Counter
from typing import Any

from quaymoor.tools.server_bench.prometheus import histogram_diff
from quaymoor.tools.server_bench.settings import LATENCY_TARGET, LATENCY_WINDOW


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


def report_load(done: list[dict[str, Any]], go: float, seconds: float, held: int, *,
                peak_rss: int, server_cpu: float, idle_kib: float | None) -> None:
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
    print(f"  CPU during the load: server {server_cpu:.1f} s = {server_cpu / span:.2f} cores; "
          f"client processes {[round(r['cpu'] / span, 2) for r in done]} cores "
          f"(of {os.cpu_count()})")
    per_idle = f"; RSS per idle table: {idle_kib:.1f} KiB" if idle_kib is not None else ""
    print(f"  server RSS at peak: {peak_rss / 1024:.1f} MiB{per_idle}")
    deltas = total("deltas")
    print(f"  player updates delivered during the load: {updates} frames "
          f"({total('update_bytes') / updates if updates else 0:,.0f} B average; "
          f"{deltas} deltas, {total('delta_bytes') / deltas if deltas else 0:,.0f} B average) "
          f"= {update_rate:,.0f} frames/s", flush=True)
    ended_at = [x for r in done for x in r["latency_at"]]
    _report_windows(latencies, ended_at, go)


def _report_windows(latencies: list[float], ended_at: list[float], go: float) -> None:
    print(f"  client action-to-update latency by {LATENCY_WINDOW:g} s window after go "
          f"(samples: p50 / p99 / max ms):")
    for index, values in latency_windows(latencies, ended_at, go):
        window = f"{index * LATENCY_WINDOW:.0f}-{(index + 1) * LATENCY_WINDOW:.0f} s"
        print(f"    {window:>9}: {len(values):6d}: {pct(values, 0.5) * 1000:6.1f} / "
              f"{pct(values, 0.99) * 1000:6.1f} / {max(values) * 1000:6.1f}")
    sys.stdout.flush()


def scan_log(path: str) -> None:
    counts: Counter[str] = Counter()
    with open(path, errors="replace") as f:
        for line in f:
            if "too slow" in line:
                counts["connections dropped as too slow"] += 1
            elif "Traceback" in line:
                counts["tracebacks"] += 1
            elif " ERROR " in line or " WARNING " in line:
                counts["errors/warnings"] += 1
    print(f"server log: {dict(counts) or 'no drops, errors or tracebacks'}", flush=True)


def report_server_metrics(before: str | None, after: str | None) -> bool | None:
    """Prints the server's own histograms over the load (the difference of two /metrics
    readings); returns whether its p99 action-to-broadcast latency met the target (None:
    not known)."""
    if before is None or after is None:
        print("  server histograms: /metrics not read", flush=True)
        return None
    latency = histogram_diff(before, after, "quaymoor_action_latency_seconds").get("")
    met: bool | None = None
    if latency is None or latency.observed <= 0:
        print("  server action-to-broadcast latency: no actions in /metrics over the load")
    else:
        share = latency.share_at_or_under(LATENCY_TARGET) or 0.0
        met = share >= 0.99
        print(f"  server action-to-broadcast latency over the load (/metrics): "
              f"{latency.observed:.0f} actions, {share:.2%} at or under "
              f"{LATENCY_TARGET * 1000:g} ms; p50 {latency.bound_text(0.5)}, p99 "
              f"{latency.bound_text(0.99)}")
    pauses = histogram_diff(before, after, "quaymoor_gc_pause_seconds", by="generation")
    parts = [f"gen {g}: {h.observed:.0f}, {h.total:.3f} s, max {h.bound_text(1.0)}"
             for g, h in pauses.items()]
    print(f"  server GC pauses over the load (count, total, max): "
          f"{'; '.join(parts) or 'none in /metrics'}")
    for g, h in pauses.items():
        print(f"    gen {g} pause histogram: {h.counts_text()}")
    lag = histogram_diff(before, after, "quaymoor_event_loop_lag_seconds").get("")
    print(f"  server event-loop lag over the load: "
          f"{f'{lag.observed:.0f} samples, p99 {lag.bound_text(0.99)}' if lag else 'n/a'}",
          flush=True)
    return met


def report_status(samples: list[dict[str, Any]]) -> None:
    ok = [s for s in samples if "error" not in s]
    failed = len(samples) - len(ok)
    conns = [s["connections"] for s in ok if isinstance(s["connections"], int)]
    print(f"  /status.json read {len(samples)} times during the load ({failed} failed); "
          f"connections the server counted: "
          f"{f'{max(conns)} at most, {conns[-1]} at the last read' if conns else 'none read'}")
    lags = [s["lag"] for s in ok if s["lag"] is not None]
    if not lags:
        print("  event-loop lag: not available (no live.event_loop_lag_ms in the server's "
              "/status.json)", flush=True)
        return
    last = [float(x["last"]) for x in lags if isinstance(x.get("last"), int | float)]
    p99 = [float(x["p99"]) for x in lags if isinstance(x.get("p99"), int | float)]
    print(f"  event-loop lag (the server's own measure, read each second): last value "
          f"p50 {pct(last, 0.5):.1f} ms, max {max(last, default=float('nan')):.1f} ms; "
          f"the server's p99 over its last minute: at most "
          f"{max(p99, default=float('nan')):.1f} ms", flush=True)
