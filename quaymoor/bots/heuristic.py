"""The "normal" bot: a heuristic that knows the game and decides in milliseconds.

It reads the seat's view only. The view is turned into an engine state with a canonical
fill of the hidden parts (``determinize.state_from_view(view, None)``), and the policy
below reads of that state nothing but public facts and the seat's own seals, so the
decision is a function of the view (``tests/bots`` checks it).

How it plays. Every choice is a score over the legal actions, the best one taken (ties to
the earlier action in the legal list, so it is deterministic).

- ``bots/valuation.py``: ``mat_value`` prices a mat in points still to come (building
  points, seals, end bonuses, coins, goods, and what staffed plots, workshops and civic
  buildings will yield over the rounds left).
- A role is picked by playing it out (``HeuristicPolicy.role_scores``, here): the role is
  applied to a copy of the state and the phase is played to its end with this policy for
  every seat; the role's score is the seat's gain in ``mat_value`` (seals included) less
  the others' (the best and the mean of them with more than two players). So the Miller
  scores high when the seat makes goods others do not, the Bargemaster when its goods fit
  the barges, the Mason when it can afford a good building, the Surveyor and Reeve when
  growth is worth most.
- In a phase (``bots/phase_choices.py``): the plot, building, sale or load that raises
  ``mat_value`` most; shipping prefers the most seals, then keeping the dearest goods;
  after shipping the seat stores and keeps its most valuable goods.
- Reeve (``bots/reeve_plan.py``): a target arrangement for all the seat's apprentices,
  built greedily, then placements towards it, and take-backs only when a wanted slot is
  empty and the lodge is too.
"""

from __future__ import annotations

from collections.abc import Sequence

from quaymoor.bots.determinize import state_from_view
from quaymoor.bots.phase_choices import (
    build_scores,
    extra_good,
    keep_action,
    load_scores,
    sell_scores,
    surveyor_scores,
)
from quaymoor.bots.reeve_plan import reeve_action
from quaymoor.bots.valuation import Context, mat_value, seal_worth
from quaymoor.rules import engine
from quaymoor.rules.actions import DRAW_PLOT, Action, PickRole
from quaymoor.rules.data import Role
from quaymoor.rules.state import GameState, Phase, PlayerState
from quaymoor.rules.views import SeatView


class HeuristicPolicy:
    """The heuristic on an engine state, for ``seat``. It reads only public facts and the
    seat's own seals. ``takebacks`` lets it take apprentices back in the Reeve step."""

    def __init__(self, *, takebacks: bool = True, opponent_weight: float = 1.0) -> None:
        self.takebacks = takebacks
        self.opponent_weight = opponent_weight

    def act(self, s: GameState, seat: int, legal: Sequence[Action] | None = None,
            ctx: Context | None = None) -> Action:
        """The action for ``seat``. ``ctx`` may be passed to save working it out again
        (a search reuses one for a whole role)."""
        if legal is None:
            legal = engine.legal_actions(s, seat)
        if len(legal) == 1 and not (self.takebacks and s.phase is Phase.REEVE):
            return legal[0]
        phase = s.phase
        if phase is Phase.REEVE:
            return reeve_action(s, seat, legal, self.takebacks, ctx or Context(s))
        if phase is Phase.KEEP_GOODS:
            return keep_action(s, seat, legal)
        if phase is Phase.MILLER:
            return extra_good(s, seat, legal)
        scores = self.scores(s, seat, legal, ctx)
        best = 0
        for i in range(1, len(scores)):
            if scores[i] > scores[best] + 1e-9:
                best = i
        return legal[best]

    def scores(self, s: GameState, seat: int, legal: Sequence[Action],
               ctx: Context | None = None) -> list[float]:
        """A score per legal action (higher is better); for the phases chosen by rule
        (Reeve, keeping goods, the extra good) the chosen one scores 1 and the rest 0."""
        phase = s.phase
        if phase is Phase.PICK_ROLE:
            return self.role_scores(s, seat, legal)
        ctx = ctx or Context(s)
        if phase is Phase.SURVEYOR:
            return surveyor_scores(s, seat, legal, ctx)
        if phase is Phase.MASON:
            return build_scores(s, seat, legal, ctx)
        if phase is Phase.CHANDLER:
            return sell_scores(s, seat, legal, ctx)
        if phase is Phase.BARGEMASTER:
            return load_scores(s, seat, legal)
        chosen = self.act(s, seat, legal, ctx)
        return [1.0 if a == chosen else 0.0 for a in legal]

    def role_scores(self, s: GameState, seat: int, legal: Sequence[Action]) -> list[float]:
        ctx = Context(s)
        n = s.n
        before = [mat_value(p, ctx) for p in s.players]
        seals_before = [p.seals for p in s.players]
        out: list[float] = []
        for a in legal:
            assert isinstance(a, PickRole)
            t = s.clone()
            engine.apply(t, seat, a)
            self.finish_phase(t, ctx)
            gains = []
            for i in range(n):
                p = t.players[i]
                # a mat the phase left as it was is worth what it was (seals aside)
                mat = 0.0 if _same_mat(p, s.players[i]) else mat_value(p, ctx) - before[i]
                gains.append(mat + (p.seals - seals_before[i]) * seal_worth(p))
            others = [gains[i] for i in range(n) if i != seat]
            opp = others[0] if n == 2 else 0.5 * max(others) + 0.5 * sum(others) / len(others)
            score = gains[seat] - self.opponent_weight * opp
            if a.role == Role.REEVE:
                score += 0.05  # keeps the game moving when nothing else matters
            out.append(score)
        return out

    def finish_phase(self, t: GameState, ctx: Context | None = None) -> None:
        """Play the current role to its end with this policy for every seat (no take-backs:
        the target arrangement is reached by placements in a simulation). Nobody draws
        from the stack (its order is hidden), so the outcome is a function of the view."""
        inner = HeuristicPolicy(takebacks=False)
        guard = 0
        while t.phase is not Phase.PICK_ROLE and t.phase is not Phase.GAME_OVER:
            seat = engine.deciding(t)[0]
            legal = engine.legal_actions(t, seat)
            if DRAW_PLOT in legal:
                # the stack's top is hidden: play the phase as if nobody drew from it
                legal = [x for x in legal if x != DRAW_PLOT]
            engine.apply(t, seat, inner.act(t, seat, legal, ctx))
            guard += 1
            if guard > 500:
                raise RuntimeError("a phase did not end")


def _same_mat(p: PlayerState, q: PlayerState) -> bool:
    """Whether the two mats are valued alike: all but the seals equal."""
    return (p.coins == q.coins and p.lodge == q.lodge and p.goods == q.goods
            and p.staff == q.staff and p.worked == q.worked and p.plots == q.plots
            and p.street == q.street)


class HeuristicBot:
    """The "normal" bot: ``choose(view)`` gives the heuristic's action (None when the view
    asks nothing of the seat)."""

    name = "normal"

    def __init__(self, *, takebacks: bool = True) -> None:
        self.policy = HeuristicPolicy(takebacks=takebacks)

    def choose(self, view: SeatView) -> Action | None:
        if view.seat is None or not view.legal:
            return None
        if len(view.legal) == 1 and not (view.takebacks and self.policy.takebacks):
            return view.legal[0]
        s = state_from_view(view, None)
        action = self.policy.act(s, view.seat, view.legal)
        if action not in view.legal and action not in view.takebacks:
            return view.legal[0]
        return action

    def scores(self, view: SeatView) -> list[float]:
        """The heuristic's score of each action in ``view.legal``."""
        assert view.seat is not None
        s = state_from_view(view, None)
        return self.policy.scores(s, view.seat, view.legal)


__all__ = ["HeuristicBot", "HeuristicPolicy"]
