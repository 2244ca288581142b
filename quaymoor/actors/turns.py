"""Whose decision runs, and who makes it: a table's seat workers and bots.

The table tells ``Turns`` after every change of the game (``sync``): a seat with a new
decision gets a fresh timer (``SeatWorker.start_timer``) or, when a bot plays it, a bot
move (``start_bot``); a seat whose decision ended has its worker stopped. A decision is
numbered per seat, so that a timeout reported for one that has since ended is ignored
(``is_current``). One timer spans a seat's whole part in a simultaneous phase.

When a timer runs out, ``timeout_moves`` plays the seat's safe move for the decision.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import trio

from quaymoor.actors.inbox import Inbox, TimedOut
from quaymoor.actors.lobby import Seats
from quaymoor.actors.seat import Chooser, SeatWorker, clocks
from quaymoor.bots.random_bot import RandomBot
from quaymoor.protocol.messages import Clock, WireEvent
from quaymoor.protocol.pace import PACE_SECONDS, Pace
from quaymoor.rules.actions import Action
from quaymoor.rules.game import Game
from quaymoor.rules.state import Phase
from quaymoor.rules.views import SeatView


def random_chooser() -> Chooser:
    """The default bot: a legal move at random (from the game's view, not ``random``)."""
    bot = RandomBot()

    async def choose(view: SeatView) -> Action | None:
        return bot.choose(view)

    return choose


class Turns:
    """The seats' workers (timer, bot move) and the bots that play for seats."""

    def __init__(
        self,
        players: int,
        inbox: Inbox,
        *,
        decision_seconds: float,
        pace: Pace,
        bot_delay: float | None = None,
        bot_factory: Callable[[], Chooser] | None = None,
        on_bot_decided: Callable[[float], None] | None = None,
    ) -> None:
        self.workers = [SeatWorker(i, inbox, on_bot_decided=on_bot_decided)
                        for i in range(players)]
        self.bots: dict[int, Chooser] = {}
        self.bot_factory = bot_factory or random_chooser
        self._decision_seconds = decision_seconds
        self.pace = pace  #: how long the bots wait before each move (``protocol.pace``)
        self._bot_delay = bot_delay  #: the server's override of the pace (tests, benches)
        self._deciding: set[int] = set()  #: the seats deciding at the last ``sync``
        self._decision = [0] * players  #: per seat, the number of its running decision
        self._phase: Phase | None = None  #: the phase at the last ``sync``
        self.timeouts = 0  #: decisions the timer played
        self.bot_moves = 0  #: moves bots made

    def attach(self, nursery: trio.Nursery) -> None:
        for worker in self.workers:
            worker.attach(nursery)

    def release(self) -> None:
        """After the table's end: no cycle through the workers' nurseries and the bots."""
        for worker in self.workers:
            worker.release()
        self.bots.clear()

    def stop_all(self) -> None:
        for worker in self.workers:
            worker.stop()

    def clocks(self) -> list[Clock]:
        return clocks(self.workers)

    def bot_for(self, seat: int) -> Chooser:
        """The bot that plays ``seat`` (made the first time it is needed)."""
        return self.bots.setdefault(seat, self.bot_factory())

    def is_current(self, msg: TimedOut, game: Game) -> bool:
        """The timeout is for the seat's decision running now (not one since ended)."""
        return self._decision[msg.seat] == msg.decision and msg.seat in game.deciding()

    def sync(self, game: Game, seats: Seats, acted: int | None) -> None:
        """Start timers for new decisions and bot moves for bot-played seats."""
        now = set(game.deciding())
        phase = game.phase
        # One timer spans a seat's whole part in a simultaneous phase; any other action of
        # the seat (including the one that brought the game into such a phase) starts a
        # fresh decision with a fresh timer.
        same_decision = game.is_simultaneous() and phase is self._phase
        self._phase = phase
        for i, seat in enumerate(seats):
            worker = self.workers[i]
            if i not in now:
                if i in self._deciding:
                    worker.stop()
                continue
            new = i not in self._deciding or (acted == i and not same_decision)
            if new:
                self._decision[i] += 1
            if seat.bot_controlled:
                if new or acted == i:
                    self.start_bot(game, i)
            elif new:
                worker.start_timer(self._decision[i], self._decision_seconds)
        self._deciding = now

    def restart(self, game: Game, seats: Seats, seat: int) -> None:
        """Who plays ``seat`` changed (a bot took it, or its player is back): its running
        decision, if any, starts afresh for the new hand."""
        self.workers[seat].stop()
        self._deciding.discard(seat)
        self.sync(game, seats, acted=None)

    def bot_delay(self) -> float:
        """Seconds a bot waits before its next move: the server's override
        (``TableConfig.bot_delay``) if it has one, else the pace's."""
        if self._bot_delay is not None:
            return self._bot_delay
        return PACE_SECONDS[self.pace]

    def start_bot(self, game: Game, seat: int) -> None:
        self.workers[seat].start_bot(game.view(seat), self.bot_for(seat), self.bot_delay())


def timeout_moves(game: Game, seat: int) -> tuple[list[Action], list[WireEvent]]:
    """Play ``seat``'s safe move for the decision that ran out: one action, or in a
    simultaneous phase the seat's whole part of that phase (once the phase has moved on,
    a decision of the seat is a new one with its own timer). Returns the actions played
    and the events they caused."""
    played: list[Action] = []
    caused: list[WireEvent] = []
    phase = game.phase
    simultaneous = game.is_simultaneous()
    while seat in game.deciding() and game.phase is phase:
        action = game.safe_action(seat)
        if action is None:
            break
        caused.extend(game.apply(seat, action, at=time.time()))
        played.append(action)
        if not simultaneous:
            break
    return played, caused
