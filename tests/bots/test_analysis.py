"""The post-game analysis: which decisions it scores, from the seat's own view; losses
measured against the best on the same samples; the same record gives the same analysis;
a player who moves at random loses more points than the heuristic."""

from __future__ import annotations

import io
import re

import attrs
import pytest

from quaymoor.bots.analysis import (
    Scored,
    analysed_seats,
    decision_points,
    score,
    summarise,
)
from quaymoor.bots.ismcts import ROOT_WIDTH, TREE_PHASES
from quaymoor.rules.record import GameRecord
from quaymoor.tools.analyse import analyse
from quaymoor.tools.tournament import play_game


def _record(bots: list[str], index: int = 0) -> GameRecord:
    result = play_game(bots, 31, index, record=True, iterations=4)
    assert result.record is not None
    return GameRecord.from_json(result.record)


def test_people_are_analysed_and_only_their_searched_choices() -> None:
    record = _record(["normal", "easy", "normal"])
    assert analysed_seats(record) == [0, 1, 2]  # all bots: every seat
    seats = [attrs.evolve(s, bot=(i != 1)) for i, s in enumerate(record.seats)]
    one_person = attrs.evolve(record, seats=seats)
    assert analysed_seats(one_person) == [1]
    points = decision_points(one_person)
    assert points and {p.seat for p in points} == {1}
    for p in points:
        assert p.view.seat == 1
        assert p.view.board.phase in TREE_PHASES
        assert len(p.view.legal) > 1 and p.chosen in p.view.legal
        assert record.actions[p.step].action == p.chosen
        # the view is the seat's own: the other seats' seals are not in it
        assert all(other.seals is None for i, other in enumerate(p.view.mats) if i != 1)


def test_the_chosen_move_is_searched_even_when_the_heuristic_would_not_try_it() -> None:
    record = _record(["random", "normal"])
    wide = [p for p in decision_points(record, [0]) if len(p.view.legal) > ROOT_WIDTH]
    assert wide, "no decision with more choices than the search's root width"
    for p in wide[:3]:
        for action in p.view.legal:
            scored = score(p.view, action, record.seed, p.step, iterations=12)
            assert scored.chosen == action and scored.best in p.view.legal
            assert scored.loss >= 0.0
            assert (scored.loss == 0.0) == (scored.best == action)


def test_the_same_record_gives_the_same_analysis() -> None:
    record = _record(["easy", "normal"], 1)
    points = decision_points(record)[:8]
    first = [score(p.view, p.chosen, record.seed, p.step, iterations=16) for p in points]
    again = [score(p.view, p.chosen, record.seed, p.step, iterations=16) for p in points]
    assert [(s.best, s.loss) for s in first] == [(s.best, s.loss) for s in again]


@pytest.mark.slow
def test_a_random_player_loses_more_points_than_the_heuristic() -> None:
    record = _record(["random", "normal"], 2)
    scored: list[Scored] = [score(p.view, p.chosen, record.seed, p.step, iterations=24)
                            for p in decision_points(record)]
    rand, normal = summarise(scored, [0, 1])
    assert rand.decisions > 10 and normal.decisions > 10
    assert rand.per_decision > 1.25 * normal.per_decision
    assert rand.accuracy < normal.accuracy
    assert rand.mistakes and all(m.loss >= 2.0 for m in rand.mistakes)
    assert rand.mistakes == sorted(rand.mistakes, key=lambda m: -m.loss)


def test_the_check_against_a_bigger_search_counts_what_it_says() -> None:
    """``quaymoor analyse --check K``: the bigger search keeps the analysis's best move, so
    both counts are of that move: the same best, and within ``ACCURATE`` of the bigger
    search's best by its own values (never fewer than the same best)."""
    record = _record(["normal", "easy"])
    out = io.StringIO()
    scored = analyse(record, iterations=8, check=2, out=out)
    bigger = [score(p.view, s.best, record.seed, p.step, iterations=16)
              for p, s in zip(decision_points(record), scored, strict=True)]
    same = sum(1 for a, b in zip(scored, bigger, strict=True) if a.best == b.best)
    near = sum(1 for b in bigger if b.loss < 1.0)
    n = len(scored)
    found = re.search(r"best move: (\d+) of (\d+) .*by its own values: (\d+) of (\d+)",
                      out.getvalue())
    assert found is not None, out.getvalue()
    assert [int(g) for g in found.groups()] == [same, n, near, n]
    assert same <= near and n > 0
