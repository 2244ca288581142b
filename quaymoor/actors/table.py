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
import time
from collections.abc import Callable
from typing import Any, Never, NoReturn

import attrs
import trio

from quaymoor.actors import status
from quaymoor.actors.chat import Chat, ChatError
from quaymoor.actors.connection import Connection, Receipt
from quaymoor.actors.fanout import Fanout, History
from quaymoor.actors.host import Host
from quaymoor.actors.inbox import (
    FROM_CONNECTION,
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
from quaymoor.actors.play import Change, Play
from quaymoor.actors.presence import Came
from quaymoor.actors.rematch import AskForTable, Rematch
from quaymoor.actors.seat import Chooser
from quaymoor.actors.turns import Turns
from quaymoor.actors.watchers import WatchersNotice, watchers_of
from quaymoor.config import TableConfig
from quaymoor.ops.metrics import Metrics
from quaymoor.protocol.codes import Close, Code, rules_code
from quaymoor.protocol.messages import (
    EndOfGame,
    Error,
    Explanation,
    GameStarted,
    Lobby,
    PaceSet,
    Welcome,
    WireEvent,
)
from quaymoor.protocol.pace import (
    DEFAULT_PACE,
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

#: ``TableState``'s home is ``protocol.pace`` (the wire names it); re-exported here.
__all__ = ["Table", "TableState"]

log = logging.getLogger("quaymoor.table")


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
        self.play: Play | None = None  #: the game, once it has started
        self._views: ViewEncoder | None = None
        self.created = time.time()
        self.end_reason: EndReason | None = None
        self.crash: str | None = None
        self.fanout = Fanout(table_id, on_gone=self._detach)
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
        self.turns = Turns(players, self.inbox, decision_seconds=config.decision_seconds,
                           pace=pace, bot_delay=config.bot_delay, bot_factory=bot_factory,
                           on_bot_decided=self.metrics.bot_decided)
        self.workers = self.turns.workers  #: each seat's timer and bot (``seat``)
        #: The seat that opened the table and starts it (``host``): the first to join, or
        #: at a rematch the player who asked for it.
        self._host = Host(self.inbox, host, config.host_away_seconds)
        self._watchers = WatchersNotice(self.inbox)
        self._on_record = on_record
        #: Told after the start and after every change of the game (the shared store).
        self.on_change: Callable[[Table], None] | None = None
        self._closing = False
        #: The receipt of the action being handled, given to the frames of its broadcast.
        self._receipt: Receipt | None = None
        #: The message being handled: if the table stops in the middle (a crash, a
        #: cancellation), ``refuse_pending`` answers it too.
        self._handling: InboxMessage | None = None
        self._broadcasting = False  #: an update is going out to every connection now
        self._snapshot_after = False  #: a seats-changed snapshot waits for that broadcast

    @property
    def game(self) -> Game | None:
        """The game, once it has started."""
        return self.play.game if self.play is not None else None

    @property
    def timeouts(self) -> int:
        """Decisions the timer played."""
        return self.play.timeouts if self.play is not None else 0

    @property
    def bot_moves(self) -> int:
        return self.play.bot_moves if self.play is not None else 0

    @property
    def pace(self) -> Pace:
        """How long the table's bots wait before each move (``protocol.pace``)."""
        return self.turns.pace

    def bot_delay(self) -> float:
        return self.turns.bot_delay()

    @property
    def host(self) -> int | None:
        """The host's seat; None until someone joins."""
        return self._host.seat

    @property
    def host_away(self) -> bool:
        """The host has been away long enough: anyone seated may start."""
        return self._host.away

    # ------------------------------------------------------------ running

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Serve the table until it closes. Raises whatever its own code raises (the
        supervisor isolates it); cancellation passes through."""
        async with trio.open_nursery() as nursery:
            self.turns.attach(nursery)
            self._host.attach(nursery)
            self._watchers.attach(nursery)
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
        """After the table's end: break the cycles through it (its connections' callback
        into it, the rematch's, its seats' hold on its nursery), so that reference counting
        frees it and its history at once rather than the next full collection."""
        self.fanout.forget_owner()
        self.rematch.forget_owner()
        self.turns.release()
        self._host.release()
        self._watchers.release()

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
        # The one guard for a connection's message: one the table has let go (dropped,
        # detached) meanwhile has nobody to answer.
        if not isinstance(msg, FROM_CONNECTION) or self._attached(msg.connection):
            self._dispatch(msg)
        self._handling = None

    def _dispatch(self, msg: InboxMessage) -> None:
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
                if self.play is not None and self.state is TableState.PLAYING:
                    self._publish(self.play.bot_move(msg))
            case TimedOut():
                if self.play is not None and self.state is TableState.PLAYING:
                    self._publish(self.play.timed_out(msg))
            case Attach():
                self._attach(msg)
                if self._attached(msg.connection):  # not refused, nor dropped already
                    self._after_attach(msg.connection)
            case ChatFrom(connection=conn, text=text):
                self._chat(conn, text)
            case RematchFrom(connection=conn):
                self.rematch.request(conn, self.state is TableState.FINISHED)
            case RematchReady():
                self.rematch.opened(msg)
            case RematchFailed():
                self.rematch.failed(msg)
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
                if self.state is TableState.WAITING and self._host.alarm(self.seats):
                    self._broadcast_lobby()
            case WatchersDue():
                watchers = self._watchers.due(self.fanout.connections.values())
                if watchers is not None and not self._closing:
                    self.fanout.broadcast(watchers)
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

    def _attached(self, conn: Connection) -> bool:
        return self.fanout.connections.get(conn.id) is conn

    def _refuse(self, conn: Connection, code: Code, text: str) -> None:
        """Tell ``conn`` alone why what it sent changed nothing."""
        self.fanout.send(conn, Error(code, text))

    def _spectator(self, conn: Connection, refusal: str) -> bool:
        """``conn`` is a spectator's: refused with ``refusal``, what only players may do."""
        if conn.seat is not None:
            return False
        self._refuse(conn, Code.SPECTATOR, refusal)
        return True

    def _playing(self, conn: Connection) -> bool:
        """The game is being played; else ``conn`` is told it is not."""
        if self.game is not None and self.state is TableState.PLAYING:
            return True
        self._refuse(conn, Code.NOT_PLAYING, "the game is not being played now")
        return False

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
        self._host.joined(joined.seat)
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
        refusal = self._host.refusal(starter, self.seats)
        if refusal is not None:
            msg.reply.fail(refusal)
            return
        starter.came()  # whoever starts a rematch has come
        self._begin()  # a raise here leaves the reply to refuse_pending: table_closed
        msg.reply.set(None)

    def _begin(self) -> None:
        """Bots in the empty chairs, the game dealt and its first update out."""
        bots = self.seats.fill_with_bots()
        for index in bots:
            self.turns.bot_for(index)
        game = Game(self.players, self.seed, self.seats.client_seeds())
        self.play = Play(self.id, game, self.seats, self.turns,
                         takeover_after=self.config.takeover_after, metrics=self.metrics)
        self._views = ViewEncoder(game)
        self.state = TableState.PLAYING
        self._host.started()
        log.info("table %s started: %d players, %d bots", self.id, self.players,
                 len(bots), extra={"event": "table_started", "table": self.id})
        self.fanout.broadcast(GameStarted(self.id, self.seats.seat_seeds()))
        self._publish(Change(None, 0, []))

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
        self.fanout.add(conn)
        msg.reply.set(conn.seat)
        came = Came.NOTHING
        if seat is not None:  # before the welcome, whose seats show this one connected
            self._host.came(seat.index)
            came = seat.attach()
            if came is Came.BACK and self.play is not None:
                self.play.back(seat.index)
        self.fanout.send(conn, Welcome(
            self.id, conn.seat, self.players, self.fingerprint, self.game is not None,
            self.seats.public(), self.config.decision_seconds,
            client_seeds=self.seats.seat_seeds() if self.game is not None else None,
            host=self.host, pace=self.pace,
        ))
        if self.game is None:
            if came is not Came.NOTHING:
                self._broadcast_lobby()
            else:
                self.fanout.send(conn, self._lobby())
            return
        start, events = self.history.since(msg.since, self.game.version)
        self.fanout.send_snapshot(conn, self._update(start, events))
        if self.state in (TableState.FINISHED, TableState.ENDED):
            self.fanout.send(conn, self._ended_message())
        elif came is not Came.NOTHING:
            self._broadcast_seats_changed(exclude=conn)

    def _after_attach(self, conn: Connection) -> None:
        """After an attach's catch-up: who watches, the chat's recent lines and a rematch
        on offer. A spectator's coming is told to the others with the next ``watchers``."""
        self.fanout.send(conn, watchers_of(self.fanout.connections.values()))
        if conn.seat is None:
            self._watchers_changed()
        if self.chat.recent:
            self.fanout.send(conn, self.chat.catch_up())
        self.rematch.catch_up(conn)

    def _detach(self, conn: Connection) -> None:
        if not self.fanout.remove(conn):
            return
        if conn.seat is None:
            self._watchers_changed()
        elif self.seats[conn.seat].detach():  # the seat's last connection went
            if self.state is TableState.WAITING:
                self._host.gone(conn.seat)
            elif self.play is not None and self.state is TableState.PLAYING:
                self.play.voter_left(conn.seat)
                self._broadcast_seats_changed(exclude=None)
        conn.outbox.close()
        conn.let_go()

    def _watchers_changed(self) -> None:
        if not self._closing:
            self._watchers.changed()

    def _resync(self, conn: Connection, since: int | None) -> None:
        """A snapshot of the connection's view now (its client lost its chain of
        versions), with every event after ``since`` when the table has them (as on
        reconnecting: the client's log misses nothing), else none; before the start, the
        lobby."""
        if self.game is None:
            self.fanout.send(conn, self._lobby())
            return
        start, events = self.history.since(since, self.game.version)
        self.fanout.send_snapshot(conn, self._update(start, events))

    # ------------------------------------------------------------ play

    def _act(self, conn: Connection, action: Action) -> None:
        if not self._playing(conn) or self._spectator(conn, "spectators watch; they cannot act"):
            return
        assert self.play is not None and conn.seat is not None
        try:
            change = self.play.act(conn.seat, action)
        except RulesError as exc:
            self._refuse(conn, rules_code(exc), str(exc))
            return
        self._publish(change)

    def _vote(self, conn: Connection, target: int) -> None:
        """A vote to hand ``target`` to a bot (``handover``): refused with an error to the
        voter alone, changing nothing; counted, everyone's seats show it; carried, a bot
        plays the seat at once."""
        if not self._playing(conn) or self._spectator(conn,
                                                      "spectators watch; only players can vote"):
            return
        assert self.play is not None and conn.seat is not None
        try:
            self.play.vote(conn.seat, target)
        except TableError as exc:
            self._refuse(conn, exc.code, exc.message)
            return
        self._broadcast_seats_changed(exclude=None)

    def _publish(self, change: Change | None) -> None:
        """Out with a change of the game: kept in the history, told to the shared store,
        the next turns started, the update broadcast; at the end, the game's end."""
        if change is None:
            return
        assert self.play is not None
        game = self.play.game
        self.history.add(change.since, change.events)
        if self.on_change is not None:
            self.on_change(self)
        self.play.changed(change.acted)
        if not game.is_over():
            self._broadcast_update(change.since, change.events)
            return
        self.state = TableState.FINISHED
        self.end_reason = EndReason.FINISHED
        self._broadcast_update(change.since, change.events)
        self.fanout.broadcast(self._ended_message())
        self._keep_record()
        log.info("table %s finished after %d actions", self.id, game.version,
                 extra={"event": "table_finished", "table": self.id})

    # ------------------------------------------------------------ what players say and ask

    def _chat(self, conn: Connection, text: str) -> None:
        """A chat line from a seat, to everyone attached; refused for a spectator."""
        if self._spectator(
                conn, "spectators read the chat; only the players write in it"):
            return
        assert conn.seat is not None
        try:
            line = self.chat.say(conn.seat, self.seats[conn.seat].display_name, text)
        except ChatError as exc:
            self._refuse(conn, exc.code, exc.message)
            return
        self.fanout.broadcast(line)

    def _set_pace(self, conn: Connection, value: str) -> None:
        """A seat sets the bots' pace: everyone attached is told; the next bot move waits
        for the new pace (one already waiting keeps its pause). Refused, only the sender
        hears of it and nothing changes."""
        if self._spectator(
                conn, "spectators watch; only the players set the bots' pace"):
            return
        assert conn.seat is not None
        pace = parse_pace(value)
        if pace is None:
            self._refuse(conn, Code.BAD_PACE,
                         f"the pace is {pace_names()}, not {value[:40]!r} @ $.pace")
            return
        self.turns.pace = pace
        self.fanout.broadcast(PaceSet(pace, conn.seat))

    def _explain(self, conn: Connection) -> None:
        """What the decision now is, in plain words (``rules.explain.describe``): to a seat
        whose decision it is, what it is choosing; to anyone else, whose it is."""
        if self.game is None:
            self._refuse(conn, Code.NOT_PLAYING, "the game has not started: there is no "
                                                 "decision to explain yet")
            return
        told = self.game.describe(conn.seat, [s.display_name for s in self.seats])
        self.fanout.send(conn, Explanation(self.game.version, told.title, list(told.text)))

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
            self.turns.stop_all()
            if self.game is not None:
                self.fanout.broadcast(self._ended_message())
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
        seats = [SeatInfo(s.display_name, s.bot) for s in self.seats]
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
                             events=events, clocks=self.turns.clocks(),
                             seats=self.seats.public())

    def _broadcast_update(
        self, since: int, events: list[WireEvent], *, exclude: Connection | None = None
    ) -> None:
        if not self.fanout.connections:
            return
        if self._broadcasting:
            # A seat's connection dropped in the middle of this broadcast (the fan-out's
            # on_gone, then _detach): the others get the snapshot after the broadcast's
            # own frame, never before it (that would be a gap in their chain of versions).
            self._snapshot_after = True
            return
        self._broadcasting = True
        try:
            self.fanout.broadcast_update(self._update(since, events), receipt=self._receipt,
                                         exclude=exclude)
        finally:
            self._broadcasting = False
        if self._snapshot_after:
            self._snapshot_after = False
            self._broadcast_seats_changed(exclude=None)

    def _broadcast_seats_changed(self, exclude: Connection | None) -> None:
        """What a seat shows changed (``connected``, ``bot_playing``): a snapshot update
        (no events) to the others, the shape every client already handles."""
        assert self.game is not None
        self._broadcast_update(self.game.version, [], exclude=exclude)

    def _lobby(self) -> Lobby:
        return Lobby(self.id, self.players, self.seats.public(), self.rematch_of,
                     host=self.host, host_away=self.host_away, pace=self.pace)

    def _broadcast_lobby(self) -> None:
        self.fanout.broadcast(self._lobby())

    # ------------------------------------------------------------ status

    def summary(self) -> dict[str, Any]:
        """Public facts for the operators' status page: no hidden information."""
        return status.summary(self)


def _unknown(table: str, msg: Never) -> NoReturn:
    """A message outside ``InboxMessage`` (mypy checks ``_handle`` covers the union)."""
    raise TypeError(f"table {table}: unknown inbox message {type(msg).__name__}")
