"""The front door: one port for plain HTTP (through h11) and websockets (trio-websocket).

Each accepted connection runs in its own task, which feeds socket bytes to an h11 server
connection, answers plain requests through ``http_handler`` and keeps the connection
alive across requests (``start_next_cycle``) until the client closes it, an error answer
closes it, or ``idle_timeout`` passes while a request is awaited or read (a cancel scope:
408 if a request had begun, a silent close otherwise).

Websocket handoff: while a request head is read, the connection keeps its own copy of
every byte fed to h11 since that request began. For a ``GET`` on ``ws_path`` with
``Upgrade: websocket``, h11 has consumed the head and holds what followed it in
``conn.trailing_data``; ``_ReplayStream`` returns the head, then (once the handshake's
answer has been sent) the trailing data, before reading the socket again, so
``trio_websocket.wrap_server_stream`` sees the bytes as the client sent them, a frame sent
in the same segment as the upgrade included, and does the handshake and framing itself
(nothing is re-parsed here).
``ws_handler`` then runs; the websocket is closed when it returns (1011 if it raised).

Refused: a head over ``max_header_bytes`` (431); a malformed request (400); a body over
``max_body_bytes`` by Content-Length or while reading (413); an upgrade whose Origin fails
``origin_ok`` (403); a non-upgrade request on ``ws_path`` (426); an upgrade with a body or
without ``Sec-WebSocket-Key`` (400) or not version 13 (426); a websocket message over
``max_message_size`` (trio-websocket closes with 1009). An error answer closes the
connection after a half-close and a short drain, so the client reads it rather than a
reset. Every response carries ``SECURITY_HEADERS``, ``Cache-Control: no-store`` unless the
handler set its own, Content-Type and Content-Length; handlers cannot replace those.
``static_response`` serves known file types under a root and never outside it.

A failing connection (protocol error, reset, handler exception) is logged on
``quaymoor.frontdoor`` and closed; every other connection carries on.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from http import HTTPStatus
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit

import attrs
import h11
import trio
import trio_websocket

from quaymoor.http.forwarded import ForwardedError, client_address
from quaymoor.protocol.codes import Close

log = logging.getLogger("quaymoor.frontdoor")

_CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
SECURITY_HEADERS: tuple[tuple[str, str], ...] = (
    ("Content-Security-Policy", _CSP), ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"), ("X-Frame-Options", "DENY"),
)
#: Messages trio-websocket may hold for a ``ws_handler`` that has not read them yet;
#: past that the reader stops and backpressure reaches the client's socket.
WS_MESSAGE_QUEUE_SIZE = 4
_RECEIVE_SIZE = 16 * 1024
#: Seconds allowed for a websocket close handshake or a lingering drain before closing.
_CLOSE_GRACE = 2.0
_LINGER_BYTES = 256 * 1024
_DOOR_OWNED = frozenset(["content-length", "content-type", "transfer-encoding", "connection",
                         *(name.lower() for name, _ in SECURITY_HEADERS)])
_KNOWN = frozenset(status.value for status in HTTPStatus)
_UTF8 = "; charset=utf-8"
_CONTENT_TYPES = {
    ".html": "text/html" + _UTF8, ".js": "text/javascript" + _UTF8,
    ".mjs": "text/javascript" + _UTF8, ".css": "text/css" + _UTF8,
    ".json": "application/json" + _UTF8, ".map": "application/json" + _UTF8,
    ".svg": "image/svg+xml" + _UTF8, ".txt": "text/plain" + _UTF8,
    ".png": "image/png", ".ico": "image/x-icon", ".woff2": "font/woff2",
}


@attrs.frozen
class HttpRequest:
    """One request as the handlers see it; the body is complete."""

    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    body: bytes
    client: str


@attrs.frozen
class HttpResponse:
    """A handler's answer; the front door adds framing and security headers."""

    status: int
    body: bytes = b""
    content_type: str = "text/plain; charset=utf-8"
    headers: tuple[tuple[str, str], ...] = ()


HttpHandler = Callable[[HttpRequest], Awaitable[HttpResponse]]
WebSocketHandler = Callable[[trio_websocket.WebSocketConnection, HttpRequest], Awaitable[None]]
OriginCheck = Callable[[HttpRequest], bool]


def same_origin(request: HttpRequest, scheme: str = "http") -> bool:
    """True without an Origin header (non-browser clients) or when the Origin is this
    server's as the server sees it: its scheme is ``scheme`` (``ServerConfig.scheme``:
    http, or https when a proxy in front terminates TLS) and its host and port equal the
    Host header's (a missing port counts as that scheme's default on both sides)."""
    origin = request.headers.get("origin")
    if origin is None:
        return True
    host = request.headers.get("host")
    if host is None:
        return False
    try:
        theirs, ours = urlsplit(origin), urlsplit(f"//{host}")
        if theirs.scheme != scheme or not theirs.hostname:
            return False
        default = 443 if scheme == "https" else 80
        return (theirs.hostname, theirs.port or default) == (ours.hostname, ours.port or default)
    except ValueError:
        return False


def static_response(root: Path, path: str, method: str) -> HttpResponse | None:
    """The file under ``root`` that the decoded URL ``path`` names, or None if none does.

    "/" and folders mean their ``index.html``. A path that is malformed (NUL, a
    backslash, "..") or resolves outside ``root`` names no file either: None, and the
    caller answers it as any path it does not know (the API's JSON ``not_found``); other
    methods than GET and HEAD get 405. The body
    is the whole file even for HEAD (the front door drops it, keeping Content-Length).
    Reads synchronously: meant for the small files of ``web/``.
    """
    if "\x00" in path or "\\" in path:
        return None
    parts = [part for part in path.split("/") if part not in ("", ".")]
    if ".." in parts:
        return None
    if any(part.startswith(".") for part in parts):
        return None
    try:
        base = root.resolve(strict=True)
        target = base.joinpath(*parts).resolve(strict=True)
        if target.is_dir():
            target = (target / "index.html").resolve(strict=True)
    except (OSError, RuntimeError, ValueError):
        return None
    if not target.is_relative_to(base):
        return None
    content_type = _CONTENT_TYPES.get(target.suffix.lower())
    if content_type is None or not target.is_file():
        return None
    if method not in ("GET", "HEAD"):
        return HttpResponse(405, b"method not allowed\n", headers=(("Allow", "GET, HEAD"),))
    try:
        body = target.read_bytes()
    except OSError:
        return None
    return HttpResponse(200, body, content_type, headers=(("Cache-Control", "no-cache"),))


async def serve_frontdoor(
    http_handler: HttpHandler,
    ws_handler: WebSocketHandler,
    *,
    host: str,
    port: int,
    ws_path: str = "/ws",
    origin_ok: OriginCheck = same_origin,
    max_message_size: int = 64 * 1024,
    max_header_bytes: int = 16 * 1024,
    max_body_bytes: int = 64 * 1024,
    idle_timeout: float = 30.0,
    forwarded_from: frozenset[str] = frozenset(),
    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Listen on ``host:port`` and serve every connection in its own task until cancelled.

    Reports the bound port through ``task_status`` (``port=0`` picks a free one; if the
    host resolves to several addresses only the first is kept then, so one port serves).
    A request from a peer in ``forwarded_from`` (a proxy) is the client's that its
    ``X-Forwarded-For`` names (``quaymoor.http.forwarded``); one from another peer is the
    peer's, whatever it says.
    """
    door = _Door(
        http_handler, ws_handler, ws_path, origin_ok,
        max_message_size, max_header_bytes, max_body_bytes, idle_timeout, forwarded_from,
    )
    listeners = await trio.open_tcp_listeners(port, host=host)
    if port == 0:
        for extra in listeners[1:]:
            await extra.aclose()
        listeners = listeners[:1]
    bound = int(listeners[0].socket.getsockname()[1])
    log.info("front door listening on %s port %d", host, bound)
    task_status.started(bound)
    await trio.serve_listeners(door.serve_connection, listeners)


@attrs.frozen
class _Door:
    """The settings every connection shares."""

    http_handler: HttpHandler
    ws_handler: WebSocketHandler
    ws_path: str
    origin_ok: OriginCheck
    max_message_size: int
    max_header_bytes: int
    max_body_bytes: int
    idle_timeout: float
    #: Peers (proxies) whose ``X-Forwarded-For`` names the client (``forwarded``).
    forwarded_from: frozenset[str] = frozenset()

    async def serve_connection(self, stream: trio.SocketStream) -> None:
        """Serve one connection; log and swallow its errors, never cancellation."""
        try:
            client = str(stream.socket.getpeername()[0])
        except OSError:
            client = "unknown"
        h11_conn = h11.Connection(h11.SERVER, max_incomplete_event_size=self.max_header_bytes)
        try:
            async with stream:
                await _Connection(self, stream, client, h11_conn).run()
        except (trio.BrokenResourceError, trio.ClosedResourceError, trio.TooSlowError) as exc:
            log.debug("connection from %s dropped: %r", client, exc)
        except Exception:
            log.exception("connection from %s failed", client)


class _ReplayStream(trio.abc.Stream):
    """A socket stream that first returns ``head``, bytes already read from it, and then
    ``after`` (what the client sent behind the head, such as a first websocket frame) once
    something has been sent back: wsproto's server forgets the bytes that come in the same
    read as the handshake request, so they are held back until the handshake's answer has
    gone out."""

    def __init__(self, head: bytes, after: bytes, inner: trio.SocketStream) -> None:
        self._prefix = head
        self._after = after
        self._inner = inner
        self._answered = trio.Event()

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        if not self._prefix and self._after:
            await self._answered.wait()
            self._prefix, self._after = self._after, b""
        if not self._prefix:
            return await self._inner.receive_some(max_bytes)
        await trio.lowlevel.checkpoint()
        size = len(self._prefix) if max_bytes is None else max_bytes
        chunk, self._prefix = self._prefix[:size], self._prefix[size:]
        return chunk

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        await self._inner.send_all(data)
        self._answered.set()

    @property
    def socket_stream(self) -> trio.SocketStream | None:
        """The socket under this stream once nothing is held back any more (the
        handshake's answer has gone out): a writer may write to it directly."""
        if self._answered.is_set() and not self._prefix and not self._after:
            return self._inner
        return None

    async def wait_send_all_might_not_block(self) -> None:
        await self._inner.wait_send_all_might_not_block()

    async def aclose(self) -> None:
        self._prefix = self._after = b""
        self._answered.set()
        await self._inner.aclose()


def _text(status: int, message: str, *headers: tuple[str, str]) -> HttpResponse:
    return HttpResponse(status, f"{message}\n".encode(), headers=headers)


def _has_token(value: str | None, token: str) -> bool:
    return value is not None and token in {t.strip().lower() for t in value.split(",")}


@attrs.define
class _Connection:
    """One client connection: owns the socket, the h11 state and the raw head copy."""

    door: _Door
    stream: trio.SocketStream
    client: str
    conn: h11.Connection
    raw: bytearray = attrs.field(factory=bytearray)
    recording: bool = True
    head_only: bool = False

    async def run(self) -> None:
        """Answer requests until the connection must close; raises on socket errors."""
        door = self.door
        while True:
            self.raw, self.recording = bytearray(self.conn.trailing_data[0]), True
            self.head_only = False
            outcome: HttpRequest | HttpResponse | None = None
            with trio.move_on_after(door.idle_timeout) as idle:
                try:
                    outcome = await self._read_request()
                except h11.RemoteProtocolError as exc:
                    too_large = exc.error_status_hint == 431
                    outcome = _text(431, "request headers too large") if too_large else (
                        _text(400, "malformed HTTP request"))
            if idle.cancelled_caught:
                if self.raw or self.conn.their_state is not h11.IDLE:
                    await self._respond(_text(408, "request timed out"), close=True)
                return
            if outcome is None:
                return
            if isinstance(outcome, HttpResponse):
                await self._respond(outcome, close=True)
                return
            if outcome.path == door.ws_path:
                await self._websocket(outcome)
                return
            try:
                response = await door.http_handler(outcome)
            except Exception:
                log.exception("HTTP handler failed on %s %s", outcome.method, outcome.path)
                response = _text(500, "internal server error")
            await self._respond(response)
            if self.conn.our_state is not h11.DONE or self.conn.their_state is not h11.DONE:
                await self._linger()
                return
            self.conn.start_next_cycle()

    async def _next_event(self) -> h11.Event | type[h11.NEED_DATA | h11.PAUSED]:
        """The next h11 event (never NEED_DATA), reading the socket as needed."""
        while True:
            event = self.conn.next_event()
            if event is not h11.NEED_DATA:
                return event
            data = await self.stream.receive_some(_RECEIVE_SIZE)
            if self.recording:
                self.raw += data
            self.conn.receive_data(data)

    async def _read_request(self) -> HttpRequest | HttpResponse | None:
        """The next request with its body, an error response, or None at a clean close.

        A websocket upgrade on ``ws_path`` comes back at once, its body (if any) unread.
        """
        event = await self._next_event()
        if not isinstance(event, h11.Request):
            return None
        self.recording, self.head_only = False, event.method == b"HEAD"
        if len(self.raw) - len(self.conn.trailing_data[0]) > self.door.max_header_bytes:
            return _text(431, "request headers too large")
        request = _parse_head(event, self.client)
        if isinstance(request, HttpResponse):
            return request
        try:
            client = client_address(self.client, request.headers, self.door.forwarded_from)
        except ForwardedError as exc:
            return _text(400, str(exc))
        if client != self.client:
            request = attrs.evolve(request, client=client)
        upgrade = _has_token(request.headers.get("upgrade"), "websocket")
        if upgrade and request.path == self.door.ws_path:
            return request
        too_large = _text(413, f"request body too large (limit {self.door.max_body_bytes} bytes)")
        if int(request.headers.get("content-length", "0")) > self.door.max_body_bytes:
            return too_large
        if self.conn.they_are_waiting_for_100_continue:
            await self._send(h11.InformationalResponse(status_code=100, headers=[]))
        body = bytearray()
        while isinstance(event := await self._next_event(), h11.Data):
            body += event.data
            if len(body) > self.door.max_body_bytes:
                return too_large
        if not isinstance(event, h11.EndOfMessage):
            return None
        return attrs.evolve(request, body=bytes(body))

    async def _websocket(self, request: HttpRequest) -> None:
        """Refuse a request on ``ws_path`` over HTTP, or hand the connection over."""
        headers = request.headers
        if request.method != "GET" or not _has_token(headers.get("upgrade"), "websocket"):
            refusal = _text(426, f"{self.door.ws_path} only accepts websocket upgrades",
                            ("Upgrade", "websocket"))
        elif not self.door.origin_ok(request):
            log.info("cross-site websocket from %s refused (Origin %r)",
                     self.client, headers.get("origin"))
            refusal = _text(403, "cross-site websocket refused")
        elif headers.get("content-length", "0") != "0" or "transfer-encoding" in headers:
            refusal = _text(400, "a websocket upgrade must not carry a body")
        elif self.conn.their_http_version != b"1.1" or not headers.get("sec-websocket-key") or (
            not _has_token(headers.get("connection"), "upgrade")
        ):
            refusal = _text(400, "incomplete websocket handshake")
        elif headers.get("sec-websocket-version") != "13":
            refusal = _text(426, "websocket version 13 required", ("Sec-WebSocket-Version", "13"))
        else:
            await self._hand_over(request)
            return
        await self._respond(refusal, close=True)

    async def _hand_over(self, request: HttpRequest) -> None:
        trailing = self.conn.trailing_data[0]
        head = bytes(self.raw[: len(self.raw) - len(trailing)])
        stream = _ReplayStream(head, trailing, self.stream)
        async with trio.open_nursery() as nursery:
            try:
                ws: trio_websocket.WebSocketConnection | None = None
                with trio.move_on_after(self.door.idle_timeout):
                    proposal = await trio_websocket.wrap_server_stream(
                        nursery, stream, message_queue_size=WS_MESSAGE_QUEUE_SIZE,
                        max_message_size=self.door.max_message_size,
                    )
                    ws = await proposal.accept()
                if ws is None:
                    log.info("websocket handshake from %s did not finish", self.client)
                    return
                code, reason = Close.NORMAL, None
                try:
                    await self.door.ws_handler(ws, request)
                except trio_websocket.ConnectionClosed as exc:
                    log.debug("websocket from %s closed: %s", self.client, exc.reason)
                except Exception:
                    log.exception("websocket handler failed for %s", self.client)
                    code, reason = Close.INTERNAL_ERROR, "internal error"
                with trio.move_on_after(_CLOSE_GRACE):
                    await ws.aclose(code, reason)
            finally:
                await stream.aclose()

    async def _respond(self, response: HttpResponse, *, close: bool = False) -> None:
        """Send ``response`` (no body to a HEAD); with ``close``, say so and linger-close."""
        try:
            head = _head(response, close)
        except (h11.LocalProtocolError, ValueError):
            log.error("handler answered with an invalid response (status %r)", response.status)
            response, close = _text(500, "internal server error"), True
            head = _head(response, close)
        with trio.fail_after(self.door.idle_timeout):
            await self._send(head)
            if response.body and not self.head_only and response.status not in (204, 304):
                await self._send(h11.Data(data=response.body))
            await self._send(h11.EndOfMessage())
        if close:
            await self._linger()

    async def _send(self, event: h11.Event) -> None:
        data = self.conn.send(event)
        if data:
            await self.stream.send_all(data)

    async def _linger(self) -> None:
        """Half-close and drain what the client is still sending for a moment: closing
        with unread input would reset the connection and could lose our last answer."""
        with trio.move_on_after(_CLOSE_GRACE):
            await self.stream.send_eof()
            drained = 0
            while drained < _LINGER_BYTES and (chunk := await self.stream.receive_some()):
                drained += len(chunk)


def _parse_head(event: h11.Request, client: str) -> HttpRequest | HttpResponse:
    """The request's method, decoded path, query and headers (body still empty)."""
    if event.http_version not in (b"1.0", b"1.1"):
        version = event.http_version.decode("ascii", "replace")
        return _text(505, f"HTTP/{version} is not supported: use HTTP/1.1")
    try:
        target = urlsplit(event.target.decode("ascii"))
        path = unquote(target.path or "/", errors="strict")
        query = dict(parse_qsl(target.query, keep_blank_values=True, errors="strict"))
    except (UnicodeDecodeError, ValueError):
        return _text(400, "malformed request target")
    headers: dict[str, str] = {}
    for name, value in event.headers:
        key, text = name.decode("ascii").lower(), value.decode("latin-1")
        headers[key] = f"{headers[key]}, {text}" if key in headers else text
    return HttpRequest(event.method.decode("ascii"), path, query, headers, b"", client)


def _head(response: HttpResponse, close: bool) -> h11.Response:
    """The status line and headers: the front door's, plus those the handler may set."""
    own = [(n, v) for n, v in response.headers if n.lower() not in _DOOR_OWNED]
    headers = [*SECURITY_HEADERS, *own, ("Content-Type", response.content_type)]
    if not any(n.lower() == "cache-control" for n, _ in own):
        headers.append(("Cache-Control", "no-store"))
    if response.status not in (204, 304):
        headers.append(("Content-Length", str(len(response.body))))
    if close:
        headers.append(("Connection", "close"))
    reason = HTTPStatus(response.status).phrase if response.status in _KNOWN else ""
    return h11.Response(status_code=response.status, headers=headers, reason=reason)
