"""The watched-table step of ``bench server``: one table of players, watched by 0, then
300, then 1,000 spectators, and what the crowd costs the players: their action-to-update
latency (p50, p95, p99), the server's own action-to-broadcast latency, its CPU, and
whether every spectator kept up (none closed early, each saw the game end).

The players are in one client process and the spectators in the others (on a real site
they are other machines); each count is a fresh table played to its end (or the bound).
"""

from __future__ import annotations

from collections import Counter
from multiprocessing.connection import Connection as Pipe
from typing import NamedTuple

from quaymoor.tools.server_bench.load_run import LoadRun, run_load
from quaymoor.tools.server_bench.prometheus import histogram_diff
from quaymoor.tools.server_bench.report import pct
from quaymoor.tools.server_bench.served import Served
from quaymoor.tools.server_bench.settings import (
    SPECTATED_COUNTS,
    SPECTATED_PLAYERS,
    SPECTATED_SECONDS,
    SPECTATED_TARGET,
    SPECTATED_THINK,
)


class Watched(NamedTuple):
    """One count's figures."""

    spectators: int
    p95: float  #: the players' action-to-update latency, seconds
    kept_up: bool  #: every spectator welcomed, none closed early, each saw the end

    @property
    def met(self) -> bool:
        """The target: the players' p95 under ``SPECTATED_TARGET``, every spectator kept
        up."""
        return self.p95 < SPECTATED_TARGET and self.kept_up


def spectated_step(served: Served, pipes: list[Pipe], *, think: float = SPECTATED_THINK,
                   counts: tuple[int, ...] = SPECTATED_COUNTS) -> list[Watched]:
    """One table whose players think ``think`` seconds on average, watched by each of
    ``counts`` spectators in turn, every figure printed, then the verdict on the target
    (the players' p95 at the largest count); returns each count's figures."""
    print(f"watched table: one table of {SPECTATED_PLAYERS} players who think "
          f"{think:g} s on average, watched by {', '.join(map(str, counts))} "
          f"spectators in turn (a fresh table each, bounded at {SPECTATED_SECONDS:g} s)",
          flush=True)
    if len(pipes) < 2:
        print("  needs 2 client processes at least (players apart from spectators)",
              flush=True)
        return []
    rows = [_one(served, pipes, n, think) for n in counts]
    last = rows[-1]
    met = last.met
    print(f"watched-table target (players' p95 < {SPECTATED_TARGET * 1000:g} ms with "
          f"{last.spectators} spectators, every spectator kept up): "
          f"{'met' if met else 'not met'} ({last.p95 * 1000:.1f} ms)", flush=True)
    return rows


def _one(served: Served, pipes: list[Pipe], spectators: int, think: float) -> Watched:
    run = run_load(served, pipes, tables=1, players=SPECTATED_PLAYERS,
                   seconds=SPECTATED_SECONDS, think=think, start_spread=0.0,
                   spectators=spectators, label=f"  {spectators} spectators: setup")
    return _report(run, spectators, served.servers[0].name)


def _report(run: LoadRun, spectators: int, name: str) -> Watched:
    latencies = [x for r in run.done for x in r["latencies"]]
    watch = [r["watch"] for r in run.done]
    closed: Counter[str] = Counter()
    for w in watch:
        closed.update(w["closed_early"])
    welcomed = sum(w["welcomed"] for w in watch)
    ended = sum(w["ended"] for w in watch)
    frames = sum(w["frames"] for w in watch)
    finished = sum(r["finished_tables"] for r in run.done)
    ok = sum(r["streams_ok"] for r in run.done)
    played = max(max(r["play_end"] for r in run.done) - run.go, 1e-9)
    server = histogram_diff(run.metrics_before.get(name) or "",
                            run.metrics_after.get(name) or "",
                            "quaymoor_action_latency_seconds").get("")
    p95 = pct(latencies, 0.95)
    kept_up = welcomed == spectators and not closed and ended == spectators
    print(f"  {spectators} spectators: players' action-to-update latency p50 "
          f"{pct(latencies, 0.5) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, p99 "
          f"{pct(latencies, 0.99) * 1000:.1f} ms, max "
          f"{max(latencies, default=float('nan')) * 1000:.1f} ms ({len(latencies)} acts); "
          f"server action-to-broadcast p95 "
          f"{server.bound_text(0.95) if server and server.observed else 'n/a'}; "
          f"server CPU {run.server_cpu / played:.2f} cores over {played:.1f} s; "
          f"{frames} frames to spectators; game finished {finished} of 1, players' streams "
          f"in order {ok} of {SPECTATED_PLAYERS}; spectators welcomed {welcomed}, saw the "
          f"end {ended}, closed early {dict(closed) or 'none'}", flush=True)
    return Watched(spectators, p95, kept_up)
