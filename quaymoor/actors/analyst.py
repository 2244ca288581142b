"""Post-game analyses on the server: computed once, in worker processes, kept in the store.

``Analyst.ask(game_id, record)`` answers what the game page needs: the analysis when it is
done; else its progress, starting it first when no one has (``store.analyses``: a claim
row, so that in a cluster one process computes it and the others read its progress; a
claim left stale by a killed process is taken over). A job scores each decision with
``bots.analysis.score`` in the bot pool's worker processes (trio-parallel), one decision
at a time and at most ``WORKERS`` at once in a process, never on the event loop, so live
tables' bots keep the other cores; its progress is written every ``PROGRESS_SECONDS``.
Past ``QUEUE`` jobs waiting in a process, a new one is refused (``Busy``) until one ends.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import time
from typing import Any, Final

import attrs
import trio
import trio_parallel

from quaymoor.bots.analysis import (
    ACCURATE,
    ITERATIONS,
    MISTAKE,
    Scored,
    analysed_seats,
    decision_points,
    score,
    summarise,
)
from quaymoor.protocol.codec import unstructure_with
from quaymoor.rules.actions import Action
from quaymoor.rules.errors import RulesError
from quaymoor.rules.explain import action_words, advice
from quaymoor.rules.record import GameRecord
from quaymoor.store.analyses import STALE_SECONDS, AnalysisStore

log = logging.getLogger("quaymoor.actors.analyst")

#: Decisions scored at once in one process (one core: the rest is for the tables' bots).
WORKERS: Final = 1
#: Jobs a process runs or waits on at once; more are refused until one ends.
QUEUE: Final = 8
#: Seconds between progress writes.
PROGRESS_SECONDS: Final = 1.0


class Busy(Exception):
    """Too many analyses are waiting in this process."""


@attrs.frozen
class Answer:
    status: str  #: "done", "running" or "failed"
    done: int
    total: int
    body: dict[str, Any] | None  #: the analysis (done) or {"message"} (failed)


class Analyst:
    """One per process: the analyses it computes, over ``store``."""

    def __init__(self, store: AnalysisStore, *, iterations: int = ITERATIONS,
                 workers: int = WORKERS) -> None:
        self.store = store
        self.iterations = iterations
        self.owner = f"{os.getpid()}-{secrets.token_hex(4)}"
        self.limiter = trio.CapacityLimiter(workers)
        self.jobs: set[str] = set()
        self.completed = 0

    async def ask(self, game_id: str, record: GameRecord, nursery: trio.Nursery) -> Answer:
        """The analysis of ``game_id``, its progress, or its start (in ``nursery``)."""
        row = await trio.to_thread.run_sync(self.store.analysis, game_id)
        if row is not None and row.status != "running":
            body = json.loads(row.body or "{}")
            return Answer(row.status, row.total, row.total, body)
        if row is not None and (row.owner == self.owner or game_id in self.jobs
                                or row.updated_at >= time.time() - STALE_SECONDS):
            return Answer("running", row.done, row.total, None)
        if len(self.jobs) >= QUEUE:
            raise Busy(f"{len(self.jobs)} analyses are waiting here; ask again soon")
        try:
            points = await trio.to_thread.run_sync(decision_points, record)
        except RulesError as exc:
            return Answer("failed", 0, 0, {"message": f"the record does not replay: {exc}"})
        claimed = await trio.to_thread.run_sync(
            self.store.claim_analysis, game_id, len(points), self.owner, time.time())
        if not claimed:  # another request (or process) got there first
            row = await trio.to_thread.run_sync(self.store.analysis, game_id)
            if row is None:
                return Answer("running", 0, len(points), None)
            return Answer(row.status, row.done, row.total,
                          None if row.body is None else json.loads(row.body))
        self.jobs.add(game_id)
        nursery.start_soon(self._job, game_id, record, points)
        return Answer("running", 0, len(points), None)

    async def _job(self, game_id: str, record: GameRecord, points: list[Any]) -> None:
        try:
            scored: list[Scored] = []
            written = time.monotonic()
            for point in points:
                async with self.limiter:
                    scored.append(await trio_parallel.run_sync(
                        score, point.view, point.chosen, record.seed, point.step,
                        self.iterations, cancellable=True))
                if time.monotonic() - written >= PROGRESS_SECONDS:
                    written = time.monotonic()
                    await trio.to_thread.run_sync(self.store.analysis_progress, game_id,
                                                  self.owner, len(scored), time.time())
            body = json.dumps(analysis_json(game_id, record, scored, self.iterations))
            await trio.to_thread.run_sync(self.store.finish_analysis, game_id, self.owner,
                                          "done", body, time.time())
            self.completed += 1
        except Exception:
            # a store that fails: the claim goes stale and the next request starts over
            log.exception("analysis of game %s failed", game_id)
        finally:
            self.jobs.discard(game_id)


def _action(action: Action) -> dict[str, Any]:
    out: dict[str, Any] = unstructure_with(action, Action)
    return out


def analysis_json(game_id: str, record: GameRecord, scored: list[Scored],
                  iterations: int) -> dict[str, Any]:
    """The analysis as served (docs/protocol.md, "The analysis")."""
    players = []
    for player in summarise(scored, analysed_seats(record)):
        players.append({
            "seat": player.seat,
            "name": record.seats[player.seat].name,
            "decisions": player.decisions,
            "points_lost": round(player.points_lost, 2),
            "per_decision": round(player.per_decision, 3),
            "accuracy": round(player.accuracy, 1),
            "mistakes": [{
                "step": m.step,
                "loss": round(m.loss, 2),
                "chosen": _action(m.chosen),
                "better": _action(m.best),
                "chosen_words": action_words(m.chosen),
                "better_words": action_words(m.best),
                "why": advice(m.best, m.chosen, m.loss),
            } for m in player.mistakes],
        })
    return {
        "id": game_id,
        "iterations": iterations,
        "accurate_below": ACCURATE,
        "mistake_from": MISTAKE,
        "players": players,
        "decisions": [{
            "step": s.step,
            "seat": s.seat,
            "chosen": _action(s.chosen),
            "best": _action(s.best),
            "chosen_value": round(s.chosen_value, 2),
            "best_value": round(s.best_value, 2),
            "loss": round(s.loss, 2),
        } for s in scored],
    }


__all__ = ["QUEUE", "WORKERS", "Analyst", "Answer", "Busy", "analysis_json"]
