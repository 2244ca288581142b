"""The table actor: the sole owner of one game.

How it works. Everything reaches a table through its inbox (a bounded memory channel of
``InboxMessage``, see ``inbox``): lobby requests, connections attaching and leaving,
actions, timeouts and bot moves. The actor handles one message at a time, applies actions
through the rules, and fans the result out (``fanout``): each connection gets its own
seat's view through its outbox; a connection whose outbox is full is dropped (it may
reconnect), so the table never waits on a socket. The chairs, tokens and bots' names are
the lobby's (``lobby``).

Each seat has a ``SeatWorker`` (its own nursery) for the 90-second decision timer and,
where a bot plays the seat, the bot. When a timer runs out the table plays the seat's
safe move; a disconnected seat that times out twice in a row is played by a bot until its
player comes back, and after its first timeout the connected players may vote to hand it to
a bot at once (``handover``).

Events are versioned by the game's action count. A client that reconnects with the last
version it saw gets every event since then and its current view (a snapshot); the updates
after it are deltas, the patch of each audience's view, and a client that lost its chain
asks for a snapshot (``ResyncFrom``).
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from typing import Any, Never, NoReturn

import attrs
import trio

from quaymoor.actors import handover, status
from quaymoor.actors.alarm import Alarm
from quaymoor.actors.chat import Chat, ChatError
from quaymoor.actors.connection import Connection
from quaymoor.actors.fanout import Fanout, History
from quaymoor.actors.inbox import (
    ActFrom,
    Attach,
    BotMove,
    ChatFrom,
    Detach,
    ExplainFrom,
    HostAway,
    InboxMessage,
    Join,
    PaceFrom,
    RematchFailed,
    RematchFrom,
    RematchReady,
    ResyncFrom,
    Seed,
    Shutdown,
    Start,
    TableError,
    TimedOut,
    VoteFrom,
    WatchersDue,
    refuse,
)
from quaymoor.actors.lobby import Seats
from quaymoor.actors.outlet import Receipt
from quaymoor.actors.rematch import AskForTable, Rematch
from quaymoor.actors.seat import Chooser, SeatWorker, clocks
from quaymoor.bots.random_bot import RandomBot
from quaymoor.config import TableConfig
from quaymoor.ops.metrics import Metrics
from quaymoor.protocol.codes import Close, Code, rules_code
from quaymoor.protocol.messages import (
    MAX_WATCHER_NAMES,
    WATCHERS_EVERY,
    EndOfGame,
    Error,
    Explanation,
    GameStarted,
    Lobby,
    PaceSet,
    SeatTimedOut,
    ServerMessage,
    Watchers,
    Welcome,
    WireEvent,
)
from quaymoor.protocol.pace import (
    DEFAULT_PACE,
    PACE_SECONDS,
    Pace,
    TableState,
    pace_names,
    parse_pace,
)
from quaymoor.protocol.view_json import UpdateEncoder, ViewEncoder
from quaymoor.rules.actions import Action
from quaymoor.rules.errors import RulesError
from quaymoor.rules.fairness import fingerprint, new_seed, seed_to_hex
from quaymoor.rules.game import Game
from quaymoor.rules.record import EndReason, GameRecord, SeatInfo
from quaymoor.rules.state import Phase
from quaymoor.rules.views import SeatView

#: ``TableState``'s home is ``protocol.pace`` (the wire names it); re-exported here.
__all__ = ["Table", "TableState"]

log = logging.getLogger("quaymoor.table")


def _random_chooser() -> Chooser:
    bot = RandomBot()

    async def choose(view: SeatView) -> Action | None:
        return bot.choose(view)

    return choose


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
        on_rematch: Callable[[Table, dict[int, str], int], None] | None = None,
        held: dict[int, str] | None = None,
        rematch_of: str | None = None,
        host: int | None = None,
        pace: Pace = DEFAULT_PACE,
    ) -> None:
        self.id = table_id
        self.players = players
        self.bot_level = "random"  #: the level of the bots in empty chairs (set by the lobby)
        self.config = config
        self.seed = new_seed()  # drawn at creation: the fingerprint is public before anyone joins
        self.fingerprint = fingerprint(self.seed)
        self.state = TableState.WAITING
        self.seats = Seats(players)
        for index, name in (held or {}).items():  # a rematch: its players' chairs
            self.seats.hold(index, name)
        self.rematch_of = rematch_of  #: the game this table is a rematch of
        self.pace = pace  #: how long its bots wait before each move (``protocol.pace``)
        #: The seat that opened the table, who starts it: the first to join, or at a
        #: rematch the player who asked for it; None until someone joins.
        self.host = host
        self.host_away = False  #: the host has been away long enough: anyone may start
        self.game: Game | None = None
        self._views: ViewEncoder | None = None
        self.created = time.time()
        self.end_reason: EndReason | None = None
        self.crash: str | None = None
        self.fanout = Fanout(table_id)
        self.status_texts = status.StatusTexts()  #: its summary's JSON, for the status lists
        self.history = History()
        self.chat = Chat(table_id)
        ask: AskForTable | None = None
        if on_rematch is not None:
            def ask(humans: dict[int, str], host: int) -> None:
                on_rematch(self, humans, host)
        self.rematch = Rematch(table_id, self.fanout, self.seats, ask)
        self.inbox, self._inbox_recv = trio.open_memory_channel[InboxMessage](config.inbox_size)
        self.metrics = metrics if metrics is not None else Metrics()
        self.workers = [
            SeatWorker(i, self.inbox, on_bot_decided=self.metrics.bot_decided)
            for i in range(players)
        ]
        self._bots: dict[int, Chooser] = {}
        self._bot_factory = bot_factory or _random_chooser
        self._on_record = on_record
        #: Told after the start and after every change of the game (the shared store).
        self.on_change: Callable[[Table], None] | None = None
        self._deciding: set[int] = set()
        self._decision = [0] * players
        self._phase: Phase | None = None  #: the phase at the last _sync_seats
        self._closing = False
        #: The receipt of the action being handled, given to the frames of its broadcast.
        self._receipt: Receipt | None = None
        #: The message being handled: if the table stops in the middle (a crash, a
        #: cancellation), ``refuse_pending`` answers it too.
        self._handling: InboxMessage | None = None
        self.timeouts = 0
        self.bot_moves = 0
        self._host_alarm = Alarm(self.inbox, HostAway())
        self._watchers_alarm = Alarm(self.inbox, WatchersDue())
        self._watchers_sent: Watchers | None = None  #: the last ``watchers`` broadcast
        self._watchers_at = -math.inf  #: trio time it went out
        self._watchers_due = False  #: the next one is set on the alarm
        if host is not None:
            self._host_left()

    # ------------------------------------------------------------ running

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Serve the table until it closes. Raises whatever its own code raises (the
        supervisor isolates it); cancellation passes through."""
        async with trio.open_nursery() as nursery:
            for worker in self.workers:
                worker.attach(nursery)
            self._host_alarm.attach(nursery)
            self._watchers_alarm.attach(nursery)
            task_status.started()
            with trio.move_on_after(self.config.lobby_seconds) as lobby_scope:
                while self.state is TableState.WAITING:
                    await self._handle(await self._inbox_recv.receive())
            if lobby_scope.cancelled_caught:
                self._end(EndReason.ABANDONED, Close.TABLE_CLOSED)
            while self.state is TableState.PLAYING:
                await self._handle(await self._inbox_recv.receive())
            with trio.move_on_after(self.config.linger_seconds):
                while not self._closing:
                    await self._handle(await self._inbox_recv.receive())
            self._close_all(Close.TABLE_CLOSED, "table closed")
            nursery.cancel_scope.cancel()

    def release(self) -> None:
        """After the table's end: break the cycles through it (the rematch's callback into
        it, its seats' hold on its nursery), so that reference counting frees it and its
        history at once rather than the next full collection."""
        self.rematch.forget_owner()
        for worker in self.workers:
            worker.release()
        self._host_alarm.release()
        self._watchers_alarm.release()
        self._bots.clear()

    def refuse_pending(self) -> None:
        """After the table stops: close its inbox and answer every request still queued,
        so that nobody waits for a table that is gone. The message the table was handling
        when it stopped is answered too (unless it already was)."""
        if self._handling is not None:
            refuse(self._handling)
            self._handling = None
        while True:
            try:
                msg = self._inbox_recv.receive_nowait()
            except (trio.WouldBlock, trio.EndOfChannel, trio.ClosedResourceError):
                break
            refuse(msg)
        self._inbox_recv.close()

    async def _handle(self, msg: InboxMessage) -> None:
        self._handling = msg  # a raise leaves it set, for refuse_pending to answer
        match msg:
            case ActFrom(connection=conn, action=action, received=received):
                if received:
                    self._receipt = Receipt(received, self.metrics)
                try:
                    self._act(conn, action)
                finally:
                    if self._receipt is not None:
                        self._receipt.release()
                    self._receipt = None
            case BotMove():
                self._bot_move(msg)
            case TimedOut():
                self._timed_out(msg)
            case Attach():
                self._attach(msg)
                self._after_attach(msg.connection)
            case ChatFrom(connection=conn, text=text):
                self._chat(conn, text)
            case RematchFrom(connection=conn):
                if self.fanout.connections.get(conn.id) is conn:
                    self._detach_all(
                        self.rematch.request(conn, self.state is TableState.FINISHED))
            case RematchReady():
                self._detach_all(self.rematch.opened(msg))
            case RematchFailed():
                self._detach_all(self.rematch.failed(msg))
            case Detach(connection=conn):
                self._detach(conn)
            case ResyncFrom(connection=conn, since=since):
                self._resync(conn, since)
            case VoteFrom(connection=conn, seat=target):
                self._vote(conn, target)
            case PaceFrom(connection=conn, pace=pace):
                self._set_pace(conn, pace)
            case ExplainFrom(connection=conn):
                self._explain(conn)
            case HostAway():
                self._host_away()
            case WatchersDue():
                self._broadcast_watchers()
            case Join():
                self._join(msg)
            case Seed():
                self._seed(msg)
            case Start():
                self._start(msg)
            case Shutdown(reason=reason):
                self._end(reason, Close.SHUTDOWN)
            case _:
                _unknown(self.id, msg)
        self._handling = None

    # ------------------------------------------------------------ lobby

    def _join(self, msg: Join) -> None:
        if self.state is not TableState.WAITING:
            msg.reply.fail(TableError(Code.ALREADY_STARTED, "the game has started: watch instead"))
            return
        try:
            joined = self.seats.join(msg.name)
        except TableError as exc:
            msg.reply.fail(exc)
            return
        if self.host is None:
            self.host = joined.seat  # the table's first player opened it
            self._host_left()
        msg.reply.set(joined)
        self._broadcast_lobby()

    def _seed(self, msg: Seed) -> None:
        """A seat's client seed: after its join's answer showed the fingerprint, before
        the start, once."""
        if self.state is not TableState.WAITING:
            msg.reply.fail(TableError(Code.ALREADY_STARTED,
                                      "the game has started: client seeds go in before it"))
            return
        try:
            self.seats.give_seed(msg.token, msg.client_seed)
        except TableError as exc:
            msg.reply.fail(exc)
            return
        msg.reply.set(None)
        if self.rematch_of is not None and self.seats.all_seeded():
            self._begin()  # a rematch starts once every player has come and seeded

    def _start(self, msg: Start) -> None:
        if self.state is not TableState.WAITING:
            msg.reply.fail(TableError(Code.ALREADY_STARTED, "the game has already started"))
            return
        starter = self.seats.seat_for_token(msg.token)
        if starter is None:
            msg.reply.fail(TableError(Code.BAD_TOKEN, "only a seated player may start the game"))
            return
        if self.host is not None and starter.index != self.host and not self.host_away:
            name = self.seats[self.host].name or f"Seat {self.host + 1}"
            away = self.config.host_away_seconds
            msg.reply.fail(TableError(
                Code.NOT_HOST, f"only the table's host, {name}, may start the game (anyone "
                               f"seated may once {name} has been away for {away:g} s)"))
            return
        starter.held = False  # whoever starts a rematch has come
        self._begin()  # a raise here leaves the reply to refuse_pending: table_closed
        msg.reply.set(None)

    def _begin(self) -> None:
        """Bots in the empty chairs, the game dealt and its first update out."""
        for index in self.seats.fill_with_bots():
            self._bots[index] = self._bot_factory()
        self.game = Game(self.players, self.seed, self.seats.client_seeds())
        self._views = ViewEncoder(self.game)
        self.state = TableState.PLAYING
        self._host_alarm.cancel()
        self.host_away = False
        log.info("table %s started: %d players, %d bots", self.id, self.players,
                 len(self._bots), extra={"event": "table_started", "table": self.id})
        self._broadcast(GameStarted(self.id, self.seats.seat_seeds()))
        self._after_change(acted=None, since=0, events=[])

    # ------------------------------------------------------------ connections

    def _attach(self, msg: Attach) -> None:
        """Attach a connection: its welcome, then its catch-up. Only a change of what the
        seats show (a seat's ``connected`` or ``bot_playing``) goes to the others, as one
        snapshot each: a spectator's attach changes nothing anyone sees, so it sends
        nothing to anyone else (a spectator storm must not flood the players)."""
        conn = msg.connection
        seat = None
        if msg.token is not None:
            seat = self.seats.seat_for_token(msg.token)
            if seat is None:
                msg.reply.fail(TableError(Code.BAD_TOKEN, "that seat token is not valid here"))
                return
        conn.seat = seat.index if seat else None
        conn.name = msg.name if seat is None else None
        if seat is not None:
            seat.held = False  # a rematch's player has come
            if seat.index == self.host:  # back: the start is the host's again
                self._host_alarm.cancel()
                self.host_away = False
        self.fanout.add(conn)
        msg.reply.set(conn.seat)
        seats_changed = False
        if seat is not None:  # before the welcome, whose seats show this one connected
            seats_changed = not seat.connected
            if seats_changed:  # back: timeouts count afresh, and any vote on the seat ends
                seat.missed_timeouts = 0
                seat.votes.clear()
            seat.connections += 1
            if seat.bot_playing:
                seat.bot_playing = False
                seat.missed_timeouts = 0
                seats_changed = True
                self.workers[seat.index].stop()
                self._deciding.discard(seat.index)  # a fresh decision and timer for the player
                self._sync_seats(acted=None)
        self._send(conn, Welcome(
            self.id, conn.seat, self.players, self.fingerprint, self.game is not None,
            self.seats.public(), self.config.decision_seconds,
            client_seeds=self.seats.seat_seeds() if self.game is not None else None,
            host=self.host, pace=self.pace,
        ))
        if self.game is None:
            if seats_changed:
                self._broadcast_lobby()
            else:
                self._send(conn, self._lobby())
            return
        start, events = self.history.since(msg.since, self.game.version)
        self._send_snapshot(conn, self._update(start, events))
        if self.state in (TableState.FINISHED, TableState.ENDED):
            self._send(conn, self._ended_message())
        elif seats_changed:
            self._broadcast_seats_changed(exclude=conn)

    def _after_attach(self, conn: Connection) -> None:
        """After an attach's catch-up: who watches, the chat's recent lines and a rematch
        on offer. A spectator's coming is told to the others with the next ``watchers``
        (``_watchers_changed``)."""
        if self.fanout.connections.get(conn.id) is not conn:
            return  # refused, or already dropped
        self._send(conn, self._watchers())
        if conn.seat is None:
            self._watchers_changed()
        if self.chat.recent:
            self._send(conn, self.chat.catch_up())
        self._detach_all(self.rematch.catch_up(conn))

    def _chat(self, conn: Connection, text: str) -> None:
        """A chat line from a seat, to everyone attached; refused for a spectator."""
        if self.fanout.connections.get(conn.id) is not conn:
            return
        if conn.seat is None:
            self._send(conn, Error(Code.SPECTATOR,
                                  "spectators read the chat; only the players write in it"))
            return
        seat = self.seats[conn.seat]
        try:
            line = self.chat.say(conn.seat, seat.name or f"Seat {conn.seat + 1}", text)
        except ChatError as exc:
            self._send(conn, Error(exc.code, exc.message))
            return
        self._broadcast(line)

    def _resync(self, conn: Connection, since: int | None) -> None:
        """A snapshot of the connection's view now (its client lost its chain of
        versions), with every event after ``since`` when the table has them (as on
        reconnecting: the client's log misses nothing), else none; before the start, the
        lobby."""
        if self.fanout.connections.get(conn.id) is not conn:
            return
        if self.game is None:
            self._send(conn, self._lobby())
            return
        start, events = self.history.since(since, self.game.version)
        self._send_snapshot(conn, self._update(start, events))

    def _detach(self, conn: Connection) -> None:
        if self._forget(conn):
            self._broadcast_seats_changed(exclude=None)

    def _detach_all(self, dropped: list[Connection]) -> None:
        """Detach the connections a fan-out dropped (after it went to all the others);
        seats that lost their last connection are shown to the others in one snapshot."""
        changed = [self._forget(conn) for conn in dropped]
        if any(changed):
            self._broadcast_seats_changed(exclude=None)

    def _forget(self, conn: Connection) -> bool:
        """Let ``conn`` go; True when what the seats show changed (a playing seat's last
        connection went): the caller broadcasts it."""
        if not self.fanout.remove(conn):
            return False
        changed = False
        if conn.seat is None:
            self._watchers_changed()
        else:
            seat = self.seats[conn.seat]
            seat.connections -= 1
            if conn.seat == self.host and not seat.connected:
                self._host_left()
            playing = self.game is not None and self.state is TableState.PLAYING
            if playing and not seat.connected:  # the seat's last connection went
                for index in handover.forget_voter(self.seats.all, seat.index):
                    self._hand_to_bot(index)
                changed = True
        conn.outlet.let_go()
        return changed

    # ------------------------------------------------------------ play

    def _act(self, conn: Connection, action: Action) -> None:
        if self.fanout.connections.get(conn.id) is not conn:
            return  # a connection the table has let go (dropped, detached): nobody to answer
        if self.game is None or self.state is not TableState.PLAYING:
            self._send(conn, Error(Code.NOT_PLAYING, "the game is not being played now"))
            return
        if conn.seat is None:
            self._send(conn, Error(Code.SPECTATOR, "spectators watch; they cannot act"))
            return
        seat = self.seats[conn.seat]
        self._apply_and_publish(conn.seat, [action], conn)
        seat.missed_timeouts = 0

    def _apply_and_publish(
        self, seat: int, actions: list[Action], conn: Connection | None
    ) -> bool:
        assert self.game is not None
        since = self.game.version
        events: list[WireEvent] = []
        for action in actions:
            try:
                events.extend(self.game.apply(seat, action, at=time.time()))
            except RulesError as exc:
                if conn is not None:
                    self._send(conn, Error(rules_code(exc), str(exc)))
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
        played: list[Action] = []
        caused: list[WireEvent] = []
        # The timeout answers the one decision that ran out: one action, or in a
        # simultaneous phase the seat's whole part of that phase. Once the phase has
        # moved on, a decision of the seat is a new one with its own timer.
        phase = game.phase
        simultaneous = game.is_simultaneous()
        while msg.seat in game.deciding() and game.phase is phase:
            action = game.safe_action(msg.seat)
            if action is None:
                break
            caused.extend(game.apply(msg.seat, action, at=time.time()))
            played.append(action)
            if not simultaneous:
                break
        # What the timer played comes first, so that a client can say "Time ran out:
        # you took no plot" before the events of those moves (SeatTimedOut: all public).
        events: list[WireEvent] = [SeatTimedOut(msg.seat, played), *caused] if played \
            else caused
        if seat.connections == 0:
            seat.missed_timeouts += 1
            if seat.missed_timeouts >= self.config.takeover_after and not seat.bot:
                seat.bot_playing = True
                seat.votes.clear()
                self._bots.setdefault(msg.seat, self._bot_factory())
                log.info("table %s: a bot plays seat %d until its player returns",
                         self.id, msg.seat, extra={"event": "bot_takeover", "table": self.id})
        self._after_change(acted=msg.seat, since=since, events=events)

    def _vote(self, conn: Connection, target: int) -> None:
        """A vote to hand ``target`` to a bot (``handover``): refused with an error to the
        voter alone, changing nothing; counted, everyone's seats show it; carried, a bot
        plays the seat at once."""
        if self.fanout.connections.get(conn.id) is not conn:
            return
        if self.game is None or self.state is not TableState.PLAYING:
            self._send(conn, Error(Code.NOT_PLAYING, "the game is not being played now"))
            return
        if conn.seat is None:
            self._send(conn, Error(Code.SPECTATOR,
                                  "spectators watch; only players can vote"))
            return
        try:
            if handover.cast(self.seats.all, conn.seat, target):
                self._hand_to_bot(target)
        except TableError as exc:
            self._send(conn, Error(exc.code, exc.message))
            return
        self._broadcast_seats_changed(exclude=None)

    def _hand_to_bot(self, index: int) -> None:
        """The vote carried: a bot plays seat ``index`` from now until its player returns
        (a decision it has now is the bot's, started afresh)."""
        seat = self.seats[index]
        seat.bot_playing = True
        seat.votes.clear()
        self._bots.setdefault(index, self._bot_factory())
        self.workers[index].stop()
        self._deciding.discard(index)
        self._sync_seats(acted=None)
        log.info("table %s: a bot plays seat %d by the players' vote", self.id, index,
                 extra={"event": "bot_vote", "table": self.id})

    def _after_change(self, *, acted: int | None, since: int, events: list[WireEvent]) -> None:
        assert self.game is not None
        self.history.add(since, events)
        if self.on_change is not None:
            self.on_change(self)
        if self.game.is_over():
            self.state = TableState.FINISHED
            self.end_reason = EndReason.FINISHED
            for w in self.workers:
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
        phase = game.phase
        # One timer spans a seat's whole part in a simultaneous phase; any other action of
        # the seat (including the one that brought the game into such a phase) starts a
        # fresh decision with a fresh timer.
        same_decision = game.is_simultaneous() and phase is self._phase
        self._phase = phase
        for i, seat in enumerate(self.seats):
            worker = self.workers[i]
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
        self.workers[seat].start_bot(self.game.view(seat), chooser, self.bot_delay())

    def bot_delay(self) -> float:
        """Seconds a bot waits before its next move: the server's override
        (``TableConfig.bot_delay``) if it has one, else the table's pace's."""
        if self.config.bot_delay is not None:
            return self.config.bot_delay
        return PACE_SECONDS[self.pace]

    # ------------------------------------------------------------ settings and questions

    def _set_pace(self, conn: Connection, value: str) -> None:
        """A seat sets the bots' pace: everyone attached is told; the next bot move waits
        for the new pace (one already waiting keeps its pause). Refused, only the sender
        hears of it and nothing changes."""
        if self.fanout.connections.get(conn.id) is not conn:
            return
        if conn.seat is None:
            self._send(conn, Error(Code.SPECTATOR,
                                  "spectators watch; only the players set the bots' pace"))
            return
        pace = parse_pace(value)
        if pace is None:
            self._send(conn, Error(
                Code.BAD_PACE, f"the pace is {pace_names()}, not {value[:40]!r} @ $.pace"))
            return
        self.pace = pace
        self._broadcast(PaceSet(pace, conn.seat))

    def _explain(self, conn: Connection) -> None:
        """What the decision now is, in plain words (``rules.explain.describe``): to a seat
        whose decision it is, what it is choosing; to anyone else, whose it is."""
        if self.fanout.connections.get(conn.id) is not conn:
            return
        if self.game is None:
            self._send(conn, Error(Code.NOT_PLAYING, "the game has not started: there "
                                                    "is no decision to explain yet"))
            return
        names = [s.name or f"Seat {s.index + 1}" for s in self.seats]
        told = self.game.describe(conn.seat, names)
        self._send(conn, Explanation(self.game.version, told.title, list(told.text)))

    # ------------------------------------------------------------ the host

    def _host_left(self) -> None:
        """The host is not connected (yet, or any more): in the lobby, anyone seated may
        start once it has stayed away ``host_away_seconds`` (``HostAway``)."""
        if self.state is TableState.WAITING:
            self._host_alarm.set(trio.current_time() + self.config.host_away_seconds)

    def _host_away(self) -> None:
        """The host's alarm: still away, so the lobby opens the start to everyone."""
        host = self.host
        if self.state is not TableState.WAITING or host is None or self.host_away:
            return
        if self.seats[host].connected:
            return  # back meanwhile (the alarm was on its way)
        self.host_away = True
        self._broadcast_lobby()

    # ------------------------------------------------------------ watchers

    def _watchers(self) -> Watchers:
        """Who watches now: every spectator connection counted, the first names listed."""
        spectators = [c for c in self.fanout.connections.values() if c.seat is None]
        names = [c.name for c in spectators if c.name is not None][:MAX_WATCHER_NAMES]
        return Watchers(len(spectators), names)

    def _watchers_changed(self) -> None:
        """A spectator came or went: the next ``watchers`` goes out through the alarm, at
        once if none went in the last ``WATCHERS_EVERY`` seconds, else when they have
        passed; changes meanwhile join it (a storm of spectators is one message)."""
        if self._closing or self._watchers_due:
            return
        self._watchers_due = True  # until its WatchersDue is handled (it may be on its way)
        self._watchers_alarm.set(max(trio.current_time(),
                                     self._watchers_at + WATCHERS_EVERY))

    def _broadcast_watchers(self) -> None:
        """The alarm's ``watchers``, to everyone attached, if it says something new."""
        self._watchers_due = False
        if self._closing:
            return
        watchers = self._watchers()
        if watchers == self._watchers_sent:
            return  # they came and went: nothing to say
        self._watchers_sent = watchers
        self._watchers_at = trio.current_time()
        self._broadcast(watchers)

    # ------------------------------------------------------------ ending

    def shutdown_now(self, reason: EndReason, code: Close) -> None:
        """End the game at once (server shutdown or a crash): tell everyone, reveal the
        seed, keep the record. Safe to call from outside the actor's task."""
        self._end(reason, code)

    def _end(self, reason: EndReason, code: Close) -> None:
        if self.state in (TableState.FINISHED, TableState.ENDED) and self._closing:
            return
        if self.state is TableState.PLAYING or self.state is TableState.WAITING:
            self.state = TableState.ENDED
            self.end_reason = reason
            log.info("table %s ended: %s", self.id, reason,
                     extra={"event": "table_ended", "table": self.id, "reason": reason})
            for w in self.workers:
                w.stop()
            if self.game is not None:
                self._broadcast(self._ended_message())
                self._keep_record()
        self._close_all(code, f"table ended: {reason}")

    def _close_all(self, code: Close, reason: str) -> None:
        self._closing = True
        self.fanout.close_all(code, reason)

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
        record = self.game.record(seats, game=self.id, end_reason=self.end_reason,
                                  ended_at=time.time())
        return attrs.evolve(record, seat_seeds=self.seats.seat_seeds())

    def _ended_message(self) -> EndOfGame:
        assert self.game is not None
        over = self.game.is_over()
        result = self.game.view(None).result if over else None
        return EndOfGame(
            self.id, self.end_reason or EndReason.FINISHED, seed_to_hex(self.seed),
            self.fingerprint, self.seats.seat_seeds(), result, f"/games/{self.id}.json",
        )

    # ------------------------------------------------------------ fan-out

    def _update(self, since: int, events: list[WireEvent]) -> UpdateEncoder:
        """The update at the game's current version, ready to encode for any seat."""
        assert self.game is not None and self._views is not None
        return UpdateEncoder(self._views, version=self.game.version, since=since,
                             events=events, clocks=clocks(self.workers),
                             seats=self.seats.public())

    def _broadcast_update(
        self, since: int, events: list[WireEvent], *, exclude: Connection | None = None
    ) -> None:
        if not self.fanout.connections:
            return
        # The connections it dropped are detached after it: a seats-changed snapshot that
        # their leaving causes reaches the others after this update, never before it (that
        # would be a gap in their chain of versions).
        self._detach_all(self.fanout.broadcast_update(
            self._update(since, events), receipt=self._receipt, exclude=exclude))

    def _broadcast_seats_changed(self, exclude: Connection | None) -> None:
        """What a seat shows changed (``connected``, ``bot_playing``): a snapshot update
        (no events) to the others, the shape every client already handles."""
        assert self.game is not None
        self._broadcast_update(self.game.version, [], exclude=exclude)

    def _send(self, conn: Connection, message: ServerMessage) -> None:
        """``message`` to ``conn`` alone; a connection that it drops is detached at once."""
        if not self.fanout.send(conn, message):
            self._detach(conn)

    def _send_snapshot(self, conn: Connection, update: UpdateEncoder) -> None:
        if not self.fanout.send_snapshot(conn, update):
            self._detach(conn)

    def _broadcast(self, message: ServerMessage) -> None:
        self._detach_all(self.fanout.broadcast(message))

    def _lobby(self) -> Lobby:
        return Lobby(self.id, self.players, self.seats.public(), self.rematch_of,
                     host=self.host, host_away=self.host_away, pace=self.pace)

    def _broadcast_lobby(self) -> None:
        self._broadcast(self._lobby())

    # ------------------------------------------------------------ status

    def summary(self) -> dict[str, Any]:
        """Public facts for the operators' status page: no hidden information."""
        return status.summary(self)


def _unknown(table: str, msg: Never) -> NoReturn:
    """A message outside ``InboxMessage`` (mypy checks ``_handle`` covers the union)."""
    raise TypeError(f"table {table}: unknown inbox message {type(msg).__name__}")
