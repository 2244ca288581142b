"""The bots' ladder: which levels meet in which seats, and the ratings it prints."""

from __future__ import annotations

import io
import itertools
import json
from collections import Counter

import pytest

from quaymoor.ratings import Rating, ranks_of, rate
from quaymoor.tools.ladder import LADDER, lineups, run_ladder, seating


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_lineups_times_seats_games_seat_every_level_everywhere(players: int) -> None:
    options = lineups(players)
    assert len(options) == len(list(itertools.combinations(LADDER, players)))
    games = len(options) * players
    seen: Counter[tuple[tuple[str, ...], int, str]] = Counter()
    for index in range(games):
        seats = seating(players, index)
        assert len(set(seats)) == players
        assert tuple(sorted(seats, key=LADDER.index)) in options
        for seat, level in enumerate(seats):
            seen[(tuple(sorted(seats, key=LADDER.index)), seat, level)] += 1
    # every level of every lineup in every seat, exactly once
    assert len(seen) == len(options) * players * players
    assert set(seen.values()) == {1}


def test_ranks_share_a_tie_and_the_winner_rises() -> None:
    assert ranks_of([(40, 3), (52, 1), (40, 3)]) == [2, 1, 2]
    assert ranks_of([(40, 3), (40, 4)]) == [2, 1]
    before = [Rating.new()] * 3
    after = rate(before, [2, 1, 2])
    assert after[1].mu > before[1].mu > after[0].mu == after[2].mu
    assert all(a.sigma < b.sigma for a, b in zip(after, before, strict=True))
    assert Rating.new().shown == 1500
    lo, hi = Rating.new().interval
    assert lo < 1500 < hi and hi - 1500 == 1500 - lo


def test_a_small_ladder_rates_the_stronger_levels_above_random() -> None:
    out = io.StringIO()
    levels = ("random", "easy", "normal")
    summary = run_ladder(6, (2,), seed=3, levels=levels, out=out, json_line=True)
    text = out.getvalue()
    assert json.loads(text.strip().splitlines()[-1]) == summary
    rows = {row["level"]: row for row in summary["levels"]}
    assert set(rows) == set(levels)
    assert sum(row["games"] for row in rows.values()) == 6 * 2 - 2 * summary["unfinished"]
    for level in levels:
        assert level in text
    assert rows["normal"]["rating"] > rows["random"]["rating"] or rows["random"]["games"] == 0
