"""The tree search (hard and expert): legal actions to the end of games, one root visit an
iteration, its time cap under a fake clock, the same decision for the same view and seed
however fast the clock, decisions from the view alone, and the heuristic without search."""

from __future__ import annotations

import pickle

import pytest

from quaymoor.bots.heuristic import HeuristicBot
from quaymoor.bots.ismcts import Node, Search, margins
from quaymoor.bots.prng import SplitMix64
from quaymoor.bots.tree_bot import ITERATIONS, TreeBot, decide_tree
from quaymoor.rules import engine
from quaymoor.rules.game import Game
from quaymoor.rules.scoring import scores
from quaymoor.rules.views import view_for
from tests.bots.conftest import FakeClock, choice_views, play


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_tree_bot_plays_legal_actions_to_the_end(players: int) -> None:
    tree = TreeBot("hard", players, iterations=6)
    normal = HeuristicBot()
    choosers = [tree.choose] + [normal.choose] * (players - 1)
    game = play(players, 40 + players, choosers)
    assert game.is_over()


def test_every_iteration_visits_one_root_action_and_the_survivor_is_played() -> None:
    """Sequential halving spends the budget (all but less than one round of the
    candidates), every iteration through one root action, and plays the candidate left
    standing: one of the most visited."""
    for view in choice_views(4, 3, 6):
        bot = TreeBot("hard", 2, iterations=30, budget=100.0, clock=FakeClock(1e-6))
        action = bot.choose(view)
        stats = bot.last
        assert stats is not None
        assert 30 - len(stats.actions) < stats.iterations <= 30
        assert sum(stats.visits) == stats.iterations
        assert set(stats.actions) <= set(view.legal)
        assert action == stats.actions[stats.best()]
        assert stats.visits[stats.best()] == max(stats.visits)


def test_the_time_cap_holds_under_a_fake_clock() -> None:
    for view in choice_views(4, 2, 4):
        for budget in (0.001, 0.05):
            clock = FakeClock(budget / 20)
            bot = TreeBot("expert", 7, budget=budget, clock=clock)
            assert bot.choose(view) in view.legal
            assert bot.last is None or bot.last.iterations < ITERATIONS["expert"]
            # nothing is started once a read of the clock found the deadline passed
            assert clock.now <= budget + 2 * clock.tick


def test_the_same_view_and_seed_give_the_same_decision_at_any_speed() -> None:
    for view in choice_views(3, 4, 4):
        fast = TreeBot("hard", 11, iterations=20, budget=100.0, clock=FakeClock(1e-6))
        slow = TreeBot("hard", 11, iterations=20, budget=100.0, clock=FakeClock(1e-2))
        assert fast.choose(view) == slow.choose(view)
        assert fast.last is not None and slow.last is not None
        assert fast.last.visits == slow.last.visits


def test_no_search_is_the_heuristic() -> None:
    heuristic = HeuristicBot()
    for view in choice_views(4, 5, 6):
        clock = FakeClock(1.0)
        assert TreeBot("hard", 1, clock=clock).choose(view, budget=0) == \
            heuristic.choose(view)
        assert clock.reads == 0
        assert decide_tree(view, 0, 3) == heuristic.choose(view)


def test_decisions_come_from_the_view_alone() -> None:
    """Two states that differ only in what the seat cannot see give the same decision."""
    game = Game(3, bytes(range(32)), events=False)
    s = game.state
    while s.phase.name != "PICK_ROLE" or s.round < 2:
        seat = engine.deciding(s)[0]
        game.apply(seat, engine.legal_actions(s, seat)[0])
    seat = engine.deciding(s)[0]
    other = s.clone()
    other.stack.reverse()
    other.players[(seat + 1) % 3].seals += 2
    other.players[(seat + 2) % 3].seals -= min(2, other.players[(seat + 2) % 3].seals)
    a = TreeBot("hard", 5, iterations=15).choose(
        view_for(s, seat, engine.legal_actions(s, seat), []))
    b = TreeBot("hard", 5, iterations=15).choose(
        view_for(other, seat, engine.legal_actions(other, seat), []))
    assert a == b


def test_a_tree_decision_runs_in_a_process_pool() -> None:
    view = choice_views(2, 6, 1)[0]
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=1) as pool:
        action = pool.submit(decide_tree, view, 5.0, 3, "hard", 10).result(timeout=60)
    assert action in view.legal
    assert pickle.loads(pickle.dumps(view)) == view


def test_margins_at_the_end_are_the_scores_less_the_best_other() -> None:
    game = play(3, 77, [HeuristicBot().choose] * 3)
    final = [x.total for x in scores(game.state)]
    got = margins(game.state)
    for seat in range(3):
        best_other = max(final[j] for j in range(3) if j != seat)
        assert got[seat] - (final[seat] - best_other) in (0.0, 10.0, 5.0, 10.0 / 3)
    top = max(final)
    for seat in range(3):
        if final[seat] < top:
            assert got[seat] == final[seat] - top


def _children_below_root(node: Node) -> int:
    return sum(len(c.children) + _children_below_root(c) for c in node.children.values())


def test_progressive_widening_tries_fewer_follow_ups_and_stays_repeatable() -> None:
    """With widening, the seat's later choices in the tree hold fewer candidates tried (a
    third only after 8 visits, a fourth after 18) than without, on the same views and
    samples; the root's candidates are all searched either way, and the decision is legal
    and the same for the same seed."""
    narrow = wide = 0
    for view in choice_views(4, 8, 5):
        trees = []
        for widening in (0, 2, 2):
            assert view.seat is not None
            search = Search(view, SplitMix64(21), iterations=120, deadline=float("inf"),
                            clock=FakeClock(1e-6), widening=widening)
            stats = search.run()
            assert stats.actions[stats.best()] in view.legal
            assert all(v > 0 for v in stats.visits)
            trees.append((stats.visits, stats.means, _children_below_root(search.root)))
        assert trees[1] == trees[2]
        wide += trees[0][2]
        narrow += trees[1][2]
    assert 0 < narrow < wide


def _seats_below_root(node: Node) -> set[int]:
    out: set[int] = set()
    for child in node.children.values():
        out |= {g.seat for g in child.children.values()} | _seats_below_root(child)
    return out


def test_expert_searches_the_other_seats_choices_and_hard_leaves_them_to_the_heuristic() -> None:
    """Expert's tree holds the other seats' decisions (each choosing for itself); hard's
    only its own, the others played as the normal bot would."""
    for view in choice_views(3, 9, 3):
        assert view.seat is not None
        found = {}
        for level in ("hard", "expert"):
            bot = TreeBot(level, 4)
            search = Search(view, SplitMix64(5), iterations=80, deadline=float("inf"),
                            clock=FakeClock(1e-6), opponents=bot.opponents,
                            widening=bot.widening)
            search.run()
            found[level] = _seats_below_root(search.root)
        assert found["hard"] <= {view.seat}
        assert found["expert"] - {view.seat}, "no other seat's choice in expert's tree"
