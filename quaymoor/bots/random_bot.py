"""The simplest bot: a uniformly random legal action from its seat's view.

It never takes an apprentice back (so it never walks in circles) and reads nothing but
the view the table sends its seat: the legal actions listed there.
"""

from __future__ import annotations

import secrets

from quaymoor.bots.prng import SplitMix64
from quaymoor.rules.actions import Action
from quaymoor.rules.views import SeatView


class RandomBot:
    """Chooses uniformly among the view's legal actions."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = SplitMix64(secrets.randbits(64) if seed is None else seed)

    def choose(self, view: SeatView) -> Action | None:
        if not view.legal:
            return None
        return view.legal[self._rng.below(len(view.legal))]
