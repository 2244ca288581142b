"""One connection's way out to its websocket: its outbox, what went, and what is owed.

How it works. Everything a connection receives after its hello is offered to its outlet as
a ``Frame`` (a message's text; its websocket frame made once, for every connection the
message goes to): by the table's fan-out, and by the gateway's reader for its own answers,
so a client gets everything in the order it was made. ``offer`` never waits, and answers:

- ``SENT``: nothing was queued or being written for the connection and its socket took the
  frame whole at once, written from the caller's task (no task switch, no copy): at most
  fan-outs nearly every frame, and no writer task has to wake for it;
- ``QUEUED``: in the outbox (a small bounded channel) for the gateway's writer. When the
  socket took only a first part of the frame, the frame is queued all the same and the
  outlet keeps the bytes still to go: the writer's next batch starts with them;
- ``DROPPED``: the outbox was full (the client is not reading): the connection is dropped
  now as too slow (close 4003; ``dropped`` set, so that the gateway gives it only a short
  grace to take what was queued and the close);
- ``CLOSED``: the outbox was closed already (by the table, the gateway, an earlier drop).

The gateway's writer lets frames through to its socket while it runs (``write_through``),
takes what waits in batches (``next_batch``), writes each and says so (``sent``); once the
outbox is closed and empty it closes the websocket with ``close_code`` and
``close_reason``. ``Receipt`` times one action's broadcast, from the gateway reading the
action to the last connection's socket taking the resulting update: each outlet that
queued that update holds the receipt until its writer has written it.
"""

from __future__ import annotations

import enum
from collections import deque

import attrs
import trio

from quaymoor.actors.ws_socket import FrameSocket, text_frame
from quaymoor.ops.channels import waiting
from quaymoor.ops.metrics import Metrics
from quaymoor.protocol.codes import Close

#: The close reason of a connection dropped as too slow.
TOO_SLOW_REASON = "too slow to keep up: reconnect to continue"


class Offer(enum.Enum):
    """What became of a frame offered to an outlet (see the module's docstring)."""

    SENT = "sent"
    QUEUED = "queued"
    DROPPED = "dropped"
    CLOSED = "closed"


class Frame:
    """A message on its way out: its text, and its websocket frame (``text_frame``), made
    the first time a socket needs it and then shared by every connection the message goes
    to (an audience's update is one frame for all of its connections)."""

    __slots__ = ("_data", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._data: bytes | None = None

    @property
    def data(self) -> bytes:
        data = self._data
        if data is None:
            data = self._data = text_frame(self.text)
        return data


@attrs.frozen
class Batch:
    """What a writer takes from an outlet at once: frames, oldest first."""

    frames: list[Frame]
    #: The first frame's bytes still to go, when a first part of it was written at once
    #: (``Outlet.offer``); empty otherwise.
    rest: bytes

    def data(self) -> bytes:
        """The batch as one write: the rest of a frame written in part, then the frames."""
        if self.rest:
            return b"".join([self.rest, *[frame.data for frame in self.frames[1:]]])
        return b"".join([frame.data for frame in self.frames])


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


class Outlet:
    """One connection's outbox of at most ``size`` frames waiting for its writer, and the
    count of what it wrote (into ``metrics``, where given)."""

    __slots__ = ("_receipts", "_recv", "_rest", "_send", "_socket", "close_code",
                 "close_reason", "dropped", "metrics", "queued", "written")

    def __init__(self, size: int, metrics: Metrics | None = None) -> None:
        self._send, self._recv = trio.open_memory_channel[Frame](size)
        self.metrics = metrics
        self.close_code = Close.TABLE_CLOSED  #: what the writer closes the websocket with
        self.close_reason = "table closed"
        #: Set when the connection is dropped (too slow, or ended by the gateway): the
        #: gateway then gives it only a short grace to take what was queued and the close.
        self.dropped = trio.Event()
        self.queued = 0  #: frames offered and taken so far (sent at once, or queued)
        self.written = 0  #: frames handed to the socket so far
        #: (the value of ``queued`` once a broadcast's frame is in, its receipt), oldest first
        self._receipts: deque[tuple[int, Receipt]] = deque()
        self._socket: FrameSocket | None = None  #: while frames may be written at once
        self._rest = b""  #: the oldest queued frame's bytes still to go (written in part)

    # ------------------------------------------------------------ the senders' side

    def offer(self, frame: Frame, receipt: Receipt | None = None) -> Offer:
        """Send ``frame`` after everything offered before it, never waiting: written at
        once when nothing is queued or being written, else queued. ``receipt`` (an
        action's broadcast) waits for the frame when it is queued."""
        socket = self._socket
        if socket is not None and self.queued == self.written:
            data = frame.data
            sent = socket.try_write(data)
            if sent == len(data):
                self.queued += 1
                self.written += 1
                if self.metrics is not None:
                    self.metrics.message_out(1)
                return Offer.SENT
            if sent:  # the rest goes first in the writer's next batch, with this frame
                self._rest = data[sent:]
        try:
            self._send.send_nowait(frame)
        except trio.WouldBlock:
            self.close(Close.TOO_SLOW, TOO_SLOW_REASON)
            self.dropped.set()
            return Offer.DROPPED
        except trio.ClosedResourceError:
            return Offer.CLOSED
        self.queued += 1
        if receipt is not None:
            receipt.remaining += 1
            self._receipts.append((self.queued, receipt))
        return Offer.QUEUED

    def close(self, code: Close, reason: str) -> None:
        """Close the outbox: the writer sends what is queued, then closes with ``code``."""
        self.close_code = code
        self.close_reason = reason
        self._socket = None
        self._send.close()

    def end(self, code: Close, reason: str) -> None:
        """The gateway ends the connection: what is queued goes out, then the close with
        ``code``, within the short grace of a dropped connection. An outbox closed already
        keeps its close code."""
        if not self.closed:
            self.close(code, reason)
        self.dropped.set()

    @property
    def closed(self) -> bool:
        """Whether the outbox is closed (by the table, the gateway, a drop): the writer
        sends what is left, then closes the websocket."""
        return self._send.statistics().open_send_channels == 0

    def let_go(self) -> None:
        """The connection is gone (its table detached it, or its writer ended): nothing
        more is taken or written at once, and what it still owed counts as sent. The outbox
        closes with the close code it has."""
        self._socket = None
        self._send.close()
        while self._receipts:
            self._receipts.popleft()[1].sent()

    # ------------------------------------------------------------ the writer's side

    def write_through(self, socket: FrameSocket) -> None:
        """Frames may be written to ``socket`` at once from the offering task (until the
        outbox closes or ``let_go``); only the writer may call this, while it runs."""
        self._socket = socket

    async def next_batch(self, *, whole: bool = True) -> Batch | None:
        """Wait for the next frames to write: everything waiting (only the oldest frame
        when not ``whole``); None once the outbox is closed and empty."""
        try:
            first = await self._recv.receive()
        except trio.EndOfChannel:
            return None
        return self._batch(first, whole)

    def take(self, *, whole: bool = True) -> Batch | None:
        """``next_batch`` without waiting: None when nothing waits now."""
        try:
            first = self._recv.receive_nowait()
        except (trio.WouldBlock, trio.EndOfChannel):
            return None
        return self._batch(first, whole)

    def _batch(self, first: Frame, whole: bool) -> Batch:
        frames = [first, *waiting(self._recv)] if whole else [first]
        rest, self._rest = self._rest, b""  # only ever the oldest frame's: see ``offer``
        return Batch(frames, rest)

    def sent(self, batch: Batch) -> None:
        """The writer handed ``batch`` to the socket: counted, and the receipts that waited
        for it are done."""
        count = len(batch.frames)
        self.written += count
        if self.metrics is not None:
            self.metrics.message_out(count)
        receipts = self._receipts
        while receipts and receipts[0][0] <= self.written:
            receipts.popleft()[1].sent()
