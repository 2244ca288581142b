"""``quaymoor bench load --cluster 2`` at a tiny size (issue 15's benchmark, as `make
test` keeps it): a real cluster started by the benchmark, the clients through HAProxy,
each table process read directly; the verdict, and the figures merged over the processes
and given per process."""

from __future__ import annotations

import re
import subprocess
import sys

from tests.cluster.running import needs_cluster_tools
from tests.server_process import ROOT


def test_bench_load_through_a_cluster_of_two_passes_and_reads_each_process() -> None:
    needs_cluster_tools()
    done = subprocess.run(
        [sys.executable, "-m", "quaymoor", "bench", "load", "--cluster", "2", "--tables", "4",
         "--client-procs", "2", "--think", "0.01", "--seconds", "60", "--start-spread", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=150, check=False,
    )
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert "on a cluster of 2 processes behind HAProxy" in out
    assert re.search(r"table processes w00 \(pid \d+, port \d+\), w01 \(pid \d+", out), out
    assert "games finished / started: 4 / 4" in out
    assert "verdict: PASS: 4 of 4 games finished; 16 of 16 client streams" in out
    assert "(/metrics, 2 processes merged)" in out
    for name in ("w00", "w01"):
        assert re.search(rf"^    {name}: \d+ actions|^    {name}: no actions", out, re.M), out
        assert f"{name} log: no drops, errors or tracebacks" in out
    assert "summed over the table processes (each one's peak: w00" in out
    assert re.search(r"HAProxy [\d.]+ s = [\d.]+ cores; PostgreSQL [\d.]+ s", out), out
    assert re.search(r"a decision \(HAProxy [\d.]+ ms, PostgreSQL [\d.]+ ms\)", out), out
    assert re.search(r"HAProxy after the load: w00 UP \(check \w+, 0 times down\), w01 UP",
                     out), out
    assert "latency target (server p99 < 50 ms):" in out
