"""A finished table's rematch: the same people in the same seats at a new table.

The flow (the one Board Game Arena and lichess players know: an offer, never a move
without consent). After the game has finished, any player (a seat, not a spectator) may
send ``rematch``. The first one asks the supervisor for a new table with the same number
of seats and the same bots, with each human's chair held for them (``Seats.hold``); its
tokens come back in ``RematchReady``. The one who asked gets ``rematch_seat`` (their
chair's token and the new table's fingerprint) and everyone attached gets
``rematch_offer`` ("Ada wants a rematch"): each other player who sends ``rematch`` too
gets their own ``rematch_seat``, and nobody else is moved. A seat's token only ever goes
to that seat's own connections. Every ``rematch`` is answered on its connection, with a
``rematch_seat`` or an ``error`` (asking again is answered again, with the same chair);
a seat's other connections get its chair once, when it is first given.

At the new table the accepted players see the fingerprint, give their client seeds and
the game starts by itself once every seated player has given one; its host (the player
who asked for the rematch) may start it sooner, as may anyone seated once the host has
been away for ``TableConfig.host_away_seconds``, and then a bot takes each chair still
held for a player who has not come (as it does the chairs bots had). A player who comes
back to the old table later (a reload) still gets the offer, for as long as the old table
lingers.
"""

from __future__ import annotations

from collections.abc import Callable

from quaymoor.actors.connection import Connection
from quaymoor.actors.inbox import RematchFailed, RematchReady
from quaymoor.actors.lobby import Seats
from quaymoor.actors.room import Room
from quaymoor.protocol.codes import Code
from quaymoor.protocol.messages import Error, RematchOffer, RematchSeat

#: Asks the supervisor for the rematch table: the humans' names by seat, and the seat that
#: asked (the new table's host, who may start it before everyone has come).
AskForTable = Callable[[dict[int, str], int], None]


class Rematch:
    """One finished table's rematch offer, as the table actor drives it."""

    def __init__(self, table: str, room: Room, seats: Seats,
                 ask: AskForTable | None) -> None:
        self.table = table
        self._room = room
        self._seats = seats
        self._ask = ask
        self.by: int | None = None  #: the seat that offered first
        #: the requests made before the table was ready, in order
        self._waiting: list[Connection] = []
        self.ready: RematchReady | None = None
        self.accepted: list[int] = []

    def forget_owner(self) -> None:
        """Drop the callback into the table (a cycle through it) once the table has
        ended: no rematch is made from here on."""
        self._ask = None

    def request(self, conn: Connection, finished: bool) -> None:
        """``conn`` sent ``rematch``: refuse it, or hold its seat a chair."""
        if conn.seat is None:
            self._room.send(conn, Error(Code.SPECTATOR, "spectators watch; only the players "
                                                          "are seated at a rematch"))
            return
        if not finished or self._ask is None:
            self._room.send(conn, Error(Code.NOT_FINISHED,
                                          "a rematch is offered once the game has finished"))
            return
        if self.ready is not None:
            if self._give(conn.seat, conn):
                self._broadcast()
            return
        first = not self._waiting
        self._waiting.append(conn)
        if first:
            self.by = conn.seat
            self._ask({s.index: s.display_name for s in self._seats
                       if not s.bot}, conn.seat)

    def opened(self, ready: RematchReady) -> None:
        """The supervisor opened the table: every seat that asked gets its chair."""
        self.ready = ready
        for conn in self._waiting:
            if conn.seat is not None:
                self._give(conn.seat, conn)
        self._waiting.clear()
        self._broadcast()

    def failed(self, failed: RematchFailed) -> None:
        """No table could be opened: the seats that asked are told, and may ask again."""
        for conn in self._waiting:
            if self._room.attached(conn):
                self._room.send(conn, Error(failed.code, failed.message))
        self._waiting.clear()
        self.by = None

    def catch_up(self, conn: Connection) -> None:
        """A connection that attaches after the offer gets it (and, if its seat accepted
        already, its chair again)."""
        if self.ready is None:
            return
        if conn.seat in self.accepted:
            self._room.send(conn, self._seat_message(conn.seat))
        offer = self._offer()
        if offer is not None:
            self._room.send(conn, offer)

    def _give(self, seat: int, asker: Connection) -> bool:
        """``seat``'s chair to ``asker``, and the first time to the seat's other
        connections too; True when the seat had not accepted before."""
        token = self.ready.tokens.get(seat) if self.ready is not None else None
        if token is None:  # a seat with no chair held (cannot happen: every human has one)
            self._room.send(asker, Error(Code.NOT_FINISHED, "no chair is held for this seat"))
            return False
        first = seat not in self.accepted
        if first:
            self.accepted.append(seat)
        message = self._seat_message(seat)
        for conn in self._room.connections():
            if conn is asker or (first and conn.seat == seat):
                self._room.send(conn, message)
        return first

    def _seat_message(self, seat: int) -> RematchSeat:
        assert self.ready is not None
        return RematchSeat(self.table, self.ready.table, seat, self.ready.tokens[seat],
                           self.ready.fingerprint)

    def _offer(self) -> RematchOffer | None:
        if self.ready is None or self.by is None:
            return None
        name = self._seats[self.by].display_name
        return RematchOffer(self.table, self.ready.table, self.by, name, sorted(self.accepted))

    def _broadcast(self) -> None:
        offer = self._offer()
        if offer is not None:
            self._room.broadcast(offer)
