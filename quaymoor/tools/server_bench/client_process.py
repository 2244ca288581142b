"""A client process of the benchmarks: runs the jobs the orchestrator sends over its pipe,
a share of a load (players and spectators) or of the raw fan-out, until told to quit."""

from __future__ import annotations

import functools
import os
import time
from collections import Counter
from multiprocessing.connection import Connection as Pipe
from typing import Any, NamedTuple

import trio

from quaymoor.ops.gc_policy import configure_collector
from quaymoor.ops.open_files import raise_open_files
from quaymoor.tools.server_bench.player import LoadStats, Seat, play_seat
from quaymoor.tools.server_bench.procfs import cpu_seconds
from quaymoor.tools.server_bench.raw_fanout import raw_clients
from quaymoor.tools.server_bench.server_http import post
from quaymoor.tools.server_bench.settings import (
    CONNECT_CONCURRENCY,
    HTTP_CONCURRENCY,
    SETUP_SECONDS,
)
from quaymoor.tools.server_bench.spectator import WatchStats, watch


def start_delays(tables: int, spread: float, index: int, procs: int) -> list[float]:
    """Seconds after go at which client process ``index`` of ``procs`` starts each of its
    ``tables``: evenly over the whole ``spread``, the processes interleaved."""
    return [spread * (j + index / procs) / tables for j in range(tables)]


async def _http(limiter: trio.CapacityLimiter, port: int, path: str,
                body: dict[str, Any]) -> dict[str, Any]:
    async with limiter:
        return await trio.to_thread.run_sync(post, port, path, body)


class LoadJob(NamedTuple):
    """One client process's share of a load."""

    port: int
    tables: int
    players: int
    think: float  #: mean seconds a player thinks
    start_spread: float  #: seconds after go over which the tables are started
    proc: int  #: this client process's index, to interleave the starts ...
    procs: int  #: ... with the other client processes'
    spectators: int = 0  #: spectators per table
    #: tables of other processes to watch, one spectator for each entry
    watch: tuple[str, ...] = ()


async def _load(pipe: Pipe, job: LoadJob) -> None:
    """Set up and connect this process's share of a load, report "ready", wait for "go"
    (or anything else: stop), start the tables and play until the bound; then report the
    results."""
    stats = LoadStats()
    watching = WatchStats()
    http = trio.CapacityLimiter(HTTP_CONCURRENCY)
    gate = trio.Semaphore(CONNECT_CONCURRENCY)
    seats: dict[str, list[Seat]] = {}
    total = job.tables * (job.players + job.spectators) + len(job.watch)
    all_welcomed = trio.Event()
    going = trio.Event()

    def on_welcome() -> None:
        if stats.connected + watching.welcomed >= total:
            all_welcomed.set()

    def on_seat_welcome() -> None:
        stats.connected += 1
        on_welcome()

    async def set_up(nursery: trio.Nursery) -> None:
        try:
            info = await _http(http, job.port, "/api/tables", {"players": job.players})
            table = info["table"]
            mine = []
            for i in range(job.players):
                joined = await _http(http, job.port, f"/api/tables/{table}/join",
                                     {"name": f"bench{i}"})
                mine.append(Seat(table, joined["seat"], joined["token"]))
        except Exception as exc:
            stats.setup_failures[type(exc).__name__] += 1
            return
        seats[table] = mine
        for seat in mine:
            nursery.start_soon(functools.partial(
                play_seat, seat, job.port, stats, gate, on_welcome=on_seat_welcome,
                think=job.think))
        for _ in range(job.spectators):
            nursery.start_soon(functools.partial(
                watch, table, job.port, watching, gate, on_welcome=on_welcome, going=going))

    async def start(table: str, at: float) -> None:
        await trio.sleep_until(at)
        try:
            await _http(http, job.port, f"/api/tables/{table}/start",
                        {"token": seats[table][0].token})
            stats.tables_started += 1
        except Exception as exc:
            stats.start_failures[type(exc).__name__] += 1

    with trio.CancelScope() as play_scope:
        async with trio.open_nursery() as nursery:
            async with trio.open_nursery() as setup:
                for _ in range(job.tables):
                    setup.start_soon(set_up, nursery)
            for table in job.watch:
                nursery.start_soon(functools.partial(
                    watch, table, job.port, watching, gate, on_welcome=on_welcome,
                    going=going))
            if not total:
                all_welcomed.set()
            with trio.move_on_after(SETUP_SECONDS):
                await all_welcomed.wait()
            pipe.send(("ready", stats.connected, stats.open, dict(stats.setup_failures),
                       watching.welcomed, list(seats)))
            go = await trio.to_thread.run_sync(pipe.recv)
            cpu_go = cpu_seconds(os.getpid())
            if go[0] != "go":
                play_scope.cancel()
            else:
                # time.monotonic() is shared by processes; trio's clock is not.
                go_at = trio.current_time() + (go[1] - time.monotonic())
                play_scope.deadline = go_at + (go[2] - go[1])
                going.set()
                delays = start_delays(len(seats), job.start_spread, job.proc, job.procs)
                async with trio.open_nursery() as starts:
                    for table, delay in zip(seats, delays, strict=True):
                        starts.start_soon(start, table, go_at + delay)
    play_end = time.monotonic()
    cpu_play = cpu_seconds(os.getpid()) - cpu_go
    for mine in seats.values():
        if all(s.ended == "finished" for s in mine):
            stats.finished_tables += 1
        for s in mine:
            if s.ok and s.ended == "finished":
                stats.streams_ok += 1
            else:
                stats.streams_bad += 1
    result = {k: (dict(v) if isinstance(v, Counter) else v) for k, v in vars(stats).items()}
    result["tables"] = len(seats)
    result["play_end"] = play_end
    result["cpu"] = cpu_play
    result["unfinished_tables"] = [t for t, mine in seats.items()
                                   if not all(s.ended == "finished" for s in mine)][:10]
    result["watch"] = watching.as_dict()
    pipe.send(("result", result))


def worker_main(pipe: Pipe) -> None:
    """A client process: runs the jobs main sends until told to quit.

    The clients are the measuring instrument: their own garbage-collector pauses would be
    counted as the server's latency, so they collect as the server does (young objects
    only; no full collection within a run)."""
    raise_open_files()
    # Clients here share the server's two cores; in real use they are other machines. A
    # lower priority keeps them from taking the server's CPU when both are busy.
    os.nice(10)
    configure_collector()
    while True:
        job = pipe.recv()
        if job[0] == "raw":
            pipe.send(("raw", trio.run(raw_clients, job[1], job[2], job[3])))
        elif job[0] == "load":
            trio.run(_load, pipe, job[1])
        else:
            return
