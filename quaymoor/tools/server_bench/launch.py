"""Starting a process of the benchmarks that says on its output which port it serves on:
the server under test, the cluster, the raw trio-websocket server."""

from __future__ import annotations

import re
import subprocess
import tempfile
import time
from typing import Any


def start_process(args: list[str], pattern: str, *, timeout: float = 30.0,
                  new_session: bool = False) -> tuple[subprocess.Popen[str], int, Any]:
    """Start ``args`` with its standard error in a kept temporary log file and wait (up to
    ``timeout``) for a line of its output that matches ``pattern``, whose group 1 is its
    port: (process, port, the open log file). ``new_session``: out of reach of the
    terminal's Ctrl-C (the caller stops it)."""
    log = tempfile.NamedTemporaryFile(  # noqa: SIM115 (closed by the caller)
        "w+", prefix="quaymoor-bench-", suffix=".log", delete=False)
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=log, text=True,
                            stdin=subprocess.DEVNULL, start_new_session=new_session)
    assert proc.stdout is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        found = re.search(pattern, line)
        if found:
            return proc, int(found.group(1)), log
    proc.terminate()  # a cluster stops what it started
    try:
        proc.wait(60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    raise RuntimeError(f"{args[2:]} did not report its port (log: {log.name})")
