"""The server's own figures over a load, printed: its histograms from ``/metrics`` (the
difference of a reading before go and one after the load: action-to-broadcast latency,
GC pauses by generation, event-loop lag) and its ``/status.json`` read each second
(connections, event-loop lag).

In a cluster each table process is read on its own port: the figures are first merged
over the processes (a histogram's buckets summed, connections summed at each reading),
with the same meaning as one process's, then given per process.
"""

from __future__ import annotations

import sys
from typing import Any, NamedTuple

from quaymoor.tools.server_bench.prometheus import Histogram, histogram_diff, merged
from quaymoor.tools.server_bench.report import pct
from quaymoor.tools.server_bench.settings import LATENCY_TARGET


class ServerFigures(NamedTuple):
    """What a comparison shows of the server's histograms."""

    met: bool | None  #: the p99 action-to-broadcast latency under the target (None: unknown)
    share: float | None  #: the share of actions at or under the target
    p99: str  #: the p99 action-to-broadcast latency as a bucket bound ("<= 25 ms")
    lag_p99: str  #: the event-loop lag's p99, the same way


class _Observed(NamedTuple):
    """One process's histograms over the load (or several merged)."""

    latency: Histogram | None
    pauses: dict[str, Histogram]  #: by generation
    lag: Histogram | None


def report_server_metrics(before: dict[str, str | None],
                          after: dict[str, str | None]) -> ServerFigures:
    """Prints the server's own histograms over the load, merged over its processes and
    then per process when there are several; returns the figures a comparison shows."""
    missing = [name for name in after if before.get(name) is None or after[name] is None]
    if missing or not after:
        which = f" ({', '.join(missing)})" if len(after) > 1 else ""
        print(f"  server histograms: /metrics not read{which}", flush=True)
        return ServerFigures(None, None, "n/a", "n/a")
    each = {name: _observed(before[name] or "", text or "") for name, text in after.items()}
    whole = _merge(list(each.values()))
    figures = _print_whole(whole, len(each))
    if len(each) > 1:
        for name, seen in each.items():
            print(f"    {name}: {_brief(seen)}")
    sys.stdout.flush()
    return figures


def _observed(before: str, after: str) -> _Observed:
    return _Observed(
        histogram_diff(before, after, "quaymoor_action_latency_seconds").get(""),
        histogram_diff(before, after, "quaymoor_gc_pause_seconds", by="generation"),
        histogram_diff(before, after, "quaymoor_event_loop_lag_seconds").get(""))


def _merge(each: list[_Observed]) -> _Observed:
    if len(each) == 1:
        return each[0]
    latencies = [o.latency for o in each if o.latency is not None]
    lags = [o.lag for o in each if o.lag is not None]
    generations = sorted({g for o in each for g in o.pauses})
    return _Observed(merged(latencies) if latencies else None,
                     {g: merged([o.pauses[g] for o in each if g in o.pauses])
                      for g in generations},
                     merged(lags) if lags else None)


def _print_whole(seen: _Observed, processes: int) -> ServerFigures:
    """The one-process lines (merged over ``processes`` when several)."""
    over = f" (/metrics, {processes} processes merged)" if processes > 1 else " (/metrics)"
    latency, met, share = seen.latency, None, None
    if latency is None or latency.observed <= 0:
        print("  server action-to-broadcast latency: no actions in /metrics over the load")
    else:
        share = latency.share_at_or_under(LATENCY_TARGET) or 0.0
        met = share >= 0.99
        print(f"  server action-to-broadcast latency over the load{over}: "
              f"{latency.observed:.0f} actions, {share:.2%} at or under "
              f"{LATENCY_TARGET * 1000:g} ms; p50 {latency.bound_text(0.5)}, p99 "
              f"{latency.bound_text(0.99)}")
    parts = [f"gen {g}: {h.observed:.0f}, {h.total:.3f} s, max {h.bound_text(1.0)}"
             for g, h in seen.pauses.items()]
    print(f"  server GC pauses over the load (count, total, max): "
          f"{'; '.join(parts) or 'none in /metrics'}")
    for g, h in seen.pauses.items():
        print(f"    gen {g} pause histogram: {h.counts_text()}")
    lag = seen.lag
    print(f"  server event-loop lag over the load: "
          f"{f'{lag.observed:.0f} samples, p99 {lag.bound_text(0.99)}' if lag else 'n/a'}")
    return ServerFigures(met, share, latency.bound_text(0.99) if latency else "n/a",
                         lag.bound_text(0.99) if lag else "n/a")


def _brief(seen: _Observed) -> str:
    """One process's histograms on one line."""
    latency = seen.latency
    if latency is None or latency.observed <= 0:
        head = "no actions"
    else:
        share = latency.share_at_or_under(LATENCY_TARGET) or 0.0
        head = (f"{latency.observed:.0f} actions, {share:.2%} at or under "
                f"{LATENCY_TARGET * 1000:g} ms, p50 {latency.bound_text(0.5)}, p99 "
                f"{latency.bound_text(0.99)}")
    pauses = "; ".join(f"gen {g} {h.observed:.0f}, {h.total:.3f} s, max {h.bound_text(1.0)}"
                       for g, h in seen.pauses.items()) or "none"
    lag = seen.lag.bound_text(0.99) if seen.lag is not None else "n/a"
    return f"{head}; loop lag p99 {lag}; GC pauses {pauses}"


def report_status(samples: list[dict[str, dict[str, Any]]]) -> None:
    """Prints what /status.json said each second during the load: the connections
    (summed over the processes) and the event-loop lag, then per process when several."""
    names = list(samples[0]) if samples else []
    reads = [list(s.values()) for s in samples]
    ok = [r for r in reads if all("error" not in s for s in r)]
    counted = [sum(s["connections"] for s in r) for r in ok
               if all(isinstance(s["connections"], int) for s in r)]
    summed = " summed over the processes" if len(names) > 1 else ""
    print(f"  /status.json read {len(samples)} times during the load ({len(reads) - len(ok)}"
          f" failed); connections the server counted{summed}: "
          f"{f'{max(counted)} at most, {counted[-1]} at the last read' if counted else 'none read'}")  # noqa: E501
    lags = [s["lag"] for r in reads for s in r if "error" not in s and s["lag"] is not None]
    if not lags:
        print("  event-loop lag: not available (no live.event_loop_lag_ms in the server's "
              "/status.json)", flush=True)
        return
    print(f"  event-loop lag (the server's own measure, read each second): {_lag_text(lags)}",
          flush=True)
    if len(names) > 1:
        for name in names:
            mine = [s[name] for s in samples if name in s and "error" not in s[name]]
            conns = [s["connections"] for s in mine if isinstance(s["connections"], int)]
            own = [s["lag"] for s in mine if s["lag"] is not None]
            print(f"    {name}: connections "
                  f"{f'{max(conns)} at most, {conns[-1]} at the last read' if conns else 'none read'}; "  # noqa: E501
                  f"lag {_lag_text(own) if own else 'n/a'}", flush=True)


def _lag_text(lags: list[dict[str, Any]]) -> str:
    last = [float(x["last"]) for x in lags if isinstance(x.get("last"), int | float)]
    p99 = [float(x["p99"]) for x in lags if isinstance(x.get("p99"), int | float)]
    return (f"last value p50 {pct(last, 0.5):.1f} ms, max "
            f"{max(last, default=float('nan')):.1f} ms; the server's p99 over its last "
            f"minute: at most {max(p99, default=float('nan')):.1f} ms")
