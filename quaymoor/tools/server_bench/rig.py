"""The rig of the server benchmarks: the server under test and the client processes,
started, talked to over pipes, and stopped (also on error or Ctrl-C)."""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from multiprocessing.connection import Connection as Pipe
from typing import Any, NamedTuple

from quaymoor.tools.server_bench.client_process import worker_main
from quaymoor.tools.server_bench.cluster_rig import cluster_under_test
from quaymoor.tools.server_bench.launch import start_process
from quaymoor.tools.server_bench.served import ONE_PROCESS, Measured, Served
from quaymoor.tools.server_bench.server_http import inherited_token
from quaymoor.tools.server_bench.settings import serve_options


def split(n: int, parts: int) -> list[int]:
    return [n // parts + (1 if i < n % parts else 0) for i in range(parts)]


def recv(pipe: Pipe, timeout: float, what: str) -> Any:
    if not pipe.poll(timeout):
        raise TimeoutError(f"a client process gave no {what} within {timeout:.0f} s")
    return pipe.recv()


class Rig(NamedTuple):
    served: Served  #: the server under test: one process, or a cluster
    pipes: list[Pipe]  #: one per client process
    logs: dict[str, str]  #: each table process's log file, by name


@contextlib.contextmanager
def rig(client_procs: int, *, stalls: bool = False, cluster: int | None = None
        ) -> Iterator[Rig]:
    """The server under test and ``client_procs`` client processes; all stopped
    afterwards (the client processes first), also on error or Ctrl-C, and the logs named.
    The server is one ``quaymoor serve`` (its archive in a temporary folder, not the
    developer's), or with ``cluster`` a ``quaymoor cluster`` of that many processes
    (``cluster_rig``). ``stalls``: the server logs its event-loop stalls over 20 ms
    (``serve --log-stalls``), summarised at the end. Off by default: its thread's wake-ups
    cost the loop (at 500 tables, 1.07 -> 1.17 ms of CPU a decision and the server p99
    from <= 30 to <= 100 ms), so it is for finding a stall, not measuring."""
    ctx = multiprocessing.get_context("spawn")
    logs: dict[str, str] = {}
    with contextlib.ExitStack() as stack:
        served, logs = stack.enter_context(
            cluster_under_test(cluster, stalls=stalls) if cluster is not None
            else _one_server(stalls))
        procs: list[Any] = []
        pipes: list[Pipe] = []
        stack.callback(_stop_workers, pipes, procs)
        _start_workers(ctx, client_procs, pipes, procs)
        yield Rig(served, pipes, logs)
    if stalls:
        for name, path in logs.items():
            print(f"{name}: {stalls_summary(path)}" if cluster else stalls_summary(path),
                  flush=True)


@contextlib.contextmanager
def _one_server(stalls: bool) -> Iterator[tuple[Served, dict[str, str]]]:
    """One ``quaymoor serve`` (``_start_server``) and its log file; stopped afterwards."""
    server: subprocess.Popen[str] | None = None
    log: Any = None
    with tempfile.TemporaryDirectory(prefix="quaymoor-bench-") as tmp:
        try:
            server, port, log = _start_server(os.path.join(tmp, "archive.sqlite3"), stalls)
            yield (Served(port, (Measured(ONE_PROCESS, server.pid, port),),
                          token=inherited_token()), {ONE_PROCESS: log.name})
        finally:
            stop(server)
            if log is not None:
                log.close()
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
    """``quaymoor serve`` on a free port with the benchmark's options (``serve_options``),
    its archive at ``archive``: (process, port, its log file)."""
    return start_process(
        [sys.executable, "-m", "quaymoor", "serve", "--port", "0", "--archive", archive,
         *serve_options(stalls)],
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
