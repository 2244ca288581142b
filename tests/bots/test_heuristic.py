"""The normal and easy bots: legal actions only, games that end, decisions that are a
function of the seat's view (and the bot's own seed)."""

from __future__ import annotations

import pytest

from quaymoor.bots import bot_factory, make_bot
from quaymoor.bots.easy import EasyBot
from quaymoor.bots.heuristic import HeuristicBot, HeuristicPolicy
from quaymoor.bots.prng import SplitMix64
from quaymoor.rules import engine
from quaymoor.rules.actions import Action
from quaymoor.rules.game import Game
from quaymoor.rules.state import GameState, Phase
from quaymoor.rules.views import SeatView, view_for
from tests.bots.conftest import play


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_normal_and_easy_play_legal_actions_to_the_end(players: int) -> None:
    # about 50 games over the four player counts, normal and easy bots mixed
    for index in range(12):
        choosers = [
            (HeuristicBot().choose if (seat + index) % 2 else EasyBot(seat * 100 + index).choose)
            for seat in range(players)
        ]
        game = play(players, 1000 + index, choosers)
        assert game.is_over()
        assert game.state.end_reasons


def test_the_heuristic_beats_random_play() -> None:
    wins = 0
    for index in range(10):
        normal = index % 2
        choosers = [make_bot("random", index).choose, make_bot("random", index).choose]
        choosers[normal] = HeuristicBot().choose
        game = play(2, 2000 + index, choosers)
        final = game.scores()
        wins += final[normal].total > final[1 - normal].total
    assert wins >= 9


def test_without_takebacks_the_bot_only_plays_the_legal_list() -> None:
    bot = bot_factory("normal")()
    seen_reeve = False

    def choose(view: SeatView) -> Action | None:
        nonlocal seen_reeve
        action = bot(view)
        assert action in view.legal
        seen_reeve |= view.board.phase is Phase.REEVE
        return action

    play(3, 7, [choose] * 3)
    assert seen_reeve


def _hide_differently(s: GameState, seat: int) -> GameState:
    """A state that differs from ``s`` only in what ``seat`` cannot see: the face-down
    stack reversed and a seal moved between two other seats."""
    t = s.clone()
    t.stack.reverse()
    others = [i for i in range(s.n) if i != seat]
    if t.players[others[0]].seals > 0:
        t.players[others[0]].seals -= 1
        t.players[others[-1]].seals += 1
    return t


@pytest.mark.parametrize("players", [2, 4, 5])
def test_a_decision_is_a_function_of_the_view(players: int) -> None:
    """The bots take nothing but a view, and two states that differ only in hidden parts
    give the same view; more than that, the heuristic run on the full states themselves
    (hidden parts and all) decides exactly as the bot does from the view."""
    policy = HeuristicPolicy()
    bot = HeuristicBot()
    rng = SplitMix64(players)
    game = Game(players, bytes(range(32)), events=False)
    s = game.state
    decisions = 0
    while not game.is_over():
        seat = engine.deciding(s)[0]
        view = game.view(seat)
        other = _hide_differently(s, seat)
        assert view == view_for(other, seat, engine.legal_actions(other, seat),
                                engine.takeback_actions(other, seat))
        action = bot.choose(view)
        assert action is not None
        for state in (s.clone(), other):
            assert policy.act(state, seat, engine.legal_actions(state, seat)) == action
        # easy: the same seed gives the same decisions from equal views
        assert EasyBot(decisions).choose(view) == EasyBot(decisions).choose(view)
        decisions += 1
        legal = engine.legal_actions(s, seat)
        game.apply(seat, action if rng.below(3) else legal[rng.below(len(legal))])
    assert decisions > 100


def test_the_heuristic_decides_in_milliseconds() -> None:
    import time

    bot = HeuristicBot()
    times: list[float] = []

    def choose(view: SeatView) -> Action | None:
        start = time.perf_counter()
        action = bot.choose(view)
        times.append(time.perf_counter() - start)
        return action

    play(4, 3, [choose] * 4)
    times.sort()
    assert times[len(times) // 2] < 0.005  # median, generous for a loaded machine


def test_reeve_moves_an_apprentice_to_production_and_stops() -> None:
    """An apprentice idles on a Stall while a honey plot and a Honey House slot stand
    empty: the bot takes apprentices back to staff the pair, then says Done; it takes
    back no more than it must and never goes round in circles."""
    from quaymoor.rules.data import Building, PlotKind, Role
    from quaymoor.rules.views import view_for
    from tests.rules.builders import clear_all, fresh, mat, start_role

    s = fresh(2)
    clear_all(s)
    s.apprentice_barge = 0
    s.supply_apprentices = 0
    mat(s, 0, plots={PlotKind.HONEY: 1, PlotKind.CLAY: 1}, worked={PlotKind.CLAY: 1},
        buildings={Building.HONEY_HOUSE: 0, Building.STALL: 1})
    mat(s, 1, plots={PlotKind.FLAX: 1})
    start_role(s, 1, Role.REEVE)
    assert 0 in engine.deciding(s)
    bot = HeuristicBot()
    moves = []
    while s.phase is Phase.REEVE and 0 in engine.deciding(s):
        view = view_for(s, 0, engine.legal_actions(s, 0), engine.takeback_actions(s, 0))
        action = bot.choose(view)
        assert action is not None
        moves.append(action)
        engine.apply(s, 0, action)
        assert len(moves) < 10, moves
    p = s.players[0]
    # honey (the dearer good) made with both apprentices; clay and the Stall let go
    assert p.worked[PlotKind.HONEY] == 1 and p.staff[Building.HONEY_HOUSE] == 1
    assert len(moves) == 5  # two take-backs, two placements, Done
