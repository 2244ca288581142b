"""A websocket's attachment to a table, as the table and the gateway share it.

The table fills a connection's ``outbox`` (a small bounded channel, never waiting) and
sets its close code; the gateway's reader puts its own answers (pongs, errors) in the same
outbox (``queue``), so that a client receives everything after its hello in the order it
was made, through one path; the gateway's writer drains the outbox to the socket, counts
what it wrote, and closes with that code when the outbox closes. ``Receipt`` times one action's
broadcast: from the gateway reading the action to the last connection's writer handing the
resulting update to its socket.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

import attrs
import trio

from quaymoor.ops.metrics import Metrics
from quaymoor.protocol.codes import Close

if TYPE_CHECKING:
    from quaymoor.actors.frame_writer import FrameWriter

#: In an outbox: "first the rest of the frame written in part" (``Connection.unsent``);
#: never a message (every message is JSON).
CONTINUE = ""


class Receipt:
    """An action's broadcast, for the action-to-broadcast latency: from the moment the
    gateway read the action to the moment the last connection's writer handed the
    resulting update to its socket."""

    __slots__ = ("metrics", "received", "remaining", "used")

    def __init__(self, received: float, metrics: Metrics) -> None:
        self.received = received
        self.metrics = metrics
        #: frames queued and not yet sent, and 1 for the table until ``release``
        self.remaining = 1
        self.used = False  #: a broadcast carried the action's result

    def release(self) -> None:
        """The table has handled the action: if a broadcast carried its result, the
        broadcast is done once its last queued frame is (now, if every frame went to its
        socket at once)."""
        if self.used:
            self.sent()

    def sent(self) -> None:
        """One of the frames was handed to its socket (or will never be: the connection
        went away); the last one completes the broadcast."""
        self.remaining -= 1
        if self.remaining == 0:
            self.metrics.action_done(trio.current_time() - self.received)


@attrs.define(eq=False)
class Connection:
    """One websocket's attachment to a table, shared with the gateway."""

    id: int
    outbox: trio.MemorySendChannel[str]
    seat: int | None = None
    #: A spectator's name from its hello (cleaned), shown in ``watchers``; None: unnamed
    name: str | None = None
    close_code: Close = Close.TABLE_CLOSED
    close_reason: str = "table closed"
    #: Set when the table drops the connection as too slow: the gateway then gives it only
    #: a short grace to take what was queued and the close, and lets go of it.
    dropped: trio.Event = attrs.field(factory=trio.Event)
    queued: int = 0  #: frames put in the outbox so far
    written: int = 0  #: frames the gateway's writer has handed to the socket so far
    #: (the value of ``queued`` once a broadcast's frame is in, its receipt), oldest first
    receipts: deque[tuple[int, Receipt]] = attrs.field(factory=deque)
    #: The gateway's writer, while it may be written through at once (``send_now``).
    direct: FrameWriter | None = None
    metrics: Metrics | None = None  #: counts the frames ``send_now`` wrote
    #: The rest of a frame ``send_now`` wrote in part: the writer sends it first.
    unsent: bytes = b""

    def send_now(self, frame: bytes) -> bool | None:
        """Write ``frame`` to the socket at once when nothing is queued or being sent
        for this connection: True when it went whole (counted as queued and written);
        None when only a first part did (its rest waits in ``unsent``, and the caller
        must queue ``CONTINUE`` before anything else); False when none did (queue the
        message the usual way)."""
        direct = self.direct
        if direct is None or self.queued != self.written:
            return False
        sent = direct.try_now(frame)
        if sent == len(frame):
            self.queued += 1
            self.written += 1
            if self.metrics is not None:
                self.metrics.message_out(1)
            return True
        if sent == 0:
            return False
        self.unsent = frame[sent:]
        return None

    def take_unsent(self) -> bytes:
        rest, self.unsent = self.unsent, b""
        return rest

    def frame_written(self, count: int = 1) -> None:
        """The writer handed ``count`` more frames to the socket."""
        self.written += count
        receipts = self.receipts
        while receipts and receipts[0][0] <= self.written:
            receipts.popleft()[1].sent()

    def let_go(self) -> None:
        """The connection is gone: what it still owed counts as sent."""
        self.direct = None
        while self.receipts:
            self.receipts.popleft()[1].sent()

    def queue(self, text: str) -> bool:
        """Put ``text`` in the outbox after everything already there, never waiting; False
        when the outbox is full (the client is not reading) or closed."""
        try:
            self.outbox.send_nowait(text)
        except (trio.WouldBlock, trio.ClosedResourceError, trio.BrokenResourceError):
            return False
        self.queued += 1
        return True

    def end(self, code: Close, reason: str) -> None:
        """The gateway ends the connection: what is queued goes out, then the close with
        ``code``, within the short grace of a dropped connection. An outbox the table has
        closed already keeps the table's close code."""
        if self.outbox.statistics().open_send_channels:
            self.close(code, reason)
        self.direct = None
        self.dropped.set()

    def close(self, code: Close, reason: str) -> None:
        """Close the outbox; the writer sends what is queued, then closes with ``code``."""
        self.close_code = code
        self.close_reason = reason
        self.direct = None
        self.outbox.close()
