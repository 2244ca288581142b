"""The rig of the server benchmarks: the server under test and the client processes,
started, talked to over pipes, and stopped (also on error or Ctrl-C)."""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from multiprocessing.connection import Connection as Pipe
from typing import Any, NamedTuple

from quaymoor.tools.server_bench.client_process import worker_main


def split(n: int, parts: int) -> list[int]:
    return [n // parts + (1 if i < n % parts else 0) for i in range(parts)]


def recv(pipe: Pipe, timeout: float, what: str) -> Any:
    if not pipe.poll(timeout):
        raise TimeoutError(f"a client process gave no {what} within {timeout:.0f} s")
    return pipe.recv()


def start_process(args: list[str], pattern: str) -> tuple[subprocess.Popen[str], int, Any]:
    log = tempfile.NamedTemporaryFile(  # noqa: SIM115 (closed by the caller)
        "w+", prefix="quaymoor-bench-", suffix=".log", delete=False)
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=log, text=True,
                            stdin=subprocess.DEVNULL)
    assert proc.stdout is not None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        found = re.search(pattern, line)
        if found:
            return proc, int(found.group(1)), log
    proc.kill()
    raise RuntimeError(f"{args[2:]} did not report its port (log: {log.name})")


class Rig(NamedTuple):
    server: subprocess.Popen[str]
    port: int
    pipes: list[Pipe]  #: one per client process
    log: Any  #: the server's log file


@contextlib.contextmanager
def rig(client_procs: int) -> Iterator[Rig]:
    """The server (its archive in a temporary folder, not the developer's) and
    ``client_procs`` client processes; all stopped and removed afterwards, also on error
    or Ctrl-C, and the server's log named."""
    ctx = multiprocessing.get_context("spawn")
    procs: list[Any] = []
    pipes: list[Pipe] = []
    server: subprocess.Popen[str] | None = None
    log: Any = None
    with tempfile.TemporaryDirectory(prefix="quaymoor-bench-") as tmp:
        try:
            server, port, log = _start_server(os.path.join(tmp, "archive.sqlite3"))
            _start_workers(ctx, client_procs, pipes, procs)
            yield Rig(server, port, pipes, log)
        finally:
            _stop_workers(pipes, procs)
            stop(server)
            if log is not None:
                log.close()
                print(slow_steps_summary(log.name), flush=True)
                print(f"server log: {log.name}", flush=True)


def slow_steps_summary(log_path: str) -> str:
    """What the server's log says of its slow task steps (ops/slow_steps.py): how many,
    their total, the longest, and the tasks that took the most of that time."""
    steps: list[tuple[str, float]] = []
    cpu = 0.0
    with open(log_path, encoding="utf-8", errors="replace") as lines:
        for line in lines:
            if '"slow_step"' not in line:
                continue
            with contextlib.suppress(ValueError, KeyError, TypeError):
                entry = json.loads(line)
                steps.append((str(entry["task"]), float(entry["ms"])))
                cpu += float(entry.get("cpu_ms", 0.0))
    if not steps:
        return "server steps over 20 ms: none"
    by_task: dict[str, list[float]] = {}
    for task, ms in steps:
        by_task.setdefault(task, []).append(ms)
    worst = sorted(by_task.items(), key=lambda kv: -sum(kv[1]))[:6]
    total, longest = sum(ms for _, ms in steps) / 1000, max(ms for _, ms in steps)
    return (f"server steps over 20 ms: {len(steps)}, {total:.1f} s in all ({cpu / 1000:.1f} s"
            f" of it on a CPU), longest {longest:.0f} ms; by task: "
            + "; ".join(f"{task} {len(v)} ({sum(v) / 1000:.1f} s, max {max(v):.0f} ms)"
                        for task, v in worst))


def _start_server(archive: str) -> tuple[subprocess.Popen[str], int, Any]:
    """``quaymoor serve`` on a free port, bots without delay, timers out of the way, its
    archive at ``archive``, no per-address caps (every client is on this machine), steps
    over 20 ms logged (ops/slow_steps.py):
    (process, port, its log file)."""
    return start_process(
        [sys.executable, "-m", "quaymoor", "serve", "--port", "0", "--bot-delay", "0",
         "--decision-seconds", "600", "--archive", archive, "--no-address-limits",
         "--log-slow-steps", "20"],
        r"serving on http://[\d.]+:(\d+)/")


def _start_workers(ctx: Any, n: int, pipes: list[Pipe], procs: list[Any]) -> None:
    """Start ``n`` client processes, adding each one's pipe and process to the lists (so
    that the caller can stop those that started even when a later one fails)."""
    for _ in range(n):
        mine, theirs = ctx.Pipe()
        p = ctx.Process(target=worker_main, args=(theirs,), daemon=True)
        p.start()
        procs.append(p)
        pipes.append(mine)


def _stop_workers(pipes: list[Pipe], procs: list[Any]) -> None:
    """Ask each client process to quit, and end those that do not."""
    for pipe in pipes:
        with contextlib.suppress(OSError):
            pipe.send(("quit",))
    for p in procs:
        p.join(5)
        if p.is_alive():
            p.terminate()
            p.join(5)


def stop(proc: subprocess.Popen[str] | None) -> None:
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)
