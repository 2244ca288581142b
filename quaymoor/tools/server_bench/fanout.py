"""The fan-out steps of ``bench server``: spectators of real games, then the raw
trio-websocket yardstick at the same frame size and client count, and their ratio."""

from __future__ import annotations

import os
import re
import sys
from collections import Counter
from multiprocessing.connection import Connection as Pipe

from quaymoor.tools.server_bench.launch import start_process
from quaymoor.tools.server_bench.load_run import LoadRun, run_load
from quaymoor.tools.server_bench.rig import recv, split, stop
from quaymoor.tools.server_bench.served import Served
from quaymoor.tools.server_bench.settings import (
    FANOUT_PLAYERS,
    FANOUT_TABLES,
    RAW_CLIENTS,
    RAW_SECONDS,
    RAW_SIZE,
)


def fanout_step(served: Served, pipes: list[Pipe]) -> None:
    """The spectator fan-out, then the raw trio-websocket fan-out at the spectators'
    average frame size, then their ratio; all printed."""
    fanout = run_load(served, pipes, tables=FANOUT_TABLES, players=FANOUT_PLAYERS,
                      seconds=RAW_SECONDS * 4, think=0.0, start_spread=0.0,
                      spectators=RAW_CLIENTS // FANOUT_TABLES, label="fan-out setup")
    spectator_rate, frame_size = report_fanout(fanout)
    raw_rate = raw_step(pipes, round(frame_size) or RAW_SIZE)
    print(f"fan-out ratio (spectator frames/s ÷ raw msg/s at the same frame size and "
          f"client count): {spectator_rate / raw_rate if raw_rate else float('nan'):.2f} "
          f"(target >= 0.8)", flush=True)


def report_fanout(run: LoadRun) -> tuple[float, float]:
    """Prints the spectator step's figures; returns (spectator frames/s, average frame
    size in bytes), zeros when no frame was seen."""
    watch = [r["watch"] for r in run.done]
    frames = sum(w["frames"] for w in watch)
    size = sum(w["bytes"] for w in watch) / frames if frames else 0.0
    span = (max(w["last"] for w in watch) - min(w["first"] for w in watch)) if frames else 0.0
    rate = frames / span if span > 0 else 0.0
    played = max(max(r["play_end"] for r in run.done) - run.go, 1e-9)
    spectators = FANOUT_TABLES * (RAW_CLIENTS // FANOUT_TABLES)
    closed: Counter[str] = Counter()
    failed: Counter[str] = Counter()
    for w in watch:
        closed.update(w["closed_early"])
        failed.update(w["connect_failures"])
    ok = sum(r["streams_ok"] for r in run.done)
    streams = ok + sum(r["streams_bad"] for r in run.done)
    finished = sum(r["finished_tables"] for r in run.done)
    print(f"spectator fan-out: {FANOUT_TABLES} tables x {FANOUT_PLAYERS} players (no "
          f"thinking) watched by {spectators} spectators: {frames} frames delivered to "
          f"spectators, {size:,.0f} B average, in {span:.2f} s (first to last frame) = "
          f"{rate:,.0f} frames/s ({rate / spectators:.1f} per spectator), "
          f"{rate * size / 1e6:.1f} MB/s; server CPU {run.server_cpu / played:.2f} cores",
          flush=True)
    updates = sum(w["updates"] for w in watch)
    played_updates = sum(r["updates"] for r in run.done)
    player_mean = (sum(r["update_bytes"] for r in run.done) / played_updates
                   if played_updates else 0.0)
    watched_mean = sum(w["update_bytes"] for w in watch) / updates if updates else 0.0
    print(f"  mean update frame: players {player_mean:,.0f} B ({played_updates} updates), "
          f"spectators {watched_mean:,.0f} B ({updates} updates)", flush=True)
    print(f"  spectators closed early: {dict(closed) or 'none'} (must be none); "
          f"game_ended seen by {sum(w['ended'] for w in watch)} of {spectators}; connect "
          f"failures {dict(failed) or 'none'}; games finished {finished} of "
          f"{FANOUT_TABLES}; players' streams complete and in order: {ok} of {streams}",
          flush=True)
    return rate, size


def raw_step(pipes: list[Pipe], size: int) -> float:
    """The raw trio-websocket fan-out at ``size`` bytes a message; prints and returns the
    messages delivered per second."""
    raw, raw_port, raw_log = start_process(
        [sys.executable, "-c",
         f"from quaymoor.tools.server_bench.raw_fanout import raw_server_main; "
         f"raw_server_main({RAW_CLIENTS}, {RAW_SECONDS}, {size})"], r"PORT (\d+)")
    try:
        for pipe, n in zip(pipes, split(RAW_CLIENTS, len(pipes)), strict=True):
            pipe.send(("raw", raw_port, n, RAW_SECONDS))
        raws = [recv(pipe, RAW_SECONDS + 60, "raw fan-out result")[1] for pipe in pipes]
        raw_out, _ = raw.communicate(timeout=20)
    finally:
        stop(raw)
        raw_log.close()
        os.unlink(raw_log.name)
    received = sum(r["received"] for r in raws)
    span = max(r["last"] for r in raws) - min(r["first"] for r in raws)
    rate = received / span if span > 0 else 0.0
    sent = re.search(r"SENT (\d+) SECONDS ([\d.]+)", raw_out)
    print(f"raw trio-websocket fan-out: {received} messages of {size} B delivered to "
          f"{RAW_CLIENTS} clients in {span:.2f} s = {rate:,.0f} msg/s, "
          f"{rate * size / 1e6:.1f} MB/s (server sent {sent.group(1) if sent else '?'}; "
          f"connect failures {sum(r['failures'] for r in raws)})", flush=True)
    return rate
