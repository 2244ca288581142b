"""A seat's worker: its decision timer and, where a bot plays the seat, the bot.

Each seat has a nursery of its own, opened when the seat first needs it (its first
decision, or its bot's first move). The table tells the worker when a new decision starts
(``start_timer``) or when the bot should move (``start_bot``), and the worker reports back
through the table's inbox (``TimedOut``, ``BotMove``).

The timer is one task for the seat's whole game, started with its first decision (a table
in its lobby has none), asleep in a cancel scope whose deadline is the running decision's:
a new decision moves the deadline, ``stop`` moves it to never. (A task per decision,
started and cancelled each time, was several per cent of the server's work under load.)
A timeout that has fired is reported with its decision's number; the table ignores one
whose decision has since ended. A bot's move is a task of its own, one at a time,
cancelling the previous one.
"""

from __future__ import annotations

import math
import time
from collections.abc import Awaitable, Callable

import trio

from quaymoor.actors.inbox import BotMove, Inbox, TimedOut
from quaymoor.protocol.messages import Clock
from quaymoor.rules.actions import Action
from quaymoor.rules.views import SeatView

Chooser = Callable[[SeatView], Awaitable[Action | None]]


class SeatWorker:
    """Runs one seat's timer or bot, one task at a time."""

    def __init__(
        self,
        seat: int,
        inbox: Inbox,
        *,
        on_bot_decided: Callable[[float], None] | None = None,
    ) -> None:
        self.seat = seat
        self._on_bot_decided = on_bot_decided
        self._inbox = inbox
        self._nursery: trio.Nursery | None = None  #: the worker's own, while it runs
        self._parent: trio.Nursery | None = None  #: where it starts itself (``attach``)
        self._launched = False  #: ``run`` has been started (it may not be running yet)
        self._closed = False  #: ``run`` has ended: the worker takes nothing more
        self._scope: trio.CancelScope | None = None  #: the bot move's
        #: a bot move asked for before the worker's nursery opened
        self._pending_bot: tuple[trio.CancelScope, SeatView, Chooser, float] | None = None
        self._clock: trio.CancelScope | None = None  #: the timer's sleep, while it sleeps
        self._decision: int | None = None  #: the decision the timer runs for
        self._timing = False  #: the timer task has been started
        self.deadline: float | None = None  #: trio time the running timer ends

    def attach(self, parent: trio.Nursery) -> None:
        """Start in ``parent`` (the table's nursery) when first needed, not before: a
        table in its lobby runs no task for its seats."""
        self._parent = parent

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        self._launched = True
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            if self.deadline is not None:  # asked for while the worker was starting
                self._start_timer_task()
            if self._pending_bot is not None:
                nursery.start_soon(self._bot, *self._pending_bot)
                self._pending_bot = None
            task_status.started()
            try:
                await trio.sleep_forever()
            finally:  # cancelled: the nursery takes no new task from here on
                self._nursery = None
                self._closed = True
                self.stop()

    def _ready(self) -> bool:
        """Whether the worker can take a task, now or once its nursery opens (starting
        it in the table's nursery if it has not started yet)."""
        if self._closed:
            return False  # the worker has stopped (the table is being cancelled)
        if self._launched:
            return True
        if self._parent is None:
            return False
        try:
            self._parent.start_soon(self.run)
        except RuntimeError:  # the table's nursery is closed: the table is ending
            return False
        self._launched = True
        return True

    def release(self) -> None:
        """Let go of the table's nursery and of trio's scopes, once the table has ended:
        the references that would make the ended table a cycle, kept until a full
        collection (the server runs few: ops/gc_policy.py)."""
        self.stop()
        self._parent = self._nursery = self._clock = None

    def stop(self) -> None:
        """Stop the running timer and cancel the bot's move, if any."""
        if self._scope is not None:
            self._scope.cancel()
            self._scope = None
        self._pending_bot = None
        self._decision = None
        self.deadline = None
        if self._clock is not None:
            self._clock.deadline = math.inf

    def hold(self) -> float | None:
        """Stop the running timer where it is, keeping its decision (``actors.pause``),
        and cancel the bot's move; returns the seconds the timer had left (None: none
        was running). ``carry_on`` restarts it."""
        if self._scope is not None:
            self._scope.cancel()
            self._scope = None
        self._pending_bot = None
        if self.deadline is None:
            return None
        left = max(0.0, self.deadline - trio.current_time())
        self.deadline = None
        if self._clock is not None:
            self._clock.deadline = math.inf
        return left

    def carry_on(self, seconds: float) -> None:
        """Restart the timer ``hold`` stopped, with the ``seconds`` it had left (nothing
        when its decision has ended meanwhile)."""
        if self._decision is None or self._closed:
            return
        self.deadline = trio.current_time() + seconds
        if self._clock is not None:
            self._clock.deadline = self.deadline
        else:
            self._start_timer_task()

    def start_timer(self, decision: int, seconds: float) -> None:
        self.stop()
        if not self._ready():
            return
        self._decision = decision
        self.deadline = trio.current_time() + seconds
        if self._clock is not None:
            self._clock.deadline = self.deadline
        elif self._nursery is not None:
            self._start_timer_task()

    def _start_timer_task(self) -> None:
        if not self._timing and self._nursery is not None:
            self._timing = True  # the first decision: the timer starts
            self._nursery.start_soon(self._timer)

    def start_bot(self, view: SeatView, choose: Chooser, delay: float) -> None:
        self.stop()
        if not self._ready():
            return
        scope = trio.CancelScope()
        self._scope = scope
        if self._nursery is None:
            self._pending_bot = (scope, view, choose, delay)
        else:
            self._nursery.start_soon(self._bot, scope, view, choose, delay)

    async def _timer(self) -> None:
        """Forever: sleep until the running decision's deadline, then report it."""
        while True:
            with trio.move_on_at(math.inf if self.deadline is None else self.deadline) as clock:
                self._clock = clock
                await trio.sleep_forever()
            self._clock = None
            decision, deadline = self._decision, self.deadline
            if decision is None or deadline is None or trio.current_time() < deadline:
                continue  # stopped, or moved on to a later deadline meanwhile
            # The timeout is reported once; until a new decision the timer sleeps (an
            # expired deadline kept here would wake it again at once, and again).
            self._decision = None
            self.deadline = None
            await self._inbox.send(TimedOut(self.seat, decision))

    async def _bot(
        self, scope: trio.CancelScope, view: SeatView, choose: Chooser, delay: float
    ) -> None:
        with scope:
            if delay > 0:
                await trio.sleep(delay)
            started = time.perf_counter()
            action = await choose(view)
            if self._on_bot_decided is not None:
                self._on_bot_decided(time.perf_counter() - started)
            if action is not None:
                await self._inbox.send(BotMove(self.seat, action, view.version))


def clocks(workers: list[SeatWorker]) -> list[Clock]:
    """The running timers now, in seconds left rounded to 0.1."""
    now = trio.current_time()
    return [Clock(w.seat, round(max(0.0, w.deadline - now), 1))
            for w in workers if w.deadline is not None]
