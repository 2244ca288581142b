"""The table's host: the seat that opened it, who starts the game.

The host is the first to join, or at a rematch the player who asked for it. While the host
is not connected in the lobby (not yet, or not any more) an alarm runs; when it has been
away ``host_away_seconds`` (``HostAway``), anyone seated may start.
"""

from __future__ import annotations

import trio

from quaymoor.actors.alarm import Alarm
from quaymoor.actors.inbox import HostAway, Inbox, TableError
from quaymoor.actors.lobby import Seats
from quaymoor.actors.presence import Seat
from quaymoor.protocol.codes import Code


class Host:
    """Who the host is, and whether they have been away long enough to lose the start."""

    def __init__(self, inbox: Inbox, seat: int | None, away_seconds: float) -> None:
        self.seat = seat  #: None until someone joins
        self.away = False  #: the host has been away long enough: anyone may start
        self._away_seconds = away_seconds
        self._alarm = Alarm(inbox, HostAway())
        if seat is not None:
            self._left()

    def attach(self, nursery: trio.Nursery) -> None:
        self._alarm.attach(nursery)

    def release(self) -> None:
        self._alarm.release()

    def joined(self, seat: int) -> None:
        """A player joined the lobby: the first one is the host (not connected yet)."""
        if self.seat is None:
            self.seat = seat
            self._left()

    def gone(self, seat: int) -> None:
        """The last connection of ``seat`` left the lobby: if it is the host's, the
        alarm runs."""
        if seat == self.seat:
            self._left()

    def _left(self) -> None:
        """The host is not connected (yet, or any more): the alarm runs."""
        self._alarm.set(trio.current_time() + self._away_seconds)

    def came(self, seat: int) -> None:
        """A connection of ``seat`` attached: if it is the host's, the start is theirs."""
        if seat == self.seat:
            self._alarm.cancel()
            self.away = False

    def started(self) -> None:
        self._alarm.cancel()
        self.away = False

    def alarm(self, seats: Seats) -> bool:
        """The alarm went off: True when the host is still away and so the start opens to
        everyone now (the lobby shows it)."""
        if self.seat is None or self.away or seats[self.seat].connected:
            return False  # back meanwhile (the alarm was on its way)
        self.away = True
        return True

    def may_start(self, starter: Seat, seats: Seats) -> None:
        """Raises ``TableError`` (not_host) when ``starter`` may not start the game."""
        if self.seat is None or starter.index == self.seat or self.away:
            return
        name = seats[self.seat].display_name
        raise TableError(
            Code.NOT_HOST, f"only the table's host, {name}, may start the game (anyone "
                           f"seated may once {name} has been away for {self._away_seconds:g} s)")
