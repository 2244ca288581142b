"""What reaches a table: the messages of its inbox, and the answers it gives back.

Everything a table hears comes through its inbox, a bounded memory channel of
``InboxMessage``: lobby requests (``Join``, ``Commit``, ``Start``, ``Reveal``), connections
attaching and leaving (``Attach``, ``Detach``), their actions (``ActFrom``), requests for a
snapshot (``ResyncFrom``) and votes to hand an away seat to a bot (``VoteFrom``), their chat
lines (``ChatFrom``), rematch requests (``RematchFrom``, answered by the supervisor's
``RematchReady`` or ``RematchFailed``), pace changes (``PaceFrom``) and questions
(``ExplainFrom``), hints (``HintFrom``, worked out into ``HintReady``), its seat
workers' reports (``TimedOut``, ``BotMove``), its own alarms' (``HostAway``,
``RevealDue``, ``WatchersDue``) and ``Shutdown``. A request carries a ``Reply``, answered
exactly once: with a value, or with a ``TableError`` whose code goes on the wire.
"""

from __future__ import annotations

from typing import Any, TypeAlias

import attrs
import trio

from quaymoor.actors.connection import Connection
from quaymoor.protocol.codes import Code
from quaymoor.rules.actions import Action
from quaymoor.rules.record import EndReason


class TableError(Exception):
    """A request the table (or the supervisor) refuses; ``code`` goes on the wire."""

    def __init__(self, code: Code, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def table_closed() -> TableError:
    """The answer to anyone who asks a table that has closed."""
    return TableError(Code.TABLE_CLOSED, "this table has closed")


class Reply:
    """A one-shot answer from the actor to whoever asked (an HTTP request, a gateway)."""

    def __init__(self) -> None:
        self._done = trio.Event()
        self._value: Any = None
        self._error: TableError | None = None

    @property
    def answered(self) -> bool:
        return self._done.is_set()

    def set(self, value: Any) -> None:
        """Answer with ``value``; a reply already answered keeps its first answer."""
        if not self.answered:
            self._value = value
            self._done.set()

    def fail(self, error: TableError) -> None:
        """Refuse with ``error``; a reply already answered keeps its first answer."""
        if not self.answered:
            self._error = error
            self._done.set()

    async def wait(self) -> Any:
        """Block until answered; raises the ``TableError`` of a refusal."""
        await self._done.wait()
        if self._error is not None:
            raise self._error
        return self._value


@attrs.frozen
class JoinResult:
    """The answer to a ``Join``: the seat taken and its secret token."""

    seat: int
    token: str


@attrs.frozen
class Join:
    """Take the next free seat (answered with a ``JoinResult``)."""

    name: str
    reply: Reply
    account: str | None = None  #: the account signed in (None: a guest)


@attrs.frozen
class Commit:
    """A seated player's commitment to its client seed, as the client sent it (the lobby
    checks it), once per seat and before the start (answered with None)."""

    token: str
    commitment: object
    reply: Reply


@attrs.frozen
class Reveal:
    """A seated player's client seed, revealed once every commitment is fixed (the start
    has begun) and before the reveal closes; it must match the seat's commitment
    (answered with None)."""

    token: str
    client_seed: object
    reply: Reply


@attrs.frozen
class Start:
    """Start the game; ``token`` must be a seated player's (answered with None)."""

    token: str
    reply: Reply


@attrs.frozen
class Attach:
    """Attach a connection as a seat (its token) or a spectator (no token); ``since`` is
    the last version it saw (answered with the seat, None for a spectator)."""

    connection: Connection
    token: str | None
    since: int | None
    reply: Reply
    #: A spectator's name from its ``hello``, already cleaned (``lobby.clean_name``);
    #: None: unnamed (a seat's connection has its seat's name)
    name: str | None = None


@attrs.frozen
class Detach:
    """The connection's socket is gone."""

    connection: Connection


@attrs.frozen
class ActFrom:
    """An action from an attached connection."""

    connection: Connection
    action: Action
    received: float = 0.0  #: trio time the gateway read it (for the latency metric)
    ack: int | None = None  #: the act's ``id``: given back in ``acted`` or the ``error``


@attrs.frozen
class ResyncFrom:
    """A connection asks for a snapshot of its view (its client missed a version), with
    the events after ``since`` if it gives the version it has every event up to."""

    connection: Connection
    since: int | None = None


@attrs.frozen
class VoteFrom:
    """A connection votes to hand ``seat`` (an away player's) to a bot."""

    connection: Connection
    seat: int


@attrs.frozen
class ChatFrom:
    """A chat line from an attached connection, as the client sent it (``actors.chat``
    checks it)."""

    connection: Connection
    text: str


@attrs.frozen
class PaceFrom:
    """A connection sets its table's bots' pace, as the client sent it (the table checks
    it: ``protocol.pace``)."""

    connection: Connection
    pace: str


@attrs.frozen
class ExplainFrom:
    """A connection asks what the decision now is, in plain words (``rules.explain``)."""

    connection: Connection


@attrs.frozen
class HintFrom:
    """A connection's seat asks what the hard bot would do now (``actors.hints``)."""

    connection: Connection


@attrs.frozen
class HintReady:
    """A hint worked out off the table's loop: for ``seat`` at ``version``, the action, its
    words and why (sent to the seat's connections that asked: ``actors.hints``)."""

    seat: int
    version: int
    answer: tuple[Action, str, str]


@attrs.frozen
class HostAway:
    """From the table's own alarm: its host has not been connected for the host's grace
    (``lobby.HOST_AWAY_SECONDS``): any seated player may start now."""


@attrs.frozen
class RevealDue:
    """From the table's own alarm: the reveal's time is up; the game is dealt with the
    seeds revealed so far."""


@attrs.frozen
class WatchersDue:
    """From the table's own alarm: the spectators changed since the last ``watchers``
    broadcast, and the 2 s between two broadcasts have passed."""


@attrs.frozen
class RematchFrom:
    """A connection's seat offers a rematch of the finished game, or accepts the offer."""

    connection: Connection


@attrs.frozen
class RematchReady:
    """From the supervisor: the rematch table ``table`` is open, with a chair held for
    each human of this game; ``tokens`` holds those chairs' secret tokens by seat."""

    table: str
    fingerprint: str
    tokens: dict[int, str]


@attrs.frozen
class RematchFailed:
    """From the supervisor: no rematch table could be opened (``code`` says why)."""

    code: Code
    message: str


@attrs.frozen
class Shutdown:
    """End the game now (players told, seed revealed, record kept)."""

    reason: EndReason = EndReason.SHUTDOWN


@attrs.frozen
class AccountGone:
    """An account was deleted: the seats it holds show no name from now on (answered with
    how many seats changed)."""

    account: str
    reply: Reply


@attrs.frozen
class TimedOut:
    """From a seat worker: ``seat``'s decision ``decision`` ran out of time."""

    seat: int
    decision: int


@attrs.frozen
class BotMove:
    """From a seat worker: the bot playing ``seat`` chose ``action`` at game version
    ``version``."""

    seat: int
    action: Action
    version: int


InboxMessage = (Join | Commit | Start | Reveal | Attach | Detach | ActFrom | ResyncFrom
                | VoteFrom | Shutdown | TimedOut | BotMove | ChatFrom | RematchFrom
                | RematchReady | RematchFailed | PaceFrom | ExplainFrom | HostAway | RevealDue
                | WatchersDue | HintFrom | HintReady | AccountGone)
#: A table's inbox, as its senders hold it.
Inbox: TypeAlias = trio.MemorySendChannel[InboxMessage]


#: The messages a connection sends once attached: the table handles one only while that
#: connection is still attached (one dropped or detached meanwhile has nobody to answer).
FROM_CONNECTION = (ActFrom, ResyncFrom, VoteFrom, ChatFrom, PaceFrom, ExplainFrom, RematchFrom,
                   HintFrom)


def refuse_all(handling: InboxMessage | None,
               messages: trio.MemoryReceiveChannel[InboxMessage]) -> None:
    """A table has stopped: ``handling``, the message it was handling (if it had not
    answered it), and every message still queued are refused; the inbox is closed."""
    if handling is not None:
        refuse(handling)
    while True:
        try:
            msg = messages.receive_nowait()
        except (trio.WouldBlock, trio.EndOfChannel, trio.ClosedResourceError):
            break
        refuse(msg)
    messages.close()


def refuse(msg: InboxMessage) -> None:
    """Answer a message left in the inbox of a table that has stopped, or the one it was
    handling when it stopped: a request not yet answered is refused with ``table_closed``,
    a connection's outlet is let go (closed), a report is dropped."""
    match msg:
        case (Join(reply=reply) | Commit(reply=reply) | Start(reply=reply)
              | Reveal(reply=reply) | AccountGone(reply=reply)):
            reply.fail(table_closed())
        case Attach(connection=conn, reply=reply):
            reply.fail(table_closed())
            conn.outlet.let_go()
        case (Detach(connection=conn) | ActFrom(connection=conn) | ResyncFrom(connection=conn)
              | VoteFrom(connection=conn) | ChatFrom(connection=conn)
              | RematchFrom(connection=conn) | PaceFrom(connection=conn)
              | ExplainFrom(connection=conn) | HintFrom(connection=conn)):
            conn.outlet.let_go()
        case (Shutdown() | TimedOut() | BotMove() | RematchReady() | RematchFailed()
              | HostAway() | RevealDue() | WatchersDue() | HintReady()):
            pass
