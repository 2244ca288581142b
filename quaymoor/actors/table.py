"""The table actor: the sole owner of one game.

Everything reaches a table through its inbox (a bounded memory channel of ``InboxMessage``,
see ``inbox``): lobby requests, connections attaching and leaving, actions, timeouts and
bot moves. The actor handles one message at a time and decides what it changes; its parts
keep the rest: the chairs (``lobby``, each seat's presence in ``presence``), the host
(``host``), the game in play (``play``), whose decision runs and who makes it (``turns``:
timers and bots), and the room, who is connected and what each is told (``room``, over
``fanout``: each connection gets its own seat's view; one whose outbox is full is dropped,
so the table never waits on a socket).

Events are versioned by the game's action count. A client that reconnects with the last
version it saw gets every event since then and its current view (a snapshot); the updates
after it are deltas, and a client that lost its chain asks for a snapshot (``ResyncFrom``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from functools import partial
from typing import Any, Never, NoReturn, TypeVar

import trio

from quaymoor.actors import inbox, status
from quaymoor.actors.alarm import Alarm
from quaymoor.actors.connection import Connection
from quaymoor.actors.hints import Hints, Thinker, hint_message
from quaymoor.actors.host import Host
from quaymoor.actors.inbox import InboxMessage, TableError
from quaymoor.actors.lobby import Seats
from quaymoor.actors.outlet import Receipt
from quaymoor.actors.pause import TablePause
from quaymoor.actors.play import Change, Play
from quaymoor.actors.presence import Came
from quaymoor.actors.rematch import Rematch
from quaymoor.actors.room import Room
from quaymoor.actors.seat import Chooser
from quaymoor.actors.turns import Turns
from quaymoor.config import TableConfig
from quaymoor.ops.metrics import Metrics
from quaymoor.protocol.codes import Close, Code, rules_code
from quaymoor.protocol.messages import (
    Acted,
    EndOfGame,
    Error,
    GameStarted,
    Lobby,
    SeedsCommitted,
    Welcome,
)
from quaymoor.protocol.pace import DEFAULT_PACE, Pace, TableState
from quaymoor.rules.actions import Action
from quaymoor.rules.errors import RulesError
from quaymoor.rules.fairness import new_seed, table_fingerprint
from quaymoor.rules.game import Game
from quaymoor.rules.record import EndReason, GameRecord
from quaymoor.store.ratings import GameAccounts, SeatAccount
from quaymoor.store.removed_names import without_names

#: ``TableState``'s home is ``protocol.pace`` (the wire names it); re-exported here.
__all__ = ["Table", "TableState"]

#: What the players of a table that had not started are told when its server stops or
#: drains: nothing was played, so nothing is kept; a new table opens on another server.
UNSTARTED_CLOSED = ("this server is restarting: the table closed before its game started "
                    "(nothing was played); open a new table")

log = logging.getLogger("quaymoor.table")
LobbyRequest = TypeVar("LobbyRequest", inbox.Join, inbox.Commit, inbox.Start, inbox.Reveal)


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
        hint_thinker: Thinker | None = None,
        hints: bool = False,
        rated: bool = False,
        held_accounts: dict[int, str | None] | None = None,
    ) -> None:
        self.id = table_id
        #: a rated game: people seated signed in, no hints, its result rates them
        self.rated = rated
        self.players = players
        self.bot_level = "random"  #: the level of the bots in empty chairs (set by the lobby)
        self.config = config
        self.seed = new_seed()  # drawn at creation: the fingerprint is public before anyone joins
        self.fingerprint = table_fingerprint(self.seed, table_id, players)
        self.state = TableState.WAITING
        self.seats = Seats(players)
        for index, name in (held or {}).items():  # a rematch: its players' chairs
            self.seats.hold(index, name, (held_accounts or {}).get(index))
        self.rematch_of = rematch_of  #: the game this table is a rematch of
        self.play: Play | None = None  #: the game, once it has started
        self.created = time.time()
        self.end_reason: EndReason | None = None
        self.crash: str | None = None
        self.status_texts = status.StatusTexts()  #: its summary's JSON, for the status lists
        self.inbox, self._inbox_recv = trio.open_memory_channel[InboxMessage](config.inbox_size)
        self.metrics = metrics if metrics is not None else Metrics()
        self.turns = Turns(players, self.inbox, decision_seconds=config.decision_seconds,
                           pace=pace, bot_delay=config.bot_delay, bot_factory=bot_factory,
                           on_bot_decided=self.metrics.bot_decided)
        self.room = Room(table_id, self.seats, self.turns, self.inbox)
        self.fanout, self.history, self.chat = self.room.fanout, self.room.history, self.room.chat
        self.rematch = Rematch(table_id, self.room, self.seats,
                               partial(on_rematch, self) if on_rematch is not None else None)
        self.host = Host(self.inbox, host, config.host_away_seconds)  #: who starts the game
        self.hints = Hints(players, self.inbox, hint_thinker, agreed=hints, rated=rated)
        #: The start has fixed every commitment and the seeds are being revealed: the
        #: game is dealt when every committed seat has revealed, or at ``_reveal_due``.
        self.revealing = False
        self._reveal_due = Alarm(self.inbox, inbox.RevealDue())
        self._lobby_scope: trio.CancelScope | None = None
        #: paused while its process cannot renew its lease (``actors.pause``)
        self.pause_state = TablePause(table_id, self.turns)
        self._on_record = on_record
        #: Told after the start and after every change of the game (the table directory).
        self.on_change: Callable[[Table], None] | None = None
        #: The message being handled: if the table stops in the middle (a crash, a
        #: cancellation), ``refuse_pending`` answers it too.
        self._handling: InboxMessage | None = None

    @property
    def game(self) -> Game | None:
        """The game, once it has started."""
        return self.play.game if self.play is not None else None

    # ------------------------------------------------------------ running

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Serve the table until it closes. Raises whatever its own code raises (the
        supervisor isolates it); cancellation passes through."""
        async with trio.open_nursery() as nursery:
            self.turns.attach(nursery)
            self.host.attach(nursery)
            self.room.watchers.attach(nursery)
            self._reveal_due.attach(nursery)
            self.hints.attach(nursery)
            task_status.started()
            with trio.move_on_after(self.config.lobby_seconds) as lobby_scope:
                self._lobby_scope = lobby_scope
                while self.state is TableState.WAITING:
                    await self._handle(await self._inbox_recv.receive())
            if lobby_scope.cancelled_caught:
                self._end(EndReason.ABANDONED, Close.TABLE_CLOSED)
            while self.state is TableState.PLAYING:
                await self._handle(await self._inbox_recv.receive())
            with trio.move_on_after(self.config.linger_seconds):
                while not self.room.closing:
                    await self._handle(await self._inbox_recv.receive())
            self.room.close_all(Close.TABLE_CLOSED, "table closed")
            nursery.cancel_scope.cancel()

    def release(self) -> None:
        """After the table's end: break the cycles through it (the rematch's callback into
        it, its seats' hold on its nursery), so that reference counting frees it and its
        history at once rather than the next full collection."""
        self.rematch.forget_owner()
        self.turns.release()
        self.host.release()
        self.room.watchers.release()
        self._reveal_due.release()
        self._lobby_scope = None

    def refuse_pending(self) -> None:
        """After the table stops: close its inbox and answer every request still queued,
        so that nobody waits for a table that is gone. The message the table was handling
        when it stopped is answered too (unless it already was)."""
        inbox.refuse_all(self._handling, self._inbox_recv)
        self._handling = None

    async def _handle(self, msg: InboxMessage) -> None:
        self._handling = msg  # a raise leaves it set, for refuse_pending to answer
        # The one guard for a connection's message: one the table has let go (dropped,
        # detached) meanwhile has nobody to answer.
        if ((not isinstance(msg, inbox.FROM_CONNECTION) or self.room.attached(msg.connection))
                and not self._held_by_pause(msg)):
            self._dispatch(msg)
        while dropped := self.room.take_dropped():  # after every frame of the message
            self._detach(*dropped)
        if self.pause_state.paused:  # a timer it started waits for the resume too
            self.pause_state.hold_running()
        self._handling = None

    def _held_by_pause(self, msg: InboxMessage) -> bool:
        """While the table is paused (``actors.pause``): a message it holds back, or one
        it refuses with ``table_paused`` (answered here)."""
        pause = self.pause_state
        if not pause.paused:
            return False
        if pause.holds(msg):
            return True
        if not pause.refuses(msg):
            return False
        if isinstance(msg, inbox.Start):
            msg.reply.fail(TableError(Code.TABLE_PAUSED, pause.refusal))
        elif isinstance(msg, inbox.ActFrom):
            self.room.refuse(msg.connection, Code.TABLE_PAUSED, pause.refusal, msg.ack)
        elif isinstance(msg, inbox.VoteFrom):
            self.room.refuse(msg.connection, Code.TABLE_PAUSED, pause.refusal)
        return True

    def _dispatch(self, msg: InboxMessage) -> None:
        match msg:
            case inbox.ActFrom(connection=conn, action=action, received=received, ack=ack):
                if received:
                    self.room.receipt = Receipt(received, self.metrics)
                try:
                    self._act(conn, action, ack)
                finally:
                    if self.room.receipt is not None:
                        self.room.receipt.release()
                    self.room.receipt = None
            case inbox.BotMove():
                if self.play is not None and self.state is TableState.PLAYING:
                    self._publish(self.play.bot_move(msg))
            case inbox.TimedOut():
                if self.play is not None and self.state is TableState.PLAYING:
                    self._publish(self.play.timed_out(msg))
            case inbox.Attach():
                self._attach(msg)
                if self.room.attached(msg.connection):  # not refused, nor dropped already
                    self.room.came(msg.connection)
                    self.rematch.catch_up(msg.connection)
                    if self.pause_state.paused:
                        self.room.send(msg.connection, self.pause_state.told())
            case inbox.ChatFrom(connection=conn, text=text):
                self.room.chat_from(conn, text)
            case inbox.RematchFrom(connection=conn):
                self.rematch.request(conn, self.state is TableState.FINISHED)
            case inbox.RematchReady():
                self.rematch.opened(msg)
            case inbox.RematchFailed():
                self.rematch.failed(msg)
            case inbox.Detach(connection=conn):
                self._detach(conn)
            case inbox.ResyncFrom(connection=conn, since=since):
                if self.play is None:  # a lost chain of versions: the lobby, or a snapshot
                    self.room.send(conn, self._lobby())
                else:
                    self.room.snapshot(conn, since)
            case inbox.VoteFrom(connection=conn, seat=target):
                self._vote(conn, target)
            case inbox.PaceFrom(connection=conn, pace=pace):
                self.room.pace_from(conn, pace)
            case inbox.ExplainFrom(connection=conn):
                self.room.explain(conn)
            case inbox.HintFrom(connection=conn):
                self._hint(conn)
            case inbox.HintReady(seat=seat, version=version, answer=answer):
                if self.game is not None:
                    askers = self.hints.ready(seat, version, answer, self.game.version)
                    if askers and self.on_change is not None:  # a hint counted: kept
                        self.on_change(self)
                    for asker in askers:
                        if self.room.attached(asker):
                            self.room.send(asker, hint_message(version, answer))
            case inbox.HostAway():
                if self.state is TableState.WAITING and self.host.alarm(self.seats):
                    self._broadcast_lobby()
            case inbox.WatchersDue():
                self.room.watchers_due()
            case inbox.Join():
                _answer(msg, self._join)
            case inbox.Commit():
                _answer(msg, self._commit)
            case inbox.Start():
                _answer(msg, self._start)
            case inbox.Reveal():
                _answer(msg, self._reveal)
            case inbox.RevealDue():
                if self.revealing:
                    self._deal()
            case inbox.Shutdown(reason=reason):
                self._end(reason, Close.SHUTDOWN)
            case inbox.AccountGone(account=account, reply=reply):
                reply.set(self._account_gone(account))
            case _:
                _unknown(self.id, msg)

    def _hint(self, conn: Connection) -> None:
        """A seat asks for a hint (``actors.hints``): refused, answered again, or worked
        out (answered by ``HintReady``)."""
        if not self.hints.enabled:
            self.room.refuse(conn, Code.HINTS_OFF, "this server gives no hints @ $.type")
            return
        refused = self.hints.refusal(self.game if self.state is TableState.PLAYING else None,
                                     self.seats, conn.seat)
        if refused is not None:
            self.room.refuse(conn, Code.HINTS_OFF, refused)
            return
        assert self.game is not None and conn.seat is not None
        view = self.game.view(conn.seat)
        again = self.hints.ask(conn, conn.seat, view)
        if again is not None:
            self.room.send(conn, hint_message(view.version, again))

    def _playing(self, conn: Connection, ack: int | None = None) -> bool:
        """The game is being played; else ``conn`` is told it is not."""
        if self.game is not None and self.state is TableState.PLAYING:
            return True
        self.room.refuse(conn, Code.NOT_PLAYING, "the game is not being played now", ack)
        return False

    # ------------------------------------------------------------ lobby

    def _in_lobby(self, refusal: str) -> None:
        """Raises ``TableError`` (already_started, ``refusal``) once the game has started."""
        if self.state is not TableState.WAITING or self.revealing:
            raise TableError(Code.ALREADY_STARTED, refusal)

    def _join(self, msg: inbox.Join) -> None:
        self._in_lobby("the game has started: watch instead")
        joined = self.seats.join(msg.name, msg.account, rated=self.rated)
        self.host.joined(joined.seat)
        msg.reply.set(joined)
        self._broadcast_lobby()

    def _commit(self, msg: inbox.Commit) -> None:
        """A seat's commitment to its client seed: after its join's answer showed the
        fingerprint, before the start, once."""
        self._in_lobby("the game has started: commitments go in before it")
        self.seats.commit(msg.token, msg.commitment)
        msg.reply.set(None)
        if self.rematch_of is not None and self.seats.all_committed():
            self._begin()  # a rematch starts once every player has come and committed

    def _start(self, msg: inbox.Start) -> None:
        """Answered with the commitments the start fixed (per seat; None: none)."""
        self._in_lobby("the game has already started")
        starter = self.seats.seat_for_token(msg.token)
        if starter is None:
            raise TableError(Code.BAD_TOKEN, "only a seated player may start the game")
        self.host.may_start(starter, self.seats)
        starter.came()  # whoever starts a rematch has come
        self._begin()  # a raise here leaves the reply to refuse_pending: table_closed
        msg.reply.set(self.seats.commitments())

    def _begin(self) -> None:
        """Bots in the empty chairs and every commitment fixed: the seats that committed
        are told to reveal (``seeds_committed``), or with none the game is dealt now."""
        bots = self.seats.fill_with_bots()
        for index in bots:
            self.turns.bot_for(index)
        self.host.started()
        commitments = self.seats.commitments()
        if not any(commitments):
            self._deal()
            return
        self.revealing = True
        seconds = self.config.reveal_seconds
        self._reveal_due.set(trio.current_time() + seconds)
        if self._lobby_scope is not None:  # the lobby's hour never cuts a reveal short
            self._lobby_scope.deadline = max(self._lobby_scope.deadline,
                                             trio.current_time() + seconds + 1)
        self.room.broadcast(self._committed(seconds))

    def _committed(self, seconds: float) -> SeedsCommitted:
        return SeedsCommitted(self.id, self.seats.public(), self.seats.commitments(),
                              round(seconds, 3))

    def _reveal(self, msg: inbox.Reveal) -> None:
        """A seat's client seed, once every commitment is fixed and before the deal."""
        if not self.revealing:
            if self.state is TableState.WAITING:
                why = ("client seeds are revealed once the start has fixed every "
                       "commitment: send the commitment now (POST /api/tables/<id>/commit)")
            else:
                why = ("the reveal has closed: the game was dealt with the seeds revealed "
                       "by then")
            raise TableError(Code.NOT_REVEALING, why)
        self.seats.reveal(self.id, msg.token, msg.client_seed)
        msg.reply.set(None)
        if self.seats.all_revealed():
            self._deal()

    def _deal(self) -> None:
        """The game dealt from the seed and the deal (the seats, their commitments and
        the seeds revealed), and its first update out."""
        self.revealing = False
        self._reveal_due.cancel()
        withheld = [s.index for s in self.seats if s.commitment and s.client_seed is None]
        game = Game(self.players, self.seed, deal=self.seats.deal(self.id))
        self.play = Play(self.id, game, self.seats, self.turns, hints=self.hints.given,
                         takeover_after=self.config.takeover_after, metrics=self.metrics,
                         rated=self.rated)
        self.room.start(game)
        self.state = TableState.PLAYING
        bots = sum(s.bot for s in self.seats)
        log.info("table %s started: %d players, %d bots, seeds not revealed at seats %s",
                 self.id, self.players, bots, withheld or "none",
                 extra={"event": "table_started", "table": self.id})
        self.room.broadcast(GameStarted(self.id, self.seats.seat_seeds(),
                                        self.seats.commitments()))
        self._publish(Change(None, 0, []))

    # ------------------------------------------------------------ connections

    def _attach(self, msg: inbox.Attach) -> None:
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
        self.room.add(conn)
        msg.reply.set(conn.seat)
        came = Came.NOTHING
        if seat is not None:  # before the welcome, whose seats show this one connected
            self.host.came(seat.index)
            came = seat.attach()
            if came is Came.BACK and self.play is not None:
                self.play.back(seat.index)
        self.room.send(conn, Welcome(
            self.id, conn.seat, self.players, self.fingerprint, self.game is not None,
            self.seats.public(), self.config.decision_seconds,
            client_seeds=self.seats.seat_seeds() if self.game is not None else None,
            host=self.host.seat, pace=self.turns.pace, hints=self.hints.agreed,
            commitments=(self.seats.commitments()
                         if self.revealing or self.game is not None else None),
            bots=self.bot_level, rated=self.rated,
        ))
        if self.revealing:
            left = (self._reveal_due.deadline or trio.current_time()) - trio.current_time()
            self.room.send(conn, self._committed(max(0.0, left)))
        if self.play is None:
            if came is not Came.NOTHING:
                self._broadcast_lobby()
            else:
                self.room.send(conn, self._lobby())
            return
        self.room.snapshot(conn, msg.since)
        if self.state in (TableState.FINISHED, TableState.ENDED):
            self.room.send(conn, self.play.ended(self.end_reason))
        elif came is not Came.NOTHING:
            self.room.seats_changed(exclude=conn)

    def _account_gone(self, account: str) -> int:
        """The seats of a deleted account show no name (``Seat.forget_name``), told to
        everyone at the table; how many."""
        gone = [s for s in self.seats if s.account == account and not s.name_removed]
        for seat in gone:
            seat.forget_name()
        if gone and self.play is None:
            self._broadcast_lobby()
        elif gone:
            self.room.seats_changed()
        return len(gone)

    def _detach(self, *gone: Connection) -> None:
        """Let go of connections that left or were dropped; if that leaves a seat in play
        with nobody attached, one snapshot after them shows it to the others."""
        if any([self._forget(conn) for conn in gone]):
            self.room.seats_changed()

    def _forget(self, conn: Connection) -> bool:
        """Let ``conn`` go; True when its seat, in play, has nobody attached now."""
        if not self.room.left(conn):
            return False
        conn.outlet.let_go()
        if conn.seat is None or not self.seats[conn.seat].detach():  # not its last
            return False
        if self.state is TableState.WAITING:
            self.host.gone(conn.seat)
        elif self.play is not None and self.state is TableState.PLAYING:
            self.play.voter_left(conn.seat)
            return True
        return False

    # ------------------------------------------------------------ play

    def _act(self, conn: Connection, action: Action, ack: int | None = None) -> None:
        """A seat's action: refused to ``conn`` alone, or applied and broadcast; with an
        ``ack`` (the act's id) the refusal carries it, or ``acted`` follows the update."""
        refusal = "spectators watch; they cannot act"
        if not self._playing(conn, ack) or self.room.spectator(conn, refusal, ack):
            return
        assert self.play is not None and conn.seat is not None
        try:
            change = self.play.act(conn.seat, action)
        except RulesError as exc:
            self.room.refuse(conn, rules_code(exc), str(exc), ack)
            return
        version = self.play.game.version
        self._publish(change)
        if ack is not None and self.room.attached(conn):
            self.room.send(conn, Acted(ack, version))

    def _vote(self, conn: Connection, target: int) -> None:
        """A vote to hand ``target`` to a bot (``handover``): refused with an error to the
        voter alone, changing nothing; counted, everyone's seats show it; carried, a bot
        plays the seat at once."""
        refusal = "spectators watch; only players can vote"
        if not self._playing(conn) or self.room.spectator(conn, refusal):
            return
        assert self.play is not None and conn.seat is not None
        try:
            self.play.vote(conn.seat, target)
        except TableError as exc:
            self.room.refuse(conn, exc.code, exc.message)
            return
        self.room.seats_changed()

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
            self.room.broadcast_update(change.since, change.events)
            return
        self.state = TableState.FINISHED
        self.end_reason = EndReason.FINISHED
        self.room.broadcast_update(change.since, change.events)
        self.room.broadcast(self.play.ended(self.end_reason))
        self._keep_record()
        log.info("table %s finished after %d actions", self.id, game.version,
                 extra={"event": "table_finished", "table": self.id})

    # ------------------------------------------------------------ pause (actors.pause)

    def pause(self, reason: str) -> None:
        """Stop play (timers, bots, acts) and tell everyone why; safe to call from
        outside the actor's task. A table whose game is over has nothing to pause."""
        if self.state not in (TableState.WAITING, TableState.PLAYING):
            return
        told = self.pause_state.pause(reason)
        if told is not None:
            self.room.broadcast(told)

    def resume(self) -> None:
        """Play goes on where it stopped; safe to call from outside the actor's task."""
        if not self.pause_state.paused:
            return
        playing = self.state is TableState.PLAYING
        self.room.broadcast(self.pause_state.resume(self.game if playing else None,
                                                    self.seats))

    def end_elsewhere(self, ended: EndOfGame | None) -> None:
        """Another process ended this table's game and wrote its record (this one was
        taken for dead): tell everyone ``ended`` (the record's ``game_ended``), keep no
        record, close. Safe to call from outside the actor's task."""
        if self.state not in (TableState.WAITING, TableState.PLAYING):
            return
        self.state = TableState.ENDED
        self.end_reason = EndReason.SHUTDOWN
        self.turns.stop_all()
        log.warning("table %s: its game was ended by another process", self.id,
                    extra={"event": "table_ended_elsewhere", "table": self.id})
        if ended is not None:
            self.room.broadcast(ended)
        self.room.close_all(Close.TABLE_CLOSED, "the game was ended by another server")

    # ------------------------------------------------------------ ending

    def shutdown_now(self, reason: EndReason, code: Close) -> None:
        """End the game at once (server shutdown or a crash): tell everyone, reveal the
        seed, keep the record. Safe to call from outside the actor's task."""
        self._end(reason, code)

    def _end(self, reason: EndReason, code: Close) -> None:
        if self.state in (TableState.FINISHED, TableState.ENDED) and self.room.closing:
            return
        if self.state is TableState.PLAYING or self.state is TableState.WAITING:
            self.state = TableState.ENDED
            self.end_reason = reason
            log.info("table %s ended: %s", self.id, reason,
                     extra={"event": "table_ended", "table": self.id, "reason": reason})
            self.turns.stop_all()
            if self.play is not None:
                self.room.broadcast(self.play.ended(reason))
                self._keep_record()
            elif reason is EndReason.SHUTDOWN:  # never started: no game, no record
                self.room.broadcast(Error(Code.TABLE_CLOSED, UNSTARTED_CLOSED))
                code = Close.TABLE_CLOSED  # 4002 promises a game_ended came first
        self.room.close_all(code, f"table ended: {reason}")

    def _keep_record(self) -> None:
        if self._on_record is not None:
            try:
                self._on_record(self)
            except Exception:
                log.exception("table %s: keeping the record failed", self.id)

    def record(self) -> GameRecord | None:
        """The game's record (None before the start), the names of deleted accounts taken
        out (``Seat.forget_name``) as the archive would (``store.removed_names``)."""
        if self.play is None:
            return None
        record = self.play.record(self.end_reason)
        gone = [s.index for s in self.seats if s.name_removed]
        return (without_names(record, gone) or record) if gone else record

    def accounts(self) -> GameAccounts:
        """Who sat where, as the store keeps it beside the record (``store.ratings``):
        each seat's account, a bot's level, whether a bot played for its player."""
        return GameAccounts(self.rated, tuple(
            SeatAccount(s.account, self.bot_level if s.bot else None, s.left)
            for s in self.seats))

    # ------------------------------------------------------------ fan-out

    def _lobby(self) -> Lobby:
        return Lobby(self.id, self.players, self.seats.public(), self.rematch_of,
                     host=self.host.seat, host_away=self.host.away, pace=self.turns.pace,
                     hints=self.hints.agreed, rated=self.rated)

    def _broadcast_lobby(self) -> None:
        self.room.broadcast(self._lobby())

    # ------------------------------------------------------------ status

    def summary(self) -> dict[str, Any]:
        """Public facts for the operators' status page: no hidden information."""
        return status.summary(self)


def _answer(msg: LobbyRequest, handle: Callable[[LobbyRequest], None]) -> None:
    """Handle a lobby request; one refused raises ``TableError`` before it changes
    anything, and that is its answer."""
    try:
        handle(msg)
    except TableError as exc:
        msg.reply.fail(exc)


def _unknown(table: str, msg: Never) -> NoReturn:
    """A message outside ``InboxMessage`` (mypy checks ``_handle`` covers the union)."""
    raise TypeError(f"table {table}: unknown inbox message {type(msg).__name__}")
