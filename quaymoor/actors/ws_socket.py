"""A trio-websocket connection written to as frames: the one module that reads its internals.

trio-websocket's ``send_message`` frames one message with wsproto and writes it under the
connection's stream lock: three task switches and a system call per message. A
``FrameSocket`` instead takes frames already made (``text_frame``, once per message for
every connection it goes to) and writes a batch of them in one ``send_all`` (a catch-up of
many updates is one write, not many), taking the lock without a task switch when nobody
holds it; ``try_write`` writes one frame at once, without waiting, from whatever task holds
it. A server's frame of a text message is plain bytes (RFC 6455 §5.2: unmasked; no
extension is negotiated on a socket this module writes to, so no compression state), built
the same for every connection.

Where the connection's stream is a socket (directly, or as ``socket_stream``: the front
door's stream once the handshake is done), the frames are written to its file descriptor
at once (``os.write``, non-blocking), and only what the socket does not take goes through
trio's ``send_all``: trio's socket wrapper costs each send a trip through the scheduler and
a few layers of calls, about a tenth of a frame's cost when the server fans out to
spectators. The lock held (or seen free, by ``try_write``) makes this the only writer of
the socket.

The internals read, of trio-websocket's ``WebSocketConnection``: ``_stream``,
``_stream_lock``, ``_close_reason``, ``_wsproto`` (its state, and the extensions its
handshake negotiated) and ``_abort_web_socket``, as the releases in ``KNOWN_VERSIONS`` have
them (their source read; pyproject.toml keeps the dependency below 0.13).
``check_version`` fails loudly at server start on a release this module does not know.
``FrameSocket.of`` gives None for a socket without those internals (the tests' fakes) or
with an extension negotiated: everything then goes through ``send_message``.
"""

from __future__ import annotations

import importlib.metadata
import os
import struct
from typing import Any

import trio
from trio_websocket import CloseReason, ConnectionClosed
from wsproto.connection import ConnectionState

TEXT_FIN = 0x81  #: FIN bit and the text opcode (RFC 6455 §5.2)
#: trio-websocket releases whose ``WebSocketConnection`` has the internals this module
#: reads, as it reads them (checked in each release's source; 0.12.2 is the newest on PyPI).
KNOWN_VERSIONS = ("0.12.2",)


class UnknownTrioWebsocket(RuntimeError):
    """The installed trio-websocket is a release whose internals this module was not
    checked against."""


def check_version() -> str:
    """The installed trio-websocket's version; raises ``UnknownTrioWebsocket`` (saying
    what to do) when it is not one of ``KNOWN_VERSIONS``."""
    installed = importlib.metadata.version("trio-websocket")
    if installed not in KNOWN_VERSIONS:
        known = ", ".join(KNOWN_VERSIONS)
        raise UnknownTrioWebsocket(
            f"trio-websocket {installed} is installed, but quaymoor/actors/ws_socket.py "
            f"reads the internals of trio-websocket {known} only: install a known release "
            f"(pip install 'trio-websocket=={KNOWN_VERSIONS[-1]}'), or read {installed}'s "
            f"WebSocketConnection (_stream, _stream_lock, _close_reason, _wsproto, "
            f"_abort_web_socket) and, where it keeps them as {known} does, add it to "
            f"KNOWN_VERSIONS and widen the pin in pyproject.toml")
    return installed


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


class FrameSocket:
    """One trio-websocket connection, written to as frames (bytes from ``text_frame``)."""

    __slots__ = ("_ws",)

    def __init__(self, ws: Any) -> None:
        self._ws = ws  #: a WebSocketConnection with the internals (see ``of``)

    @classmethod
    def of(cls, ws: object) -> FrameSocket | None:
        """``ws`` as a frame socket; None when it is not a trio-websocket connection as this
        module knows it, or has an extension (such as compression) that changes frames."""
        try:
            proto = ws._wsproto.connection._proto  # type: ignore[attr-defined]
            known = (isinstance(ws._stream_lock, trio.StrictFIFOLock)  # type: ignore[attr-defined]
                     and hasattr(ws, "_stream") and hasattr(ws, "_close_reason")
                     and hasattr(ws, "_abort_web_socket") and not proto.extensions)
        except AttributeError:
            return None
        return cls(ws) if known else None

    async def write(self, data: bytes) -> None:
        """Write ``data`` (whole frames, or the rest of one ``try_write`` began and then
        whole frames) under the connection's lock; ``ConnectionClosed`` once the socket is
        closing or broken."""
        ws = self._ws
        if ws._close_reason is not None:
            raise ConnectionClosed(ws._close_reason)
        if ws._wsproto.state is not ConnectionState.OPEN:  # a close has begun
            raise ConnectionClosed(CloseReason(1006, "the connection is closing"))
        lock: trio.StrictFIFOLock = ws._stream_lock
        try:
            lock.acquire_nowait()
        except trio.WouldBlock:
            await lock.acquire()
        try:
            await _write(ws._stream, data)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            await ws._abort_web_socket()
            raise ConnectionClosed(ws._close_reason) from None
        finally:
            lock.release()

    def try_write(self, frame: bytes) -> int:
        """Write ``frame`` to the socket at once, without waiting, if nothing else is
        writing to it: the bytes written, the whole frame or a first part of it (the caller
        must have the rest written before anything else), or 0 when nothing could be (the
        socket is full, busy, closing, or not a socket: write it the usual way). The
        caller must know that nothing is queued or being written for this connection."""
        ws = self._ws
        if ws._close_reason is not None \
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
        except OSError:  # full, or broken: the writer's own write finds out which
            return 0


async def _write(stream: Any, data: bytes) -> None:
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
