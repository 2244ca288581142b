"""The front door over real loopback sockets: static files, limits, keep-alive, the
websocket handoff. Every test touching a socket runs under ``trio.fail_after``."""

from __future__ import annotations

import json
import os
from functools import partial
from pathlib import Path
from typing import Any

import attrs
import pytest
import trio
import trio_websocket
import wsproto
import wsproto.events

from quaymoor.http.frontdoor import (
    SECURITY_HEADERS,
    HttpRequest,
    HttpResponse,
    same_origin,
    serve_frontdoor,
    static_response,
)

SECRET = b"the seed of table 7 is 42"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A web root with an index, a script and a folder, next to a secret outside it."""
    (tmp_path / "secret.txt").write_bytes(SECRET)
    web = tmp_path / "web"
    (web / "docs").mkdir(parents=True)
    (web / "index.html").write_text("<h1>Quaymoor</h1>", encoding="utf-8")
    (web / "app.js").write_text("console.log('quay');", encoding="utf-8")
    (web / "docs" / "index.html").write_text("<p>rules</p>", encoding="utf-8")
    (web / "notes.py").write_text("print('not served')", encoding="utf-8")
    (web / ".env").write_text("KEY=1", encoding="utf-8")
    os.symlink(tmp_path / "secret.txt", web / "leak.txt")
    os.symlink(tmp_path, web / "up")
    return web


async def start(nursery: trio.Nursery, root: Path, **options: Any) -> int:
    """Run a front door with a small handler; returns its port."""

    async def http(request: HttpRequest) -> HttpResponse:
        if request.path.startswith("/echo"):
            seen = attrs.asdict(request) | {"body": request.body.decode()}
            return HttpResponse(200, json.dumps(seen).encode(), "application/json")
        if request.path == "/boom":
            raise RuntimeError("handler bug")
        if request.path == "/cached":
            return HttpResponse(200, b"ok", headers=(("Cache-Control", "max-age=60"),))
        found = static_response(root, request.path, request.method)
        return found if found is not None else HttpResponse(404, b"not found\n")

    async def echo(ws: trio_websocket.WebSocketConnection, request: HttpRequest) -> None:
        while True:
            message = await ws.get_message()
            if message == "crash":
                raise RuntimeError("ws handler bug")
            if message == "query":
                message = json.dumps(request.query)
            await ws.send_message(message)

    serve = partial(serve_frontdoor, http, echo, host="127.0.0.1", port=0, **options)
    port: int = await nursery.start(serve)
    return port


@attrs.frozen
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes


class Client:
    """A raw HTTP/1.1 client: sends bytes as given, parses Content-Length responses."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.buffer = b""

    @classmethod
    async def connect(cls, port: int) -> Client:
        return cls(await trio.open_tcp_stream("127.0.0.1", port))

    async def _fill(self) -> None:
        chunk = await self.stream.receive_some(65536)
        if not chunk:
            raise EOFError("server closed the connection")
        self.buffer += chunk

    async def reply(self, *, head: bool = False) -> Reply:
        while b"\r\n\r\n" not in self.buffer:
            await self._fill()
        top, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        status_line, *lines = top.decode("latin-1").split("\r\n")
        headers = {}
        for line in lines:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = 0 if head else int(headers.get("content-length", "0"))
        while len(self.buffer) < length:
            await self._fill()
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return Reply(int(status_line.split()[1]), headers, body)

    async def ask(self, raw: bytes, *, head: bool = False) -> Reply:
        await self.stream.send_all(raw)
        return await self.reply(head=head)

    async def closed(self) -> bool:
        """True once the server has closed the connection (after any data left)."""
        try:
            while await self.stream.receive_some(65536):
                pass
        except trio.BrokenResourceError:
            pass
        return True


def get(path: str, method: str = "GET", extra: str = "") -> bytes:
    return f"{method} {path} HTTP/1.1\r\nHost: quay\r\n{extra}\r\n".encode()


def assert_secure(reply: Reply) -> None:
    for name, value in SECURITY_HEADERS:
        assert reply.headers[name.lower()] == value
    assert "content-type" in reply.headers
    assert "content-length" in reply.headers


# -- static files, pure ------------------------------------------------------------------


def test_static_response_serves_index_and_types(root: Path) -> None:
    index = static_response(root, "/", "GET")
    assert index is not None
    assert (index.status, index.body) == (200, b"<h1>Quaymoor</h1>")
    assert index.content_type == "text/html; charset=utf-8"
    assert ("Cache-Control", "no-cache") in index.headers
    docs = static_response(root, "/docs/", "GET")
    assert docs is not None and docs.body == b"<p>rules</p>"
    script = static_response(root, "/app.js", "HEAD")
    assert script is not None and script.content_type == "text/javascript; charset=utf-8"
    post = static_response(root, "/app.js", "POST")
    assert post is not None and post.status == 405


@pytest.mark.parametrize(
    "path", ["/../secret.txt", "/a/../../secret.txt", "/leak.txt", "/up/secret.txt",
             "/app.js\x00.png", "/..\\secret.txt"],
)
def test_static_response_refuses_escapes(root: Path, path: str) -> None:
    """An escape names no file: left to the caller, as an unknown path (the server's
    answer is then its JSON not_found, the same as for any path it does not know)."""
    assert static_response(root, path, "GET") is None


@pytest.mark.parametrize("path", ["/missing.html", "/notes.py", "/.env", "//etc/passwd"])
def test_static_response_leaves_unknown_paths_to_the_caller(root: Path, path: str) -> None:
    assert static_response(root, path, "GET") is None


def test_same_origin() -> None:
    def req(**headers: str) -> HttpRequest:
        return HttpRequest("GET", "/ws", {}, headers, b"", "127.0.0.1")

    assert same_origin(req(host="quay:8000"))
    assert same_origin(req(host="quay:8000", origin="http://quay:8000"))
    assert same_origin(req(host="Quay", origin="http://quay"))
    assert same_origin(req(host="quay", origin="https://quay:443"), scheme="https")
    assert not same_origin(req(host="quay:8000", origin="http://evil.example"))
    assert not same_origin(req(host="quay:8000", origin="http://quay:9000"))
    assert not same_origin(req(host="quay", origin="null"))
    assert not same_origin(req(origin="http://quay"))


# -- HTTP over a socket ------------------------------------------------------------------


async def test_get_and_head_of_a_static_file(nursery: trio.Nursery, root: Path) -> None:
    with trio.fail_after(10):
        port = await start(nursery, root)
        client = await Client.connect(port)
        got = await client.ask(get("/app.js"))
        assert (got.status, got.body) == (200, b"console.log('quay');")
        assert got.headers["content-type"] == "text/javascript; charset=utf-8"
        assert got.headers["cache-control"] == "no-cache"
        assert_secure(got)
        head = await client.ask(get("/app.js", "HEAD"), head=True)
        assert head.status == 200
        assert head.headers["content-length"] == str(len(got.body))
        # Nothing followed the HEAD response: the next answer parses cleanly.
        index = await client.ask(get("/"))
        assert index.body == b"<h1>Quaymoor</h1>"
        assert client.buffer == b""


async def test_keep_alive_serves_several_requests(nursery: trio.Nursery, root: Path) -> None:
    with trio.fail_after(10):
        port = await start(nursery, root)
        client = await Client.connect(port)
        first = await client.ask(get("/"))
        second = await client.ask(get("/docs/"))
        assert (first.status, second.status) == (200, 200)
        assert second.body == b"<p>rules</p>"
        # Pipelined: both requests in one write, both answered in order.
        await client.stream.send_all(get("/app.js") + get("/missing"))
        assert (await client.reply()).status == 200
        assert (await client.reply()).status == 404
        last = await client.ask(get("/", extra="Connection: close\r\n"))
        assert last.status == 200
        assert await client.closed()


async def test_handler_defaults_and_its_own_cache_control(
    nursery: trio.Nursery, root: Path
) -> None:
    with trio.fail_after(10):
        port = await start(nursery, root)
        client = await Client.connect(port)
        missing = await client.ask(get("/nope"))
        assert missing.status == 404
        assert missing.headers["cache-control"] == "no-store"
        assert_secure(missing)
        cached = await client.ask(get("/cached"))
        assert cached.headers["cache-control"] == "max-age=60"


@pytest.mark.parametrize(
    "path", ["/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt",
             "/a/../../secret.txt", "/leak.txt", "/up/secret.txt", "/%00", "/../pyproject.toml",
             "/a/../../etc/passwd", "//etc/passwd"],
)
async def test_path_traversal_is_a_plain_404(
    nursery: trio.Nursery, root: Path, path: str
) -> None:
    with trio.fail_after(10):
        port = await start(nursery, root)
        client = await Client.connect(port)
        reply = await client.ask(get(path))
        assert reply.status == 404
        assert reply.body == b"not found\n"
        assert SECRET not in reply.body
        assert str(root).encode() not in reply.body


@pytest.mark.parametrize(("limit", "size"), [(16 * 1024, 20_000), (1024, 1500)])
async def test_oversized_headers_get_431(
    nursery: trio.Nursery, root: Path, limit: int, size: int
) -> None:
    """Refused both while the head is still incomplete (h11's limit) and when a whole
    head over the limit arrives in one read (the front door's own check)."""
    with trio.fail_after(10):
        port = await start(nursery, root, max_header_bytes=limit)
        client = await Client.connect(port)
        reply = await client.ask(get("/", extra=f"X-Big: {'b' * size}\r\n"))
        assert reply.status == 431
        assert b"headers too large" in reply.body
        assert_secure(reply)
        assert await client.closed()


async def test_garbage_gets_400(nursery: trio.Nursery, root: Path) -> None:
    with trio.fail_after(10):
        port = await start(nursery, root)
        client = await Client.connect(port)
        reply = await client.ask(b"\x16\x03\x01 not http at all\r\n\r\n")
        assert reply.status == 400
        assert b"malformed" in reply.body
        assert await client.closed()


async def test_large_bodies_get_413(nursery: trio.Nursery, root: Path) -> None:
    with trio.fail_after(10):
        port = await start(nursery, root, max_body_bytes=1000)
        declared = await Client.connect(port)
        reply = await declared.ask(get("/echo", "POST", "Content-Length: 5000\r\n"))
        assert reply.status == 413
        assert b"too large" in reply.body
        assert await declared.closed()

        chunked = await Client.connect(port)
        chunk = b"x" * 600
        body = b"%x\r\n%s\r\n" % (len(chunk), chunk) * 2 + b"0\r\n\r\n"
        reply = await chunked.ask(get("/echo", "POST", "Transfer-Encoding: chunked\r\n") + body)
        assert reply.status == 413


async def test_post_body_and_request_fields_reach_the_handler(
    nursery: trio.Nursery, root: Path
) -> None:
    with trio.fail_after(10):
        port = await start(nursery, root)
        client = await Client.connect(port)
        body = b'{"seat": 2}'
        extra = f"Content-Length: {len(body)}\r\nX-Tag: a\r\nX-Tag: b\r\n"
        reply = await client.ask(get("/echo/a%20b?x=1&x=2&y=", "POST", extra) + body)
        seen = json.loads(reply.body)
        assert seen["method"] == "POST"
        assert seen["path"] == "/echo/a b"
        assert seen["query"] == {"x": "2", "y": ""}
        assert seen["headers"]["x-tag"] == "a, b"
        assert seen["body"] == '{"seat": 2}'
        assert seen["client"] == "127.0.0.1"


async def test_a_trusted_proxys_forwarded_address_is_the_client(
    nursery: trio.Nursery, root: Path
) -> None:
    """``forwarded_from``: a request from that peer is its X-Forwarded-For client's (of a
    chain, the last: the one the proxy set); another peer's header changes nothing."""
    with trio.fail_after(10):
        trusting = await start(nursery, root, forwarded_from=frozenset({"127.0.0.1"}))
        wary = await start(nursery, root, forwarded_from=frozenset({"192.0.2.1"}))

        async def client_seen(port: int, extra: str) -> tuple[int, str | None]:
            reply = await (await Client.connect(port)).ask(get("/echo", extra=extra))
            seen = json.loads(reply.body) if reply.status == 200 else {}
            return reply.status, seen.get("client")

        assert await client_seen(trusting, "X-Forwarded-For: 203.0.113.9\r\n") == (
            200, "203.0.113.9")
        assert await client_seen(
            trusting, "X-Forwarded-For: 10.0.0.1\r\nX-Forwarded-For: 198.51.100.7\r\n"
        ) == (200, "198.51.100.7")
        assert await client_seen(trusting, "X-Forwarded-For: 2001:DB8::1\r\n") == (
            200, "2001:db8::1")
        assert await client_seen(trusting, "") == (200, "127.0.0.1")  # a check, no header
        assert await client_seen(wary, "X-Forwarded-For: 203.0.113.9\r\n") == (
            200, "127.0.0.1")
        reply = await (await Client.connect(trusting)).ask(
            get("/echo", extra="X-Forwarded-For: somewhere\r\n"))
        assert reply.status == 400 and b"X-Forwarded-For is no IP address" in reply.body


async def test_a_failing_handler_answers_500_and_others_go_on(
    nursery: trio.Nursery, root: Path
) -> None:
    with trio.fail_after(10):
        port = await start(nursery, root)
        client = await Client.connect(port)
        assert (await client.ask(get("/boom"))).status == 500
        assert (await client.ask(get("/"))).status == 200
        other = await Client.connect(port)
        assert (await other.ask(get("/"))).status == 200


async def test_idle_connections_are_closed(nursery: trio.Nursery, root: Path) -> None:
    with trio.fail_after(10):
        port = await start(nursery, root, idle_timeout=0.5)
        silent = await Client.connect(port)
        began = trio.current_time()
        assert await silent.closed()
        assert silent.buffer == b""
        assert 0.4 < trio.current_time() - began < 5
        # A request begun and never finished gets a 408 before the close.
        slow = await Client.connect(port)
        reply = await slow.ask(b"GET / HTTP/1.1\r\nHost: quay\r\n")
        assert reply.status == 408
        # Keep-alive: a served connection is closed once it has been idle as long.
        served = await Client.connect(port)
        assert (await served.ask(get("/"))).status == 200
        assert await served.closed()


# -- websockets --------------------------------------------------------------------------


async def test_websocket_upgrade_echoes(nursery: trio.Nursery, root: Path) -> None:
    with trio.fail_after(10):
        port = await start(nursery, root)
        async with trio_websocket.open_websocket_url(f"ws://127.0.0.1:{port}/ws") as ws:
            await ws.send_message("hello quay")
            assert await ws.get_message() == "hello quay"
            await ws.send_message(b"\x00\x01")
            assert await ws.get_message() == b"\x00\x01"


async def test_ws_handler_gets_the_request_and_its_crash_closes_1011(
    nursery: trio.Nursery, root: Path
) -> None:
    with trio.fail_after(10):
        port = await start(nursery, root)
        url = f"ws://127.0.0.1:{port}/ws?table=abc&seat=2"
        async with trio_websocket.open_websocket_url(url) as ws:
            await ws.send_message("query")
            assert json.loads(await ws.get_message()) == {"table": "abc", "seat": "2"}
            await ws.send_message("crash")
            with pytest.raises(trio_websocket.ConnectionClosed) as closed:
                await ws.get_message()
            assert closed.value.reason is not None
            assert closed.value.reason.code == 1011


async def test_get_on_ws_path_without_upgrade_gets_426(nursery: trio.Nursery, root: Path) -> None:
    with trio.fail_after(10):
        port = await start(nursery, root)
        client = await Client.connect(port)
        reply = await client.ask(get("/ws"))
        assert reply.status == 426
        assert b"websocket" in reply.body
        assert reply.headers["upgrade"] == "websocket"


async def test_cross_site_websocket_is_refused(nursery: trio.Nursery, root: Path) -> None:
    with trio.fail_after(10):
        port = await start(nursery, root)
        url = f"ws://127.0.0.1:{port}/ws"
        evil = [(b"Origin", b"http://evil.example")]
        with pytest.raises(trio_websocket.ConnectionRejected) as refused:
            async with trio_websocket.open_websocket_url(url, extra_headers=evil):
                pass
        assert refused.value.status_code == 403
        assert refused.value.body == b"cross-site websocket refused\n"
        ours = [(b"Origin", f"http://127.0.0.1:{port}".encode())]
        async with trio_websocket.open_websocket_url(url, extra_headers=ours) as ws:
            await ws.send_message("same site")
            assert await ws.get_message() == "same site"


async def test_oversized_message_closes_with_1009(nursery: trio.Nursery, root: Path) -> None:
    with trio.fail_after(10):
        port = await start(nursery, root, max_message_size=1024)
        async with trio_websocket.open_websocket_url(f"ws://127.0.0.1:{port}/ws") as ws:
            await ws.send_message("x" * 1000)
            assert await ws.get_message() == "x" * 1000
            await ws.send_message("x" * 2000)
            with pytest.raises(trio_websocket.ConnectionClosed) as closed:
                await ws.get_message()
            assert closed.value.reason is not None
            assert closed.value.reason.code == 1009


async def talk_over(client: Client, ws: wsproto.WSConnection, text: str) -> None:
    """Finish the client side of the handshake on ``client``, then send and await an echo."""

    async def next_event() -> wsproto.events.Event:
        while True:
            for event in ws.events():
                return event
            ws.receive_data(await client.stream.receive_some(65536))

    if client.buffer:  # bytes that came with the last HTTP reply (b"" would mean EOF)
        ws.receive_data(client.buffer)
    assert isinstance(await next_event(), wsproto.events.AcceptConnection)
    await client.stream.send_all(ws.send(wsproto.events.TextMessage(data=text)))
    echo = await next_event()
    assert isinstance(echo, wsproto.events.TextMessage)
    assert echo.data == text


async def test_upgrade_pipelined_after_a_request(nursery: trio.Nursery, root: Path) -> None:
    """The upgrade head arrives in the same write as an earlier request: h11 reads it ahead
    during the first cycle, and the replay still hands trio-websocket all of it."""
    with trio.fail_after(10):
        port = await start(nursery, root)
        client = await Client.connect(port)
        ws = wsproto.WSConnection(wsproto.ConnectionType.CLIENT)
        upgrade = ws.send(wsproto.events.Request(host=f"127.0.0.1:{port}", target="/ws"))
        await client.stream.send_all(get("/") + upgrade)
        assert (await client.reply()).status == 200
        await talk_over(client, ws, "after keep-alive")


async def test_upgrade_head_in_pieces(nursery: trio.Nursery, root: Path) -> None:
    """A head that reaches the server in several reads is replayed whole."""
    with trio.fail_after(10):
        port = await start(nursery, root)
        client = await Client.connect(port)
        ws = wsproto.WSConnection(wsproto.ConnectionType.CLIENT)
        upgrade = ws.send(wsproto.events.Request(host=f"127.0.0.1:{port}", target="/ws"))
        for piece in (upgrade[:5], upgrade[5:40], upgrade[40:]):
            await client.stream.send_all(piece)
            await trio.sleep(0.05)
        await talk_over(client, ws, "in pieces")


async def test_one_broken_connection_leaves_the_others(nursery: trio.Nursery, root: Path) -> None:
    with trio.fail_after(10):
        port = await start(nursery, root)
        async with trio_websocket.open_websocket_url(f"ws://127.0.0.1:{port}/ws") as ws:
            broken = await Client.connect(port)
            await broken.stream.send_all(get("/echo", "POST", "Content-Length: 100\r\n") + b"x")
            await broken.stream.aclose()
            await ws.send_message("still here")
            assert await ws.get_message() == "still here"
            client = await Client.connect(port)
            assert (await client.ask(get("/"))).status == 200
