"""A table's frames written to the socket at once (``Connection.send_now``) when nothing
waits for the connection, queued for the gateway's writer otherwise, and the two never
out of order: with a socket that takes only part of a frame, its rest goes first."""

from __future__ import annotations

import socket
from collections import Counter
from typing import Any

import pytest
import trio
from trio_websocket import WebSocketConnection

from quaymoor.actors.connection import Connection, Receipt
from quaymoor.actors.fanout import Fanout
from quaymoor.actors.gateway import Gateway
from quaymoor.actors.supervisor import Supervisor
from quaymoor.config import ServerConfig, TableConfig
from tests.actors.test_frame_writer import websockets_over


def _tcp_pair() -> tuple[trio.socket.SocketType, trio.socket.SocketType]:
    """Two ends of a TCP connection on the loopback (a TCP socket takes part of a write
    when its buffer is nearly full; a Unix one mostly takes all or nothing)."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        client = socket.create_connection(listener.getsockname()[:2])
        server, _ = listener.accept()
    return trio.socket.from_stdlib_socket(server), trio.socket.from_stdlib_socket(client)


async def _pair(nursery: trio.Nursery, *, small: bool) -> tuple[WebSocketConnection,
                                                                WebSocketConnection]:
    a, b = _tcp_pair()
    if small:  # a socket that fills at once: parts of frames, and queueing
        a.setsockopt(trio.socket.SOL_SOCKET, trio.socket.SO_SNDBUF, 32768)
        b.setsockopt(trio.socket.SOL_SOCKET, trio.socket.SO_RCVBUF, 32768)
    return await websockets_over(nursery, a, b)


async def _fan_out(texts: list[str], *, small: bool, slow_reader: bool,
                   monkeypatch: pytest.MonkeyPatch) -> tuple[list[str | bytes], Counter[str]]:
    """``texts`` through a fan-out to one connection whose gateway writer runs on a real
    socket; what the client received, and how ``send_now`` answered."""
    config = ServerConfig(table=TableConfig())
    gateway = Gateway(Supervisor(config.table), config)
    answers: Counter[str] = Counter()
    got: list[str | bytes] = []
    real = Connection.send_now

    def counted(self: Connection, frame: bytes) -> bool | None:
        done = real(self, frame)
        answers[{True: "whole", None: "part", False: "none"}[done]] += 1
        return done

    monkeypatch.setattr(Connection, "send_now", counted)
    async with trio.open_nursery() as nursery:
        server, client = await _pair(nursery, small=small)
        send, receive = trio.open_memory_channel[str](len(texts) + 1)
        conn = Connection(1, send)
        gone: list[Any] = []
        fanout = Fanout("t", on_gone=gone.append)
        fanout.add(conn)

        async def writer() -> None:
            async with trio.open_nursery() as inner:
                inner.start_soon(gateway._writer, server, receive, conn, inner)

        nursery.start_soon(writer)
        while conn.direct is None:
            await trio.sleep(0)

        async def read() -> None:
            for _ in texts:
                got.append(await client.get_message())
                if slow_reader and len(got) % 50 == 0:
                    await trio.sleep(0.002)

        nursery.start_soon(read)
        with trio.fail_after(60):
            for i, text in enumerate(texts):
                assert fanout.send_text(conn, text), "dropped"
                if i % 7 == 0 or (i // 100) % 2:
                    await trio.sleep(0)  # the table yields now and then, or after each
                if small and i % 10 == 0:  # ... and sometimes until the writer is idle,
                    while conn.written < conn.queued:  # with the socket still full
                        await trio.sleep(0)
            while len(got) < len(texts):
                await trio.sleep(0.01)
        assert not gone
        assert conn.written == conn.queued == len(texts)
        nursery.cancel_scope.cancel()
    return got, answers


async def test_an_idle_connection_is_written_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [f'{{"n":{i},"t":"\u202e 𝄞 é"}}' for i in range(200)]
    got, answers = await _fan_out(texts, small=False, slow_reader=False,
                                  monkeypatch=monkeypatch)
    assert got == texts
    assert answers["whole"] == len(texts)  # the writer task never had to run


async def test_a_full_socket_takes_parts_and_the_queue_and_keeps_the_order(
        monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [f'{{"n":{i:05d},"pad":"{"x" * (1000 + i * 7919 % 20000)}"}}' for i in range(1500)]
    got, answers = await _fan_out(texts, small=True, slow_reader=True,
                                  monkeypatch=monkeypatch)
    assert got == texts
    assert answers["whole"] > 0 and answers["part"] > 0, answers
    assert answers["whole"] < len(texts) - 100, "the writer's queue was hardly used"


class _Metrics:
    def __init__(self) -> None:
        self.done: list[float] = []

    def action_done(self, seconds: float) -> None:
        self.done.append(seconds)


async def test_an_action_whose_frames_all_went_at_once_is_timed_on_release() -> None:
    metrics = _Metrics()
    receipt = Receipt(trio.current_time(), metrics)  # type: ignore[arg-type]
    receipt.used = True  # a broadcast carried it, and every frame went at once
    receipt.release()
    assert len(metrics.done) == 1
    refused = Receipt(trio.current_time(), metrics)  # type: ignore[arg-type]
    refused.release()  # no broadcast: not an action's latency
    assert len(metrics.done) == 1
    queued = Receipt(trio.current_time(), metrics)  # type: ignore[arg-type]
    queued.used = True
    queued.remaining += 1  # one frame waits for a writer
    queued.release()
    assert len(metrics.done) == 1
    queued.sent()
    assert len(metrics.done) == 2
