"""``quaymoor bench rules``: the rules engine's speed, compiled and pure side by side
(benchmarks print figures; they are never run as tests).

Random games are played to their end with every action checked against the legal list
(``Game.apply``, as the server applies them). Rates are per second of this process's CPU
time (``time.process_time``), so that a machine busy with other work slows the figures
less than a wall clock would; one process, one core.
"""

from __future__ import annotations

import sys
import time
import tracemalloc
from typing import Any

from quaymoor.rules.engine import new_game
from quaymoor.rules.fairness import derive_key
from quaymoor.tools.selfplay import game_seed, random_game
from quaymoor.tools.side_by_side import measure_pure, ratio, running

PLAYER_COUNTS = (2, 3, 4, 5)
#: Clones per timing of the state copy.
CLONES = 20_000


def measure(seconds: float) -> dict[str, Any]:
    """Games and decisions per CPU second for each player count, the 4-player state's
    size and the time to clone it (microseconds, the best of 5 rounds of ``CLONES``)."""
    counts: dict[str, Any] = {}
    for players in PLAYER_COUNTS:
        games = decisions = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            _, result = random_game(players, game_seed(999, games))
            games += 1
            decisions += result.decisions
        elapsed = time.process_time() - start
        counts[str(players)] = {"games": games / elapsed, "decisions": decisions / elapsed,
                                "per_game": decisions / games}
    key = derive_key(bytes(32))
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    state = new_game(4, key)
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    size = sum(s.size_diff for s in after.compare_to(before, "filename"))
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        for _ in range(CLONES):
            state.clone()
        best = min(best, (time.process_time() - start) / CLONES)
    return {"mode": running(), "players": counts, "state_bytes": size, "clone_us": best * 1e6}


def bench_rules(seconds: float = 3.0) -> None:
    """Prints random games and decisions per second for 2-5 players, this process's
    modules (compiled, once built) beside the pure ones in a child process, with the
    ratio; then the 4-player state's size and clone time in both."""
    print(f"python {sys.version.split()[0]}; {seconds:g} s of CPU per player count and "
          "mode; one core; every action checked against the legal list", flush=True)
    here = measure(seconds)
    pure = measure_pure(__name__, "measure", seconds=seconds)
    a, b = here["mode"], pure["mode"]
    print(f"{'':9} {a + ' games/s':>18} {b + ' games/s':>16} {'ratio':>6}   "
          f"{a + ' decisions/s':>22} {b + ' decisions/s':>18}")
    for players in map(str, PLAYER_COUNTS):
        x, y = here["players"][players], pure["players"][players]
        print(f"{players} players {x['games']:18.1f} {y['games']:16.1f} "
              f"{ratio(x['games'], y['games']):>6}   {x['decisions']:22.0f} "
              f"{y['decisions']:18.0f}   ({x['per_game']:.0f} decisions/game)")
    print(f"one 4-player game state: {here['state_bytes'] / 1024:.1f} KiB {a}, "
          f"{pure['state_bytes'] / 1024:.1f} KiB {b}")
    print(f"cloning a 4-player state: {here['clone_us']:.2f} us {a}, "
          f"{pure['clone_us']:.2f} us {b} ({ratio(pure['clone_us'], here['clone_us'])})")
