"""The "hard" bot: determinized search over the heuristic, within a time budget.

For a decision worth searching (a role pick, and the optional choices of the Surveyor,
Mason, Miller, Chandler and Bargemaster), the bot repeats, ``samples`` times (``SAMPLES``
by default) or until its time budget is spent, whichever comes first:

1. sample the hidden parts of the game consistently with its view
   (``determinize.state_from_view``: the other seats' seals from the seals handed out, the
   unseen plots shuffled into the stack and the discard pile);
2. for each candidate action (all legal ones, or the heuristic's best few when there are
   many), apply it to a copy of that sample and play on with the heuristic for every seat
   until the end of the next round (or of the game);
3. score the result: at the game's end, the final score less the best other seat's, plus a
   win bonus; before it, the same margin on the heuristic's valuation of each mat.

Every candidate sees the same samples (common random numbers), and the candidate with the
best mean margin is played. A pass that is not complete when time runs out is not used;
if not even one pass fits the budget, the heuristic decides. The Reeve step and keeping
goods after shipping are left to the heuristic (placing apprentices one tap at a time is
not worth a search each).

The iteration budget makes the bot's strength a matter of its settings, not of how busy
the machine is: the same view and seed give the same decision however fast the samples
come, as long as they fit the time budget, which stays as the cap (``samples=None``
searches for the whole time budget, as fast as the machine goes).

The time budget (default 1 s) is per decision and read from an injectable clock
(``time.perf_counter`` by default) so that tests can fake it; the bot never starts a
rollout once the deadline has passed, and a rollout is a few milliseconds, so it answers
within the budget plus a small margin.

Running without search. ``choose(view, budget=0)`` (or a bot built with ``budget=0``) is
the heuristic alone, in milliseconds. The server is meant to run search off its event loop
in a process pool sized to the machine (``os.cpu_count()``): a table sends
``decide(view, budget, seed)`` (module-level, picklable arguments) to the pool, and when
the pool already has as many decisions in flight as it has workers it calls
``decide(view, 0, seed)`` inline instead, so that under load a table never waits for a
search. Wiring that into the table actor is the table's business, not this module's.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable, Sequence

from quaymoor.bots.determinize import state_from_view
from quaymoor.bots.heuristic import HeuristicBot, HeuristicPolicy
from quaymoor.bots.prng import SplitMix64
from quaymoor.bots.valuation import Context, mat_value, seal_worth
from quaymoor.rules import engine
from quaymoor.rules.actions import Action
from quaymoor.rules.scoring import scores, winners
from quaymoor.rules.state import GameState, Phase
from quaymoor.rules.views import SeatView

#: Phases where the bot searches; elsewhere the heuristic decides.
SEARCHED = frozenset({
    Phase.PICK_ROLE, Phase.SURVEYOR, Phase.MASON, Phase.MILLER, Phase.CHANDLER, Phase.BARGEMASTER,
})
#: Most candidates searched in one decision (the heuristic's best, plus passing).
MAX_CANDIDATES = 6
#: What a won game adds to the final margin.
WIN_BONUS = 10.0
#: How many whole rounds after the current one a rollout plays.
ROLLOUT_ROUNDS = 1
#: Share of the budget spent searching; the rest is the margin for the last rollout.
BUDGET_SHARE = 0.85
#: Samples a decision searches by default (each plays every candidate out once): about
#: what the 1 s time budget alone searched before the rules were compiled (~240 play-outs
#: a second pure, ~4.5 candidates a decision), now ~0.35 s compiled on one core of a
#: 2-core machine (``quaymoor bench bots`` prints play-outs per second).
SAMPLES = 40


class SearchBot:
    """``choose(view, budget=None)``: the search's action after ``samples`` samples, within
    ``budget`` seconds (None: the bot's own budget; 0: no search, the heuristic's action).
    ``samples=None``: as many samples as the time budget allows."""

    name = "hard"

    def __init__(
        self,
        seed: int | None = None,
        *,
        budget: float = 1.0,
        samples: int | None = SAMPLES,
        clock: Callable[[], float] = time.perf_counter,
        takebacks: bool = True,
        rollout_rounds: int = ROLLOUT_ROUNDS,
        max_candidates: int = MAX_CANDIDATES,
    ) -> None:
        self.seed = secrets.randbits(64) if seed is None else seed
        self.budget = budget
        self.samples = samples
        self.clock = clock
        self.rollout_rounds = rollout_rounds
        self.max_candidates = max_candidates
        self.heuristic = HeuristicBot(takebacks=takebacks)
        self.policy = HeuristicPolicy(takebacks=False)
        #: Statistics of the last decision: samples completed, candidates, play-outs.
        self.last_samples = 0
        self.last_candidates = 0
        self.last_playouts = 0

    def choose(self, view: SeatView, budget: float | None = None) -> Action | None:
        self.last_samples = 0
        self.last_candidates = 0
        self.last_playouts = 0
        if view.seat is None or not view.legal:
            return None
        budget = self.budget if budget is None else budget
        if budget <= 0 or len(view.legal) == 1 or view.board.phase not in SEARCHED:
            return self.heuristic.choose(view)
        start = self.clock()
        deadline = start + budget * BUDGET_SHARE
        hard_deadline = start + budget
        me = view.seat
        base = state_from_view(view, None)
        candidates = self._candidates(base, me, view.legal)
        if len(candidates) == 1:
            return candidates[0]
        self.last_candidates = len(candidates)
        digest = hashlib.sha256(f"quaymoor-hard:{self.seed}:{view.version}:{me}".encode())
        rng = SplitMix64(int.from_bytes(digest.digest()[:8], "big"))
        totals = [0.0] * len(candidates)
        samples = 0
        limit = self.samples
        while (limit is None or samples < limit) and self.clock() < deadline:
            sample = state_from_view(view, rng)
            results: list[float] = []
            for a in candidates:
                if self.clock() >= deadline:
                    break
                t = sample.clone()
                engine.apply(t, me, a)
                r = self._rollout(t, me, hard_deadline)
                self.last_playouts += 1
                if r is None:
                    break
                results.append(r)
            if len(results) < len(candidates):
                break  # an unfinished pass is not used
            for i, r in enumerate(results):
                totals[i] += r
            samples += 1
        self.last_samples = samples
        if samples == 0:
            return self.heuristic.choose(view)
        best = 0
        for i in range(1, len(candidates)):
            if totals[i] > totals[best] + 1e-9:
                best = i
        return candidates[best]

    def _candidates(self, s: GameState, me: int, legal: Sequence[Action]) -> list[Action]:
        if len(legal) <= self.max_candidates:
            return list(legal)
        sc = self.policy.scores(s, me, legal)
        order = sorted(range(len(legal)), key=lambda i: (-sc[i], i))
        keep = sorted(order[: self.max_candidates])
        return [legal[i] for i in keep]

    def _rollout(self, t: GameState, me: int, deadline: float) -> float | None:
        """Play on with the heuristic to the end of the next round (or the game) and score
        the result for ``me``; None when the deadline passes first."""
        clock = self.clock
        stop_round = t.round + self.rollout_rounds
        policy = self.policy
        guard = 0
        while t.phase is not Phase.GAME_OVER:
            if t.round > stop_round:
                break
            if clock() > deadline:
                return None
            seat = engine.deciding(t)[0]
            engine.apply(t, seat, policy.act(t, seat))
            guard += 1
            if guard > 5000:
                raise RuntimeError("a rollout did not end")
        return evaluate(t, me)


def evaluate(t: GameState, me: int) -> float:
    """The margin of ``me`` over the best other seat: final scores at the end (plus a
    win bonus), else the heuristic's valuation of each mat with its seals."""
    if t.phase is Phase.GAME_OVER:
        final = scores(t)
        mine = final[me].total
        best = max(x.total for i, x in enumerate(final) if i != me)
        bonus = 0.0
        if me in winners(final):
            bonus = WIN_BONUS / len(winners(final))
        return mine - best + bonus
    ctx = Context(t)
    values = [mat_value(p, ctx) + p.seals * seal_worth(p) for p in t.players]
    mine_v = values[me]
    return mine_v - max(v for i, v in enumerate(values) if i != me)


def decide(view: SeatView, budget: float, seed: int,
           samples: int | None = SAMPLES) -> Action | None:
    """One decision of the hard bot, for a process pool (all arguments pickle). With
    ``budget`` 0 it is the heuristic's, in milliseconds: the fallback under load."""
    return SearchBot(seed, budget=budget, samples=samples).choose(view)


__all__ = ["SAMPLES", "SEARCHED", "SearchBot", "decide", "evaluate"]
