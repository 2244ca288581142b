"""The per-address cap on open tables holds across the cluster (issue 15): with address
limits on, one address that has 20 tables waiting, spread over both processes, is refused
its 21st (429 ``too_many_open_tables``) whichever process would take it, through HAProxy
or straight at a process; an X-Forwarded-For a client sends HAProxy changes nothing; a
second address still opens tables."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import trio

from quaymoor.config import ClientLimits
from tests.actors.test_end_to_end import http
from tests.cluster.running import RunningCluster, cluster, live_processes, until, worker_port

LIMIT = 90
OPEN = ClientLimits().open_tables  #: 20


@pytest.fixture(scope="module")
def running() -> Iterator[RunningCluster]:
    with cluster("--bot-delay", "0", "--decision-seconds", "60", address_limits=True) as c:
        yield c


async def create(port: int, *, source: str = "127.0.0.1", path: str = "/api/tables",
                 headers: tuple[str, ...] = ()) -> tuple[int, Any]:
    """``POST path`` (a 2-player table) from the address ``source``: status, JSON body."""
    fields: dict[str, Any] = {"players": 2} | ({"name": "Ada"} if "play" in path else {})
    body = json.dumps(fields).encode()
    head = [f"POST {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close",
            "Content-Type: application/json", f"Content-Length: {len(body)}", *headers]
    stream = await trio.open_tcp_stream("127.0.0.1", port, local_address=source)
    async with stream:
        await stream.send_all(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        raw = b""
        while chunk := await stream.receive_some(65536):
            raw += chunk
    top, _, rest = raw.partition(b"\r\n\r\n")
    return int(top.split()[1]), json.loads(rest)


def too_many_open(answer: tuple[int, Any]) -> bool:
    status, body = answer
    return status == 429 and body["error"]["code"] == "too_many_open_tables"


async def test_the_21st_open_table_of_an_address_is_refused_on_every_process(
        running: RunningCluster) -> None:
    port = running.port
    with trio.fail_after(LIMIT):
        made = [await create(port) for _ in range(OPEN)]
        assert all(status == 201 for status, _ in made), made
        on = Counter(body["table"][:2] for _, body in made)
        # On both processes, so that neither holds the 20 itself: each counts the other's.
        assert set(on) == {"00", "01"} and max(on.values()) < OPEN, on

        async def listed() -> bool:  # the owners' writers have committed every one
            lobby = await http(port, "GET", "/api/tables")
            return {b["table"] for _, b in made} <= {t["id"] for t in lobby.body["tables"]}

        await until(listed, 10)
        for _ in range(4):  # through HAProxy: leastconn puts them on either process
            assert too_many_open(await create(port))
        assert too_many_open(await create(port, path="/api/play-now"))
        # HAProxy sets X-Forwarded-For to the address it sees: a client cannot name another.
        assert too_many_open(await create(port, headers=("X-Forwarded-For: 203.0.113.9",)))
        # Straight at each process (the peer is its own client then): refused by both.
        for proc in (await live_processes(running)).values():
            assert too_many_open(await create(worker_port(proc))), proc["name"]
        # The cap is per address: another one (HAProxy forwards 127.0.0.2) opens a table.
        status, body = await create(port, source="127.0.0.2")
        assert status == 201, body


async def test_haproxys_rate_refusal_is_the_servers_429_with_retry_after(
        running: RunningCluster) -> None:
    """Past 30 creation requests a minute from one address HAProxy refuses the next itself:
    429 with ``Retry-After`` and the processes' JSON body (refused bodies count too, so
    nothing needs to be created)."""
    body = b'{"players": 9}'
    seen: list[tuple[int, dict[str, str], Any]] = []
    with trio.fail_after(LIMIT):
        for _ in range(32):
            stream = await trio.open_tcp_stream("127.0.0.1", running.port,
                                                local_address="127.0.0.3")
            async with stream:
                await stream.send_all(
                    b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                    b"Content-Type: application/json\r\nContent-Length: "
                    + str(len(body)).encode() + b"\r\n\r\n" + body)
                raw = b""
                while chunk := await stream.receive_some(65536):
                    raw += chunk
            top, _, rest = raw.partition(b"\r\n\r\n")
            lines = top.decode("latin-1").split("\r\n")
            headers = {k.strip().lower(): v.strip()
                       for k, _, v in (line.partition(":") for line in lines[1:])}
            seen.append((int(lines[0].split()[1]), headers, json.loads(rest)))
    assert [s for s, _, _ in seen[:30]] == [400] * 30
    status, headers, answer = seen[-1]
    assert status == 429 and headers["retry-after"] == "60", (status, headers)
    assert answer["error"]["code"] == "too_many_new_tables"
