"""The fault bench's plain HTTP, from trio: one request on its own connection, bounded in
time, that never raises for a server that is down (a fault is what the bench is for)."""

from __future__ import annotations

import json
from typing import Any

import trio

from quaymoor.tools.server_bench.settings import HOST


async def request(port: int, method: str, path: str, body: Any = None, *,
                  timeout: float = 5.0, token: str | None = None) -> tuple[int, bytes] | None:
    """``method path`` on ``port`` (``Connection: close``; ``token`` as the operator's
    bearer when given): (status, body), or None when the port did not answer a whole
    response within ``timeout`` (refused, reset, silent)."""
    payload = b"" if body is None else json.dumps(body).encode()
    head = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{port}", "Connection: close",
            "Accept: application/json"]
    if body is not None:
        head += ["Content-Type: application/json", f"Content-Length: {len(payload)}"]
    if token is not None:
        head.append(f"Authorization: Bearer {token}")
    with trio.move_on_after(timeout):
        try:
            stream = await trio.open_tcp_stream(HOST, port)
            async with stream:
                await stream.send_all(("\r\n".join(head) + "\r\n\r\n").encode() + payload)
                raw = b""
                while chunk := await stream.receive_some(65536):
                    raw += chunk
        except (OSError, trio.BrokenResourceError):
            return None
        top, _, rest = raw.partition(b"\r\n\r\n")
        try:
            return int(top.split()[1]), rest
        except (IndexError, ValueError):
            return None
    return None


async def post_json(port: int, path: str, body: Any) -> dict[str, Any] | None:
    """``POST path`` with a JSON body: the JSON answer of a 2xx, else None."""
    got = await request(port, "POST", path, body, timeout=15.0)
    if got is None or not 200 <= got[0] < 300:
        return None
    try:
        data = json.loads(got[1])
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


async def get_json(port: int, path: str, *, token: str | None = None,
                   timeout: float = 5.0) -> Any:
    """``GET path``: the JSON of a 200 answer, else None."""
    got = await request(port, "GET", path, timeout=timeout, token=token)
    if got is None or got[0] != 200:
        return None
    try:
        return json.loads(got[1])
    except ValueError:
        return None
