"""``quaymoor tournament --ladder``: every bot level against the others at 2 to 5 players,
rated with OpenSkill (``quaymoor.ratings``).

Which games. At ``n`` players the lineups are the ways to seat ``n`` different levels
(``itertools.combinations`` of ``LADDER`` in order); game ``i`` plays lineup ``i mod L``
rotated by ``(i div L) mod n`` seats, so that ``L x n`` games give every level every seat
of every lineup. Each game is dealt from the run's seed and its index
(``selfplay.game_seed``), each bot seeded by ``tournament.bot_seed``: a ladder is
repeatable. The bots play at their levels' own iteration budgets (the server's), with a
generous time cap so that a busy machine does not weaken them.

The ratings. One rating per level, over every player count, updated game by game in the
order of the counts and then of the games (the order a ladder is played in); also each
count's own ratings and each level's win rate there (ties shared, Wilson 95% intervals),
for the docs. A game that passes the round cap is left out.
"""

from __future__ import annotations

import itertools
import json
import statistics
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Final, TextIO

from quaymoor.ratings import Rating, ranks_of, rate
from quaymoor.tools.tournament import GameResult, play_game, wilson

#: The levels on the ladder, weakest first.
LADDER: Final = ("random", "easy", "normal", "hard", "expert")
#: The time cap of a searched decision on the ladder (the iteration budget decides).
LADDER_BUDGET: Final = 30.0


def lineups(players: int, levels: Sequence[str] = LADDER) -> list[tuple[str, ...]]:
    return list(itertools.combinations(levels, players))


def seating(players: int, index: int, levels: Sequence[str] = LADDER) -> list[str]:
    """Game ``index``'s levels, by seat (see the module's docstring)."""
    options = lineups(players, levels)
    lineup = options[index % len(options)]
    turn = (index // len(options)) % players
    return [lineup[(seat + turn) % players] for seat in range(players)]


def _play(players: int, seed: int, index: int, levels: Sequence[str]) -> GameResult:
    seats = seating(players, index, levels)
    # play_game seats bots[(seat + index) % n]: hand it the list that comes out as ``seats``
    bots = [seats[(k - index) % players] for k in range(players)]
    return play_game(bots, seed, index, budget=LADDER_BUDGET)


class _Table:
    """Ratings and win counts being gathered."""

    def __init__(self, levels: Sequence[str]) -> None:
        self.ratings = {level: Rating.new() for level in levels}
        self.games = dict.fromkeys(levels, 0)
        self.wins = dict.fromkeys(levels, 0.0)

    def add(self, result: GameResult) -> None:
        finals = [(score, 0) for score in result.scores]
        ranks = ranks_of(finals)
        for seat, level in enumerate(result.bots):
            self.games[level] += 1
            if seat in result.winners:
                self.wins[level] += 1 / len(result.winners)
        # a tie on points is broken by the rules (coins and goods): the winners first
        ranks = [1 if seat in result.winners else max(2, r) for seat, r in enumerate(ranks)]
        after = rate([self.ratings[level] for level in result.bots], ranks)
        for level, rating in zip(result.bots, after, strict=True):
            self.ratings[level] = rating


def run_ladder(games: int, counts: Sequence[int] = (2, 3, 4, 5), *, seed: int = 0,
               jobs: int = 1, levels: Sequence[str] = LADDER, out: TextIO = sys.stdout,
               json_line: bool = False) -> dict[str, Any]:
    """Play ``games`` games at each player count in ``counts`` among ``levels`` (at least
    as many as the largest count), print the ratings and the win rates, and return them
    (the ``--json`` line)."""
    if max(counts) > len(levels):
        raise ValueError(f"{max(counts)} players need {max(counts)} levels at least")
    overall = _Table(levels)
    by_count: dict[int, _Table] = {}
    unfinished = 0
    times: dict[str, list[float]] = {level: [] for level in levels}
    for players in counts:
        table = by_count[players] = _Table(levels)
        if jobs <= 1:
            results = [_play(players, seed, i, levels) for i in range(games)]
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                results = list(pool.map(_play, [players] * games, [seed] * games,
                                        range(games), [levels] * games))
        for r in results:
            for seat, level in enumerate(r.bots):
                times[level].extend(r.times[seat])
            if not r.finished:
                unfinished += 1
                continue
            table.add(r)
            overall.add(r)
        print(f"{players} players: {games} games, lineups of {players} levels of "
              f"{len(levels)}, seats rotated", file=out, flush=True)
    summary = _summary(levels, overall, by_count, times, games=games, seed=seed,
                       unfinished=unfinished)
    _print(summary, out)
    if json_line:
        print(json.dumps(summary), file=out)
    out.flush()
    return summary


def _summary(levels: Sequence[str], overall: _Table, by_count: dict[int, _Table],
             times: dict[str, list[float]], *, games: int, seed: int,
             unfinished: int) -> dict[str, Any]:
    rows = []
    for level in levels:
        rating = overall.ratings[level]
        counts = {}
        for players, table in by_count.items():
            played = table.games[level]
            if not played:
                continue
            wins = table.wins[level]
            lo, hi = wilson(round(wins), played)
            counts[str(players)] = {
                "games": played, "wins": round(wins, 2),
                "win_rate": round(wins / played, 4), "ci95": [round(lo, 4), round(hi, 4)],
                "rating": table.ratings[level].shown,
                "interval": list(table.ratings[level].interval)}
        spent = times[level]
        rows.append({
            "level": level, "rating": rating.shown, "interval": list(rating.interval),
            "mu": round(rating.mu, 3), "sigma": round(rating.sigma, 3),
            "games": overall.games[level], "by_players": counts,
            "mean_decision_ms": round(1000 * statistics.fmean(spent), 2) if spent else 0.0})
    return {"games_per_count": games, "seed": seed, "unfinished": unfinished,
            "levels": rows}


def _print(summary: dict[str, Any], out: TextIO) -> None:
    counts = sorted({c for row in summary["levels"] for c in row["by_players"]}, key=int)
    print(f"ladder: {summary['games_per_count']} games per player count (seed "
          f"{summary['seed']}); unfinished games left out: {summary['unfinished']}",
          file=out)
    head = "".join(f" {c + ' players':>24}" for c in counts)
    print(f"{'level':8} {'rating':>6} {'95% interval':>14} {'games':>6} {'ms/dec':>7}{head}",
          file=out)
    for row in summary["levels"]:
        lo, hi = row["interval"]
        cells = ""
        for c in counts:
            seen = row["by_players"].get(c)
            if seen is None:
                cells += f" {'-':>24}"
                continue
            clo, chi = seen["ci95"]
            cells += f" {seen['win_rate']:>6.1%} [{clo:.0%},{chi:.0%}] {seen['rating']:>5}"
        print(f"{row['level']:8} {row['rating']:6d} {f'[{lo}, {hi}]':>14} "
              f"{row['games']:6d} {row['mean_decision_ms']:7.1f}{cells}", file=out)
    print("(per player count: the win rate with its Wilson 95% interval, ties shared, and "
          "that count's own rating)", file=out)


__all__ = ["LADDER", "lineups", "run_ladder", "seating"]
