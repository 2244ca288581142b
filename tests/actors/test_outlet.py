"""A connection's outlet: frames written to the socket at once when nothing waits for the
connection, queued for the gateway's writer otherwise, and the two never out of order
(with a socket that takes only part of a frame, its rest goes first); a full outbox drops
the connection; receipts wait for the frames queued."""

from __future__ import annotations

import socket
from collections import Counter
from typing import cast

import pytest
import trio
import trio.testing
from trio_websocket import WebSocketConnection

from quaymoor.actors.connection import Connection
from quaymoor.actors.gateway import Gateway
from quaymoor.actors.outlet import TOO_SLOW_REASON, Frame, Offer, Outlet, Receipt
from quaymoor.actors.supervisor import Supervisor
from quaymoor.actors.ws_socket import FrameSocket, text_frame
from quaymoor.config import ServerConfig, TableConfig
from quaymoor.ops.metrics import Metrics
from quaymoor.protocol.codes import Close
from tests.actors.test_ws_socket import websockets_over


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
    """``texts`` offered to one connection's outlet whose gateway writer runs on a real
    socket; what the client received, and how much of each frame offered at once the
    socket took."""
    config = ServerConfig(table=TableConfig())
    gateway = Gateway(Supervisor(config.table), config)
    answers: Counter[str] = Counter()
    got: list[str | bytes] = []
    real = FrameSocket.try_write

    def counted(self: FrameSocket, frame: bytes) -> int:
        sent = real(self, frame)
        answers["whole" if sent == len(frame) else "part" if sent else "none"] += 1
        return sent

    monkeypatch.setattr(FrameSocket, "try_write", counted)
    async with trio.open_nursery() as nursery:
        server, client = await _pair(nursery, small=small)
        conn = Connection(1, Outlet(len(texts) + 1))
        outlet = conn.outlet

        async def writer() -> None:
            async with trio.open_nursery() as inner:
                inner.start_soon(gateway._writer, server, conn, inner)

        nursery.start_soon(writer)
        await trio.testing.wait_all_tasks_blocked()  # the writer waits: its socket is open

        async def read() -> None:
            for _ in texts:
                got.append(await client.get_message())
                if slow_reader and len(got) % 50 == 0:
                    await trio.sleep(0.002)

        nursery.start_soon(read)
        with trio.fail_after(60):
            for i, text in enumerate(texts):
                assert outlet.offer(Frame(text)) in (Offer.SENT, Offer.QUEUED)
                if i % 7 == 0 or (i // 100) % 2:
                    await trio.sleep(0)  # the table yields now and then, or after each
                if small and i % 10 == 0:  # ... and sometimes until the writer is idle,
                    while outlet.written < outlet.queued:  # with the socket still full
                        await trio.sleep(0)
            while len(got) < len(texts):
                await trio.sleep(0.01)
        assert not outlet.dropped.is_set()
        assert outlet.written == outlet.queued == len(texts)
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
        self.out = 0

    def action_done(self, seconds: float) -> None:
        self.done.append(seconds)

    def message_out(self, count: int = 1) -> None:
        self.out += count


def _metrics() -> tuple[_Metrics, Metrics]:
    metrics = _Metrics()
    return metrics, cast(Metrics, metrics)


async def test_an_action_whose_frames_all_went_at_once_is_timed_on_release() -> None:
    metrics, as_metrics = _metrics()
    receipt = Receipt(trio.current_time(), as_metrics)
    receipt.used = True  # a broadcast carried it, and every frame went at once
    receipt.release()
    assert len(metrics.done) == 1
    refused = Receipt(trio.current_time(), as_metrics)
    refused.release()  # no broadcast: not an action's latency
    assert len(metrics.done) == 1
    queued = Receipt(trio.current_time(), as_metrics)
    queued.used = True
    queued.remaining += 1  # one frame waits for a writer
    queued.release()
    assert len(metrics.done) == 1
    queued.sent()
    assert len(metrics.done) == 2


async def test_a_receipt_waits_for_each_outlet_that_queued_its_frame() -> None:
    metrics, as_metrics = _metrics()
    receipt = Receipt(trio.current_time(), as_metrics)
    receipt.used = True
    slow, gone = Outlet(8, as_metrics), Outlet(8)
    update = Frame("update")
    for outlet in (slow, gone):
        outlet.offer(Frame("before"))
        assert outlet.offer(update, receipt) is Offer.QUEUED
    receipt.release()
    batch = slow.take(whole=False)
    assert batch is not None and [f.text for f in batch.frames] == ["before"]
    slow.sent(batch)
    assert metrics.done == []  # its update is still queued
    batch = slow.take()
    assert batch is not None and [f.text for f in batch.frames] == ["update"]
    slow.sent(batch)
    assert metrics.done == [] and metrics.out == 2  # written, and counted
    gone.let_go()  # the other connection went away: what it owed counts as sent
    assert len(metrics.done) == 1


async def test_a_full_outbox_drops_the_connection_and_keeps_what_it_had() -> None:
    outlet = Outlet(2)
    assert [outlet.offer(Frame(t)) for t in ("a", "b")] == [Offer.QUEUED] * 2
    assert not outlet.dropped.is_set()
    assert outlet.offer(Frame("c")) is Offer.DROPPED
    assert outlet.dropped.is_set()
    assert (outlet.close_code, outlet.close_reason) == (Close.TOO_SLOW, TOO_SLOW_REASON)
    assert outlet.offer(Frame("d")) is Offer.CLOSED
    outlet.end(Close.POLICY, "too many messages: slow down")  # closed: keeps its code
    assert outlet.close_code is Close.TOO_SLOW
    batch = await outlet.next_batch()
    assert batch is not None and [f.text for f in batch.frames] == ["a", "b"]
    assert await outlet.next_batch() is None  # then the writer closes with 4003


class _Taking:
    """A socket that takes at most ``room`` bytes of each write at once."""

    def __init__(self, room: int) -> None:
        self.room = room
        self.taken = b""

    def try_write(self, frame: bytes) -> int:
        took = frame[:self.room]
        self.taken += took
        return len(took)


async def test_a_frame_written_in_part_has_its_rest_first_in_the_next_batch() -> None:
    outlet = Outlet(8)
    taking = _Taking(room=5)
    outlet.write_through(cast(FrameSocket, taking))
    first, second, third = Frame("x" * 40), Frame("second"), Frame("third")
    assert outlet.offer(first) is Offer.QUEUED  # 5 bytes went, the rest waits
    assert outlet.offer(second) is Offer.QUEUED  # behind it, never at once
    assert outlet.offer(third) is Offer.QUEUED
    assert taking.taken == first.data[:5]
    batch = outlet.take()
    assert batch is not None and batch.frames == [first, second, third]
    assert taking.taken + batch.data() == b"".join(f.data for f in (first, second, third))
    outlet.sent(batch)
    assert outlet.written == outlet.queued == 3
    taking.room = 1000
    assert outlet.offer(Frame("now")) is Offer.SENT  # nothing waits: at once, whole
    assert outlet.written == outlet.queued == 4
    assert outlet.take() is None


def test_a_frame_is_made_once_for_every_connection_it_goes_to(
        monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []

    def counted(text: str) -> bytes:
        made.append(text)
        return text_frame(text)

    monkeypatch.setattr("quaymoor.actors.outlet.text_frame", counted)
    frame = Frame("spectators' update")
    sockets = [_Taking(room=1000) for _ in range(3)]
    for taking in sockets:
        outlet = Outlet(8)
        outlet.write_through(cast(FrameSocket, taking))
        assert outlet.offer(frame) is Offer.SENT
    assert made == ["spectators' update"]
    assert {s.taken for s in sockets} == {text_frame("spectators' update")}
