"""One chair and who is at it: its ``Presence`` and the moves between presences.

A chair is empty until a player joins (or is held for a rematch's player, or a bot sits
down at the start). A person's chair is *seated* while at least one connection is
attached to it and *away* while none is; an away seat that lets ``takeover_after``
decisions time out in a row is *played by a bot*, and the connected players may vote it
over to a bot sooner (*voted out*, see ``handover``). A player who comes *back* to a
bot-played seat takes it over again at once, with timeouts counted afresh.

Every field of a ``Seat`` is written here and only here: the table and the lobby ask the
seat (``attach``, ``detach``, ``timed_out``, ``hand_to_bot``...) and read what it says.
"""

from __future__ import annotations

import enum
import secrets

import attrs

from quaymoor.protocol.messages import BotVote, SeatPublic
from quaymoor.rules.record import removed_name, seat_label


class Presence(enum.Enum):
    """Who is at a chair."""

    EMPTY = "empty"  #: nobody (yet): a bot takes it at the start
    HELD = "held"  #: kept for a rematch's player who has not come yet
    SEATED = "seated"  #: a person's, with a connection attached
    AWAY = "away"  #: a person's, nobody attached (joined and not yet come, or gone)
    BOT_PLAYING = "bot_playing"  #: a person's, a bot plays it after their timeouts
    VOTED_OUT = "voted_out"  #: a person's, a bot plays it by the other players' vote
    BOT = "bot"  #: a bot's own chair


class Came(enum.Enum):
    """What a connection attaching to a seat changed, for the others to see."""

    NOTHING = "nothing"  #: the seat was connected already
    CONNECTED = "connected"  #: the seat shows connected now (its timeouts count afresh)
    BACK = "back"  #: the player is back from a bot: the bot stops playing the seat


_BOT_PLAYED = (Presence.BOT_PLAYING, Presence.VOTED_OUT)


@attrs.define
class Seat:
    """One chair of a table, in seat order (``index``)."""

    index: int
    _presence: Presence = Presence.EMPTY
    _name: str | None = None
    _token: str | None = None
    _commitment: str | None = None
    _client_seed: str | None = None
    _connections: int = 0
    _missed_timeouts: int = 0
    #: the account signed in when the chair was taken (None: a guest, a bot)
    _account: str | None = None
    #: a bot played for its player at some point (timeouts or a vote): a rated game
    #: places the seat last (``quaymoor.ratings.places``)
    _left: bool = False
    #: its player's account was deleted: it shows ``removed_name`` (``forget_name``)
    _name_removed: bool = False
    #: the seats that voted to hand this one to a bot while its player is away
    _votes: set[int] = attrs.field(factory=set)

    # ------------------------------------------------------------ reading

    @property
    def presence(self) -> Presence:
        return self._presence

    @property
    def name(self) -> str | None:
        """The name it was taken under (a bot's ends in "(bot)"); None while empty."""
        return self._name

    @property
    def display_name(self) -> str:
        """The name to show or to write: its own, or "Seat N" (``rules.record.seat_label``)."""
        return self._name or seat_label(self.index)

    @property
    def token(self) -> str | None:
        """The secret that proves the chair is yours; None for a bot's or an empty one."""
        return self._token

    @property
    def commitment(self) -> str | None:
        """The commitment to its client seed its player sent before the start."""
        return self._commitment

    @property
    def client_seed(self) -> str | None:
        """The client seed its player revealed (matching ``commitment``)."""
        return self._client_seed

    def forget_name(self) -> None:
        """Its player's account was deleted: the chair shows ``removed_name`` (the game's
        record takes the name out too: ``store.removed_names``)."""
        self._name = removed_name(self.index)
        self._name_removed = True

    @property
    def name_removed(self) -> bool:
        """Its player's account was deleted (``forget_name``)."""
        return self._name_removed

    @property
    def account(self) -> str | None:
        """The account its player was signed in to when taking it (None: a guest)."""
        return self._account

    @property
    def left(self) -> bool:
        """A bot has played for its player (after timeouts or by vote), even if they came
        back since."""
        return self._left

    @property
    def connections(self) -> int:
        """How many connections are attached to it now."""
        return self._connections

    @property
    def missed_timeouts(self) -> int:
        """Its decisions that timed out in a row while nobody was connected."""
        return self._missed_timeouts

    @property
    def votes(self) -> frozenset[int]:
        """The seats that voted to hand it to a bot (``handover``)."""
        return frozenset(self._votes)

    @property
    def bot(self) -> bool:
        """A bot's own chair."""
        return self._presence is Presence.BOT

    @property
    def held(self) -> bool:
        return self._presence is Presence.HELD

    @property
    def bot_playing(self) -> bool:
        """A bot plays for its absent player (after timeouts or by vote)."""
        return self._presence in _BOT_PLAYED

    @property
    def bot_controlled(self) -> bool:
        return self.bot or self.bot_playing

    @property
    def away(self) -> bool:
        """A person's chair with nobody attached and no bot playing it."""
        return self._presence is Presence.AWAY

    @property
    def connected(self) -> bool:
        """Someone is attached to the seat; a bot always is."""
        return self.bot or self._connections > 0

    def public(self, bot_vote: BotVote | None = None) -> SeatPublic:
        return SeatPublic(self.index, self._name, self.bot, self.bot_playing, self.connected,
                          bot_vote)

    # ------------------------------------------------------------ the lobby

    def take(self, name: str, account: str | None = None) -> str:
        """A player joins the empty chair under ``name`` (signed in to ``account``):
        returns its new token."""
        assert self._presence is Presence.EMPTY, self._presence
        self._name, self._token = name, secrets.token_urlsafe(24)
        self._account = account
        self._presence = Presence.AWAY
        return self._token

    def hold(self, name: str, account: str | None = None) -> None:
        """Keep the empty chair for ``name`` (of ``account``), a player of the game this
        is a rematch of, with a token of its own for them."""
        assert self._presence is Presence.EMPTY, self._presence
        self._name, self._token = name, secrets.token_urlsafe(24)
        self._account = account
        self._presence = Presence.HELD

    def came(self) -> None:
        """The held chair's player has come (a seed, a start or a connection): it is
        theirs now; nothing if it was not held."""
        if self._presence is Presence.HELD:
            self._presence = Presence.AWAY

    def commit(self, commitment: str) -> None:
        """The player's commitment to its client seed (before the start): it has come."""
        self._commitment = commitment
        self.came()

    def reveal(self, client_seed: str) -> None:
        """The client seed behind the seat's commitment (checked by the lobby)."""
        self._client_seed = client_seed

    def let_go_of_hold(self) -> None:
        """The game starts without the held chair's player: the chair is empty again."""
        if self._presence is Presence.HELD:
            self._name = self._token = self._account = None
            self._presence = Presence.EMPTY

    def sit_bot(self, name: str) -> None:
        """A bot named ``name`` takes the empty chair for the game."""
        assert self._presence is Presence.EMPTY, self._presence
        self._name = name
        self._presence = Presence.BOT

    # ------------------------------------------------------------ connections

    def attach(self) -> Came:
        """A connection of the seat's player attached."""
        self.came()
        self._connections += 1
        if self._connections > 1:
            return Came.NOTHING
        self._missed_timeouts = 0  # back: timeouts count afresh, and any vote on it ends
        self._votes.clear()
        if self._presence in _BOT_PLAYED:
            self._presence = Presence.SEATED
            return Came.BACK
        self._presence = Presence.SEATED
        return Came.CONNECTED

    def detach(self) -> bool:
        """A connection of the seat left; True when it was the last (the seat is away)."""
        assert self._connections > 0, "a detach without its attach"
        self._connections -= 1
        if self._connections:
            return False
        self._presence = Presence.AWAY
        return True

    # ------------------------------------------------------------ play

    def acted(self) -> None:
        """The seat's player acted: no timeouts in a row any more."""
        self._missed_timeouts = 0

    def timed_out(self, takeover_after: int) -> bool:
        """A decision of the seat timed out; True when that makes a bot take it over
        (the ``takeover_after``-th in a row with its player away)."""
        if self._presence is not Presence.AWAY:
            return False
        self._missed_timeouts += 1
        if self._missed_timeouts < takeover_after:
            return False
        self._presence = Presence.BOT_PLAYING
        self._left = True
        self._votes.clear()
        return True

    def voted_by(self, voter: int) -> None:
        self._votes.add(voter)

    def forget_vote(self, voter: int) -> None:
        self._votes.discard(voter)

    def hand_to_bot(self) -> None:
        """The players' vote carried: a bot plays the away seat until its player is back."""
        assert self._presence is Presence.AWAY, self._presence
        self._presence = Presence.VOTED_OUT
        self._left = True
        self._votes.clear()
