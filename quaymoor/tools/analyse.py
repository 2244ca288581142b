"""``quaymoor analyse RECORD``: a finished game's decisions scored by the search, printed.

The same analysis the game page shows (``bots/analysis.py``), on one core or ``--jobs``
processes: per analysed seat its decisions scored, points lost, accuracy and its biggest
mistakes with the better move; the time it took. ``--check K`` also searches every scored
decision with K times the iterations, the analysis's best move kept to the end, and prints
how often the two agree on the best move (the issue's check of the analysis: at least 80%
at 10x), and how often the bigger search values the analysis's best within ``ACCURATE``
(1 point, what the analysis itself calls accurate) of its own best.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TextIO

from quaymoor.bots.analysis import (
    ACCURATE,
    ITERATIONS,
    Point,
    Scored,
    analysed_seats,
    decision_points,
    score,
    summarise,
)
from quaymoor.rules.explain import action_words, advice
from quaymoor.rules.record import GameRecord


def score_all(points: Sequence[Point], seed: str, iterations: int, jobs: int) -> list[Scored]:
    """Every point scored, in order, in ``jobs`` processes (1: here)."""
    if jobs <= 1:
        return [score(p.view, p.chosen, seed, p.step, iterations) for p in points]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(score, p.view, p.chosen, seed, p.step, iterations)
                   for p in points]
        return [f.result() for f in futures]


def analyse(record: GameRecord, *, iterations: int | None = None, jobs: int = 1,
            check: int = 0, out: TextIO = sys.stdout) -> list[Scored]:
    """Analyse ``record`` and print it; the scored decisions. ``iterations`` None: the
    analysis's own (``ITERATIONS``)."""
    iterations = ITERATIONS if iterations is None else iterations
    seats = analysed_seats(record)
    points = decision_points(record, seats)
    began = time.perf_counter()
    cpu = time.process_time()
    scored = score_all(points, record.seed, iterations, jobs)
    wall = time.perf_counter() - began
    print(f"{record.players} players, seats analysed {', '.join(str(s + 1) for s in seats)}; "
          f"{len(points)} decisions scored at {iterations} iterations in {wall:.1f} s "
          f"({jobs} process{'es' if jobs > 1 else ''}; {time.process_time() - cpu:.1f} s CPU "
          "here)", file=out)
    for player in summarise(scored, seats):
        name = record.seats[player.seat].name
        print(f"seat {player.seat + 1} ({name}): {player.decisions} decisions, "
              f"{player.points_lost:.1f} points lost ({player.per_decision:.2f} a decision), "
              f"accuracy {player.accuracy:.0f}%", file=out)
        for m in player.mistakes:
            print(f"  step {m.step}: {action_words(m.chosen)} lost {m.loss:.1f} points; "
                  f"{advice(m.best, m.chosen, m.loss)}", file=out)
    if check > 1:
        # the bigger search keeps the analysis's best move to its end, so that it values
        # it on the same samples as its own best
        kept = [Point(p.step, p.seat, p.view, a.best) for p, a in zip(points, scored,
                                                                      strict=True)]
        bigger = score_all(kept, record.seed, iterations * check, jobs)
        same = sum(1 for a, b in zip(scored, bigger, strict=True) if a.best == b.best)
        near = sum(1 for b in bigger if b.loss < ACCURATE)
        n = len(points)
        print(f"agreement with {check}x the iterations on the best move: {same} of {n} "
              f"({_share(same, n)}); the analysis's best within {ACCURATE:g} point of the "
              f"bigger search's best, by its own values: {near} of {n} ({_share(near, n)})",
              file=out)
    out.flush()
    return scored


def _share(k: int, n: int) -> str:
    return f"{100.0 * k / n:.0f}%" if n else "100%"


__all__ = ["analyse", "score_all"]
