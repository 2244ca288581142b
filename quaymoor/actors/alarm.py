"""An alarm: one task in the table's nursery that puts a message in the table's inbox at a
deadline, for the table's own timers (the host's 30 s away, the watchers' 2 s between
broadcasts). The design is the seat worker's timer (``seat``): the task is started when
the alarm is first set, not before, and sleeps for the table's whole life in a cancel
scope whose deadline is the alarm's; ``set`` moves that deadline, ``cancel`` moves it to
never. A deadline that has passed is reported once, then the task sleeps again.

The message goes through the inbox like every other report, so the table handles it in
order with everything else; it may come after the alarm was cancelled or moved (it was
already on its way), and the table checks its own state when it arrives.
"""

from __future__ import annotations

import math

import trio

from quaymoor.actors.inbox import Inbox, InboxMessage


class Alarm:
    """Puts ``message`` in ``inbox`` at the deadline last ``set``."""

    def __init__(self, inbox: Inbox, message: InboxMessage) -> None:
        self._inbox = inbox
        self._message = message
        self._parent: trio.Nursery | None = None
        self._scope: trio.CancelScope | None = None  #: the task's sleep, while it sleeps
        self._started = False
        self.deadline: float | None = None  #: trio time the alarm goes off

    def attach(self, parent: trio.Nursery) -> None:
        """Start in ``parent`` (the table's nursery) when first set (now, if it was set
        before the table ran)."""
        self._parent = parent
        if self.deadline is not None:
            self.set(self.deadline)

    def release(self) -> None:
        """Let go of the nursery and the scope once the table has ended (no cycle)."""
        self.cancel()
        self._parent = self._scope = None

    def set(self, deadline: float) -> None:
        """Go off at ``deadline`` (trio time), instead of any earlier setting."""
        self.deadline = deadline
        if self._scope is not None:
            self._scope.deadline = deadline
        elif not self._started and self._parent is not None:
            try:
                self._parent.start_soon(self._run)
            except RuntimeError:  # the table's nursery is closed: the table is ending
                return
            self._started = True

    def cancel(self) -> None:
        self.deadline = None
        if self._scope is not None:
            self._scope.deadline = math.inf

    async def _run(self) -> None:
        while True:
            with trio.move_on_at(math.inf if self.deadline is None else self.deadline) as scope:
                self._scope = scope
                await trio.sleep_forever()
            self._scope = None
            if self.deadline is None or trio.current_time() < self.deadline:
                continue  # cancelled, or moved on to a later deadline meanwhile
            self.deadline = None
            await self._inbox.send(self._message)
