"""The hard bot: legal actions, its time budget under a fake clock, the same decision for
the same view and seed, and the fall-back to the heuristic."""

from __future__ import annotations

import pickle

import pytest

from quaymoor.bots.heuristic import HeuristicBot
from quaymoor.bots.prng import SplitMix64
from quaymoor.bots.search import SearchBot, decide
from quaymoor.rules import engine
from quaymoor.rules.game import Game
from quaymoor.rules.state import Phase
from quaymoor.rules.views import SeatView
from quaymoor.tools.selfplay import game_seed
from tests.bots.conftest import play


class FakeClock:
    """Time that moves only when read: ``tick`` seconds per read."""

    def __init__(self, tick: float) -> None:
        self.now = 0.0
        self.tick = tick
        self.reads = 0

    def __call__(self) -> float:
        self.now += self.tick
        self.reads += 1
        return self.now


def _views(players: int, seed: int, count: int) -> list[SeatView]:
    """Views of seats with a choice to make, from a game played at random."""
    game = Game(players, game_seed(seed, players), events=False)
    rng = SplitMix64(seed)
    out: list[SeatView] = []
    while not game.is_over() and len(out) < count:
        seat = game.deciding()[0]
        view = game.view(seat)
        chosen = (Phase.PICK_ROLE, Phase.MASON, Phase.SURVEYOR)
        if len(view.legal) > 1 and view.board.phase in chosen:
            out.append(view)
        legal = view.legal
        game.apply(seat, legal[rng.below(len(legal))])
    return out


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_hard_plays_legal_actions_to_the_end(players: int) -> None:
    hard = SearchBot(players, budget=0.004)
    normal = HeuristicBot()
    choosers = [hard.choose] + [normal.choose] * (players - 1)
    game = play(players, 30 + players, choosers)
    assert game.is_over()


def test_the_budget_holds_under_a_fake_clock() -> None:
    for view in _views(4, 2, 6):
        for budget in (0.001, 0.02, 0.2):
            clock = FakeClock(budget / 2000)
            bot = SearchBot(7, budget=budget, clock=clock)
            action = bot.choose(view)
            assert action in view.legal
            # every read of the clock after the deadline ends the search at once: the bot
            # answers within its budget plus one tick
            assert clock.now <= budget + 2 * clock.tick
            if budget >= 0.2:
                assert bot.last_samples >= 1


def test_the_same_view_and_seed_give_the_same_decision() -> None:
    for view in _views(3, 4, 5):
        first = SearchBot(11, budget=0.02, clock=FakeClock(1e-5)).choose(view)
        again = SearchBot(11, budget=0.02, clock=FakeClock(1e-5)).choose(view)
        assert first == again


def test_no_search_is_the_heuristic() -> None:
    heuristic = HeuristicBot()
    for view in _views(4, 5, 10):
        clock = FakeClock(1.0)
        bot = SearchBot(1, budget=5.0, clock=clock)
        assert bot.choose(view, budget=0) == heuristic.choose(view)
        assert clock.reads == 0  # not even the clock is read
        assert SearchBot(1, budget=0).choose(view) == heuristic.choose(view)
        # a budget too small for one pass over the candidates falls back to the heuristic
        assert SearchBot(1, budget=1e-4, clock=FakeClock(1e-4)).choose(view) == \
            heuristic.choose(view)


def test_decide_runs_in_a_process_pool() -> None:
    view = _views(2, 6, 1)[0]
    assert pickle.loads(pickle.dumps(view)) == view
    assert decide(view, 0, 3) == HeuristicBot().choose(view)
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=1) as pool:
        action = pool.submit(decide, view, 0.05, 3).result(timeout=60)
    assert action in view.legal


def test_search_uses_only_the_view() -> None:
    """Two states differing only in hidden parts give equal views, so equal decisions."""
    game = Game(3, game_seed(8, 3), events=False)
    s = game.state
    while s.phase.name != "PICK_ROLE" or s.round < 2:
        seat = engine.deciding(s)[0]
        game.apply(seat, engine.legal_actions(s, seat)[0])
    seat = engine.deciding(s)[0]
    from quaymoor.rules.views import view_for

    other = s.clone()
    other.stack.reverse()
    a = SearchBot(5, budget=0.05, clock=FakeClock(1e-5)).choose(
        view_for(s, seat, engine.legal_actions(s, seat), []))
    b = SearchBot(5, budget=0.05, clock=FakeClock(1e-5)).choose(
        view_for(other, seat, engine.legal_actions(other, seat), []))
    assert a == b


def test_the_iteration_budget_makes_the_decision_independent_of_speed() -> None:
    """With a time cap far away, a busy machine (a slow clock) and an idle one search the
    same samples and decide alike; the time cap still ends a search that would not fit."""
    for view in _views(4, 9, 4):
        fast = SearchBot(13, budget=100.0, samples=6, clock=FakeClock(1e-6))
        slow = SearchBot(13, budget=100.0, samples=6, clock=FakeClock(1e-3))
        assert fast.choose(view) == slow.choose(view)
        if fast.last_candidates:
            assert fast.last_samples == slow.last_samples == 6
            assert fast.last_playouts == 6 * fast.last_candidates
        capped = SearchBot(13, budget=0.05, samples=10**6, clock=FakeClock(1e-3))
        capped.choose(view)
        assert capped.last_samples < 10**6
