"""Who is in a table's room and what each is told: its connections (``fanout``), the
events each version started (``History``, for catch-ups), the chat, who watches, and the
updates, each connection's own seat's view (encoded once per audience: ``view_json``).

The table decides what happens; the room says it. It answers one connection (``send``,
``refuse``), everyone (``broadcast``, ``broadcast_update``, ``seats_changed``), or a
connection that comes back or lost its chain of versions (``snapshot``). A connection the
fan-out drops on the way (too slow, or gone) is kept aside, no longer ``attached``, until
the table takes it (``take_dropped``) once the message it was handling has had every
frame out: the table's detach (and the seats-changed snapshot it may send) comes after
them, never between them (that would be a gap in the others' chain of versions).
"""

from __future__ import annotations

from quaymoor.actors.chat import Chat, ChatError
from quaymoor.actors.connection import Connection
from quaymoor.actors.fanout import Fanout, History
from quaymoor.actors.inbox import Inbox
from quaymoor.actors.lobby import Seats
from quaymoor.actors.outlet import Receipt
from quaymoor.actors.turns import Turns
from quaymoor.actors.watchers import WatchersNotice, watchers_of
from quaymoor.protocol.codes import Close, Code
from quaymoor.protocol.messages import Error, Explanation, PaceSet, ServerMessage, WireEvent
from quaymoor.protocol.pace import pace_names, parse_pace
from quaymoor.protocol.view_json import UpdateEncoder, ViewEncoder
from quaymoor.rules.game import Game


class Room:
    """The connections of table ``table_id`` and what goes out to them."""

    def __init__(self, table_id: str, seats: Seats, turns: Turns, inbox: Inbox) -> None:
        self.fanout = Fanout(table_id)
        self.history = History()
        self.chat = Chat(table_id)
        self.watchers = WatchersNotice(inbox)
        self._seats = seats
        self._turns = turns
        self._game: Game | None = None  #: once it has started
        self._views: ViewEncoder | None = None  #: the game's
        #: The receipt of the action being handled, given to the frames of its broadcast.
        self.receipt: Receipt | None = None
        self.closing = False  #: the table is closing its connections: nothing more goes out
        self._dropped: dict[int, Connection] = {}  #: dropped, for the table to detach

    def start(self, game: Game) -> None:
        self._game = game
        self._views = ViewEncoder(game)

    def _started(self) -> tuple[Game, ViewEncoder]:
        assert self._game is not None and self._views is not None, "the game has not started"
        return self._game, self._views

    # ------------------------------------------------------------ one connection

    def attached(self, conn: Connection) -> bool:
        return self.fanout.connections.get(conn.id) is conn and conn.id not in self._dropped

    def take_dropped(self) -> tuple[Connection, ...]:
        """The connections dropped since the last call, for the table to detach (asked
        after every message: nothing is made when none was dropped)."""
        if not self._dropped:
            return ()
        dropped = tuple(self._dropped.values())
        self._dropped.clear()
        return dropped

    def _lost(self, dropped: list[Connection]) -> None:
        for conn in dropped:
            self._dropped[conn.id] = conn

    def add(self, conn: Connection) -> None:
        self.fanout.add(conn)

    def connections(self) -> list[Connection]:
        """The connections attached now (a copy: sending may drop one)."""
        return list(self.fanout.connections.values())

    def send(self, conn: Connection, message: ServerMessage) -> None:
        if not self.fanout.send(conn, message):
            self._lost([conn])

    def refuse(self, conn: Connection, code: Code, text: str, ack: int | None = None) -> None:
        """Tell ``conn`` alone why what it sent changed nothing (``ack``: the refused act's
        id, when it had one)."""
        self.send(conn, Error(code, text, ack))

    def spectator(self, conn: Connection, refusal: str, ack: int | None = None) -> bool:
        """``conn`` is a spectator's: refused with ``refusal``, what only players may do."""
        if conn.seat is not None:
            return False
        self.refuse(conn, Code.SPECTATOR, refusal, ack)
        return True

    def snapshot(self, conn: Connection, since: int | None) -> None:
        """``conn``'s view now, with every event after ``since`` when the table has them
        (a reconnect, a resync: the client's log misses nothing), else none."""
        game, _ = self._started()
        start, events = self.history.since(since, game.version)
        if not self.fanout.send_snapshot(conn, self.update(start, events)):
            self._lost([conn])

    def came(self, conn: Connection) -> None:
        """After an attach's catch-up: who watches and the chat's recent lines. A
        spectator's coming is told to the others with the next ``watchers``."""
        self.send(conn, watchers_of(self.fanout.connections.values()))
        if conn.seat is None:
            self.watchers_changed()
        if self.chat.recent:
            self.send(conn, self.chat.catch_up())

    def left(self, conn: Connection) -> bool:
        """``conn`` is gone (its socket, or dropped): False if it was not attached."""
        if not self.fanout.remove(conn):
            return False
        if conn.seat is None:
            self.watchers_changed()
        return True

    def watchers_changed(self) -> None:
        if not self.closing:
            self.watchers.changed()

    def chat_from(self, conn: Connection, text: str) -> None:
        """A chat line from a seat, to everyone attached; refused for a spectator."""
        if self.spectator(conn, "spectators read the chat; only the players write in it"):
            return
        assert conn.seat is not None
        try:
            line = self.chat.say(conn.seat, self._seats[conn.seat].display_name, text)
        except ChatError as exc:
            self.refuse(conn, exc.code, exc.message)
            return
        self.broadcast(line)

    def pace_from(self, conn: Connection, value: str) -> None:
        """A seat sets the bots' pace: everyone attached is told; the next bot move waits
        for the new pace (one already waiting keeps its pause). Refused, only the sender
        hears of it and nothing changes."""
        if self.spectator(
                conn, "spectators watch; only the players set the bots' pace"):
            return
        assert conn.seat is not None
        pace = parse_pace(value)
        if pace is None:
            self.refuse(conn, Code.BAD_PACE,
                        f"the pace is {pace_names()}, not {value[:40]!r} @ $.pace")
            return
        self._turns.pace = pace
        self.broadcast(PaceSet(pace, conn.seat))

    def explain(self, conn: Connection) -> None:
        """What the decision now is, in plain words (``rules.explain.describe``): to a seat
        whose decision it is, what it is choosing; to anyone else, whose it is."""
        if self._game is None:
            self.refuse(conn, Code.NOT_PLAYING, "the game has not started: there is no "
                                                "decision to explain yet")
            return
        told = self._game.describe(conn.seat, [s.display_name for s in self._seats])
        self.send(conn, Explanation(self._game.version, told.title, list(told.text)))

    # ------------------------------------------------------------ everyone

    def broadcast(self, message: ServerMessage) -> None:
        self._lost(self.fanout.broadcast(message))

    def watchers_due(self) -> None:
        """The watchers' alarm: a ``watchers`` to everyone, if it says something new."""
        watchers = self.watchers.due(self.fanout.connections.values())
        if watchers is not None and not self.closing:
            self.broadcast(watchers)

    def close_all(self, code: Close, reason: str) -> None:
        self.closing = True
        self.fanout.close_all(code, reason)

    def update(self, since: int, events: list[WireEvent]) -> UpdateEncoder:
        """The update at the game's current version, ready to encode for any seat."""
        game, views = self._started()
        return UpdateEncoder(views, version=game.version, since=since,
                             events=events, clocks=self._turns.clocks(),
                             seats=self._seats.public())

    def broadcast_update(
        self, since: int, events: list[WireEvent], *, exclude: Connection | None = None
    ) -> None:
        if self.fanout.connections:
            self._lost(self.fanout.broadcast_update(self.update(since, events),
                                                    receipt=self.receipt, exclude=exclude))

    def seats_changed(self, exclude: Connection | None = None) -> None:
        """What a seat shows changed (``connected``, ``bot_playing``): a snapshot update
        (no events) to the others, the shape every client already handles."""
        self.broadcast_update(self._started()[0].version, [], exclude=exclude)
