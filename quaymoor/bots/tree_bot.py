"""The "hard" and "expert" bots: the tree search of ``ismcts`` on an iteration budget.

``TreeBot(level)`` searches ``ITERATIONS[level]`` iterations a decision (``iterations``
to change it), capped by a time budget (seconds, ``CAP_SECONDS[level]`` unless
given; 0: no search, the heuristic's action), in the level's shape: expert also puts the
other seats' choices in its tree (``OPPONENTS``) and widens it progressively
(``WIDENING``). A decision with one legal action is
not searched. A tree bot never takes an apprentice back: its placements are searched,
each against the others, so a take-back would only undo a searched choice (and the
heuristic's take-backs between searched placements could go round in circles). Its own
random choices come from its seed (a fresh one when not given), the view's version and its
seat, so a seeded bot is repeatable.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable
from typing import Final

from quaymoor.bots.heuristic import HeuristicBot
from quaymoor.bots.ismcts import RootStats, Search
from quaymoor.bots.prng import SplitMix64
from quaymoor.rules.actions import Action
from quaymoor.rules.explain import action_words
from quaymoor.rules.views import SeatView

#: Iterations a decision, by level: hard's takes about 0.5 s of one core at a typical
#: searched decision (the median; the slowest, early role picks, about 1 s: ``quaymoor
#: bench bots``, ``tournament``); expert's is four times as many.
ITERATIONS: Final = {"hard": 100, "expert": 400}
#: The time cap of a decision, by level (seconds): above what the iterations take on an
#: idle core, so that the budget, not the machine, decides, unless the machine is busy.
CAP_SECONDS: Final = {"hard": 1.0, "expert": 3.0}
#: Whether the other seats' choices are nodes of the tree, by level: hard plays them by
#: the heuristic (the normal bot), which is right against normal bots; expert lets each
#: seat choose for itself in the tree, as a searching opponent does.
OPPONENTS: Final = {"hard": False, "expert": True}
#: Progressive widening below the root, by level (``Search(widening=...)``; 0: off).
WIDENING: Final = {"hard": 0, "expert": 2}


class TreeBot:
    """``choose(view)``: the search's action (None when the view asks nothing)."""

    def __init__(self, level: str = "hard", seed: int | None = None, *,
                 budget: float | None = None, iterations: int | None = None,
                 clock: Callable[[], float] = time.perf_counter,
                 opponents: bool | None = None, noise: int = 0, halving: bool = True,
                 widening: int | None = None) -> None:
        if level not in ITERATIONS:
            raise ValueError(f"no tree bot of level {level!r}")
        self.name = level
        self.seed = secrets.randbits(64) if seed is None else seed
        self.budget = CAP_SECONDS[level] if budget is None else budget
        self.iterations = ITERATIONS[level] if iterations is None else iterations
        self.clock = clock
        self.opponents = OPPONENTS[level] if opponents is None else opponents
        self.noise = noise
        self.halving = halving
        self.widening = WIDENING[level] if widening is None else widening
        self.heuristic = HeuristicBot(takebacks=False)
        #: The last search's root statistics (None: the last decision was not searched).
        self.last: RootStats | None = None

    def choose(self, view: SeatView, budget: float | None = None) -> Action | None:
        self.last = None
        if view.seat is None or not view.legal:
            return None
        budget = self.budget if budget is None else budget
        if budget <= 0 or len(view.legal) == 1:
            return self.heuristic.choose(view)
        stats = self.search(view, budget)
        if stats.iterations == 0:
            return self.heuristic.choose(view)
        return stats.actions[stats.best()]

    def search(self, view: SeatView, budget: float | None = None) -> RootStats:
        """The search's statistics for ``view`` (kept in ``last``)."""
        assert view.seat is not None
        budget = self.budget if budget is None else budget
        digest = hashlib.sha256(f"quaymoor-tree:{self.seed}:{view.version}:{view.seat}"
                                .encode()).digest()
        rng = SplitMix64(int.from_bytes(digest[:8], "big"))
        search = Search(view, rng, iterations=self.iterations,
                        deadline=self.clock() + budget, clock=self.clock,
                        opponents=self.opponents, noise=self.noise,
                        halving=self.halving, widening=self.widening)
        self.last = search.run()
        return self.last


def decide_tree(view: SeatView, budget: float | None, seed: int, level: str = "hard",
                iterations: int | None = None) -> Action | None:
    """One decision of a tree bot, for a process pool (all arguments pickle). ``budget``
    None: the level's cap; 0: the heuristic's, in milliseconds (the fallback under load)."""
    return TreeBot(level, seed, budget=budget, iterations=iterations).choose(view)


def hint(view: SeatView, budget: float | None, seed: int) -> tuple[Action, str, str]:
    """What the hard bot would do at ``view``, in words, and why (for a process pool, as
    ``decide_tree``; ``budget`` 0: the heuristic's move, at once). The view must ask the
    seat something."""
    bot = TreeBot("hard", seed, budget=budget)
    action = bot.choose(view)
    assert action is not None, "a hint for a view that asks nothing"
    stats = bot.last
    words = action_words(action)
    if stats is None or len(stats.actions) < 2:
        why = ("the only move worth making here" if len(view.legal) == 1 else
               "the normal bot's move (the search was busy: ask again for the hard one)")
        return action, words, why
    best = stats.actions.index(action)
    others = [i for i in range(len(stats.actions)) if i != best and stats.visits[i] > 0]
    if not others:
        return action, words, "the search's choice"
    second = max(others, key=lambda i: (stats.visits[i], stats.means[i]))
    gap = stats.means[best] - stats.means[second]
    return action, words, (
        f"the hard search's choice after {stats.iterations} samples of the hidden plots and "
        f"seals: about {max(gap, 0.0):.1f} points more at the end than the next best, "
        f"{action_words(stats.actions[second])}")


__all__ = ["CAP_SECONDS", "ITERATIONS", "OPPONENTS", "WIDENING", "TreeBot", "decide_tree", "hint"]
