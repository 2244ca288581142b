"""Bots that take empty chairs. Every bot decides from its seat's view alone.

Levels (``make_bot``): ``random`` (uniform legal actions), ``easy`` (the heuristic with
noise), ``normal`` (the heuristic, milliseconds a decision), ``hard`` and ``expert`` (the
tree search of ``ismcts``, ``tree_bot.ITERATIONS`` iterations a decision, within a time
cap; expert searches four times as many).
Each bot is an object with ``choose(view) -> Action | None``; ``bot_factory(level)`` gives
the zero-argument factory of a bot's ``choose`` that ``Table(..., bot_factory=...)`` takes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from quaymoor.bots.easy import EasyBot
from quaymoor.bots.heuristic import HeuristicBot
from quaymoor.bots.random_bot import RandomBot
from quaymoor.bots.tree_bot import TreeBot
from quaymoor.rules.actions import Action
from quaymoor.rules.views import SeatView

LEVELS = ("random", "easy", "normal", "hard", "expert")
#: The levels offered in the lobby; "random" is for tests and benchmarks.
LOBBY_LEVELS = ("easy", "normal", "hard", "expert")


class Bot(Protocol):
    name: str

    def choose(self, view: SeatView) -> Action | None: ...


def make_bot(level: str, seed: int | None = None, *, budget: float | None = None,
             iterations: int | None = None, takebacks: bool = True) -> Bot:
    """A bot of ``level``. ``seed`` fixes its own random choices (None: a fresh one);
    ``iterations`` is a tree bot's iteration budget per decision (None: its level's,
    ``tree_bot.ITERATIONS``) and ``budget`` its time cap in seconds (None: its level's,
    ``tree_bot.CAP_SECONDS``).
    ``takebacks=False`` keeps a bot from ever taking an apprentice back (for a caller that
    accepts only ``view.legal``; the tree bots never do)."""
    if level == "random":
        return RandomBot(seed)
    if level == "easy":
        return EasyBot(seed, takebacks=takebacks)
    if level == "normal":
        return HeuristicBot(takebacks=takebacks)
    if level in ("hard", "expert"):
        return TreeBot(level, seed, budget=budget, iterations=iterations)
    raise ValueError(f"unknown bot level {level!r} (choose from {', '.join(LEVELS)})")


def bot_factory(level: str, *, budget: float | None = None, iterations: int | None = None,
                takebacks: bool = False) -> Callable[[], Callable[[SeatView], Action | None]]:
    """A zero-argument factory of ``choose`` callables, as ``Table(bot_factory=...)`` takes.
    Take-backs are off by default: the table applies a bot's move only when it is in the
    seat's legal list.

    ``choose`` runs synchronously: easy and normal take about a millisecond, but hard
    and expert search for up to a second, so a server must not call them on its event loop:
    ``quaymoor.actors.bot_pool`` runs ``tree_bot.decide_tree`` in worker processes (and
    with ``budget=0``, the heuristic, inline when the pool is busy)."""
    return lambda: make_bot(level, budget=budget, iterations=iterations,
                            takebacks=takebacks).choose


__all__ = ["LEVELS", "LOBBY_LEVELS", "Bot", "bot_factory", "make_bot"]
