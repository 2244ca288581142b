"""A table's pause: nothing is played while its process cannot renew its lease.

In a cluster a process that cannot reach the database for a while (``cluster.lease``)
may be taken for dead by the others once its lease has run out; before that it pauses its
tables, so that no game moves on that a survivor might end in its place. While paused:

- every seat's decision timer is stopped where it was (``SeatWorker.hold``: the seconds
  it had left are kept) and every bot's move is cancelled;
- an ``act`` or ``vote_bot`` is refused with ``table_paused``; a game does not start;
  a bot's move that was on its way is dropped, a timeout that had fired is kept and
  fires again on resuming (its decision has no timer left);
- everyone attached is told (``table_paused``, with the reason and the clocks left), and
  so is a connection that attaches meanwhile, after its catch-up.

``resume`` restarts each timer with the time it had left, asks each bot-played seat's
bot again and tells everyone (``table_resumed``). Chat,
resyncs and the like go on meanwhile: they change no game.

The table owns its ``TablePause`` and calls it on its own task (the process's lease
watch calls ``Table.pause`` and ``Table.resume``, synchronous methods, from another
task of the same trio run: nothing interleaves with them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from quaymoor.actors.inbox import ActFrom, BotMove, InboxMessage, Start, TimedOut, VoteFrom
from quaymoor.protocol.messages import Clock, TablePaused, TableResumed

if TYPE_CHECKING:
    from quaymoor.actors.lobby import Seats
    from quaymoor.actors.turns import Turns
    from quaymoor.rules.game import Game

#: What a paused table's players are told, in words.
WAITING_FOR_DATABASE = "waiting for its database"


class TablePause:
    """Whether one table is paused, and what its pause holds back."""

    def __init__(self, table_id: str, turns: Turns) -> None:
        self.table_id = table_id
        self._turns = turns
        self.reason: str | None = None  #: why it is paused; None: it is not
        self._held: dict[int, float] = {}  #: seat -> seconds its timer had left
        self._timeouts: list[TimedOut] = []  #: timeouts that fired just before the pause
        self.pauses = 0  #: times this table paused

    @property
    def paused(self) -> bool:
        return self.reason is not None

    def pause(self, reason: str) -> TablePaused | None:
        """Stop the timers and bots; the message for everyone (None: paused already)."""
        if self.reason is not None:
            return None
        self.reason = reason
        self.pauses += 1
        self.hold_running()
        return self.told()

    def hold_running(self) -> None:
        """Hold every timer running now and cancel every bot's move. The table calls it
        after each message it handles while paused: a player coming back may have had
        a fresh decision started meanwhile (``Turns.restart``)."""
        for worker in self._turns.workers:
            left = worker.hold()
            if left is not None:
                self._held[worker.seat] = left

    def told(self) -> TablePaused:
        """``table_paused`` as it stands (for a connection attaching meanwhile)."""
        assert self.reason is not None
        return TablePaused(self.table_id, self.reason, self._clocks())

    def resume(self, game: Game | None, seats: Seats) -> TableResumed:
        """Restart the held timers, the bots of bot-played seats still deciding and the
        timeouts kept (each fires again at once, through the inbox); the message for
        everyone."""
        self.reason = None
        held, self._held = self._held, {}
        for seat, left in held.items():
            self._turns.workers[seat].carry_on(left)
        if game is not None and not game.is_over():
            for seat in game.deciding():
                if seats[seat].bot_controlled:
                    self._turns.start_bot(game, seat)
        for timeout in self._timeouts:  # fired just before the pause: it fires again now
            self._turns.workers[timeout.seat].start_timer(timeout.decision, 0.0)
        self._timeouts = []
        return TableResumed(self.table_id, self._turns.clocks())

    def holds(self, msg: InboxMessage) -> bool:
        """Whether the pause keeps ``msg`` from the table: a timeout is kept for the
        resume, a bot's move dropped (its bot is asked again then); an action, a vote or
        a start is refused by the table (``refused``)."""
        if self.reason is None:
            return False
        if isinstance(msg, TimedOut):
            self._timeouts.append(msg)
            return True
        return isinstance(msg, BotMove)

    def refuses(self, msg: InboxMessage) -> bool:
        """Whether the table must refuse ``msg`` with ``table_paused`` now."""
        return self.reason is not None and isinstance(msg, ActFrom | VoteFrom | Start)

    @property
    def refusal(self) -> str:
        return f"the table is paused ({self.reason}): try again when it resumes"

    def _clocks(self) -> list[Clock]:
        return [Clock(seat, round(left, 1)) for seat, left in sorted(self._held.items())]
