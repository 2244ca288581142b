"""The load proof at a small size, as `make test` runs it: real server and client
processes on loopback, every game to its end, every stream complete and in order."""

from __future__ import annotations

import subprocess
import sys


def test_bench_load_at_a_small_size_passes() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "quaymoor", "bench", "load", "--tables", "6",
         "--client-procs", "2", "--think", "0.02", "--seconds", "90"],
        capture_output=True, text=True, timeout=180, check=False,
    )
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert "games finished / started: 6 / 6" in out
    assert "24 of 24 streams complete" in out or "24 of 24" in out
    assert "verdict: PASS" in out
