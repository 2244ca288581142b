"""A table's connections and what goes out to them: broadcasts, each seat's own update,
the catch-up of a connection that comes back, and the drop policy.

A frame for a connection with nothing queued or being sent is written to its socket at
once, never waiting (``Connection.send_now``): at most fan-outs that is nearly every frame,
and no writer task has to wake for it. Every other frame goes into the connection's
outbox with ``send_nowait``: the table never waits on a socket. A connection whose outbox
is full is dropped (close 4003, ``dropped`` set so the gateway gives it only a short
grace); one whose outbox is closed is let go. Either way
``on_gone`` tells the table, which forgets the connection. An update is encoded once per
audience (each seat; spectators share one), not once per connection: a delta with the
audience's patch (``view_json``), with ``seats`` only for the connections whose last update
showed other seats, so at most two texts per audience.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import trio

from quaymoor.actors.connection import CONTINUE, Connection, Receipt
from quaymoor.actors.frame_writer import text_frame
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


def _nobody(conn: Connection) -> None:
    """The ``on_gone`` of an ended table's fan-out: nobody to tell."""


class Fanout:
    """The connections of one table, by id."""

    def __init__(self, table_id: str, on_gone: Callable[[Connection], None]) -> None:
        self.table_id = table_id
        self.connections: dict[int, Connection] = {}
        self._on_gone = on_gone
        #: per connection id, the ``seats`` of the last update it was sent (as JSON)
        self._seats: dict[int, str] = {}

    def forget_owner(self) -> None:
        """Drop the ``on_gone`` callback (a bound method of the table: a cycle) once the
        table has ended (every connection is closed by then)."""
        self._on_gone = _nobody


    def add(self, conn: Connection) -> None:
        self.connections[conn.id] = conn

    def remove(self, conn: Connection) -> bool:
        """Forget ``conn``; False if it was not attached."""
        self._seats.pop(conn.id, None)
        return self.connections.pop(conn.id, None) is not None

    def send(self, conn: Connection, message: ServerMessage) -> None:
        self.send_text(conn, encode(message))

    def broadcast(self, message: ServerMessage) -> None:
        text = encode(message)
        for conn in list(self.connections.values()):
            self.send_text(conn, text)

    def broadcast_update(
        self,
        update: UpdateEncoder,
        *,
        receipt: Receipt | None = None,
        exclude: Connection | None = None,
    ) -> None:
        """Each connection gets its seat's update (a delta, or a snapshot if its
        audience's last view is not at the update's ``since``); what an audience shares is
        encoded once. ``receipt`` (an action's) waits for every frame queued here."""
        cache: dict[tuple[int | None, bool], str] = {}
        frames: dict[int, bytes] = {}  #: by id of a text in ``cache``
        seats = update.seats_json
        if receipt is not None:
            receipt.used = True
        for conn in list(self.connections.values()):
            if conn is exclude:
                continue
            key = (conn.seat, self._seats.get(conn.id) != seats)
            text = cache.get(key)
            if text is None:
                text = update.for_seat(conn.seat, seats=key[1])
                cache[key] = text
            self._seats[conn.id] = seats
            if self.send_text(conn, text, frames) and receipt is not None \
                    and conn.written < conn.queued:
                receipt.remaining += 1
                conn.receipts.append((conn.queued, receipt))

    def send_snapshot(self, conn: Connection, update: UpdateEncoder) -> None:
        """``conn`` gets ``update`` with its seat's whole view (a catch-up, a resync)."""
        self._seats[conn.id] = update.seats_json
        self.send_text(conn, update.snapshot(conn.seat))

    def send_text(self, conn: Connection, text: str,
                  frames: dict[int, bytes] | None = None) -> bool:
        """Send ``text`` to ``conn``: written to its socket at once when nothing waits
        for it (``Connection.send_now``: no task switch, no copy in the outbox), else
        queued; False when the connection is dropped instead. ``frames`` keeps each text's
        frame for the other connections of one broadcast (keyed by the text's id: the
        caller keeps the texts alive)."""
        if conn.direct is not None and conn.queued == conn.written:
            frame = frames.get(id(text)) if frames is not None else None
            if frame is None:
                frame = text_frame(text)
                if frames is not None:
                    frames[id(text)] = frame
            done = conn.send_now(frame)
            if done:
                return True
            if done is None:  # a first part went: its rest first, then what follows
                text = CONTINUE
        try:
            conn.outbox.send_nowait(text)
            conn.queued += 1
            return True
        except trio.WouldBlock:
            log.info("table %s: connection %d too slow, dropped", self.table_id, conn.id,
                     extra={"event": "connection_dropped", "table": self.table_id})
            conn.close_code = Close.TOO_SLOW
            conn.close_reason = "too slow to keep up: reconnect to continue"
            conn.dropped.set()
            self._on_gone(conn)
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            self._on_gone(conn)
        return False

    def close_all(self, code: Close, reason: str) -> None:
        """Close every connection with ``code`` (after what is queued) and forget them."""
        for conn in list(self.connections.values()):
            conn.close(code, reason)
        self.connections.clear()
        self._seats.clear()
