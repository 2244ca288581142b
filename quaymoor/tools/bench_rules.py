"""Benchmarks that print figures (never run as tests)."""

from __future__ import annotations

import sys
import time
import tracemalloc

from quaymoor.rules.engine import new_game
from quaymoor.rules.fairness import derive_key
from quaymoor.tools.selfplay import game_seed, random_game


def bench_rules(seconds: float = 3.0) -> None:
    """Complete random games per second and decisions per second, per player count, on
    one core, every action checked against the legal list; then state size and copy time."""
    print(f"python {sys.version.split()[0]}; {seconds:.0f} s per player count; one core")
    for players in (2, 3, 4, 5):
        games = decisions = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            _, result = random_game(players, game_seed(999, games))
            games += 1
            decisions += result.decisions
        elapsed = time.perf_counter() - start
        print(
            f"{players} players: {games / elapsed:7.1f} games/s  "
            f"{decisions / elapsed:9.0f} decisions/s  "
            f"({decisions / games:.0f} decisions/game)"
        )
    key = derive_key(bytes(32))
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    state = new_game(4, key)
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    size = sum(s.size_diff for s in after.compare_to(before, "filename"))
    print(f"one 4-player game state: {size / 1024:.1f} KiB")
    n = 20_000
    start = time.perf_counter()
    for _ in range(n):
        state.clone()
    print(f"copying a 4-player state: {(time.perf_counter() - start) / n * 1e6:.1f} us")
