"""``bench load --cluster N --compare``: the main figures of the same load on one process
and on the cluster, run back to back in one command, side by side."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from quaymoor.tools.server_bench.report import LoadFigures
from quaymoor.tools.server_bench.server_report import ServerFigures
from quaymoor.tools.server_bench.settings import LATENCY_TARGET


class Outcome(NamedTuple):
    """One load's verdict and main figures."""

    label: str  #: ``one process`` or ``cluster of N``
    proved: bool
    load: LoadFigures
    server: ServerFigures
    peak_rss_kib: int  #: summed over the table processes


def _ms(x: float | None) -> str:
    return "n/a" if x is None or x != x else f"{x:.2f}"  # noqa: PLR0124 (nan)


_TARGET = f"{LATENCY_TARGET * 1000:g} ms"
ROWS: tuple[tuple[str, Callable[[Outcome], str]], ...] = (
    ("verdict", lambda o: "PASS" if o.proved else "FAIL"),
    ("decisions/s", lambda o: f"{o.load.decisions_per_s:,.0f}"),
    ("server CPU per decision, ms", lambda o: _ms(o.load.cpu_ms_per_decision)),
    ("HAProxy CPU per decision, ms", lambda o: _ms(o.load.router_ms_per_decision)),
    ("PostgreSQL CPU per decision, ms", lambda o: _ms(o.load.database_ms_per_decision)),
    ("server p99 action-to-broadcast", lambda o: o.server.p99),
    (f"server actions <= {_TARGET}",
     lambda o: "n/a" if o.server.share is None else f"{o.server.share:.2%}"),
    ("latency target (server p99)",
     lambda o: {None: "unknown", True: "met", False: "not met"}[o.server.met]),
    ("client p99 act-to-update, ms", lambda o: f"{o.load.client_p99_ms:.1f}"),
    ("server event-loop lag p99", lambda o: o.server.lag_p99),
    ("server RSS at peak, MiB", lambda o: f"{o.peak_rss_kib / 1024:.1f}"),
)


def report_compare(outcomes: list[Outcome]) -> None:
    """Prints the main figures of each load in a column of its own."""
    width = max(18, *(len(o.label) + 2 for o in outcomes))
    head = max(len(name) for name, _ in ROWS) + 2
    print("side by side (the same load, back to back; a cluster's CPU and RSS summed over "
          "its table processes):")
    print(f"  {'':<{head}}" + "".join(f"{o.label:>{width}}" for o in outcomes))
    for name, cell in ROWS:
        print(f"  {name:<{head}}" + "".join(f"{cell(o):>{width}}" for o in outcomes))
    print(flush=True)
