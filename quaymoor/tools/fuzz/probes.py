"""Fixed probes of the limits and the front door, each with the one answer it must get:
oversized messages (1009), a flood (1008), cross-site Origins (403), path traversal on
static files (never 200, never a file from outside ``web/``), garbage HTTP heads (400,
431, 505). A wrong answer is counted in the "probes answered wrongly" column."""

from __future__ import annotations

import json
from typing import Final

import trio
import trio_websocket

from quaymoor.tools.fuzz.checks import Input
from quaymoor.tools.fuzz.context import Run
from quaymoor.tools.fuzz.tables import Target
from quaymoor.tools.fuzz.values import MEGABYTE
from quaymoor.tools.fuzz.wire import HOST, open_ws

CATEGORY: Final = "limits and front door"
TRAVERSALS: Final = (
    "/../pyproject.toml", "/%2e%2e/pyproject.toml", "/..%2fpyproject.toml",
    "/web/../../etc/passwd", "//etc/passwd", "/%00", "/.git/config", "/../quaymoor/server.py",
    "/static/%2e%2e%2f%2e%2e%2fetc%2fpasswd", "/%c0%ae%c0%ae/pyproject.toml", "/\u00f1",
)


async def _raw_http(port: int, raw: bytes) -> tuple[int, bytes]:
    stream = await trio.open_tcp_stream(HOST, port)
    data = b""
    async with stream:
        await stream.send_all(raw)
        with trio.move_on_after(5):
            while chunk := await stream.receive_some(65536):
                data += chunk
    head = data.split(b"\r\n", 1)[0].split()
    return (int(head[1]) if len(head) > 1 and head[1].isdigit() else 0), data


async def run_probes(run: Run, table: Target) -> None:
    token = table.seat_tokens()[0] if table.seat_tokens() else None
    hello = json.dumps({"type": "hello", "table": table.id, "token": token})

    def wrong(what: str, payload: str | bytes) -> None:
        run.tally.fail("probes answered wrongly", what, table.where,
                       [Input("ws", "probe", "probe", payload)])

    for text, allowed in (("x" * 70_000, (1009,)), (MEGABYTE.text, (1009, 1006))):
        code = await _session(run.port, hello, [text])
        run.tally.tried_one(CATEGORY, "websocket message size", f"{len(text)} bytes")
        if code not in allowed:
            wrong(f"a {len(text)}-byte message closed with {code}, not {allowed}", text[:80])
    code = await _session(run.port, hello, ['{"type":"ping"}'] * 300)
    run.tally.tried_one(CATEGORY, "websocket rate", "300 pings at once")
    if code != 1008:
        wrong(f"a flood closed with {code}, not 1008", '{"type":"ping"} x 300')
    for origin in ("http://evil.example", "null", "https://127.0.0.1.evil.example"):
        status, _ = await _raw_http(run.port, (
            f"GET /ws HTTP/1.1\r\nHost: {HOST}:{run.port}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            f"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: {origin}\r\n\r\n").encode())
        run.tally.tried_one(CATEGORY, "websocket Origin", "cross-site")
        if status != 403:
            wrong(f"Origin {origin} got {status}, not 403", origin)
    for path in TRAVERSALS:
        status, data = await _raw_http(run.port, (
            f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").encode(
                "utf-8", "surrogateescape"))
        run.tally.tried_one(CATEGORY, "static path", "traversal")
        if status == 200 or b"root:" in data or b"[project]" in data:
            wrong(f"{path} answered {status}", path)
    big = "X-Big: " + "a" * 40_000
    for raw in (f"GET / HTTP/1.1\r\nHost: x\r\n{big}\r\n\r\n".encode(),
                b"\x00\x01garbage\r\n\r\n", b"GET\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n",
                b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999\r\n\r\n{"):
        status, _ = await _raw_http(run.port, raw)
        run.tally.tried_one(CATEGORY, "HTTP head", "garbage")
        if status not in (400, 413, 431, 505):
            wrong(f"a bad HTTP head got {status}", raw[:80])


async def _session(port: int, hello: str, frames: list[str]) -> int | None:
    """Hello, the frames, a moment of reading: the close code (None while open)."""
    try:
        async with open_ws(port) as ws:
            try:
                await ws.send_message(hello)
                for f in frames:
                    await ws.send_message(f)
                with trio.move_on_after(1.0):
                    while True:
                        await ws.get_message()
            finally:
                await ws.aclose()
    except trio_websocket.ConnectionClosed as exc:
        return exc.reason.code if exc.reason else None
    return None
