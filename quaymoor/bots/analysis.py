"""Post-game analysis: a finished game's decisions scored by the tree search.

For each seat analysed (a record's people; bots are not analysed), every decision the
search searches (``ismcts.TREE_PHASES``: a role pick, the Surveyor's, Mason's, Miller's,
Chandler's and Bargemaster's choices) with more than one legal action is searched again
from the view that seat had then (``Game.view``: never what it could not see), with
``ITERATIONS`` iterations (the seat's later choices in the tree widened progressively,
``WIDENING``) and the chosen action kept to the end of the search, so that it and the best
are measured on the same determinizations. A decision's **loss** is the best
action's estimated final margin less the chosen one's, in points (0 when the chosen is the
best). Placing and taking back apprentices and keeping goods are not scored (the search
leaves them to the heuristic, so it has no opinion of its own on them).

A player's summary: decisions scored, points lost in all and per decision, **accuracy**
(the share of scored decisions that lost less than ``ACCURATE`` points, in per cent) and
their biggest mistakes (losses of at least ``MISTAKE`` points, the ``SHOWN`` largest), each
with the better move.

Everything random comes from the record's seed and the decision's step, so the same record
always gives the same analysis. ``score`` (one decision) is what a worker process runs.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from typing import Final

from quaymoor.bots.ismcts import TREE_PHASES, Search
from quaymoor.bots.prng import SplitMix64
from quaymoor.rules.actions import Action
from quaymoor.rules.game import Game
from quaymoor.rules.record import GameRecord
from quaymoor.rules.views import SeatView

#: Iterations a decision is searched with: a 4-player game's one person (about 40-60
#: decisions) analysed in under a minute of one core (``quaymoor analyse``), 1.5 times
#: the hard bot's budget.
ITERATIONS: Final = 150
#: Progressive widening below the root (``Search(widening=...)``): a later choice of the
#: seat in the tree tries a third and a fourth candidate only after 8 and 18 visits, so
#: that a move's value is not dragged down by tries of poor follow-ups while the search is
#: still shallow (with it, the best move agrees with a search of 10 times the iterations
#: more often: ``quaymoor analyse --check 10``).
WIDENING: Final = 2
#: A decision that lost less than this many points counts as accurate.
ACCURATE: Final = 1.0
#: A decision that lost at least this many points is a mistake.
MISTAKE: Final = 2.0
#: Mistakes listed per player (the largest).
SHOWN: Final = 3


class Point:
    """A decision to score: the step (actions applied before it), the seat, its view then
    and the action it took."""

    def __init__(self, step: int, seat: int, view: SeatView, chosen: Action) -> None:
        self.step = step
        self.seat = seat
        self.view = view
        self.chosen = chosen


class Scored:
    """One scored decision: the chosen and the best action with their estimated final
    margins (points), and the loss between them."""

    def __init__(self, step: int, seat: int, chosen: Action, best: Action, *,
                 chosen_value: float, best_value: float, candidates: int) -> None:
        self.step = step
        self.seat = seat
        self.chosen = chosen
        self.best = best
        self.chosen_value = chosen_value
        self.best_value = best_value
        self.candidates = candidates

    @property
    def loss(self) -> float:
        return max(0.0, self.best_value - self.chosen_value)


def analysed_seats(record: GameRecord) -> list[int]:
    """The seats an analysis scores: the people's (every seat when all were bots)."""
    people = [i for i, s in enumerate(record.seats) if not s.bot]
    return people or list(range(record.players))


def decision_points(record: GameRecord, seats: Sequence[int] | None = None) -> list[Point]:
    """The decisions of ``seats`` (default ``analysed_seats``) worth scoring, in order.
    Raises ``RulesError`` when the record does not replay."""
    wanted = set(analysed_seats(record) if seats is None else seats)
    game = Game.from_record(record, events=False)
    out: list[Point] = []
    for step, done in enumerate(record.actions):
        if done.seat in wanted:
            view = game.view(done.seat)
            if (view.board.phase in TREE_PHASES and len(view.legal) > 1
                    and done.action in view.legal):
                out.append(Point(step, done.seat, view, done.action))
        game.apply(done.seat, done.action, done.at)
    return out


def score(view: SeatView, chosen: Action, seed: str, step: int,
          iterations: int = ITERATIONS) -> Scored:
    """One decision searched with ``chosen`` kept to the end (picklable arguments: a worker
    process runs it)."""
    assert view.seat is not None
    digest = hashlib.sha256(f"quaymoor-analysis:{seed}:{step}".encode()).digest()
    search = Search(view, SplitMix64(int.from_bytes(digest[:8], "big")),
                    iterations=iterations, deadline=float("inf"), clock=time.process_time,
                    keep=chosen, widening=WIDENING)
    stats = search.run()
    best = stats.best()
    mine = stats.actions.index(chosen)
    if stats.means[mine] >= stats.means[best]:
        best = mine
    return Scored(step, view.seat, chosen, stats.actions[best],
                  chosen_value=stats.means[mine], best_value=stats.means[best],
                  candidates=len(stats.actions))


class PlayerSummary:
    """One analysed seat's figures."""

    def __init__(self, seat: int, scored: Sequence[Scored]) -> None:
        self.seat = seat
        self.decisions = len(scored)
        self.points_lost = sum(s.loss for s in scored)
        self.per_decision = self.points_lost / self.decisions if scored else 0.0
        accurate = sum(1 for s in scored if s.loss < ACCURATE)
        self.accuracy = 100.0 * accurate / self.decisions if scored else 100.0
        big = sorted((s for s in scored if s.loss >= MISTAKE), key=lambda s: (-s.loss, s.step))
        self.mistakes = big[:SHOWN]


def summarise(scored: Sequence[Scored], seats: Sequence[int]) -> list[PlayerSummary]:
    """Each analysed seat's summary, in seat order."""
    return [PlayerSummary(seat, [s for s in scored if s.seat == seat]) for seat in sorted(seats)]


__all__ = ["ACCURATE", "ITERATIONS", "MISTAKE", "SHOWN", "WIDENING", "PlayerSummary", "Point",
           "Scored", "analysed_seats", "decision_points", "score", "summarise"]
