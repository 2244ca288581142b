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
