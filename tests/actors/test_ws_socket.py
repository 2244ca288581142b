"""The frame socket (``ws_socket``): its frames are wsproto's, byte for byte, a batch of
frames reaches a real trio-websocket client in order, in one write, and a trio-websocket
release it does not know stops the server at its start."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path
from typing import cast

import pytest
import trio
import trio.testing
from trio_websocket import (
    ConnectionClosed,
    WebSocketConnection,
    wrap_client_stream,
    wrap_server_stream,
)
from wsproto.frame_protocol import FrameProtocol

from quaymoor.actors import ws_socket
from quaymoor.actors.ws_socket import FrameSocket, UnknownTrioWebsocket, text_frame
from quaymoor.config import ServerConfig
from quaymoor.server import serve

TEXTS = ["", "a", "x" * 125, "x" * 126, "y" * 65535, "z" * 65536, "héllo \u202e ☃ 𝄞",
         "\x00nul", "é" * 40000]


@pytest.mark.parametrize("text", TEXTS, ids=lambda t: f"{len(t)} chars")
def test_a_frame_is_the_one_wsproto_would_send(text: str) -> None:
    assert text_frame(text) == bytes(FrameProtocol(client=False, extensions=[]).send_data(text))


def frames(texts: list[str]) -> bytes:
    return b"".join(text_frame(text) for text in texts)


def frames_of(ws: WebSocketConnection) -> FrameSocket:
    socket = FrameSocket.of(ws)
    assert socket is not None, "a trio-websocket connection without its internals"
    return socket


class CountingStream(trio.abc.HalfCloseableStream):
    """A stream that counts its writes."""

    def __init__(self, inner: trio.abc.HalfCloseableStream) -> None:
        self.inner = inner
        self.writes = 0

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        self.writes += 1
        await self.inner.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.inner.wait_send_all_might_not_block()

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        return await self.inner.receive_some(max_bytes)

    async def send_eof(self) -> None:
        await self.inner.send_eof()

    async def aclose(self) -> None:
        await self.inner.aclose()


async def _pair(nursery: trio.Nursery) -> tuple[WebSocketConnection, WebSocketConnection,
                                                 CountingStream]:
    server_stream, client_stream = trio.testing.memory_stream_pair()
    counting = CountingStream(server_stream)
    accepted: list[WebSocketConnection] = []

    async def serve() -> None:
        request = await wrap_server_stream(nursery, counting)
        accepted.append(await request.accept())

    nursery.start_soon(serve)
    client = await wrap_client_stream(
        nursery, cast(trio.SocketStream, client_stream),  # any stream works (stack-facts)
        "localhost", "/ws", message_queue_size=1000)
    while not accepted:
        await trio.sleep(0)
    return accepted[0], client, counting


async def test_a_batch_arrives_whole_and_in_order_in_one_write() -> None:
    async with trio.open_nursery() as nursery:
        server, client, counting = await _pair(nursery)
        socket = frames_of(server)
        before = counting.writes
        texts = [f"message {i} {'é' * i}" for i in range(200)]
        await socket.write(frames(texts))
        assert counting.writes == before + 1
        got = [await client.get_message() for _ in texts]
        assert got == texts
        await client.aclose()
        nursery.cancel_scope.cancel()


async def test_a_closed_socket_raises_connection_closed() -> None:
    async with trio.open_nursery() as nursery:
        server, client, _ = await _pair(nursery)
        await server.aclose()
        with pytest.raises(ConnectionClosed):
            await frames_of(server).write(frames(["too late"]))
        await client.aclose()
        nursery.cancel_scope.cancel()


async def websockets_over(nursery: trio.Nursery, a: trio.socket.SocketType,
                          b: trio.socket.SocketType) -> tuple[WebSocketConnection,
                                                              WebSocketConnection]:
    """A server websocket on socket ``a`` and its client on ``b`` (the direct write's
    case: a real socket under the server)."""
    accepted: list[WebSocketConnection] = []

    async def serve() -> None:
        request = await wrap_server_stream(nursery, trio.SocketStream(a))
        accepted.append(await request.accept())

    nursery.start_soon(serve)
    client = await wrap_client_stream(nursery, trio.SocketStream(b), "localhost", "/ws",
                                      message_queue_size=100_000)
    while not accepted:
        await trio.sleep(0)
    return accepted[0], client


async def _socket_pair(nursery: trio.Nursery) -> tuple[WebSocketConnection,
                                                       WebSocketConnection]:
    return await websockets_over(nursery, *trio.socket.socketpair())


async def test_over_a_socket_the_frames_are_written_directly(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch the socket takes whole goes out in one ``os.write``, without trio's
    ``send_all``; the client reads it as sent."""
    async with trio.open_nursery() as nursery:
        server, client = await _socket_pair(nursery)
        through_trio = 0
        real_send_all = trio.SocketStream.send_all

        async def counted(self: trio.SocketStream, data: bytes | bytearray | memoryview) -> None:
            nonlocal through_trio
            through_trio += 1
            await real_send_all(self, data)

        monkeypatch.setattr(trio.SocketStream, "send_all", counted)
        texts = [f"update {i} \u202e 𝄞 {'é' * i}" for i in range(100)]
        await frames_of(server).write(frames(texts))
        assert through_trio == 0
        assert [await client.get_message() for _ in texts] == texts
        await client.aclose()
        nursery.cancel_scope.cancel()


async def test_what_the_socket_does_not_take_at_once_follows_in_order() -> None:
    """A batch far larger than the socket's buffers: the rest goes through trio's
    ``send_all`` as the client reads, and every message arrives whole, in order."""
    async with trio.open_nursery() as nursery:
        server, client = await _socket_pair(nursery)
        texts = [f"{i:05d}" + "x" * 65_000 for i in range(200)]  # 13 MB
        got: list[str | bytes] = []

        async def read() -> None:
            for _ in texts:
                got.append(await client.get_message())

        nursery.start_soon(read)
        await frames_of(server).write(frames(texts))
        with trio.fail_after(30):
            while len(got) < len(texts):
                await trio.sleep(0.01)
        assert got == texts
        await client.aclose()
        nursery.cancel_scope.cancel()


async def test_a_peer_gone_from_the_socket_raises_connection_closed() -> None:
    async with trio.open_nursery() as nursery:
        server, client = await _socket_pair(nursery)
        raw = client._stream  # the client's socket, closed under it
        await raw.aclose()
        socket = frames_of(server)
        with pytest.raises(ConnectionClosed), trio.fail_after(10):
            for _ in range(100):  # the first writes may still reach the kernel's buffer
                await socket.write(frames(["x" * 60_000]))
                await trio.sleep(0.01)
        nursery.cancel_scope.cancel()


def test_the_installed_trio_websocket_is_one_it_knows() -> None:
    assert ws_socket.check_version() in ws_socket.KNOWN_VERSIONS


def test_a_release_it_does_not_know_stops_the_server_at_its_start(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    real = importlib.metadata.version
    monkeypatch.setattr(importlib.metadata, "version",
                        lambda name: "0.13.0" if name == "trio-websocket" else real(name))
    with pytest.raises(UnknownTrioWebsocket) as unknown:
        serve(ServerConfig(port=0, archive_path=str(tmp_path / "archive.sqlite3")))
    said = str(unknown.value)
    assert "trio-websocket 0.13.0 is installed" in said
    assert "pip install 'trio-websocket==0.12.2'" in said and "KNOWN_VERSIONS" in said
    assert not (tmp_path / "archive.sqlite3").exists()  # stopped before anything else


def test_a_socket_without_the_internals_is_not_a_frame_socket() -> None:
    """(The gateway's writer then sends each message with ``send_message``:
    test_gateway_writer.py.)"""

    class Fake:
        async def send_message(self, message: str) -> None: ...

    assert FrameSocket.of(Fake()) is None
