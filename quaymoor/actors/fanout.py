"""A table's connections and what goes out to them: broadcasts, each seat's own update,
the catch-up of a connection that comes back, and the connections dropped on the way.

Each message goes to a connection's outlet (``outlet``), never waiting: written to its
socket at once when nothing is queued or being sent for it (at most fan-outs nearly every
frame), else queued for the gateway's writer. A connection whose outbox is full is dropped
by its outlet (close 4003, ``dropped`` set so the gateway gives it only a short grace; the
fan-out logs it); one whose outbox is closed is gone already. Either way the fan-out
tells its caller, the table, which detaches the connection: a broadcast returns the
connections it dropped (after every other connection has had its frame, so that nothing
the table does about a drop comes between them), a send says whether the connection is
still attached. An update is encoded once per audience (each seat; spectators share one),
not once per connection: a delta with the audience's patch (``view_json``), with
``seats`` only for the connections whose last update showed other seats, so at most two
texts per audience, each made into one websocket frame for all of its connections
(``outlet.Frame``). The players' connections are served first, the spectators after them.
"""

from __future__ import annotations

import logging

from quaymoor.actors.connection import Connection
from quaymoor.actors.outlet import Frame, Offer, Receipt
from quaymoor.protocol.codec import encode
from quaymoor.protocol.codes import Close
from quaymoor.protocol.messages import ServerMessage, WireEvent
from quaymoor.protocol.view_json import UpdateEncoder

log = logging.getLogger("quaymoor.table")


class History:
    """Every change's events, keyed by the version it started from, for catch-ups."""

    def __init__(self) -> None:
        self.changes: list[tuple[int, list[WireEvent]]] = []  #: (version before, events)

    def add(self, since: int, events: list[WireEvent]) -> None:
        self.changes.append((since, events))

    def since(self, since: int | None, version: int) -> tuple[int, list[WireEvent]]:
        """What a client that saw ``since`` missed, up to ``version``: (the version it
        continues from, the events). A version the table never reported gets a snapshot
        (``version``, no events)."""
        if since is None or not 0 <= since <= version:
            return version, []
        first = next((i for i, (v, _) in enumerate(self.changes) if v >= since), None)
        if first is not None and self.changes[first][0] == since:
            return since, [e for _, evs in self.changes[first:] for e in evs]
        return version, []


class Fanout:
    """The connections of one table, by id."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.connections: dict[int, Connection] = {}
        #: per connection id, the ``seats`` of the last update it was sent (as JSON)
        self._seats: dict[int, str] = {}

    def add(self, conn: Connection) -> None:
        """Attach ``conn``. The players' connections come first in every fan-out (a
        seated one goes before every spectator, whenever it attached), so a crowd of
        spectators never stands between a player and the update of the action they made."""
        if conn.seat is None:
            self.connections[conn.id] = conn
        else:
            self.connections = {conn.id: conn, **self.connections}

    def remove(self, conn: Connection) -> bool:
        """Forget ``conn``; False if it was not attached."""
        self._seats.pop(conn.id, None)
        return self.connections.pop(conn.id, None) is not None

    def send(self, conn: Connection, message: ServerMessage) -> bool:
        """``message`` to ``conn`` alone; False when ``conn`` was dropped (or had gone)
        instead: the caller detaches it."""
        return self._offer(conn, Frame(encode(message)))

    def broadcast(self, message: ServerMessage) -> list[Connection]:
        """``message`` to every connection; returns those dropped (or gone) instead."""
        frame = Frame(encode(message))
        return [conn for conn in self.connections.values() if not self._offer(conn, frame)]

    def broadcast_update(
        self,
        update: UpdateEncoder,
        *,
        receipt: Receipt | None = None,
        exclude: Connection | None = None,
    ) -> list[Connection]:
        """Each connection gets its seat's update (a delta, or a snapshot if its
        audience's last view is not at the update's ``since``); what an audience shares is
        encoded once. ``receipt`` (an action's) waits for every frame queued here. Returns
        the connections dropped (or gone) instead."""
        cache: dict[tuple[int | None, bool], Frame] = {}
        seats = update.seats_json
        if receipt is not None:
            receipt.used = True
        dropped: list[Connection] = []
        for conn in self.connections.values():
            if conn is exclude:
                continue
            key = (conn.seat, self._seats.get(conn.id) != seats)
            frame = cache.get(key)
            if frame is None:
                frame = cache[key] = Frame(update.for_seat(conn.seat, seats=key[1]))
            self._seats[conn.id] = seats
            if not self._offer(conn, frame, receipt):
                dropped.append(conn)
        return dropped

    def send_snapshot(self, conn: Connection, update: UpdateEncoder) -> bool:
        """``conn`` gets ``update`` with its seat's whole view (a catch-up, a resync);
        False when it was dropped (or had gone) instead."""
        self._seats[conn.id] = update.seats_json
        return self._offer(conn, Frame(update.snapshot(conn.seat)))

    def _offer(self, conn: Connection, frame: Frame, receipt: Receipt | None = None) -> bool:
        """``frame`` to ``conn`` (``Outlet.offer``); False when the connection is dropped
        now (logged) or was closed already."""
        done = conn.outlet.offer(frame, receipt)
        if done is Offer.SENT or done is Offer.QUEUED:
            return True
        if done is Offer.DROPPED:
            log.info("table %s: connection %d too slow, dropped", self.table_id, conn.id,
                     extra={"event": "connection_dropped", "table": self.table_id})
        return False

    def close_all(self, code: Close, reason: str) -> None:
        """Close every connection with ``code`` (after what is queued) and forget them."""
        for conn in list(self.connections.values()):
            conn.outlet.close(code, reason)
        self.connections.clear()
        self._seats.clear()
