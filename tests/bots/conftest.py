"""Helpers for the bot tests: play whole games with bots deciding from views only."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from quaymoor.bots.prng import SplitMix64
from quaymoor.rules.actions import Action
from quaymoor.rules.game import Game
from quaymoor.rules.state import Phase
from quaymoor.rules.views import SeatView
from quaymoor.tools.selfplay import game_seed

#: A game among bots that passes this many rounds does not end (real ones take 9 to 20).
ROUND_CAP = 60
#: Nor one that takes this many decisions (a bot taking apprentices back in circles).
DECISION_CAP = 5_000

Chooser = Callable[[SeatView], Action | None]


def play(players: int, seed: int, choosers: Sequence[Chooser],
         check: Callable[[Game, int, SeatView, Action], None] | None = None) -> Game:
    """Play a game to its end, each seat's bot choosing from ``game.view(seat)``; every
    action must be in the view's legal actions or take-backs (``game.apply`` would refuse
    anything else). Fails when the game passes ``ROUND_CAP`` rounds or ``DECISION_CAP``
    decisions."""
    game = Game(players, game_seed(seed, players), events=False)
    decisions = 0
    while not game.is_over():
        assert game.state.round <= ROUND_CAP, "the game does not end"
        assert decisions <= DECISION_CAP, "a bot walks in circles"
        decisions += 1
        seat = game.deciding()[0]
        view = game.view(seat)
        action = choosers[seat](view)
        assert action is not None
        assert action in view.legal or action in view.takebacks, (view.board.phase, action)
        if check is not None:
            check(game, seat, view, action)
        game.apply(seat, action)
    return game


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


def choice_views(players: int, seed: int, count: int) -> list[SeatView]:
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
