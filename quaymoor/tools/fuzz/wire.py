"""The fuzzer's two clients, each with the 2-second answer bound.

``HttpClient``: HTTP/1.1 with keep-alive through h11 (many requests per connection),
reconnecting when the server closes. ``open_ws``: a websocket, no Origin. ``Hung`` is
raised when an answer does not come within ``ANSWER_SECONDS``.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Final
from urllib.parse import quote

import h11
import trio
import trio_websocket

HOST: Final = "127.0.0.1"
#: Every request must be answered within this (the "hung requests" column).
ANSWER_SECONDS: Final = 2.0


class Hung(Exception):
    """No answer within ``ANSWER_SECONDS``."""


class HttpClient:
    """One keep-alive HTTP connection to the server; not for concurrent use."""

    def __init__(self, port: int) -> None:
        self.port = port
        self._stream: trio.SocketStream | None = None
        self._conn = h11.Connection(h11.CLIENT)

    async def aclose(self) -> None:
        if self._stream is not None:
            await self._stream.aclose()
            self._stream = None

    async def request(self, method: str, path: str, body: bytes | None = None,
                      headers: tuple[tuple[str, str], ...] = ()) -> tuple[int, bytes]:
        """Send one request, return (status, body). Raises ``Hung`` past the bound, and
        ``OSError`` when the connection fails (it is reopened on the next call)."""
        target = quote(path, safe="/%?=&:+-._~!$'()*,;@")
        head = [("Host", f"{HOST}:{self.port}"), *headers]
        if body is not None:
            head += [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]
        try:
            with trio.fail_after(ANSWER_SECONDS):
                reused = self._stream is not None
                try:
                    return await self._exchange(method, target, head, body)
                except (OSError, h11.ProtocolError, trio.BrokenResourceError):
                    if not reused:
                        raise
                    await self._reset()  # the server closed an idle keep-alive: once more
                    return await self._exchange(method, target, head, body)
        except trio.TooSlowError:
            await self._reset()
            raise Hung(f"{method} {path}") from None
        except (OSError, h11.ProtocolError, trio.BrokenResourceError) as exc:
            await self._reset()
            raise OSError(f"{method} {path}: {exc}") from None

    async def _reset(self) -> None:
        await self.aclose()
        self._conn = h11.Connection(h11.CLIENT)

    async def _exchange(self, method: str, target: str, head: list[tuple[str, str]],
                        body: bytes | None) -> tuple[int, bytes]:
        if self._stream is None or self._conn.our_state is not h11.IDLE:
            await self._reset()
            self._stream = await trio.open_tcp_stream(HOST, self.port)
        stream, conn = self._stream, self._conn
        assert stream is not None
        out = conn.send(h11.Request(method=method, target=target, headers=head))
        if body:
            out = (out or b"") + (conn.send(h11.Data(data=body)) or b"")
        out = (out or b"") + (conn.send(h11.EndOfMessage()) or b"")
        await stream.send_all(out)
        status, chunks = 0, []
        while True:
            event = conn.next_event()
            if event is h11.NEED_DATA:
                data = await stream.receive_some(65536)
                conn.receive_data(data)
                continue
            if isinstance(event, h11.Response):
                status = event.status_code
            elif isinstance(event, h11.Data):
                chunks.append(bytes(event.data))
            elif isinstance(event, h11.EndOfMessage | h11.ConnectionClosed):
                break
        if conn.our_state is h11.DONE and conn.their_state is h11.DONE:
            conn.start_next_cycle()
        else:
            await self._reset()
        return status, b"".join(chunks)

    async def json(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """A JSON request and its decoded answer (None when the answer is not JSON)."""
        raw = None if body is None else json.dumps(body).encode()
        status, data = await self.request(method, path, raw)
        try:
            return status, json.loads(data)
        except ValueError:
            return status, None


def ws_url(port: int) -> str:
    return f"ws://{HOST}:{port}/ws"


@asynccontextmanager
async def open_ws(port: int) -> AsyncIterator[trio_websocket.WebSocketConnection]:
    """A websocket for the ``async with`` block, closed after it. What the block raises
    comes out as itself, not wrapped in the nursery's exception group."""
    try:
        async with trio.open_nursery() as nursery:
            ws = await connect_ws(nursery, port)
            try:
                yield ws
            finally:
                await ws.aclose()
    except BaseExceptionGroup as group:
        exc: BaseException = group
        while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
            exc = exc.exceptions[0]
        raise exc from None


async def connect_ws(nursery: trio.Nursery, port: int) -> trio_websocket.WebSocketConnection:
    """A websocket to the server within the answer bound (raises ``Hung``)."""
    try:
        with trio.fail_after(ANSWER_SECONDS):
            return await trio_websocket.connect_websocket_url(
                nursery, ws_url(port), max_message_size=1 << 22)
    except trio.TooSlowError:
        raise Hung("websocket upgrade") from None


async def receive(ws: trio_websocket.WebSocketConnection, seconds: float) -> str | None:
    """The next message, or None when none comes within ``seconds``. Raises
    ``ConnectionClosed`` when the server closed."""
    with trio.move_on_after(seconds):
        return str(await ws.get_message())
    return None
