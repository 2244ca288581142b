"""A table's game in play: who may move, what a move, a timeout or a vote changes.

``Play`` is the table's game once it has started, without the actor around it: it applies
a seat's action, a bot's move or a timeout's safe move, counts a vote to hand an away seat
to a bot (``handover``), and tells ``Turns`` whose decision runs next. Each of them returns
the ``Change`` it made (or None when nothing changed), and the table publishes it: Play
sends nothing and knows no connection.
"""

from __future__ import annotations

import logging
import time

import attrs

from quaymoor.actors import handover
from quaymoor.actors.inbox import BotMove, TimedOut
from quaymoor.actors.lobby import Seats
from quaymoor.actors.turns import Turns, timeout_moves
from quaymoor.ops.metrics import Metrics
from quaymoor.protocol.messages import EndOfGame, SeatTimedOut, WireEvent
from quaymoor.rules.actions import Action
from quaymoor.rules.errors import RulesError
from quaymoor.rules.fairness import seed_to_hex
from quaymoor.rules.game import Game
from quaymoor.rules.record import EndReason, GameRecord

log = logging.getLogger("quaymoor.table")


@attrs.frozen
class Change:
    """The game moved from version ``since``: these events, after ``acted``'s move (None:
    no seat's, as at the start)."""

    acted: int | None
    since: int
    events: list[WireEvent]


class Play:
    """The started game of table ``table_id``, its seats and whose turn runs."""

    def __init__(self, table_id: str, game: Game, seats: Seats, turns: Turns, *,
                 takeover_after: int, metrics: Metrics, hints: list[int] | None = None,
                 rated: bool = False) -> None:
        self.table_id = table_id
        self.rated = rated  #: the record says so
        #: per seat, the hints its player was given (``actors.hints``: the table's count)
        self.hints = hints if hints is not None else [0] * game.players
        self.game = game
        self.seats = seats
        self.turns = turns
        self._takeover_after = takeover_after
        self._metrics = metrics

    def act(self, seat: int, action: Action) -> Change:
        """A seat's player acts. Raises ``RulesError`` for a move the rules refuse (and
        then nothing changed but the seat's count of timeouts in a row, which ends)."""
        since = self.game.version
        try:
            events = self.game.apply(seat, action, at=time.time())
        finally:
            self.seats[seat].acted()
        return Change(seat, since, list(events))

    def bot_move(self, msg: BotMove) -> Change | None:
        """A bot's move for a seat it plays, if it still may make it; a move the game
        has moved on from makes the bot think again."""
        game = self.game
        if not self.seats[msg.seat].bot_controlled:
            return None
        if msg.action in game.legal_actions(msg.seat) or msg.action in game.takeback_actions(
                msg.seat):
            self.turns.bot_moves += 1
            since = game.version
            try:
                events = game.apply(msg.seat, msg.action, at=time.time())
            except RulesError:  # legal a moment ago: nothing to publish
                return None
            return Change(msg.seat, since, list(events))
        if msg.seat in game.deciding():
            self.turns.start_bot(game, msg.seat)
        return None

    def timed_out(self, msg: TimedOut) -> Change | None:
        """A seat's timer ran out: its safe move is played, if the decision still runs.
        An away seat that has let ``takeover_after`` decisions time out is a bot's now."""
        game = self.game
        if not self.turns.is_current(msg, game):
            return None
        self.turns.timeouts += 1
        self._metrics.timed_out()
        since = game.version
        played, caused = timeout_moves(game, msg.seat)
        # What the timer played comes first, so that a client can say "Time ran out:
        # you took no plot" before the events of those moves (SeatTimedOut: all public).
        events: list[WireEvent] = [SeatTimedOut(msg.seat, played), *caused] if played \
            else caused
        if self.seats[msg.seat].timed_out(self._takeover_after):
            self.turns.bot_for(msg.seat)
            log.info("table %s: a bot plays seat %d until its player returns", self.table_id,
                     msg.seat, extra={"event": "bot_takeover", "table": self.table_id})
        return Change(msg.seat, since, events)

    def vote(self, voter: int, target: int) -> None:
        """``voter`` votes to hand ``target`` to a bot; carried, a bot plays it at once.
        Raises ``TableError`` for a vote refused (then nothing changed)."""
        if handover.cast(self.seats.all, voter, target):
            self.hand_to_bot(target)

    def voter_left(self, voter: int) -> None:
        """``voter``'s seat lost its last connection: its votes go, and any vote that
        carries among the voters left hands its seat over."""
        for index in handover.forget_voter(self.seats.all, voter):
            self.hand_to_bot(index)

    def hand_to_bot(self, index: int) -> None:
        """The vote carried: a bot plays seat ``index`` from now until its player returns
        (a decision it has now is the bot's, started afresh)."""
        self.seats[index].hand_to_bot()
        self.turns.bot_for(index)
        self.turns.restart(self.game, self.seats, index)
        log.info("table %s: a bot plays seat %d by the players' vote", self.table_id, index,
                 extra={"event": "bot_vote", "table": self.table_id})

    def back(self, seat: int) -> None:
        """The seat's player is back from a bot: a fresh decision and timer for them."""
        self.turns.restart(self.game, self.seats, seat)

    def changed(self, acted: int | None) -> None:
        """After a change: the next decisions' timers and bot moves, or none at the end."""
        if self.game.is_over():
            self.turns.stop_all()
        else:
            self.turns.sync(self.game, self.seats, acted)

    # ------------------------------------------------------------ the end

    def ended(self, reason: EndReason | None) -> EndOfGame:
        """The game's end as everyone is told it: why (None: it finished), the seed
        revealed, the result if the game finished, and where its record is."""
        game = self.game
        result = game.view(None).result if game.is_over() else None
        return EndOfGame(self.table_id, reason or EndReason.FINISHED, seed_to_hex(game.seed),
                         game.fingerprint, self.seats.seat_seeds(), result,
                         f"/games/{self.table_id}.json", list(self.hints), game.algorithm)

    def record(self, reason: EndReason | None) -> GameRecord:
        """The game's record (it holds the seed: for the end, or the server's archive)."""
        return self.game.record(game=self.table_id, end_reason=reason, ended_at=time.time(),
                                hints=self.hints, rated=self.rated)
