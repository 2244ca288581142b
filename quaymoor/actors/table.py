"""The table actor: the sole owner of one game.

How it works. Everything reaches a table through its inbox (a bounded memory channel):
lobby requests (join, start), connections attaching and leaving, actions, timeouts and bot
moves. The actor handles one message at a time, applies actions through the rules, and
fans the result out: each connection gets its own seat's view through its outbox, a small
bounded channel filled with ``send_nowait``; a connection whose outbox is full is dropped
(it may reconnect), so the table never waits on a socket.

Each seat has a ``SeatWorker`` (its own nursery) for the 90-second decision timer and,
where a bot plays the seat, the bot. When a timer runs out the table plays the seat's
safe move; a disconnected seat that times out twice in a row is played by a bot until its
player comes back.

Events are versioned by the game's action count. A client that reconnects with the last
version it saw gets every event since then and its current view.
"""

from __future__ import annotations

import hmac
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from enum import Enum
from typing import Any

import attrs
import trio

from quaymoor.actors.seat import BotMove, Chooser, SeatWorker, TimedOut
from quaymoor.bots.random_bot import RandomBot
from quaymoor.config import TableConfig
from quaymoor.ops.metrics import Metrics
from quaymoor.protocol.codec import encode, rules_error_code
from quaymoor.protocol.messages import (
    Clock,
    Error,
    GameEnded,
    Lobby,
    SeatPublic,
    ServerMessage,
    Welcome,
)
from quaymoor.protocol.view_json import UpdateEncoder, ViewEncoder
from quaymoor.rules.actions import Action
from quaymoor.rules.errors import RulesError
from quaymoor.rules.events import Event
from quaymoor.rules.fairness import fingerprint, new_seed, seed_to_hex
from quaymoor.rules.game import Game
from quaymoor.rules.record import GameRecord, SeatInfo
from quaymoor.rules.safe_move import safe_action
from quaymoor.rules.state import Phase
from quaymoor.rules.views import SeatView

log = logging.getLogger("quaymoor.table")

BOT_NAMES = ("Ada", "Bede", "Cuthbert", "Dunstan", "Edith", "Frideswide", "Godric", "Hilda")
MAX_NAME = 24
MAX_CLIENT_SEED = 128

# Close codes sent to connections (application codes live in 4000-4999).
CLOSE_TABLE_CLOSED = 4000
CLOSE_TABLE_CRASHED = 4001
CLOSE_SHUTDOWN = 4002
CLOSE_TOO_SLOW = 4003


def _random_chooser() -> Chooser:
    bot = RandomBot()

    async def choose(view: SeatView) -> Action | None:
        return bot.choose(view)

    return choose


class TableState(Enum):
    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"
    ENDED = "ended"  #: by a shutdown or a crash


class TableError(Exception):
    """A lobby request the table refuses; ``code`` goes on the wire."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Reply:
    """A one-shot answer from the actor to whoever asked (an HTTP request, a gateway)."""

    def __init__(self) -> None:
        self._done = trio.Event()
        self._value: Any = None
        self._error: TableError | None = None

    def set(self, value: Any) -> None:
        self._value = value
        self._done.set()

    def fail(self, error: TableError) -> None:
        self._error = error
        self._done.set()

    async def wait(self) -> Any:
        await self._done.wait()
        if self._error is not None:
            raise self._error
        return self._value


class Receipt:
    """An action's broadcast, for the action-to-broadcast latency: from the moment the
    gateway read the action to the moment the last connection's writer handed the
    resulting update to its socket."""

    __slots__ = ("metrics", "received", "remaining")

    def __init__(self, received: float, metrics: Metrics) -> None:
        self.received = received
        self.metrics = metrics
        self.remaining = 0  #: frames queued and not yet sent

    def sent(self) -> None:
        """One of the frames was handed to its socket (or will never be: the connection
        went away); the last one completes the broadcast."""
        self.remaining -= 1
        if self.remaining == 0:
            self.metrics.action_done(trio.current_time() - self.received)


@attrs.define(eq=False)
class Connection:
    """One websocket's attachment to a table, shared with the gateway."""

    id: int
    outbox: trio.MemorySendChannel[str]
    seat: int | None = None
    close_code: int = CLOSE_TABLE_CLOSED
    close_reason: str = "table closed"
    #: Set when the table drops the connection as too slow: the gateway then gives it only
    #: a short grace to take what was queued and the close, and lets go of it.
    dropped: trio.Event = attrs.field(factory=trio.Event)
    queued: int = 0  #: frames put in the outbox so far
    written: int = 0  #: frames the gateway's writer has handed to the socket so far
    #: (the value of ``queued`` once a broadcast's frame is in, its receipt), oldest first
    receipts: deque[tuple[int, Receipt]] = attrs.field(factory=deque)

    def frame_written(self) -> None:
        """The writer handed one more frame to the socket."""
        self.written += 1
        receipts = self.receipts
        while receipts and receipts[0][0] <= self.written:
            receipts.popleft()[1].sent()

    def let_go(self) -> None:
        """The connection is gone: what it still owed counts as sent."""
        while self.receipts:
            self.receipts.popleft()[1].sent()


# ---------------------------------------------------------------- inbox messages


@attrs.frozen
class Join:
    name: str
    client_seed: str | None
    reply: Reply


@attrs.frozen
class Start:
    token: str
    reply: Reply


@attrs.frozen
class Attach:
    connection: Connection
    token: str | None
    since: int | None
    reply: Reply


@attrs.frozen
class Detach:
    connection: Connection


@attrs.frozen
class ActFrom:
    connection: Connection
    action: Action
    received: float = 0.0  #: trio time the gateway read it (for the latency metric)


@attrs.frozen
class Shutdown:
    reason: str = "shutdown"


@attrs.define
class Seat:
    index: int
    name: str | None = None
    token: str | None = None
    bot: bool = False
    client_seed: str | None = None
    connections: int = 0
    missed_timeouts: int = 0
    bot_playing: bool = False

    @property
    def bot_controlled(self) -> bool:
        return self.bot or self.bot_playing

    def public(self) -> SeatPublic:
        return SeatPublic(self.index, self.name, self.bot, self.bot_playing,
                          self.bot or self.connections > 0)


@attrs.frozen
class JoinResult:
    seat: int
    token: str


class Table:
    """One table: its lobby, its game, its connections. Run with ``await table.run()``."""

    def __init__(
        self,
        table_id: str,
        players: int,
        config: TableConfig,
        *,
        bot_factory: Callable[[], Chooser] | None = None,
        on_record: Callable[[Table], None] | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.id = table_id
        self.players = players
        self.bot_level = "random"  #: the level of the bots in empty chairs (set by the lobby)
        self.config = config
        self.seed = new_seed()  # drawn at creation: the fingerprint is public before anyone joins
        self.fingerprint = fingerprint(self.seed)
        self.state = TableState.WAITING
        self.seats = [Seat(i) for i in range(players)]
        self.game: Game | None = None
        self._views: ViewEncoder | None = None
        self.created = time.time()
        self.end_reason: str | None = None
        self.crash: str | None = None
        self.connections: dict[int, Connection] = {}
        self.inbox, self._inbox_recv = trio.open_memory_channel[object](config.inbox_size)
        self.metrics = metrics if metrics is not None else Metrics()
        self._workers = [
            SeatWorker(i, self.inbox, on_bot_decided=self.metrics.bot_decided)
            for i in range(players)
        ]
        self._bots: dict[int, Chooser] = {}
        self._bot_factory = bot_factory or _random_chooser
        self._on_record = on_record
        self._log: list[tuple[int, list[Event]]] = []  #: (version before, events) per change
        self._deciding: set[int] = set()
        self._decision = [0] * players
        self._phase: Phase | None = None  #: the phase at the last _sync_seats
        self._closing = False
        #: The receipt of the action being handled, given to the frames of its broadcast.
        self._receipt: Receipt | None = None
        self.timeouts = 0
        self.bot_moves = 0

    # ------------------------------------------------------------ running

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Serve the table until it closes. Raises whatever its own code raises (the
        supervisor isolates it); cancellation passes through."""
        async with trio.open_nursery() as nursery:
            for worker in self._workers:
                await nursery.start(worker.run)
            task_status.started()
            with trio.move_on_after(self.config.lobby_seconds) as lobby_scope:
                while self.state is TableState.WAITING:
                    await self._handle(await self._inbox_recv.receive())
            if lobby_scope.cancelled_caught:
                self._end("abandoned", CLOSE_TABLE_CLOSED)
            while self.state is TableState.PLAYING:
                await self._handle(await self._inbox_recv.receive())
            with trio.move_on_after(self.config.linger_seconds):
                while not self._closing:
                    await self._handle(await self._inbox_recv.receive())
            self._close_all(CLOSE_TABLE_CLOSED, "table closed")
            nursery.cancel_scope.cancel()

    def refuse_pending(self) -> None:
        """After the table stops: close its inbox and answer every request still queued,
        so that nobody waits for a table that is gone."""
        while True:
            try:
                msg = self._inbox_recv.receive_nowait()
            except (trio.WouldBlock, trio.EndOfChannel, trio.ClosedResourceError):
                break
            reply = getattr(msg, "reply", None)
            if isinstance(reply, Reply):
                reply.fail(TableError("table_closed", "this table has closed"))
            conn = getattr(msg, "connection", None)
            if isinstance(conn, Connection):
                conn.outbox.close()
        self._inbox_recv.close()

    async def _handle(self, msg: object) -> None:
        if isinstance(msg, ActFrom):
            if msg.received:
                self._receipt = Receipt(msg.received, self.metrics)
            try:
                self._act(msg.connection, msg.action)
            finally:
                self._receipt = None
        elif isinstance(msg, BotMove):
            self._bot_move(msg)
        elif isinstance(msg, TimedOut):
            self._timed_out(msg)
        elif isinstance(msg, Attach):
            self._attach(msg)
        elif isinstance(msg, Detach):
            self._detach(msg.connection)
        elif isinstance(msg, Join):
            self._join(msg)
        elif isinstance(msg, Start):
            self._start(msg)
        elif isinstance(msg, Shutdown):
            self._end(msg.reason, CLOSE_SHUTDOWN)
        else:
            raise TypeError(f"table {self.id}: unknown inbox message {type(msg).__name__}")

    # ------------------------------------------------------------ lobby

    def _join(self, msg: Join) -> None:
        if self.state is not TableState.WAITING:
            msg.reply.fail(TableError("already_started", "the game has started: watch instead"))
            return
        name = " ".join(msg.name.split())[:MAX_NAME]
        if not name:
            msg.reply.fail(TableError("bad_name", "a name is needed @ $.name"))
            return
        if msg.client_seed is not None and len(msg.client_seed.encode()) > MAX_CLIENT_SEED:
            msg.reply.fail(TableError(
                "bad_client_seed", f"client_seed is over {MAX_CLIENT_SEED} bytes @ $.client_seed"))
            return
        for seat in self.seats:
            if seat.name is None:
                seat.name = name
                seat.token = secrets.token_urlsafe(24)
                seat.client_seed = msg.client_seed
                msg.reply.set(JoinResult(seat.index, seat.token))
                self._broadcast_lobby()
                return
        msg.reply.fail(TableError("table_full", "every seat is taken: watch instead"))

    def seat_for_token(self, token: str) -> Seat | None:
        """The seat holding ``token``, compared in constant time."""
        found = None
        for seat in self.seats:
            if seat.token is not None and hmac.compare_digest(seat.token, token):
                found = seat
        return found

    def _start(self, msg: Start) -> None:
        if self.state is not TableState.WAITING:
            msg.reply.fail(TableError("already_started", "the game has already started"))
            return
        if self.seat_for_token(msg.token) is None:
            msg.reply.fail(TableError("bad_token", "only a seated player may start the game"))
            return
        taken = {s.name for s in self.seats if s.name}
        names = iter(n for n in BOT_NAMES if n not in taken)
        for seat in self.seats:
            if seat.name is None:
                seat.name = f"{next(names)} (bot)"
                seat.bot = True
                self._bots[seat.index] = self._bot_factory()
        client_seeds = [s.client_seed for s in self.seats if s.client_seed]
        self.game = Game(self.players, self.seed, client_seeds)
        self._views = ViewEncoder(self.game)
        self.state = TableState.PLAYING
        log.info("table %s started: %d players, %d bots", self.id, self.players,
                 len(self._bots), extra={"event": "table_started", "table": self.id})
        msg.reply.set(None)
        self._after_change(acted=None, since=0, events=[])

    # ------------------------------------------------------------ connections

    def _attach(self, msg: Attach) -> None:
        conn = msg.connection
        seat: Seat | None = None
        if msg.token is not None:
            seat = self.seat_for_token(msg.token)
            if seat is None:
                msg.reply.fail(TableError("bad_token", "that seat token is not valid here"))
                return
        conn.seat = seat.index if seat else None
        self.connections[conn.id] = conn
        msg.reply.set(conn.seat)
        if seat is not None:  # before the welcome, whose seats show this one connected
            seat.connections += 1
            if seat.bot_playing:
                seat.bot_playing = False
                seat.missed_timeouts = 0
                self._workers[seat.index].stop()
                self._deciding.discard(seat.index)  # a fresh decision and timer for the player
                self._sync_seats(acted=None)
        self._send(conn, Welcome(
            self.id, conn.seat, self.players, self.fingerprint, self.game is not None,
            self._seats_public(), self.config.decision_seconds,
        ))
        if self.game is None:
            self._broadcast_lobby()
            return
        self._send_catch_up(conn, msg.since)
        if self.state in (TableState.FINISHED, TableState.ENDED):
            self._send(conn, self._ended_message())
        else:
            self._broadcast_seats_changed(exclude=conn)

    def _detach(self, conn: Connection) -> None:
        if self.connections.pop(conn.id, None) is None:
            return
        if conn.seat is not None:
            self.seats[conn.seat].connections -= 1
            if self.game is not None and self.state is TableState.PLAYING:
                self._broadcast_seats_changed(exclude=None)
        conn.outbox.close()
        conn.let_go()

    def _send_catch_up(self, conn: Connection, since: int | None) -> None:
        assert self.game is not None
        version = self.game.version
        events: list[Event] = []
        start = version
        if since is not None and 0 <= since <= version:
            first = next((i for i, (v, _) in enumerate(self._log) if v >= since), None)
            if first is not None and self._log[first][0] == since:
                for _, evs in self._log[first:]:
                    events.extend(evs)
                start = since
            elif since == version:
                start = since
        self._send_text(conn, self._update(start, events).for_seat(conn.seat))

    # ------------------------------------------------------------ play

    def _act(self, conn: Connection, action: Action) -> None:
        if self.game is None or self.state is not TableState.PLAYING:
            self._send(conn, Error("not_playing", "the game is not being played now"))
            return
        if conn.seat is None:
            self._send(conn, Error("spectator", "spectators watch; they cannot act"))
            return
        seat = self.seats[conn.seat]
        self._apply_and_publish(conn.seat, [action], conn)
        seat.missed_timeouts = 0

    def _apply_and_publish(
        self, seat: int, actions: list[Action], conn: Connection | None
    ) -> bool:
        assert self.game is not None
        since = self.game.version
        events: list[Event] = []
        for action in actions:
            try:
                events.extend(self.game.apply(seat, action, at=time.time()))
            except RulesError as exc:
                if conn is not None:
                    self._send(conn, Error(rules_error_code(exc), str(exc)))
                if not events:
                    return False
                break
        self._after_change(acted=seat, since=since, events=events)
        return True

    def _bot_move(self, msg: BotMove) -> None:
        game = self.game
        if game is None or self.state is not TableState.PLAYING:
            return
        seat = self.seats[msg.seat]
        if not seat.bot_controlled:
            return
        if msg.action in game.legal_actions(msg.seat) or msg.action in game.takeback_actions(
                msg.seat):
            self.bot_moves += 1
            self._apply_and_publish(msg.seat, [msg.action], None)
        elif msg.seat in game.deciding():
            self._start_bot(msg.seat)  # the game moved on under the bot: think again

    def _timed_out(self, msg: TimedOut) -> None:
        game = self.game
        if game is None or self.state is not TableState.PLAYING:
            return
        if self._decision[msg.seat] != msg.decision or msg.seat not in game.deciding():
            return
        self.timeouts += 1
        self.metrics.timed_out()
        seat = self.seats[msg.seat]
        since = game.version
        events: list[Event] = []
        simultaneous = game.state.phase in (Phase.REEVE, Phase.KEEP_GOODS)
        while msg.seat in game.deciding():
            action = safe_action(game.state, msg.seat)
            if action is None:
                break
            events.extend(game.apply(msg.seat, action, at=time.time()))
            if not simultaneous:
                break
        if seat.connections == 0:
            seat.missed_timeouts += 1
            if seat.missed_timeouts >= self.config.takeover_after and not seat.bot:
                seat.bot_playing = True
                self._bots.setdefault(msg.seat, self._bot_factory())
                log.info("table %s: a bot plays seat %d until its player returns",
                         self.id, msg.seat, extra={"event": "bot_takeover", "table": self.id})
        self._after_change(acted=msg.seat, since=since, events=events)

    def _after_change(self, *, acted: int | None, since: int, events: list[Event]) -> None:
        assert self.game is not None
        self._log.append((since, events))
        if self.game.is_over():
            self.state = TableState.FINISHED
            self.end_reason = "finished"
            for w in self._workers:
                w.stop()
            self._broadcast_update(since, events)
            self._broadcast(self._ended_message())
            self._keep_record()
            log.info("table %s finished after %d actions", self.id, self.game.version,
                     extra={"event": "table_finished", "table": self.id})
            return
        self._sync_seats(acted)
        self._broadcast_update(since, events)

    def _sync_seats(self, acted: int | None) -> None:
        """Start timers for new decisions and bot moves for bot-played seats."""
        game = self.game
        assert game is not None
        now = set(game.deciding())
        phase = game.state.phase
        # One timer spans a seat's whole part in a simultaneous phase; any other action of
        # the seat (including the one that brought the game into such a phase) starts a
        # fresh decision with a fresh timer.
        same_decision = phase in (Phase.REEVE, Phase.KEEP_GOODS) and phase is self._phase
        self._phase = phase
        for i, seat in enumerate(self.seats):
            worker = self._workers[i]
            if i not in now:
                if i in self._deciding:
                    worker.stop()
                continue
            new = i not in self._deciding or (acted == i and not same_decision)
            if new:
                self._decision[i] += 1
            if seat.bot_controlled:
                if new or acted == i:
                    self._start_bot(i)
            elif new:
                worker.start_timer(self._decision[i], self.config.decision_seconds)
        self._deciding = now

    def _start_bot(self, seat: int) -> None:
        assert self.game is not None
        chooser = self._bots.setdefault(seat, self._bot_factory())
        self._workers[seat].start_bot(self.game.view(seat), chooser, self.config.bot_delay)

    # ------------------------------------------------------------ ending

    def shutdown_now(self, reason: str, code: int) -> None:
        """End the game at once (server shutdown or a crash): tell everyone, reveal the
        seed, keep the record. Safe to call from outside the actor's task."""
        self._end(reason, code)

    def _end(self, reason: str, code: int) -> None:
        if self.state in (TableState.FINISHED, TableState.ENDED) and self._closing:
            return
        if self.state is TableState.PLAYING or self.state is TableState.WAITING:
            self.state = TableState.ENDED
            self.end_reason = reason
            log.info("table %s ended: %s", self.id, reason,
                     extra={"event": "table_ended", "table": self.id, "reason": reason})
            for w in self._workers:
                w.stop()
            if self.game is not None:
                self._broadcast(self._ended_message())
                self._keep_record()
        self._close_all(code, f"table ended: {reason}")

    def _keep_record(self) -> None:
        if self._on_record is not None:
            try:
                self._on_record(self)
            except Exception:
                log.exception("table %s: keeping the record failed", self.id)

    def record(self) -> GameRecord | None:
        if self.game is None:
            return None
        seats = [SeatInfo(s.name or f"Seat {s.index + 1}", s.bot) for s in self.seats]
        return self.game.record(seats, game=self.id, end_reason=self.end_reason,
                                ended_at=time.time())

    def _ended_message(self) -> GameEnded:
        assert self.game is not None
        over = self.game.is_over()
        result = self.game.view(None).result if over else None
        return GameEnded(
            self.id, self.end_reason or "finished", seed_to_hex(self.seed), self.fingerprint,
            list(self.game.client_seeds), result, f"/games/{self.id}.json",
        )

    def _close_all(self, code: int, reason: str) -> None:
        self._closing = True
        for conn in list(self.connections.values()):
            conn.close_code = code
            conn.close_reason = reason
            conn.outbox.close()
        self.connections.clear()

    # ------------------------------------------------------------ fan-out

    def _seats_public(self) -> list[SeatPublic]:
        return [s.public() for s in self.seats]

    def clocks(self) -> list[Clock]:
        now = trio.current_time()
        out = []
        for w in self._workers:
            if w.deadline is not None:
                out.append(Clock(w.seat, round(max(0.0, w.deadline - now), 1)))
        return out

    def _update(self, since: int, events: list[Event]) -> UpdateEncoder:
        """The update at the game's current version, ready to encode for any seat."""
        assert self.game is not None and self._views is not None
        return UpdateEncoder(self._views, version=self.game.version, since=since,
                             events=events, clocks=self.clocks(), seats=self._seats_public())

    def _broadcast_update(
        self, since: int, events: list[Event], *, exclude: Connection | None = None
    ) -> None:
        """Each connection gets its seat's update; what seats share is encoded once."""
        if not self.connections:
            return
        update = self._update(since, events)
        cache: dict[int | None, str] = {}
        receipt = self._receipt
        for conn in list(self.connections.values()):
            if conn is exclude:
                continue
            text = cache.get(conn.seat)
            if text is None:
                text = update.for_seat(conn.seat)
                cache[conn.seat] = text
            if self._send_text(conn, text) and receipt is not None:
                receipt.remaining += 1
                conn.receipts.append((conn.queued, receipt))

    def _broadcast_seats_changed(self, exclude: Connection | None) -> None:
        """Who is connected changed: a snapshot update (no events) to the others."""
        assert self.game is not None
        self._broadcast_update(self.game.version, [], exclude=exclude)

    def _broadcast_lobby(self) -> None:
        self._broadcast(Lobby(self.id, self.players, self._seats_public()))

    def _broadcast(self, message: ServerMessage) -> None:
        text = encode(message)
        for conn in list(self.connections.values()):
            self._send_text(conn, text)

    def _send(self, conn: Connection, message: ServerMessage) -> None:
        self._send_text(conn, encode(message))

    def _send_text(self, conn: Connection, text: str) -> bool:
        """Queue ``text`` for ``conn``; False when the connection is dropped instead."""
        try:
            conn.outbox.send_nowait(text)
            conn.queued += 1
            return True
        except trio.WouldBlock:
            log.info("table %s: connection %d too slow, dropped", self.id, conn.id,
                     extra={"event": "connection_dropped", "table": self.id})
            conn.close_code = CLOSE_TOO_SLOW
            conn.close_reason = "too slow to keep up: reconnect to continue"
            conn.dropped.set()
            self._detach(conn)
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            self._detach(conn)
        return False

    # ------------------------------------------------------------ status

    def summary(self) -> dict[str, Any]:
        """Public facts for the operators' status page: no hidden information."""
        game = self.game
        now = trio.current_time()
        deciding = list(game.deciding()) if game is not None else []
        left = [
            round(self._workers[i].deadline - now, 1)  # type: ignore[operator]
            for i in deciding if self._workers[i].deadline is not None
        ]
        return {
            "id": self.id,
            "players": self.players,
            "bots": self.bot_level,
            "state": self.state.value,
            "seats": [
                {"seat": s.index, "name": s.name, "bot": s.bot, "bot_playing": s.bot_playing,
                 "connected": s.connections > 0}
                for s in self.seats
            ],
            "round": game.state.round if game else None,
            "phase": game.state.phase.name.lower() if game else None,
            "deciding": deciding,
            "time_left": min(left) if left else None,
            "actions": game.version if game else 0,
            "connections": len(self.connections),
        }
