"""The clients of the tests whose cluster is laid over hosts of its own
(``quaymoor.cluster.netns_cluster``): the same requests and websockets as
``tests.actors.test_end_to_end`` and ``tests.cluster.running``, to the router's address
rather than 127.0.0.1. They run in the ``client`` host (``cluster.hosts.entered``)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
import trio
from trio_websocket import open_websocket_url

from quaymoor.cluster.netns import missing
from quaymoor.rules.fairness import seed_commitment
from tests.actors.test_end_to_end import Client, HttpReply
from tests.cluster.running import needs_cluster_tools

Where = tuple[str, int]  #: an address and port: the router's


def needs_namespaces() -> None:
    """Skip, saying why, where namespaces (root, ``ip``), HAProxy or PostgreSQL are missing."""
    reason = missing()
    if reason is not None:
        pytest.skip(reason)
    needs_cluster_tools()


async def http(where: Where, method: str, path: str, body: Any = None,
               token: str | None = None) -> HttpReply:
    """One HTTP/1.1 request on its own connection (``Connection: close``)."""
    host, port = where
    payload = b"" if body is None else json.dumps(body).encode()
    head = [f"{method} {path} HTTP/1.1", f"Host: {host}:{port}", "Connection: close",
            "Accept: application/json"]
    if token is not None:
        head.append(f"Authorization: Bearer {token}")
    if body is not None:
        head += ["Content-Type: application/json", f"Content-Length: {len(payload)}"]
    stream = await trio.open_tcp_stream(host, port)
    async with stream:
        await stream.send_all(("\r\n".join(head) + "\r\n\r\n").encode() + payload)
        raw = b""
        while chunk := await stream.receive_some(65536):
            raw += chunk
    top, _, rest = raw.partition(b"\r\n\r\n")
    status_line, *lines = top.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    decoded = json.loads(rest) if rest and "json" in headers.get("content-type", "") else None
    return HttpReply(int(status_line.split()[1]), headers, decoded)


async def play_now(where: Where, players: int = 2, name: str = "Ada") -> dict[str, Any]:
    """Play now as the browser does it: the table and seat, the commitment, the start,
    the seed revealed."""
    reply = await http(where, "POST", "/api/play-now", {"name": name, "players": players})
    assert reply.status == 201, reply
    info: dict[str, Any] = reply.body
    table, token, seed = info["table"], info["token"], f"{name}'s dice"
    for verb, body in (
            ("commit", {"token": token,
                        "commitment": seed_commitment(table, info["seat"], seed)}),
            ("start", {"token": token}),
            ("reveal", {"token": token, "client_seed": seed})):
        answered = await http(where, "POST", f"/api/tables/{table}/{verb}", body)
        assert answered.status == 200, answered
    return info


@asynccontextmanager
async def connect_to(where: Where, table: str) -> AsyncIterator[Client]:
    """A websocket to ``table`` through the router, as the web client opens it."""
    host, port = where
    async with open_websocket_url(f"ws://{host}:{port}/ws?table={table}") as ws:
        yield Client(ws)


async def tables_on(where: Where, prefixes: tuple[str, ...], each: int
                    ) -> dict[str, list[dict[str, Any]]]:
    """Play-now tables until every slot prefix (``00``: table-1) has ``each`` of them."""
    found: dict[str, list[dict[str, Any]]] = {p: [] for p in prefixes}
    for _ in range(each * len(prefixes) * 6):
        if all(len(v) >= each for v in found.values()):
            break
        info = await play_now(where)
        found.setdefault(info["table"][:2], []).append(info)
    assert all(len(found[p]) >= each for p in prefixes), found
    return found
