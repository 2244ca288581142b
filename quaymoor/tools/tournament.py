"""Bot tournaments: ``quaymoor tournament --players N --games G --bots hard,normal,...``.

Game ``i`` seats the bot list shifted by ``i`` (seat ``j`` plays ``bots[(j + i) % N]``), so
every bot sits in every seat equally often. Seeds come from ``--seed`` as in self-play
(``selfplay.game_seed``). Each bot decides from ``game.view(seat)`` only, and its time per
decision is measured. A game that passes ``ROUND_CAP`` rounds is stopped and reported as
unfinished (it counts for nobody).

Per bot (seats with the same bot pooled): seat-games played, wins (a shared win counts for
each winner), the win rate with a 95% Wilson interval, the mean final score and the decision
time (mean; in the table also the median, 90th percentile and maximum). With ``--json`` the
last line is one JSON object:
``{"players": N, "games": G, "bots": [{"name", "games", "wins", "win_rate", "ci95",
"mean_score", "mean_decision_ms"}, ...]}``. ``--record DIR`` writes each game's record
(``quaymoor verify`` accepts them). ``--jobs`` plays games in that many processes.
``--first K`` plays games ``K`` to ``K + G - 1`` of the run: a game depends only on the seed,
its index and the bots (the hard and expert bots stop on their iterations when ``--budget``
is large), so a long run can be played in parts and the parts' games are the same ones.
"""

from __future__ import annotations

import hashlib
import json
import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, TextIO

import attrs

from quaymoor.bots import LEVELS, make_bot
from quaymoor.rules.game import Game
from quaymoor.rules.record import SeatInfo
from quaymoor.rules.scoring import winners
from quaymoor.tools.selfplay import game_seed

#: Rounds after which a game counts as unfinished (real games end in about 10 to 20).
ROUND_CAP = 60
#: Decisions after which a game counts as unfinished (a guard against a bot's loop).
DECISION_CAP = 20_000


@attrs.frozen
class GameResult:
    index: int
    seed: str
    bots: list[str]  #: by seat
    finished: bool
    scores: list[int]
    winners: list[int]
    rounds: int
    times: list[list[float]]  #: decision times in seconds, by seat
    record: str | None  #: the record's JSON, when asked for


def seat_bots(bots: Sequence[str], index: int) -> list[str]:
    """The bots of game ``index``, by seat: the list shifted by ``index``."""
    n = len(bots)
    return [bots[(j + index) % n] for j in range(n)]


def bot_seed(base: int, index: int, seat: int) -> int:
    digest = hashlib.sha256(f"quaymoor-tournament-bot:{base}:{index}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def play_game(
    bots: Sequence[str],
    base_seed: int,
    index: int,
    *,
    budget: float | None = None,
    iterations: int | None = None,
    record: bool = False,
    clock: Callable[[], float] = time.perf_counter,
) -> GameResult:
    """Play game ``index`` of a tournament to its end (or the round cap)."""
    names = seat_bots(bots, index)
    n = len(names)
    seed = game_seed(base_seed, index)
    game = Game(n, seed, events=False)
    players = [make_bot(name, bot_seed(base_seed, index, i), budget=budget,
                        iterations=iterations)
               for i, name in enumerate(names)]
    times: list[list[float]] = [[] for _ in range(n)]
    decisions = 0
    finished = True
    while not game.is_over():
        if game.state.round > ROUND_CAP or decisions > DECISION_CAP:
            finished = False
            break
        seat = game.deciding()[0]
        view = game.view(seat)
        start = clock()
        action = players[seat].choose(view)
        times[seat].append(clock() - start)
        if action is None:
            raise RuntimeError(f"{names[seat]} in seat {seat} gave no action")
        game.apply(seat, action)  # an illegal action raises: a bot bug, never hidden
        decisions += 1
    final = game.scores()
    text = None
    if record:
        seats = [SeatInfo(f"{name} bot (seat {i + 1})", bot=True) for i, name in enumerate(names)]
        text = game.record(seats).to_json()
    return GameResult(
        index=index,
        seed=seed.hex(),
        bots=names,
        finished=finished,
        scores=[x.total for x in final],
        winners=list(winners(final)) if finished else [],
        rounds=game.state.round,
        times=times,
        record=text,
    )


def wilson(wins: int, games: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    lo = 0.0 if wins == 0 else max(0.0, centre - half)
    hi = 1.0 if wins == games else min(1.0, centre + half)
    return (lo, hi)


def summarise(players: int, games: int, bots: Sequence[str],
              results: Sequence[GameResult]) -> dict[str, Any]:
    """The tournament's JSON summary (the ``--json`` line)."""
    out = []
    for name in dict.fromkeys(bots):
        played = wins = 0
        total = 0
        times: list[float] = []
        for r in results:
            for seat, bot in enumerate(r.bots):
                if bot != name:
                    continue
                times.extend(r.times[seat])
                if not r.finished:
                    continue
                played += 1
                total += r.scores[seat]
                wins += seat in r.winners
        lo, hi = wilson(wins, played)
        out.append({
            "name": name,
            "games": played,
            "wins": wins,
            "win_rate": round(wins / played, 4) if played else 0.0,
            "ci95": [round(lo, 4), round(hi, 4)],
            "mean_score": round(total / played, 2) if played else 0.0,
            "mean_decision_ms": round(1000 * statistics.fmean(times), 3) if times else 0.0,
        })
    return {"players": players, "games": games, "bots": out}


def run(
    players: int,
    games: int,
    bots: Sequence[str],
    *,
    seed: int = 0,
    first: int = 0,
    budget: float | None = None,
    iterations: int | None = None,
    record_dir: Path | None = None,
    jobs: int = 1,
    json_line: bool = False,
    out: TextIO = sys.stdout,
) -> dict[str, Any]:
    """Play the tournament's games ``first`` to ``first + games - 1``, print its table (and
    the JSON line) and return the summary."""
    if first < 0:
        raise ValueError(f"the first game's index must be 0 or more, got {first}")
    if len(bots) != players:
        raise ValueError(f"{players} players need {players} bots, got {len(bots)}")
    for name in bots:
        if name not in LEVELS:
            raise ValueError(f"unknown bot {name!r} (choose from {', '.join(LEVELS)})")
    if record_dir is not None:
        record_dir.mkdir(parents=True, exist_ok=True)
    keep = record_dir is not None
    results: list[GameResult] = []

    def done(r: GameResult) -> None:
        results.append(r)
        if record_dir is not None and r.record is not None:
            (record_dir / f"game-{seed}-{r.index}.json").write_text(r.record)
        if not r.finished:
            print(f"game {r.index} unfinished after {r.rounds} rounds (seed {r.seed})",
                  file=out, flush=True)

    if jobs <= 1:
        for i in range(first, first + games):
            done(play_game(bots, seed, i, budget=budget, iterations=iterations,
                              record=keep))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(play_game, list(bots), seed, i, budget=budget,
                                   iterations=iterations, record=keep)
                       for i in range(first, first + games)]
            for f in futures:
                done(f.result())
    results.sort(key=lambda r: r.index)
    summary = summarise(players, games, bots, results)
    unfinished = sum(1 for r in results if not r.finished)
    rounds = [r.rounds for r in results if r.finished]
    part = f", games {first} to {first + games - 1}" if first else ""
    print(f"{players} players, {games} games (seed {seed}{part}), bots {','.join(bots)}"
          + (f", {iterations} iterations a search" if iterations is not None else "")
          + (f", search cap {budget:g} s" if budget is not None else ""), file=out)
    print(f"finished {games - unfinished}, unfinished {unfinished} (cap {ROUND_CAP} rounds); "
          f"mean rounds {statistics.fmean(rounds) if rounds else 0:.1f}", file=out)
    print(f"{'bot':8} {'games':>6} {'wins':>5} {'win rate':>8}  {'95% CI':>15} "
          f"{'score':>6} {'ms/dec':>8} {'median':>8} {'p90':>8} {'max':>8}", file=out)
    for row in summary["bots"]:
        times = [t for r in results for seat, b in enumerate(r.bots) if b == row["name"]
                 for t in r.times[seat]]
        times.sort()
        med = 1000 * statistics.median(times) if times else 0.0
        p90 = 1000 * times[int(0.9 * (len(times) - 1))] if times else 0.0
        top = 1000 * times[-1] if times else 0.0
        lo, hi = row["ci95"]
        print(f"{row['name']:8} {row['games']:6d} {row['wins']:5d} {row['win_rate']:8.3f}  "
              f"[{lo:.3f}, {hi:.3f}] {row['mean_score']:6.1f} {row['mean_decision_ms']:8.2f} "
              f"{med:8.2f} {p90:8.2f} {top:8.1f}", file=out)
    if json_line:
        print(json.dumps(summary), file=out)
    out.flush()
    return summary


__all__ = ["DECISION_CAP", "ROUND_CAP", "GameResult", "play_game", "run", "seat_bots",
           "summarise", "wilson"]
