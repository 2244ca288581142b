"""``state_from_view`` rebuilds an engine state that gives the viewer its view's legal
actions, take-backs and deciding seats, in every phase, canonically or sampled."""

from __future__ import annotations

import pytest

from quaymoor.bots.determinize import seals_handed_out, state_from_view, unseen_plots
from quaymoor.bots.prng import SplitMix64
from quaymoor.rules import engine
from quaymoor.rules.data import GOODS, SETUPS
from quaymoor.rules.game import Game
from quaymoor.rules.state import Phase
from quaymoor.rules.views import view_for
from quaymoor.tools.selfplay import game_seed


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_rebuilt_state_gives_the_view_s_legal_actions(players: int) -> None:
    phases = set()
    checks = 0
    for index in range(4):
        game = Game(players, game_seed(77, 10 * players + index), events=False)
        s = game.state
        rng = SplitMix64(index)
        while not game.is_over():
            for seat in range(players):
                view = game.view(seat)
                for sample in (None, SplitMix64(checks)):
                    r = state_from_view(view, sample)
                    assert engine.legal_actions(r, seat) == view.legal
                    assert engine.takeback_actions(r, seat) == view.takebacks
                    assert list(engine.deciding(r)) == view.deciding
                    # what the seat sees of the rebuilt state is its view
                    again = view_for(r, seat, view.legal, view.takebacks)
                    assert again.board == view.board
                    assert again.mats == view.mats
                    checks += 1
                phases.add(view.board.phase)
            seat = engine.deciding(s)[0]
            acts = engine.legal_actions(s, seat)
            if rng.below(8) == 0:  # now and then a take-back, as people do
                acts = acts + engine.takeback_actions(s, seat)
            game.apply(seat, acts[rng.below(len(acts))])
    assert phases >= {Phase.PICK_ROLE, Phase.SURVEYOR, Phase.REEVE, Phase.MASON, Phase.CHANDLER,
                      Phase.BARGEMASTER}


def test_samples_are_consistent_with_the_view() -> None:
    game = Game(4, game_seed(5, 0), events=False)
    rng = SplitMix64(1)
    s = game.state
    for _ in range(400):
        if game.is_over():
            break
        seat = engine.deciding(s)[0]
        acts = engine.legal_actions(s, seat)
        game.apply(seat, acts[rng.below(len(acts))])
    view = game.view(1)
    for k in range(20):
        r = state_from_view(view, SplitMix64(k))
        # the seals handed out are all accounted for, the viewer's own exactly
        assert r.players[1].seals == s.players[1].seals
        assert sum(p.seals for p in r.players) == seals_handed_out(view)
        # every plot of the game is somewhere
        for g in GOODS:
            placed = sum(p.plots[g] for p in r.players) + r.face_up.count(g)
            hidden = r.stack.count(g) + r.discard.count(g)
            assert placed + hidden == SETUPS[4].plots[g]
            assert hidden == unseen_plots(view)[g]
        assert len(r.stack) == len(s.stack) and len(r.discard) == len(s.discard)
        # and the rebuilt game plays on to its end
        while not engine.is_over(r):
            who = engine.deciding(r)[0]
            engine.apply(r, who, engine.legal_actions(r, who)[0])


def test_a_spectator_view_cannot_be_rebuilt() -> None:
    game = Game(3, game_seed(1, 1), events=False)
    with pytest.raises(ValueError, match="spectator"):
        state_from_view(game.view(None))
