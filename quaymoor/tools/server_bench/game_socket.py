"""How both clients of a load (players and spectators) connect to the server's
``/ws?table=<id>``, as the web client opens it (through HAProxy the table in the URL
routes the connection to the table's process).

A client waits for a place at the connect gate (a semaphore bounding the connections
being opened at once), opens the websocket and talks over it; the place is given back
once the client is welcomed (it calls the ``welcomed`` it is handed) or, at the latest,
when the connection is over. A connection that ends early or never opens is counted,
not raised: the load goes on with the other clients. Like the web client, every client
sends a ``ping`` every ``PING_SECONDS`` (the server closes a connection that sends nothing
for two minutes, 4007: a player waiting through the others' long turns would be one).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Protocol

import trio
import trio_websocket

from quaymoor.tools.server_bench.settings import HOST


class EndCounts(Protocol):
    """Where a client's failed connections are counted, by why."""

    closed_early: Counter[str]  #: closed before the stream's end (close code and reason)
    connect_failures: Counter[str]  #: never opened (handshake or socket error)


PING_SECONDS = 25.0  #: as web/net.js

Talk = Callable[[trio_websocket.WebSocketConnection, Callable[[], None]], Awaitable[None]]


async def run_connected(port: int, table: str, gate: trio.Semaphore, counts: EndCounts,
                        talk: Talk) -> None:
    """Connect to ``table``'s ``/ws`` through ``gate`` and run ``talk(ws, welcomed)``; a close or a
    connect error ends it and is counted in ``counts``. Blocks while the gate is full."""
    await gate.acquire()
    held = True

    def welcomed() -> None:
        nonlocal held
        if held:
            held = False
            gate.release()

    try:
        async with trio_websocket.open_websocket_url(
            f"ws://{HOST}:{port}/ws?table={table}", connect_timeout=60, disconnect_timeout=2,
            max_message_size=1 << 22,
        ) as ws:
            try:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(_keep_alive, ws)
                    await talk(ws, welcomed)
                    nursery.cancel_scope.cancel()
            except BaseExceptionGroup as group:  # talk's own error, as if unwrapped
                if len(group.exceptions) == 1:
                    raise group.exceptions[0] from None
                raise
    except trio_websocket.ConnectionClosed as exc:
        reason = exc.reason
        why = f"{reason.code} {reason.reason}" if reason is not None else "no reason"
        counts.closed_early[why] += 1
    except trio_websocket.HandshakeError as exc:
        counts.connect_failures[type(exc).__name__] += 1
    except OSError as exc:
        counts.connect_failures[f"{type(exc).__name__} {exc.errno}"] += 1
    finally:
        welcomed()


async def _keep_alive(ws: trio_websocket.WebSocketConnection) -> None:
    """Ping every ``PING_SECONDS`` until the connection closes (talk counts the close)."""
    try:
        while True:
            await trio.sleep(PING_SECONDS)
            await ws.send_message('{"type":"ping"}')
    except trio_websocket.ConnectionClosed:
        return
