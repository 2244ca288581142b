"""A connection's queued messages written as websocket frames, all of them in one write.

trio-websocket's ``send_message`` frames one message with wsproto and writes it under
the connection's stream lock: three task switches and a system call per message. The
gateway's writer instead takes every message waiting in the outbox at once and hands
them here: their frames go out in one ``send_all`` (a catch-up of many updates is one
write, not many), and the lock is taken without a task switch when nobody holds it. A
server's frame of a text message is plain bytes (RFC 6455 §5.2: unmasked; no extension
is negotiated here, so no compression state), built the same for every connection.

Where the connection's stream is a socket (directly, or as ``socket_stream``: the front
door's stream once the handshake is done), the frames are written to its file descriptor
at once (``os.write``, non-blocking), and only what the socket does not take goes through
trio's ``send_all``: trio's socket wrapper costs each send a trip through the scheduler and
a few layers of calls, about a tenth of a frame's cost when the server fans out to
spectators. The lock held makes this the only writer of the socket.

This reaches into trio-websocket's connection for its stream, its lock and its close
state (``_stream``, ``_stream_lock``, ``_close_reason``, ``_wsproto``; checked against
trio-websocket 0.12.2; pyproject.toml keeps it below 0.13), and uses ``send_message`` for any
socket without them (the tests' fakes) or with an extension negotiated.
"""

from __future__ import annotations

import os
import struct
from typing import Any, Protocol

import trio
from trio_websocket import CloseReason, ConnectionClosed
from wsproto.connection import ConnectionState

TEXT_FIN = 0x81  #: FIN bit and the text opcode (RFC 6455 §5.2)


class MessageSocket(Protocol):
    async def send_message(self, message: str) -> None: ...


def text_frame(text: str) -> bytes:
    """One unmasked, unfragmented text frame (a server's) carrying ``text``."""
    payload = text.encode("utf-8")
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", TEXT_FIN, n)
    elif n < 1 << 16:
        head = struct.pack("!BBH", TEXT_FIN, 126, n)
    else:
        head = struct.pack("!BBQ", TEXT_FIN, 127, n)
    return head + payload


class FrameWriter:
    """Writes batches of messages to one websocket, in order."""

    def __init__(self, ws: MessageSocket) -> None:
        self._ws = ws
        self._direct: Any = ws if _can_write_frames(ws) else None
        #: whether a batch goes out in one write (else message by message: give one)
        self.batches = self._direct is not None

    async def send(self, texts: list[str], *, first: bytes = b"") -> None:
        """Send ``first`` (the rest of a frame already written in part, see ``try_now``)
        and then ``texts``, in order; ``ConnectionClosed`` once the socket is closing."""
        ws = self._direct
        if ws is None:
            for text in texts:
                await self._ws.send_message(text)
            return
        if ws._close_reason is not None:
            raise ConnectionClosed(ws._close_reason)
        if ws._wsproto.state is not ConnectionState.OPEN:  # a close has begun
            raise ConnectionClosed(CloseReason(1006, "the connection is closing"))
        data = b"".join([first, *[text_frame(t) for t in texts]])
        lock: trio.StrictFIFOLock = ws._stream_lock
        try:
            lock.acquire_nowait()
        except trio.WouldBlock:
            await lock.acquire()
        try:
            await write(ws._stream, data)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            await ws._abort_web_socket()
            raise ConnectionClosed(ws._close_reason) from None
        finally:
            lock.release()

    def try_now(self, frame: bytes) -> int:
        """Write ``frame`` (a whole frame, from ``text_frame``) to the socket at once,
        without waiting, if nothing else is writing to it: the bytes written, the whole
        frame or a first part of it (the caller must have the rest sent before anything
        else), or 0 when nothing could be (the socket is full, busy, closing, or not one
        this writer can reach: send it the usual way). The caller must know that nothing
        is queued or being sent for this connection."""
        ws = self._direct
        if ws is None or ws._close_reason is not None \
                or ws._wsproto.state is not ConnectionState.OPEN or ws._stream_lock.locked():
            return 0
        sock = _socket_of(ws._stream)
        if sock is None or sock.socket.did_shutdown_SHUT_WR:
            return 0
        fd = sock.socket.fileno()
        if fd < 0:
            return 0
        try:
            return os.write(fd, frame)
        except OSError:  # full, or broken: the writer's own send finds out which
            return 0


async def write(stream: Any, data: bytes) -> None:
    """``stream.send_all(data)``, but first as much as the socket under ``stream`` takes
    at once, written to it directly. The caller must be the stream's only writer."""
    sock = _socket_of(stream)
    if sock is not None and not sock.socket.did_shutdown_SHUT_WR:
        fd = sock.socket.fileno()
        if fd >= 0:
            try:
                sent = os.write(fd, data)
            except BlockingIOError:
                sent = 0
            except OSError as exc:  # reset, broken pipe: as trio's send_all says it
                raise trio.BrokenResourceError(f"socket connection broken: {exc}") from exc
            if sent == len(data):
                return
            await sock.send_all(memoryview(data)[sent:])
            return
    await stream.send_all(data)


def _socket_of(stream: Any) -> trio.SocketStream | None:
    if isinstance(stream, trio.SocketStream):
        return stream
    inner = getattr(stream, "socket_stream", None)
    return inner if isinstance(inner, trio.SocketStream) else None


def _can_write_frames(ws: object) -> bool:
    """Whether ``ws`` is a trio-websocket connection as this module knows it, with no
    extension (such as compression) that would change its frames."""
    try:
        proto = ws._wsproto.connection._proto  # type: ignore[attr-defined]
        return (isinstance(ws._stream_lock, trio.StrictFIFOLock)  # type: ignore[attr-defined]
                and hasattr(ws, "_stream") and hasattr(ws, "_close_reason")
                and hasattr(ws, "_abort_web_socket") and not proto.extensions)
    except AttributeError:
        return False

