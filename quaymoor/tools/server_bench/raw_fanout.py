"""The yardstick for the spectator fan-out: a minimal trio-websocket server that broadcasts
messages of a given size to as many clients, and those clients, counting what arrives.

The server runs in its own subprocess (``raw_server_main``); the clients run in the
benchmark's client processes (``raw_clients``).
"""

from __future__ import annotations

import time
from typing import Any

import trio
import trio_websocket

from quaymoor.ops.open_files import raise_open_files
from quaymoor.tools.server_bench.settings import HOST


def raw_server_main(clients: int, seconds: float, size: int) -> None:
    """Entry point of the raw fan-out subprocess: prints ``PORT n``, waits for ``clients``
    connections (20 s at most), broadcasts ``size``-byte messages for ``seconds``, closes
    every connection, prints ``SENT n SECONDS s``."""
    raise_open_files()
    trio.run(_raw_server, clients, seconds, size)


async def _raw_server(clients: int, seconds: float, size: int) -> None:
    channels: list[trio.MemorySendChannel[str]] = []
    everyone = trio.Event()
    done = trio.Event()

    async def handler(request: trio_websocket.WebSocketRequest) -> None:
        ws = await request.accept()
        send, recv = trio.open_memory_channel[str](16)
        channels.append(send)
        if len(channels) >= clients:
            everyone.set()
        try:
            async for text in recv:
                await ws.send_message(text)
            await ws.aclose()
        except trio_websocket.ConnectionClosed:
            pass

    async with trio.open_nursery() as nursery:
        server = await nursery.start(trio_websocket.serve_websocket, handler, HOST, 0, None)
        print(f"PORT {server.port}", flush=True)
        with trio.move_on_after(20):
            await everyone.wait()
        payload = "x" * size
        sent = 0
        start = time.monotonic()
        end = start + seconds
        while time.monotonic() < end:
            for ch in list(channels):
                try:
                    await ch.send(payload)
                    sent += 1
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    channels.remove(ch)
        elapsed = time.monotonic() - start
        for ch in channels:
            ch.close()
        print(f"SENT {sent} SECONDS {elapsed:.3f}", flush=True)
        done.set()
        with trio.move_on_after(10):
            await trio.sleep(3)  # let the writers drain and close
        nursery.cancel_scope.cancel()


async def raw_clients(port: int, n: int, seconds: float) -> dict[str, Any]:
    counts: list[int] = []
    firsts: list[float] = []
    lasts: list[float] = []
    failures = 0

    async def client() -> None:
        nonlocal failures
        got = 0
        first = last = 0.0
        try:
            async with trio_websocket.open_websocket_url(
                f"ws://{HOST}:{port}/", connect_timeout=20, disconnect_timeout=2,
            ) as ws:
                while True:
                    await ws.get_message()
                    last = time.monotonic()
                    if got == 0:
                        first = last
                    got += 1
        except trio_websocket.ConnectionClosed:
            pass
        except (OSError, trio_websocket.HandshakeError):
            failures += 1
        counts.append(got)
        if got:
            firsts.append(first)
            lasts.append(last)

    with trio.move_on_after(seconds + 40):
        async with trio.open_nursery() as nursery:
            for _ in range(n):
                nursery.start_soon(client)
    return {"received": sum(counts), "first": min(firsts, default=0.0),
            "last": max(lasts, default=0.0), "failures": failures, "clients": n}
