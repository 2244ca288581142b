"""The websocket gateway: one task pair per connection between a socket and a table.

A connection's first message is ``hello`` (which table, which seat token, the last version
seen). The gateway then runs a reader (decode and validate each frame, rate-limit, pass
actions to the table's inbox) and a writer (the connection's outlet to the socket). Bad
frames get an ``error`` message with a stable code and where it was wrong, and change
nothing. After the hello everything the connection receives goes through its outlet
(``outlet``), the reader's own answers (pongs, errors) included: the client gets them in
the order they were made, after its ``welcome``, and can match each error to what it sent.
Close codes (``protocol.codes.Close``): 1008 for a flood or a missing hello, 1009 for an
oversized frame (trio-websocket), 4004 and 4005 for a refused hello, 4006 for an address
over its websocket limit, 4007 for a connection silent for ``ClientLimits.idle_seconds``,
and the table's own (4000-4003) when its outlet closes.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
from collections import Counter
from typing import Protocol

import trio
from trio_websocket import ConnectionClosed, WebSocketConnection

from quaymoor.actors.connection import Connection
from quaymoor.actors.inbox import (
    ActFrom,
    Attach,
    ChatFrom,
    Detach,
    ExplainFrom,
    HintFrom,
    Inbox,
    PaceFrom,
    RematchFrom,
    Reply,
    ResyncFrom,
    TableError,
    VoteFrom,
)
from quaymoor.actors.lobby import clean_name
from quaymoor.actors.outlet import TOO_SLOW_REASON, Frame, Offer, Outlet
from quaymoor.actors.rate_limit import TokenBucket
from quaymoor.actors.supervisor import Supervisor
from quaymoor.actors.ws_socket import FrameSocket
from quaymoor.config import ServerConfig
from quaymoor.protocol.codec import ProtocolError, decode_action, decode_client, encode
from quaymoor.protocol.codes import Close, Code
from quaymoor.protocol.messages import (
    Act,
    Chat,
    Error,
    Explain,
    Hello,
    Hint,
    Ping,
    Pong,
    Rematch,
    Resync,
    ServerMessage,
    SetPace,
    VoteBot,
)

log = logging.getLogger("quaymoor.gateway")

#: Seconds the reader waits for the writer to finish once the table has gone.
TABLE_GONE_GRACE = 5.0
#: Seconds past ``drop_grace`` the reader of a connection it ended waits for its writer;
#: and the seconds a writer closing its websocket has for the close handshake once the
#: close has ended the reader. Cancelled during the handshake, trio-websocket closes the
#: socket before the client has read what came before the close (``game_ended``): a
#: client still sending then has its socket reset, and loses what it had not read yet.
_CLOSE_GRACE = 2.0
#: Seconds a stopping server gives every connection's writer, all together, to send what
#: its table queued last (``game_ended``) and close (``flush``).
FLUSH_SECONDS = 3.0

_ids = itertools.count(1)


class UpgradeRequest(Protocol):
    """What the gateway may know of the HTTP request that opened a websocket (the front
    door's ``HttpRequest``); the actors do not import the HTTP layer."""

    @property
    def client(self) -> str: ...


def watcher_name(hello: Hello) -> str | None:
    """The ``hello``'s name, cleaned exactly as a player's (``lobby.clean_name``); None when
    it has none. Raises ``TableError`` (bad_name) for one that is not valid Unicode or is
    empty once cleaned. (A seat's connection may send one too; the table ignores it.)"""
    if hello.name is None:
        return None
    name = clean_name(hello.name)
    if not name:
        raise TableError(Code.BAD_NAME, "a name is needed @ $.name")
    return name


class Gateway:
    def __init__(self, supervisor: Supervisor, config: ServerConfig) -> None:
        self.supervisor = supervisor
        self.config = config
        self._sending: set[_Sending] = set()  #: every connection's writer
        self._open: Counter[str] = Counter()  #: open websockets by client address

    async def handle(self, ws: WebSocketConnection, request: UpgradeRequest) -> None:
        """Serve one websocket until it closes. An address that already holds
        ``ClientLimits.websockets`` connections gets ``too_many_connections`` and close
        4006 at once."""
        client = request.client
        if self._open[client] >= self.config.limits.websockets:
            log.info("websocket from %s refused: %d open", client, self._open[client])
            reason = f"at most {self.config.limits.websockets} connections from one address"
            await ws.send_message(encode(Error(Code.TOO_MANY_CONNECTIONS, reason)))
            await ws.aclose(Close.TOO_MANY_CONNECTIONS, reason)
            return
        self._open[client] += 1
        try:
            await self._serve(ws)
        finally:
            self._open[client] -= 1
            if not self._open[client]:
                del self._open[client]

    async def _serve(self, ws: WebSocketConnection) -> None:
        async def send(message: ServerMessage) -> None:  # before the outlet exists
            await ws.send_message(encode(message))

        try:
            hello = await self._hello(ws)
            if hello is None:
                return
            try:
                name = watcher_name(hello)
            except TableError as exc:  # as for a hello that is not valid: 1008
                await send(Error(exc.code, exc.message))
                await ws.aclose(Close.POLICY, "the first message must be a valid hello")
                return
            try:
                table = self.supervisor.get(hello.table)
            except TableError as exc:
                if await self._gone(ws, hello.table):
                    return
                await send(Error(exc.code, exc.message))
                await ws.aclose(Close.UNKNOWN_TABLE, exc.message)
                return
            outlet = Outlet(self.config.table.outbox_size, self.supervisor.metrics)
            conn = Connection(next(_ids), outlet)
            reply = Reply()
            try:
                await self.supervisor.ask(
                    table, Attach(conn, hello.token, hello.since, reply, name), reply)
            except TableError as exc:
                await send(Error(exc.code, exc.message))
                await ws.aclose(Close.BAD_TOKEN, exc.message)
                return
            self.supervisor.connections += 1
            try:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._writer, ws, conn, nursery)
                    await self._reader(ws, table.inbox, conn)
                    if conn.outlet.closed:  # the writer's own close ended the reader
                        await trio.sleep(_CLOSE_GRACE)  # its handshake: the writer cancels this
                    nursery.cancel_scope.cancel()
            finally:
                self.supervisor.connections -= 1
                with trio.move_on_after(1) as scope:
                    scope.shield = True
                    with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                        await table.inbox.send(Detach(conn))
        except ConnectionClosed:
            pass

    async def _gone(self, ws: WebSocketConnection, table_id: str) -> bool:
        """A table this process does not hold, as the supervisor's ``directory`` knows it
        (in a cluster, one whose process stopped): its ``game_ended`` (then close 4000), or
        close 4008 (``RECORD_PENDING``) while a survivor archives it (the client comes back
        for the ``game_ended``); False when it is no table of anyone's."""
        directory = self.supervisor.directory
        ended = await directory.ended_elsewhere(table_id)
        if ended is not None:
            await ws.send_message(encode(ended))
            await ws.aclose(Close.TABLE_CLOSED, "the game ended when its server stopped")
            return True
        if await directory.live_elsewhere(table_id):
            await ws.aclose(Close.RECORD_PENDING,
                            "its server stopped: its record is on its way, reconnect")
            return True
        return False

    async def _hello(self, ws: WebSocketConnection) -> Hello | None:
        with trio.move_on_after(self.config.hello_timeout):
            frame = await ws.get_message()
            try:
                message = decode_client(frame)
            except ProtocolError as exc:
                await ws.send_message(encode(Error(exc.code, exc.message)))
                await ws.aclose(Close.POLICY, "the first message must be a valid hello")
                return None
            if not isinstance(message, Hello):
                await ws.send_message(encode(Error(Code.HELLO_FIRST, "send hello first @ $.type")))
                await ws.aclose(Close.POLICY, "the first message must be hello")
                return None
            return message
        await ws.aclose(Close.POLICY, "no hello in time")
        return None

    async def _reader(self, ws: WebSocketConnection, inbox: Inbox, conn: Connection) -> None:
        """Read the client's frames until it closes, or until the gateway ends the
        connection (a flood, silence for ``idle_seconds``, answers it does not read): then
        wait for the writer, which sends what is queued and the close, and cancels this
        task."""
        limit = TokenBucket(self.config.rate_per_second, self.config.rate_burst)
        idle = self.config.limits.idle_seconds
        metrics = self.supervisor.metrics
        while True:
            with trio.move_on_after(idle) as quiet:
                try:
                    frame = await ws.get_message()
                except ConnectionClosed:
                    return
            if quiet.cancelled_caught:
                reason = f"nothing received for {idle:g} s: send ping to stay connected"
                self._answer(conn, Error(Code.IDLE_TIMEOUT, reason))
                await self._end(conn, Close.IDLE, reason)
                return
            received = trio.current_time()
            metrics.message_in()
            if not limit.allow():
                await self._end(conn, Close.POLICY, "too many messages: slow down")
                return
            ack: int | None = None  # an act's id, for the error that refuses it
            try:
                message = decode_client(frame)
                to_table: (ActFrom | ResyncFrom | VoteFrom | ChatFrom | RematchFrom | PaceFrom
                           | ExplainFrom | HintFrom | None) = None
                match message:
                    case Act(action=action, id=ack):
                        to_table = ActFrom(conn, decode_action(action), received, ack)
                    case Resync(since=since):
                        to_table = ResyncFrom(conn, since)
                    case VoteBot(seat=seat):
                        to_table = VoteFrom(conn, seat)
                    case Chat(text=text):
                        to_table = ChatFrom(conn, text)
                    case Rematch():
                        to_table = RematchFrom(conn)
                    case SetPace(pace=pace):
                        to_table = PaceFrom(conn, pace)
                    case Explain():
                        to_table = ExplainFrom(conn)
                    case Hint():
                        to_table = HintFrom(conn)
                if to_table is not None:
                    try:
                        await inbox.send(to_table)
                    except (trio.BrokenResourceError, trio.ClosedResourceError):
                        # The table has closed. Its writer still sends what is queued
                        # (game_ended) and closes with the table's code, then cancels
                        # this task: returning now would cut it short.
                        await trio.sleep(TABLE_GONE_GRACE)
                        return
                    continue  # the table answers: an update, or an error
                if not isinstance(message, Ping):
                    raise ProtocolError(Code.ALREADY_ATTACHED, "hello was already sent @ $.type")
                answer: ServerMessage = Pong()
            except ProtocolError as exc:
                answer = Error(exc.code, exc.message, exc.ack if ack is None else ack)
            if not self._answer(conn, answer):
                await self._end(conn, Close.TOO_SLOW, TOO_SLOW_REASON)
                return

    def _answer(self, conn: Connection, message: ServerMessage) -> bool:
        """Send the reader's answer behind everything sent to ``conn`` before; False when
        the client does not read (dropped as too slow) or its outbox is closed."""
        done = conn.outlet.offer(Frame(encode(message)))
        return done is Offer.SENT or done is Offer.QUEUED

    async def _end(self, conn: Connection, code: Close, reason: str) -> None:
        """End ``conn`` through its writer (what is queued, then the close) and wait for
        the writer to cancel the caller; return after the writer's grace at the latest."""
        conn.outlet.end(code, reason)
        await trio.sleep(self.config.drop_grace + _CLOSE_GRACE)

    async def _writer(self, ws: WebSocketConnection, conn: Connection,
                      nursery: trio.Nursery) -> None:
        """Send the connection's outlet to the socket, in order. Bounded: one write that
        cannot be done within ``send_timeout`` (the client stopped reading; ``watch_sends``
        ends it), or a connection dropped and not drained within ``drop_grace``, ends the
        connection, so that no client can pin a socket and its queue for as long as it
        likes. Where the socket takes frames (``FrameSocket``), what waits goes out
        together, in one write, and the table may write to it at once while this runs;
        otherwise each message goes through ``send_message``."""
        outlet = conn.outlet
        sending = _Sending(conn.id)
        frames = FrameSocket.of(ws)

        async def shorten_on_drop() -> None:
            await outlet.dropped.wait()
            sending.scope.deadline = min(sending.scope.deadline,
                                         trio.current_time() + self.config.drop_grace)

        nursery.start_soon(shorten_on_drop)
        self._sending.add(sending)
        if frames is not None:
            outlet.write_through(frames)
        try:
            with sending.scope:
                while (batch := await outlet.next_batch(whole=frames is not None)) is not None:
                    sending.since = trio.current_time()
                    if frames is not None:
                        await frames.write(batch.data())
                    else:
                        for frame in batch.frames:
                            await ws.send_message(frame.text)
                    sending.since = None
                    outlet.sent(batch)
                await ws.aclose(outlet.close_code, outlet.close_reason)
        except ConnectionClosed:
            pass
        finally:
            self._sending.discard(sending)
            outlet.let_go()
        nursery.cancel_scope.cancel()

    async def flush(self, seconds: float = FLUSH_SECONDS) -> int:
        """Wait until every connection's writer has sent what its outlet holds and closed
        its websocket (after the supervisor's shutdown: every table has closed its
        connections' outlets, ``game_ended`` queued last), ``seconds`` at most for all of
        them together; returns how many were still being written when the time was up.
        Without it the server's exit cancels the writers with frames still queued, and
        closes sockets whose client has not read the end yet."""
        with trio.move_on_after(seconds):
            while self._sending:
                await trio.sleep(0.01)
        if self._sending:
            log.warning("%d connections still sending after %.0f s: closed unflushed",
                        len(self._sending), seconds, extra={"event": "flush_cut_short"})
        return len(self._sending)

    async def watch_sends(self, period: float = 1.0) -> None:
        """Forever: end every writer whose current message has not gone out within
        ``send_timeout`` (checked each ``period``). One task for all connections: a
        deadline per message cost each frame a cancel scope, about a tenth of the
        server's work when it fans out to spectators."""
        timeout = self.config.send_timeout
        while True:
            await trio.sleep(period)
            now = trio.current_time()
            for sending in list(self._sending):
                since = sending.since
                if since is not None and now - since > timeout:
                    log.info("connection %d: a message could not be sent in %.0f s",
                             sending.connection, timeout)
                    sending.scope.cancel()


class _Sending:
    """A writer's state for ``Gateway.watch_sends``."""

    __slots__ = ("connection", "scope", "since")

    def __init__(self, connection: int) -> None:
        self.connection = connection
        self.scope = trio.CancelScope()
        self.since: float | None = None  #: when the message now being sent was started
