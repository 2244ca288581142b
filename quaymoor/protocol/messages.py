"""Wire messages: attrs classes with a ``type`` tag, shape and types only.

Game checks happen in the rules, not here. Client messages are structured strictly
(``quaymoor.protocol.codec``); server messages are written with the tag. A message's tag is
its class name in snake case unless ``TAGS`` names it otherwise.
"""

from __future__ import annotations

from typing import Any, Final

import attrs

from quaymoor.protocol.codes import Code
from quaymoor.protocol.pace import Pace
from quaymoor.rules.actions import Action
from quaymoor.rules.events import Event
from quaymoor.rules.record import EndReason
from quaymoor.rules.views import Result, SeatView

# ---------------------------------------------------------------- client -> server


@attrs.frozen
class Hello:
    """First message on a connection: attach to a table as a seat (with its token) or as
    a spectator (no token). ``since``: the last version this client saw, to get what it
    missed. ``name``: a spectator's name, shown to the table in ``watchers`` (cleaned as
    a player's name; a seat's connection has its seat's name, and a name it sends is
    ignored). (A seat's commitment and client seed are not sent here: ``POST
    /api/tables/<id>/commit`` and ``/reveal``.)"""

    table: str
    token: str | None = None
    since: int | None = None
    name: str | None = None


#: The largest ``act`` id: JavaScript's largest safe integer, so a browser's counter is exact.
MAX_ACT_ID: Final = 2**53 - 1


@attrs.frozen
class Act:
    """Take an action for the attached seat. ``action`` is an action object, e.g.
    ``{"type": "pick_role", "role": "miller"}``; it is decoded by the rules' codec. ``id``
    (optional, 0 to ``MAX_ACT_ID``): the client's own number for this act, given back to
    this connection in ``acted`` when it is applied or in the ``error`` that refuses it."""

    action: dict[str, Any]
    id: int | None = None


@attrs.frozen
class Ping:
    """Keep-alive; answered by ``pong``."""


@attrs.frozen
class Resync:
    """Ask for a snapshot: the client's view is not at a delta's ``since`` (it missed a
    version, or lost its view). Answered with an ``update`` carrying the whole view and,
    when ``since`` is given (the version up to which the client has every event), the
    events after it."""

    since: int | None = None


@attrs.frozen
class VoteBot:
    """Vote to hand ``seat`` to a bot: the seat of a player who is away (no connection)
    and has let a decision time out. A majority of the connected players votes it over;
    the player gets the seat back on returning (docs/protocol.md, section 6)."""

    seat: int


@attrs.frozen
class Chat:
    """A line for the table's chat, from a seat (spectators only read). Checked by
    ``actors.chat``: at most 200 code points once cleaned, a few lines per seat at a time."""

    text: str


@attrs.frozen
class Rematch:
    """From a seat, after the game has finished: offer a rematch, or accept the one on
    offer. Answered with ``rematch_seat`` (the seat's token at the new table) to this seat
    and ``rematch_offer`` to everyone."""


@attrs.frozen
class SetPace:
    """``pace``, from a seat: the bots' pace from now on (``people``, ``steady`` or ``fast``; the
    table checks it). Answered by ``pace`` to everyone attached."""

    pace: str


@attrs.frozen
class Explain:
    """What the decision now is, in plain words: answered by ``explanation``."""


@attrs.frozen
class Hint:
    """What the hard bot would do now, and why, for a seat at a table where every other
    seat is a bot: answered by ``hint`` (and counted: the record and ``game_ended`` say
    how many hints each seat was given)."""


ClientMessage = (Hello | Act | Ping | Resync | VoteBot | Chat | Rematch | SetPace | Explain
                 | Hint)

# ---------------------------------------------------------------- server -> client


@attrs.frozen
class BotVote:
    """The vote on handing an away seat to a bot, while it is open."""

    voters: list[int]  #: the seats that may vote: connected players, the away one aside
    votes: list[int]  #: the voters that have voted, in seat order
    needed: int  #: votes that hand the seat over: a majority of ``voters``


@attrs.frozen
class SeatPublic:
    """What everyone may know of a seat."""

    seat: int
    name: str | None  #: None while the chair is empty (before the start)
    bot: bool  #: a bot sits in this chair
    bot_playing: bool  #: a bot plays for an absent player
    connected: bool
    #: the open vote on handing this seat to a bot (``VoteBot``), else None
    bot_vote: BotVote | None = None


@attrs.frozen
class Clock:
    """A running decision timer: seconds left for ``seat``."""

    seat: int
    remaining: float


@attrs.frozen
class Welcome:
    table: str
    seat: int | None  #: None for a spectator
    players: int
    #: the table's commitment to its secret seed, published at its creation
    #: (``docs/fairness.md``: SHA-256 of the algorithm, the table's id, its seats, the seed)
    fingerprint: str
    started: bool
    seats: list[SeatPublic]
    decision_seconds: float
    #: Once started: per seat, the client seed it revealed (None: a bot, no commitment,
    #: or a commitment not revealed); the game key is made from these and the
    #: commitments (``docs/fairness.md``). None before the start.
    client_seeds: list[str | None] | None = None
    host: int | None = None  #: the seat that opened the table and starts it; None: nobody yet
    pace: Pace = Pace.PEOPLE  #: how long the bots wait before each move
    #: The table was opened with hints for everyone: every seat may ask (``hint``), not
    #: only one whose every opponent is a bot.
    hints: bool = False
    #: Once the start has fixed them (``seeds_committed``): per seat, the commitment its
    #: player sent (None: none). None before.
    commitments: list[str | None] | None = None
    #: The level of the table's bots (``random``, ``easy``, ``normal``, ``hard``,
    #: ``expert``): every bot in an empty chair, and every bot playing for an absent player
    bots: str = "normal"
    #: A rated game (``quaymoor.ratings``): every person seated signed in, no hints; its
    #: result moves their ratings.
    rated: bool = False
    #: This server takes an ``act``'s ``id`` and answers it (``acted``, or the ``error``
    #: that names it). A server before ids refuses an act that has one (an extra field):
    #: a client sends ids only where ``welcome`` says this (as during a rolling deploy,
    #: when a page from a new process reaches an old process's table).
    act_ids: bool = True


@attrs.frozen
class SeatTimedOut:
    """An event of the table, not of the rules (``timed_out``): ``seat``'s decision timer
    ran out and the table played its safe move, ``actions`` (the actions as on the wire,
    in order). It comes first among the events of the update that carries those actions,
    before the events they caused, and in catch-ups like every other event. The actions
    are public: the Reeve's placements show on the mat as they are made, and a keep-goods
    timeout plays the seat's whole part to its ``done``, whose result (the goods left,
    ``goods_returned``) everyone sees."""

    seat: int
    actions: list[Action]


#: The events of an ``update``: the rules' events and the table's own (``SeatTimedOut``).
WireEvent = Event | SeatTimedOut


@attrs.frozen
class SeedsCommitted:
    """The start has fixed every commitment (sent to every connection attached then, and
    in the welcome of one that attaches before the game is dealt): the seats as they
    will play (bots in the empty chairs), per seat the commitment its player sent (None:
    none), and how long the reveal stays open. Each seat that committed now reveals its
    client seed (``POST /api/tables/<id>/reveal``); the game is dealt when all have, or
    when the reveal closes."""

    table: str
    seats: list[SeatPublic]
    commitments: list[str | None]
    reveal_seconds: float


@attrs.frozen
class GameStarted:
    """The game has started (sent to every connection attached then, before the first
    update): per seat, the client seed that went into the game key (None: a bot, no
    commitment, or a commitment not revealed in time) and the commitment it sent. A
    client checks that its own seed and commitment are at its seat."""

    table: str
    client_seeds: list[str | None]
    commitments: list[str | None] = attrs.field(factory=list)


@attrs.frozen
class Update:
    """The game moved on (or a fresh snapshot): the events since ``since`` and the
    recipient's whole view at ``version``. This is the snapshot form; most updates are
    deltas, which carry ``patch`` (the view's changes since ``since``) instead of
    ``view``, and ``seats`` only when they changed: they are written by
    ``view_json.UpdateEncoder`` (docs/protocol.md, section 5)."""

    version: int
    since: int
    events: list[WireEvent]
    view: SeatView
    clocks: list[Clock]
    seats: list[SeatPublic]


@attrs.frozen
class Lobby:
    """Before the start: who has joined."""

    table: str
    players: int
    seats: list[SeatPublic]
    #: A rematch: the game it is a rematch of (it starts by itself once every seated
    #: player has sent a commitment); None for any other table.
    rematch_of: str | None = None
    #: The seat that opened the table: only it may start the game (``not_host``); None
    #: until someone has joined.
    host: int | None = None
    #: The host has not been connected for ``HOST_AWAY_SECONDS``: any seated player may
    #: start the game now.
    host_away: bool = False
    pace: Pace = Pace.PEOPLE  #: how long the bots wait before each move
    #: The table was opened with hints for everyone: every seat may ask (``hint``).
    hints: bool = False
    #: A rated table: only players signed in may join; no hints.
    rated: bool = False


@attrs.frozen
class EndOfGame:
    """``game_ended``: the game is over, finished or ended by a shutdown or a crash. The
    seed is revealed so anyone can check it against the fingerprint. (Not the rules'
    ``events.GameEnded``, which is one of the game's events.)"""

    table: str
    reason: EndReason
    seed: str
    fingerprint: str
    client_seeds: list[str | None]  #: per seat, as in ``game_started``
    result: Result | None
    record_url: str
    hints: list[int]  #: per seat, the hints its player was given
    #: the fairness algorithm the game was dealt with (its fingerprint's first field)
    algorithm: str


@attrs.frozen
class Error:
    """A refused message: a stable ``code``, and what was wrong and where. ``id``: the
    refused ``act``'s id, when it carried one (left out of the message otherwise)."""

    code: Code
    message: str
    id: int | None = None


@attrs.frozen
class Acted:
    """To the connection that sent it: its ``act`` with this ``id`` was applied, and the
    game is at ``version`` (the ``update`` that carries the action came before this)."""

    id: int
    version: int


@attrs.frozen
class Pong:
    pass


@attrs.frozen
class ChatLine:
    """A line of the table's chat, to everyone attached (plain text: show it as text)."""

    table: str
    id: int  #: 1, 2, ... in the order the table took the lines
    seat: int  #: who wrote it
    name: str  #: the seat's name when it was written
    text: str  #: cleaned: no control or bidi characters, one line, 1 to 200 code points
    at: float  #: Unix time the table took it


@attrs.frozen
class ChatRecent:
    """Right after the catch-up on attaching: the table's last lines (at most 50, held in
    memory only, oldest first)."""

    table: str
    lines: list[ChatLine]


@attrs.frozen
class RematchOffer:
    """A player of this finished game offered a rematch (to everyone attached, and to a
    connection that attaches later): ``rematch`` is the new table, ``by`` the seat that
    offered, ``accepted`` the seats holding a chair there so far."""

    table: str
    rematch: str
    by: int
    name: str
    accepted: list[int]


@attrs.frozen
class RematchSeat:
    """Only to the seat's own connections: its chair at the rematch table, the same seat
    number. Keep ``token`` as for a join; show ``fingerprint`` before sending the seat's
    client seed there."""

    table: str
    rematch: str
    seat: int
    token: str
    fingerprint: str


@attrs.frozen
class PaceSet:
    """``pace``: a seat set the bots' pace; the next bot move waits for it."""

    pace: Pace
    by: int  #: the seat that set it


@attrs.frozen
class Watchers:
    """Who watches: the spectators' connections now (``count``) and the names of up to
    ``MAX_WATCHER_NAMES`` of them, in the order they came (unnamed ones are only counted).
    In the catch-up after ``welcome``, then to everyone attached when it changes, at most
    once every ``WATCHERS_EVERY`` seconds per table."""

    count: int
    names: list[str]


#: The names a ``watchers`` message lists at most, and the seconds between two of them.
MAX_WATCHER_NAMES: Final = 10
WATCHERS_EVERY: Final = 2.0


@attrs.frozen
class Explanation:
    """The answer to ``explain``: the decision at ``version`` in plain words, a ``title``
    and paragraphs (``rules.explain.describe``)."""

    version: int
    title: str
    text: list[str]


@attrs.frozen
class TablePaused:
    """The table is paused: its server cannot renew its lease on the cluster's database
    (``reason`` says so in words), so nothing is played until it can. Every decision
    timer is stopped with ``clocks`` left, the bots wait, and an ``act`` or ``vote_bot``
    is refused (``table_paused``); chat goes on. To everyone attached when it pauses, and
    after the catch-up to a connection that attaches meanwhile. ``table_resumed`` follows,
    or ``game_ended`` when the game was ended elsewhere."""

    table: str
    reason: str
    clocks: list[Clock]


@attrs.frozen
class TableResumed:
    """The pause is over: play goes on, each timer with the ``clocks`` it had left."""

    table: str
    clocks: list[Clock]


@attrs.frozen
class HintGiven:
    """The answer to ``hint``: at ``version``, the action the hard bot's search chose for
    the seat (an action object, as ``act`` takes), in ``words``, and ``why``."""

    version: int
    action: dict[str, Any]
    words: str
    why: str


ServerMessage = (Welcome | SeedsCommitted | GameStarted | Update | Lobby | EndOfGame | Error
                 | Acted | Pong | ChatLine | ChatRecent | RematchOffer | RematchSeat | PaceSet
                 | Watchers | Explanation | TablePaused | TableResumed | HintGiven)

#: Wire tags that are not the class name in snake case.
TAGS: Final[dict[type, str]] = {EndOfGame: "game_ended", PaceSet: "pace", SetPace: "pace",
                                SeatTimedOut: "timed_out", HintGiven: "hint"}
