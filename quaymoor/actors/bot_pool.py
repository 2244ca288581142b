"""Where the table's bots think, without ever blocking a table or the event loop.

Easy and normal bots decide in about a millisecond and run inline. The hard and expert
bots search their level's iterations a decision (``tree_bot.ITERATIONS``; ``iterations``
sets both), capped by a time budget (``budget``, else each level's
``tree_bot.CAP_SECONDS``: hard 1 s, expert 3 s), in worker processes (trio-parallel,
``tree_bot.decide_tree``); at most one search per core at a time. When every worker is
busy, a searching bot decides with the heuristic inline instead (``decide_tree(view, 0,
seed)``, milliseconds), so that under load a table never waits for a search;
``fallbacks`` counts those.

A chooser is a coroutine function ``choose(view) -> Action | None``: the seat worker awaits
it in its own nursery, and cancelling the worker (the decision moved on) abandons it.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Awaitable, Callable

import trio
import trio_parallel

from quaymoor.bots import LEVELS, make_bot
from quaymoor.bots.tree_bot import decide_tree, hint
from quaymoor.rules.actions import Action
from quaymoor.rules.views import SeatView

AsyncChooser = Callable[[SeatView], Awaitable[Action | None]]


class BotPool:
    """One per server: the bots' shared worker processes and counters."""

    def __init__(self, *, budget: float | None = None, iterations: int | None = None,
                 workers: int | None = None) -> None:
        self.budget = budget
        self.iterations = iterations
        self.limiter = trio.CapacityLimiter(workers or os.cpu_count() or 1)
        self.searches = 0
        self.fallbacks = 0

    def chooser(self, level: str) -> AsyncChooser:
        """A new bot of ``level`` for one seat."""
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r}")
        if level in ("hard", "expert"):
            return self._searching(level, secrets.randbits(64))
        bot = make_bot(level, takebacks=True)

        async def choose(view: SeatView) -> Action | None:
            return bot.choose(view)

        return choose

    def _searching(self, level: str, seed: int) -> AsyncChooser:
        async def choose(view: SeatView) -> Action | None:
            own = seed ^ view.version
            try:
                self.limiter.acquire_nowait()
            except trio.WouldBlock:
                self.fallbacks += 1
                return decide_tree(view, 0.0, own, level)
            try:
                self.searches += 1
                action: Action | None = await trio_parallel.run_sync(
                    decide_tree, view, self.budget, own, level, self.iterations,
                    cancellable=True)
                return action
            finally:
                self.limiter.release()

        return choose


    async def hint(self, view: SeatView) -> tuple[Action, str, str]:
        """What the hard bot would do at ``view``, in words, and why (``tree_bot.hint``): in
        a worker process, or the heuristic's move at once when every worker is busy."""
        seed = secrets.randbits(64)
        try:
            self.limiter.acquire_nowait()
        except trio.WouldBlock:
            self.fallbacks += 1
            return hint(view, 0.0, seed)
        try:
            self.searches += 1
            answer: tuple[Action, str, str] = await trio_parallel.run_sync(
                hint, view, self.budget, seed, cancellable=True)
            return answer
        finally:
            self.limiter.release()
