"""The "easy" bot: the heuristic with noise, so that a new player can win.

A quarter of its decisions (role picks and the optional choices of a phase) are made at
random among the legal actions; the rest are the heuristic's. Compulsory steps that need no
judgement (placing apprentices, keeping goods) stay the heuristic's, so it never looks
foolish, only loose. Its randomness is its own seeded SplitMix64.
"""

from __future__ import annotations

import secrets

from quaymoor.bots.heuristic import HeuristicBot
from quaymoor.bots.prng import SplitMix64
from quaymoor.rules.actions import Action
from quaymoor.rules.state import Phase
from quaymoor.rules.views import SeatView

#: Share of decisions, in 1/1000, made at random.
NOISE_PER_MILLE = 250
_RANDOM_PHASES = frozenset({
    Phase.PICK_ROLE, Phase.SURVEYOR, Phase.MASON, Phase.CHANDLER, Phase.BARGEMASTER, Phase.MILLER,
})


class EasyBot:
    name = "easy"

    def __init__(self, seed: int | None = None, *, takebacks: bool = True,
                 noise_per_mille: int = NOISE_PER_MILLE) -> None:
        self._rng = SplitMix64(secrets.randbits(64) if seed is None else seed)
        self._heuristic = HeuristicBot(takebacks=takebacks)
        self.noise_per_mille = noise_per_mille

    def choose(self, view: SeatView) -> Action | None:
        if view.seat is None or not view.legal:
            return None
        if (len(view.legal) > 1 and view.board.phase in _RANDOM_PHASES
                and self._rng.below(1000) < self.noise_per_mille):
            return view.legal[self._rng.below(len(view.legal))]
        return self._heuristic.choose(view)
