"""``quaymoor bench bots``: the hard bot's search speed, compiled and pure side by side.

The hard bot (the tree search) decides the searched decisions of a seeded 4-player game
(role picks, the Surveyor's, Mason's, Chandler's, Bargemaster's and the Miller's choices)
with its iteration budget (``tree_bot.ITERATIONS["hard"]``) and a time cap far away, over
and over until the CPU time given is spent: iterations (a determinization, a path down the
tree and a play-out to the end of the next round) and decisions per second of CPU, one
core, and the CPU time of the mean and the slowest decision (the issue's cap: 0.5 s).
"""

from __future__ import annotations

import hashlib
import sys
import time
from typing import Any

from quaymoor.bots.heuristic import HeuristicBot
from quaymoor.bots.ismcts import TREE_PHASES
from quaymoor.bots.prng import SplitMix64
from quaymoor.bots.tree_bot import ITERATIONS, TreeBot
from quaymoor.rules.game import Game
from quaymoor.rules.views import SeatView
from quaymoor.tools.selfplay import game_seed
from quaymoor.tools.side_by_side import measure_pure, ratio, running

PLAYERS = 4
#: Decisions taken from the game (the first ones with a choice in a searched phase).
VIEWS = 24


def searched_views(players: int = PLAYERS, count: int = VIEWS) -> list[SeatView]:
    """The first ``count`` searched decisions with a choice in a game the normal bot plays
    (seeded: the same views in every run and process)."""
    game = Game(players, game_seed(25, 0), events=False)
    normal = HeuristicBot(takebacks=False)
    rng = SplitMix64(int.from_bytes(hashlib.sha256(b"bench-bots").digest()[:8], "big"))
    out: list[SeatView] = []
    while not game.is_over() and len(out) < count:
        seat = game.deciding()[0]
        view = game.view(seat)
        if len(view.legal) > 1 and view.board.phase in TREE_PHASES:
            out.append(view)
        action = normal.choose(view) if rng.below(4) else view.legal[rng.below(len(view.legal))]
        game.apply(seat, action if action is not None else view.legal[0])
    return out


def measure(seconds: float) -> dict[str, Any]:
    """Iterations and decisions per CPU second of the hard bot at its iteration budget,
    and its slowest decision's CPU time."""
    views = searched_views()
    bot = TreeBot("hard", 7, budget=3600.0, clock=time.process_time)
    iterations = decisions = 0
    slowest = 0.0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for view in views:
            began = time.process_time()
            stats = bot.search(view)
            slowest = max(slowest, time.process_time() - began)
            iterations += stats.iterations
            decisions += 1
    elapsed = time.process_time() - start
    return {"mode": running(), "playouts": iterations / elapsed,
            "decisions": decisions / elapsed, "ms_per_decision": 1000 * elapsed / decisions,
            "ms_slowest": 1000 * slowest}


def bench_bots(seconds: float = 5.0) -> None:
    """Prints the hard bot's play-outs and decisions per second, compiled beside pure."""
    print(f"python {sys.version.split()[0]}; hard bot, {ITERATIONS['hard']} iterations a "
          "decision, "
          f"{VIEWS} decisions of a {PLAYERS}-player game; {seconds:g} s of CPU per mode; "
          "one core", flush=True)
    here = measure(seconds)
    pure = measure_pure(__name__, "measure", seconds=seconds)
    for name, key in (("iterations/s", "playouts"), ("decisions/s", "decisions")):
        print(f"{name:12} {here[key]:9.1f} {here['mode']}  {pure[key]:9.1f} {pure['mode']}  "
              f"{ratio(here[key], pure[key])}")
    print(f"per decision: {here['ms_per_decision']:.0f} ms {here['mode']}, "
          f"{pure['ms_per_decision']:.0f} ms {pure['mode']}; slowest "
          f"{here['ms_slowest']:.0f} ms {here['mode']}, {pure['ms_slowest']:.0f} ms "
          f"{pure['mode']}")
