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
def rig(client_procs: int, *, stalls: bool = False) -> Iterator[Rig]:
    """The server (its archive in a temporary folder, not the developer's) and
    ``client_procs`` client processes; all stopped and removed afterwards, also on error
    or Ctrl-C, and the server's log named. ``stalls``: the server logs its event-loop
    stalls over 20 ms (``serve --log-stalls``), summarised at the end. Off by default: its
    thread's wake-ups cost the loop (at 500 tables, 1.07 -> 1.17 ms of CPU a decision and
    the server p99 from <= 30 to <= 100 ms), so it is for finding a stall, not measuring."""
    ctx = multiprocessing.get_context("spawn")
    procs: list[Any] = []
    pipes: list[Pipe] = []
    server: subprocess.Popen[str] | None = None
    log: Any = None
    with tempfile.TemporaryDirectory(prefix="quaymoor-bench-") as tmp:
        try:
            server, port, log = _start_server(os.path.join(tmp, "archive.sqlite3"), stalls)
            _start_workers(ctx, client_procs, pipes, procs)
            yield Rig(server, port, pipes, log)
        finally:
            _stop_workers(pipes, procs)
            stop(server)
            if log is not None:
                log.close()
                if stalls:
                    print(stalls_summary(log.name), flush=True)
                print(f"server log: {log.name}", flush=True)


def stalls_summary(log_path: str) -> str:
    """What the server's log says of its event-loop stalls (ops/stall_watch.py): how
    many, their total and CPU time, the longest, and the code that held the loop most."""
    stalls: list[tuple[str, float, float]] = []  #: (where, ms, cpu ms)
    with open(log_path, encoding="utf-8", errors="replace") as lines:
        for line in lines:
            if '"loop_stall"' not in line:
                continue
            with contextlib.suppress(ValueError, KeyError, TypeError, IndexError):
                entry = json.loads(line)
                stalls.append((_culprit(entry["where"]), float(entry["ms"]),
                               float(entry["cpu_ms"])))
    if not stalls:
        return "server event-loop stalls over 20 ms: none"
    by_where: dict[str, list[float]] = {}
    for where, ms, _ in stalls:
        by_where.setdefault(where, []).append(ms)
    worst = sorted(by_where.items(), key=lambda kv: -sum(kv[1]))[:6]
    total = sum(ms for _, ms, _ in stalls) / 1000
    cpu = sum(c for _, _, c in stalls) / 1000
    return (f"server event-loop stalls over 20 ms: {len(stalls)}, {total:.1f} s in all "
            f"({cpu:.1f} s of it on a CPU), longest {max(ms for _, ms, _ in stalls):.0f} ms;"
            " where: " + "; ".join(f"{where} {len(v)} ({sum(v) / 1000:.1f} s, max "
                                   f"{max(v):.0f} ms)" for where, v in worst))


def _culprit(where: list[str]) -> str:
    """The innermost frame of a stall's stack that is ours, else the innermost one (a
    stall in trio's own loop, under nothing of ours but what runs ``trio.run``)."""
    return next((f for f in where if f.split(" (")[-1].startswith("quaymoor/")
                 and not any(entry in f for entry in _ENTRY)), where[0] if where else "?")


#: The frames under the whole server (``trio.run`` and what calls it): never a culprit.
_ENTRY = ("quaymoor/server.py", "quaymoor/cli.py", "quaymoor/__main__.py")


def _start_server(archive: str, stalls: bool) -> tuple[subprocess.Popen[str], int, Any]:
    """``quaymoor serve`` on a free port, bots without delay, timers out of the way, its
    archive at ``archive``, no per-address caps (every client is on this machine), loop
    stalls over 20 ms logged if ``stalls`` (ops/stall_watch.py):
    (process, port, its log file)."""
    return start_process(
        [sys.executable, "-m", "quaymoor", "serve", "--port", "0", "--bot-delay", "0",
         "--decision-seconds", "600", "--archive", archive, "--no-address-limits",
         *(["--log-stalls", "20"] if stalls else [])],
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
