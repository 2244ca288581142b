"""What the benchmark reads of a process from ``/proc`` (Linux only)."""

from __future__ import annotations

import contextlib
import os


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for pid {pid}")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(pid: int) -> float:
    """CPU time so far of a process and its children: those still running (one level
    down, as a PostgreSQL server's backends) and those it has reaped (its cutime and
    cstime)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    own = sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")
    return own + sum(_alive_cpu(child) for child in _children(pid))


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with contextlib.suppress(OSError), open(f"/proc/{pid}/task/{task}/children") as f:
            found += [int(x) for x in f.read().split()]
    return found


def _alive_cpu(pid: int) -> float:
    try:
        return cpu_seconds(pid)
    except (OSError, IndexError, ValueError):  # it exited meanwhile: its parent reaps it
        return 0.0
