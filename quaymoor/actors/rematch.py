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
from quaymoor.actors.fanout import Fanout
from quaymoor.actors.inbox import RematchFailed, RematchReady
from quaymoor.actors.lobby import Seats
from quaymoor.protocol.codes import Code
from quaymoor.protocol.messages import Error, RematchOffer, RematchSeat, ServerMessage

#: Asks the supervisor for the rematch table: the humans' names by seat, and the seat that
#: asked (the new table's host, who may start it before everyone has come).
AskForTable = Callable[[dict[int, str], int], None]


class Rematch:
    """One finished table's rematch offer, as the table actor drives it."""

    def __init__(self, table: str, fanout: Fanout, seats: Seats,
                 ask: AskForTable | None) -> None:
        self.table = table
        self._fanout = fanout
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

    def request(self, conn: Connection, finished: bool) -> list[Connection]:
        """``conn`` sent ``rematch``: refuse it, or hold its seat a chair. Like the rest of
        the rematch's methods, returns the connections its messages dropped (or found
        gone), for the table to detach."""
        if conn.seat is None:
            return self._send(conn, Error(Code.SPECTATOR, "spectators watch; only the "
                                                          "players are seated at a rematch"))
        if not finished or self._ask is None:
            return self._send(conn, Error(Code.NOT_FINISHED,
                                          "a rematch is offered once the game has finished"))
        if self.ready is not None:
            first, dropped = self._give(conn.seat, conn)
            return dropped + self._broadcast() if first else dropped
        first = not self._waiting
        self._waiting.append(conn)
        if first:
            self.by = conn.seat
            self._ask({s.index: s.name or f"Seat {s.index + 1}" for s in self._seats
                       if not s.bot}, conn.seat)
        return []

    def opened(self, ready: RematchReady) -> list[Connection]:
        """The supervisor opened the table: every seat that asked gets its chair."""
        self.ready = ready
        dropped: list[Connection] = []
        for conn in self._waiting:
            if conn.seat is not None:
                dropped += self._give(conn.seat, conn)[1]
        self._waiting.clear()
        return dropped + self._broadcast()

    def failed(self, failed: RematchFailed) -> list[Connection]:
        """No table could be opened: the seats that asked are told, and may ask again."""
        dropped: list[Connection] = []
        for conn in self._waiting:
            if self._fanout.connections.get(conn.id) is conn:
                dropped += self._send(conn, Error(failed.code, failed.message))
        self._waiting.clear()
        self.by = None
        return dropped

    def catch_up(self, conn: Connection) -> list[Connection]:
        """A connection that attaches after the offer gets it (and, if its seat accepted
        already, its chair again)."""
        if self.ready is None:
            return []
        dropped: list[Connection] = []
        if conn.seat in self.accepted:
            dropped += self._send(conn, self._seat_message(conn.seat))
        offer = self._offer()
        if offer is not None:
            dropped += self._send(conn, offer)
        return dropped

    def _give(self, seat: int, asker: Connection) -> tuple[bool, list[Connection]]:
        """``seat``'s chair to ``asker``, and the first time to the seat's other
        connections too: whether the seat had not accepted before, and the connections
        dropped."""
        token = self.ready.tokens.get(seat) if self.ready is not None else None
        if token is None:  # a seat with no chair held (cannot happen: every human has one)
            return False, self._send(asker, Error(Code.NOT_FINISHED,
                                                  "no chair is held for this seat"))
        first = seat not in self.accepted
        if first:
            self.accepted.append(seat)
        message = self._seat_message(seat)
        dropped: list[Connection] = []
        for conn in list(self._fanout.connections.values()):
            if conn is asker or (first and conn.seat == seat):
                dropped += self._send(conn, message)
        return first, dropped

    def _send(self, conn: Connection, message: ServerMessage) -> list[Connection]:
        """``message`` to ``conn``: ``[conn]`` when that dropped it, else ``[]``."""
        return [] if self._fanout.send(conn, message) else [conn]

    def _seat_message(self, seat: int) -> RematchSeat:
        assert self.ready is not None
        return RematchSeat(self.table, self.ready.table, seat, self.ready.tokens[seat],
                           self.ready.fingerprint)

    def _offer(self) -> RematchOffer | None:
        if self.ready is None or self.by is None:
            return None
        name = self._seats[self.by].name or f"Seat {self.by + 1}"
        return RematchOffer(self.table, self.ready.table, self.by, name, sorted(self.accepted))

    def _broadcast(self) -> list[Connection]:
        offer = self._offer()
        return self._fanout.broadcast(offer) if offer is not None else []
