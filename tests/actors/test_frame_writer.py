"""The frame writer: its frames are wsproto's, byte for byte, and a batch of messages
reaches a real trio-websocket client in order, in one write."""

from __future__ import annotations

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

from quaymoor.actors.frame_writer import FrameWriter, text_frame

TEXTS = ["", "a", "x" * 125, "x" * 126, "y" * 65535, "z" * 65536, "héllo \u202e ☃ 𝄞",
         "\x00nul", "é" * 40000]


@pytest.mark.parametrize("text", TEXTS, ids=lambda t: f"{len(t)} chars")
def test_a_frame_is_the_one_wsproto_would_send(text: str) -> None:
    assert text_frame(text) == bytes(FrameProtocol(client=False, extensions=[]).send_data(text))


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
        writer = FrameWriter(server)
        before = counting.writes
        texts = [f"message {i} {'é' * i}" for i in range(200)]
        await writer.send(texts)
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
            await FrameWriter(server).send(["too late"])
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
        await FrameWriter(server).send(texts)
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
        await FrameWriter(server).send(texts)
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
        writer = FrameWriter(server)
        with pytest.raises(ConnectionClosed), trio.fail_after(10):
            for _ in range(100):  # the first writes may still reach the kernel's buffer
                await writer.send(["x" * 60_000])
                await trio.sleep(0.01)
        nursery.cancel_scope.cancel()
