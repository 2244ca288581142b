"""The search of the "hard" and "expert" bots: information-set Monte Carlo tree search.

One decision is ``iterations`` iterations (the bot's iteration budget; its time budget
is only a cap), each of them:

1. **A fresh determinization**: the hidden parts of the game (the other seats' seals, the
   order of the stack and the discard pile) sampled anew, consistently with the view
   (``determinize.state_from_view``), so that no iteration trusts one guess.
2. **Down the tree**: one tree for the whole decision, its nodes the searching seat's
   decisions in the phases worth choosing in (a role pick, the Surveyor's, Mason's,
   Miller's, Chandler's and Bargemaster's choices), and with ``opponents`` (the expert
   bot) every other seat's there too; each node's children the actions tried there. The
   other seats' decisions outside the tree are the heuristic's, as in a play-out.
   At a node, the candidates are those legal in this determinization (an action the
   sample does not allow is not available: each child counts how often it was, and
   UCB1 uses that count, as single-observer ISMCTS does), ranked by the heuristic's own
   scores and cut to the best ``width`` (all of them at the root, up to ``ROOT_WIDTH``).
   A node with a candidate not yet tried adds it and stops; else the child with the best
   upper bound for *the seat that chooses there* is taken (each seat plays for itself).
   With progressive widening (``widening`` w > 0: the analysis and the expert), a node
   below the root with k children tried adds another only once visited w * k**2 times, so
   that a shallow search follows the heuristic's best rather than averaging in every
   candidate's first tries.
   Steps that need no search (placing apprentices, keeping goods, a phase's forced
   moves) are played by the heuristic on the way, as in a play-out.
3. **A play-out**: every seat plays the heuristic, with ``NOISE_PER_MILLE`` of its
   choices at random among the legal ones (so that play-outs from one node differ), to
   the end of the round after the current one, or of the game.
4. **The leaf's worth** for every seat: at the game's end, its final score less the best
   other's, plus a win bonus; before it, the same margin on the heuristic's valuation of
   each mat (``valuation.mat_value``) with its seals. Each node on the path adds the
   worth for the seat that chose it.

The action played is the root's most visited child (ties: the higher mean). Its mean and
each other child's are the search's estimate of the final margin after each action, which
the post-game analysis reads (``RootStats``).

Everything random comes from a ``SplitMix64`` seeded by the bot's seed, the view's
version and its seat: the same view, seed and iteration budget give the same decision,
however fast the machine is, as long as the time cap is not reached.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from quaymoor.bots.determinize import state_from_view
from quaymoor.bots.heuristic import HeuristicPolicy
from quaymoor.bots.prng import SplitMix64
from quaymoor.bots.valuation import Context, mat_value, seal_worth
from quaymoor.rules import engine
from quaymoor.rules.actions import Action
from quaymoor.rules.scoring import scores, winners
from quaymoor.rules.state import GameState, Phase
from quaymoor.rules.views import SeatView

#: Phases whose decisions are nodes of the tree; elsewhere the heuristic decides.
TREE_PHASES = frozenset({
    Phase.PICK_ROLE, Phase.SURVEYOR, Phase.MASON, Phase.MILLER, Phase.CHANDLER, Phase.BARGEMASTER,
})
#: Most candidates at the root and below it (the heuristic's best).
ROOT_WIDTH = 8
WIDTH = 4
#: What a won game adds to the final margin.
WIN_BONUS = 10.0
#: Points a margin is divided by before UCB1 (margins of a few points matter).
SCALE = 10.0
#: UCB1's exploration constant, on scaled margins.
EXPLORATION = 0.7
#: Whole rounds after the current one a play-out plays.
HORIZON_ROUNDS = 1
#: Share of a play-out's searched choices made at random, in 1/1000.
NOISE_PER_MILLE = 100


class Node:
    """One decision tried in the tree: the action, the seat that chose it, how often it was
    visited and available, and the worth it gathered for that seat."""

    def __init__(self, action: Action | None, seat: int) -> None:
        self.action = action
        self.seat = seat
        self.children: dict[Action, Node] = {}
        #: the candidates below it, best first (``Search._candidates``), once reached
        self.ranked: list[Action] | None = None
        self.visits = 0
        self.available = 0
        self.worth = 0.0

    def mean(self) -> float:
        return self.worth / self.visits if self.visits else 0.0


class RootStats:
    """What a search found at its root: per candidate action, its visits and its mean
    margin for the searching seat (points, the final margin's estimate)."""

    def __init__(self, actions: list[Action], visits: list[int], means: list[float],
                 iterations: int, chosen: int | None = None) -> None:
        self.actions = actions
        self.visits = visits
        self.means = means
        self.iterations = iterations
        #: the index the search settled on (sequential halving's last candidate standing)
        self.chosen = chosen

    def best(self) -> int:
        """The index of the action played: the one the search settled on, else the best
        mean among the actions visited at least half as often as the most visited (a lucky
        few visits do not count)."""
        if self.chosen is not None:
            return self.chosen
        most = max(self.visits) if self.visits else 0
        best = -1
        for i in range(len(self.actions)):
            if self.visits[i] * 2 < most or self.visits[i] == 0:
                continue
            if best < 0 or self.means[i] > self.means[best] + 1e-9:
                best = i
        return max(best, 0)


class Search:
    """The tree search of one decision; see the module's docstring."""

    def __init__(self, view: SeatView, rng: SplitMix64, *, iterations: int,
                 deadline: float, clock: Callable[[], float], opponents: bool = False,
                 noise: int = 0, halving: bool = True, keep: Action | None = None,
                 widening: int = 0) -> None:
        assert view.seat is not None
        self.view = view
        self.me = view.seat
        self.rng = rng
        self.iterations = iterations
        self.deadline = deadline
        self.clock = clock
        self.policy = HeuristicPolicy(takebacks=False)
        self.opponents = opponents
        self.noise = noise
        self.halving = halving
        #: progressive widening below the root (0: off): a node with k children tried adds
        #: another only once visited ``widening * k**2`` times, so that its first visits
        #: follow the heuristic's best rather than averaging in every candidate's tries
        self.widening = widening
        #: an action searched to the end whatever it scores (the post-game analysis's
        #: chosen move, so that it is compared with the best on the same samples)
        self.keep = keep
        self.root = Node(None, -1)
        self.done = 0
        self.root_actions: list[Action] = []

    def run(self) -> RootStats:
        """Iterate until the budget or the deadline; the root's statistics."""
        self.root_actions = self._root_candidates()
        chosen: int | None = None
        if self.halving:
            chosen = self._halving()
        else:
            while self.done < self.iterations and self.clock() < self.deadline:
                self._iterate(state_from_view(self.view, self.rng), None)
                self.done += 1
        visits = []
        means = []
        for a in self.root_actions:
            child = self.root.children.get(a)
            visits.append(0 if child is None else child.visits)
            means.append(0.0 if child is None else child.mean() * SCALE)
        return RootStats(self.root_actions, visits, means, self.done,
                         chosen if self.done else None)

    def _root_candidates(self) -> list[Action]:
        legal = list(self.view.legal)
        if len(legal) <= ROOT_WIDTH:
            return legal
        s = state_from_view(self.view, None)
        best = _best(legal, self.policy.scores(s, self.me, legal), ROOT_WIDTH)
        if self.keep is not None and self.keep in legal and self.keep not in best:
            best[-1] = self.keep
        return best

    def _halving(self) -> int:
        """Sequential halving at the root: in each round every candidate still in is
        searched from the same fresh determinizations (common random numbers: the hidden
        seals and plots weigh on every candidate alike), then the worse half (by mean
        worth) is dropped, so that most iterations go to the candidates that matter. The
        ``keep`` action is never dropped."""
        kept = (self.root_actions.index(self.keep)
                if self.keep is not None and self.keep in self.root_actions else -1)
        remaining = list(range(len(self.root_actions)))
        rounds = max(1, math.ceil(math.log2(len(remaining)))) if len(remaining) > 1 else 1
        sums = [0.0] * len(self.root_actions)
        left = self.iterations
        for r in range(rounds):
            share = left // ((rounds - r) * len(remaining))
            batches = max(1, share)
            for _ in range(batches):
                if self.done + len(remaining) > self.iterations or self.clock() >= self.deadline:
                    return min(remaining, key=lambda i: (-sums[i], i))
                sample = self.rng.next()
                for i in remaining:
                    s = state_from_view(self.view, SplitMix64(sample))
                    sums[i] += self._iterate(s, self.root_actions[i])
                    self.done += 1
                    left -= 1
            ranked = sorted(remaining, key=lambda i: (-sums[i], i))
            remaining = ranked[:max(1, (len(remaining) + 1) // 2)]
            if kept >= 0 and kept not in remaining:
                remaining.append(kept)
        return min(remaining, key=lambda i: (-sums[i], i))

    def _iterate(self, s: GameState, first: Action | None) -> float:
        """One iteration on the determinization ``s``, from the root's child for ``first``
        when given (else chosen by UCB1); the searching seat's worth at its leaf."""
        stop_round = s.round + HORIZON_ROUNDS
        node = self.root
        path: list[Node] = []
        at_root = True
        expanded = False
        while s.phase is not Phase.GAME_OVER and s.round <= stop_round and not expanded:
            # at the root, the searching seat decides (in a phase where all decide at
            # once, it is not always the first of them)
            seat = self.me if at_root else engine.deciding(s)[0]
            if not at_root and (s.phase not in TREE_PHASES
                                or (not self.opponents and seat != self.me)):
                engine.apply(s, seat, self.policy.act(s, seat))
                continue
            if at_root:
                legal = engine.legal_actions(s, seat)
                candidates = [a for a in self.root_actions if a in legal] or list(legal)
                at_root = False
            else:
                candidates = self._candidates(node, s, seat)
            if len(candidates) == 1 and node is not self.root:
                engine.apply(s, seat, candidates[0])
                continue
            child: Node | None = None
            if first is not None and node is self.root:
                child = node.children.get(first)
                if child is None:
                    child = node.children[first] = Node(first, seat)
                    expanded = True
                candidates = [first]
            if (child is None and node is not self.root and self.widening
                    and node.visits < self.widening * len(node.children) ** 2):
                # progressive widening: no new candidate yet (unless none tried is legal)
                candidates = [a for a in candidates if a in node.children] or candidates
            for a in candidates:
                if child is not None:
                    break
                known = node.children.get(a)
                if known is None:
                    child = node.children[a] = Node(a, seat)
                    expanded = True
            if child is None:
                child = self._select(node, candidates)
            for a in candidates:
                known = node.children.get(a)
                if known is not None:
                    known.available += 1
            assert child.action is not None
            engine.apply(s, seat, child.action)
            path.append(child)
            node = child
        worth = self._play_out(s, stop_round)
        for n in path:
            n.visits += 1
            n.worth += worth[n.seat] / SCALE
        return worth[self.me]

    def _candidates(self, node: Node, s: GameState, seat: int) -> list[Action]:
        """The actions tried at ``node``: the heuristic's best ``WIDTH`` of those legal
        the first time the node is reached (kept), then those of them legal now."""
        legal = engine.legal_actions(s, seat)
        if node.ranked is None:
            if len(legal) <= WIDTH:
                node.ranked = list(legal)
            else:
                node.ranked = _best(legal, self.policy.scores(s, seat, legal), WIDTH)
        return [a for a in node.ranked if a in legal] or list(legal[:1])

    def _select(self, node: Node, candidates: list[Action]) -> Node:
        best: Node | None = None
        best_bound = -math.inf
        for a in candidates:
            child = node.children[a]
            bound = child.mean() + EXPLORATION * math.sqrt(
                math.log(child.available + 1) / child.visits)
            if bound > best_bound:
                best, best_bound = child, bound
        assert best is not None
        return best

    def _play_out(self, s: GameState, stop_round: int) -> list[float]:
        rng = self.rng
        policy = self.policy
        guard = 0
        while s.phase is not Phase.GAME_OVER and s.round <= stop_round:
            seat = engine.deciding(s)[0]
            legal = engine.legal_actions(s, seat)
            if (self.noise and len(legal) > 1 and s.phase in TREE_PHASES
                    and rng.below(1000) < self.noise):
                action = legal[rng.below(len(legal))]
            else:
                action = policy.act(s, seat, legal)
            engine.apply(s, seat, action)
            guard += 1
            if guard > 5000:
                raise RuntimeError("a play-out did not end")
        return margins(s)


def _best(legal: Sequence[Action], scores_: list[float], width: int) -> list[Action]:
    """The ``width`` actions of ``legal`` the heuristic scores highest, best first (ties:
    the earlier in the legal list)."""
    order = sorted(range(len(legal)), key=lambda i: (-scores_[i], i))
    return [legal[i] for i in order[:width]]


def margins(t: GameState) -> list[float]:
    """Each seat's margin over the best other seat: final scores at the game's end (plus
    the win bonus, shared among the winners), else the heuristic's valuation of each mat
    with its seals."""
    n = t.n
    if t.phase is Phase.GAME_OVER:
        final = scores(t)
        totals = [float(x.total) for x in final]
        won = winners(final)
        bonus = WIN_BONUS / len(won) if won else 0.0
        out = []
        for i in range(n):
            best = max(totals[j] for j in range(n) if j != i)
            out.append(totals[i] - best + (bonus if i in won else 0.0))
        return out
    ctx = Context(t)
    values = [mat_value(p, ctx) + p.seals * seal_worth(p) for p in t.players]
    return [values[i] - max(values[j] for j in range(n) if j != i) for i in range(n)]


__all__ = ["Node", "RootStats", "Search", "margins"]
