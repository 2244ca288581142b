"""The gateway's writer against a socket that stops taking data: one message that cannot be
sent within ``send_timeout`` ends the connection (``Gateway.watch_sends``), while a slow
socket that still takes every message within it is left alone."""

from __future__ import annotations

from typing import cast

import trio
from trio_websocket import WebSocketConnection

from quaymoor.actors.connection import Connection
from quaymoor.actors.gateway import Gateway
from quaymoor.actors.outlet import Frame, Offer, Outlet
from quaymoor.actors.supervisor import Supervisor
from quaymoor.config import ServerConfig, TableConfig
from quaymoor.protocol.codes import Close

SEND_TIMEOUT = 30.0


class StuckSocket:
    """A websocket whose sends take ``delay`` seconds each (forever when None)."""

    def __init__(self, delay: float | None) -> None:
        self.delay = delay
        self.sent: list[str] = []
        self.closed = False

    async def send_message(self, text: str) -> None:
        if self.delay is None:
            await trio.sleep_forever()
        await trio.sleep(self.delay)
        self.sent.append(text)

    async def aclose(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed = True


async def run_writer(socket: StuckSocket, frames: int) -> tuple[float, Connection]:
    """Feed ``frames`` messages to a writer on ``socket`` and close the outlet; returns how
    long the writer ran, and its connection."""
    config = ServerConfig(table=TableConfig(), send_timeout=SEND_TIMEOUT)
    gateway = Gateway(Supervisor(config.table), config)
    conn = Connection(1, Outlet(frames))
    for i in range(frames):
        assert conn.outlet.offer(Frame(f"frame {i}")) is Offer.QUEUED
    conn.outlet.close(Close.TABLE_CLOSED, "table closed")
    start = trio.current_time()
    with trio.fail_after(SEND_TIMEOUT * 10):
        took = await _writer_until_done(gateway, socket, conn)
    assert not gateway._sending, "the writer is still watched after it ended"
    return took - start, conn


async def _writer_until_done(gateway: Gateway, socket: StuckSocket, conn: Connection
                             ) -> float:
    async with trio.open_nursery() as outer:
        outer.start_soon(gateway.watch_sends)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(gateway._writer, cast(WebSocketConnection, socket), conn,
                               nursery)
        ended = trio.current_time()
        outer.cancel_scope.cancel()
    return ended


async def test_a_message_that_cannot_be_sent_in_time_ends_the_connection(
        autojump_clock: trio.abc.Clock) -> None:
    socket = StuckSocket(delay=None)
    took, _ = await run_writer(socket, frames=3)
    assert SEND_TIMEOUT < took <= SEND_TIMEOUT + 1.5
    assert socket.sent == [] and not socket.closed


async def test_a_slow_socket_that_keeps_up_is_not_cut(
        autojump_clock: trio.abc.Clock) -> None:
    socket = StuckSocket(delay=SEND_TIMEOUT * 0.9)  # each message in time, all of them late
    took, conn = await run_writer(socket, frames=3)
    assert socket.sent == ["frame 0", "frame 1", "frame 2"]
    assert socket.closed  # the outbox ended: closed with the table's code
    assert conn.outlet.written == 3
    assert took >= 3 * SEND_TIMEOUT * 0.9
