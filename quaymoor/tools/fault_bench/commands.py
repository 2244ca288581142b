"""``quaymoor bench faults``: each chosen fault in turn on a system of its own, its row
printed as it comes, then the table and the verdict."""

from __future__ import annotations

import sys
import time
from concurrent.futures import ThreadPoolExecutor

from quaymoor.tools.fault_bench.faults import BY_KEY, FAULTS
from quaymoor.tools.fault_bench.row import Row, table_text
from quaymoor.tools.fault_bench.run import run_fault

DEFAULT_TABLES = 20
DEFAULT_PG_OUTAGE = 20.0  #: seconds; the issue's target is 90


def bench_faults(tables: int = DEFAULT_TABLES, faults: list[str] | None = None,
                 pg_outage: float = DEFAULT_PG_OUTAGE, jobs: int = 1) -> tuple[int, list[Row]]:
    """Run ``faults`` (keys; None: every one) with ``tables`` tables mid-game each, ``jobs``
    of them at once (each on a system of its own); print the table. Returns the exit
    status (0: every measured row met its targets; 1: some row missed one; 2: an unknown
    fault) and the rows, in the order of the faults."""
    chosen = list(FAULTS) if not faults else [BY_KEY[k] for k in faults if k in BY_KEY]
    unknown = [k for k in faults or [] if k not in BY_KEY]
    if unknown:
        print(f"unknown faults: {', '.join(unknown)}; the faults are "
              f"{', '.join(BY_KEY)}", file=sys.stderr)
        return 2, []
    began = time.monotonic()
    print(f"quaymoor bench faults: {tables} tables mid-game per fault; PostgreSQL outage "
          f"{pg_outage:g} s; {jobs} at once; faults {', '.join(f.key for f in chosen)}", flush=True)
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        rows = list(pool.map(lambda fault: run_fault(fault, tables, pg_outage), chosen))
    print("", flush=True)
    print(table_text(rows), flush=True)
    failed = [r.key for r in rows if r.missed()]
    print("", flush=True)
    said = ("every measured row met its targets" if not failed
            else "targets missed by " + ", ".join(failed))
    absent = sum(r.unavailable is not None for r in rows)
    print(f"verdict: {said}; {absent} not available; run time "
          f"{time.monotonic() - began:.0f} s", flush=True)
    return (1 if failed else 0), rows
