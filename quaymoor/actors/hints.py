"""Hints: what the hard bot would do now, and why, for a seat whose every opponent is a
bot, or at a table whose every player agreed to hints.

A seat asks with ``hint``; the table checks it may (``refusal``): the game is being
played, the seat is deciding, and every other seat is a bot's own chair, or the table was
opened with hints for everyone (``create``'s ``hints``: the lobby shows it before anyone
joins, so joining is agreeing; a rematch keeps it). A table with another person and no
such agreement plays without hints, so that nobody gets help the others do not. The
search runs off the table's loop (``think``: the bot pool's worker processes, or the
heuristic at once when they are busy), and its answer comes back to the table's inbox
(``inbox.HintReady``); it is sent only if the decision is still the one asked about, and
then counted: ``given`` per seat goes into the record and ``game_ended``. A second ask for
the same decision while one is being worked out waits for that one; after it, it is
answered again from the last answer, counted once.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable

import trio

from quaymoor.actors import inbox
from quaymoor.actors.connection import Connection
from quaymoor.actors.lobby import Seats
from quaymoor.protocol.codec import unstructure_with
from quaymoor.protocol.messages import HintGiven
from quaymoor.rules.actions import Action
from quaymoor.rules.game import Game
from quaymoor.rules.views import SeatView

#: What works a hint out: the action, its words, why.
Thinker = Callable[[SeatView], Awaitable[tuple[Action, str, str]]]


class Hints:
    """One table's hints: who asked, what was answered, how many each seat was given."""

    def __init__(self, players: int, to_table: trio.MemorySendChannel[inbox.InboxMessage],
                 think: Thinker | None, *, agreed: bool = False, rated: bool = False) -> None:
        self.given = [0] * players
        #: a rated table: nobody gets hints
        self.rated = rated
        #: every player agreed to hints (the table was opened with them): people too
        #: may sit at it, and every seat may ask
        self.agreed = agreed
        self._to_table = to_table
        self._think = think
        self._nursery: trio.Nursery | None = None
        #: per seat, the version being worked out and the connections waiting for it
        self._pending: dict[int, tuple[int, list[Connection]]] = {}
        #: per seat, the last answer: (version, action, words, why)
        self._last: dict[int, tuple[int, Action, str, str]] = {}

    def attach(self, nursery: trio.Nursery) -> None:
        self._nursery = nursery

    @property
    def enabled(self) -> bool:
        """Whether this table can work hints out (a server with a bot pool)."""
        return self._think is not None

    def refusal(self, game: Game | None, seats: Seats, seat: int | None) -> str | None:
        """Why ``seat`` may not have a hint now (None: it may)."""
        if seat is None:
            return "a spectator gets no hints @ $.type"
        if self.rated:
            return "a rated game is played without hints @ $.type"
        if not self.agreed and any(not s.bot for s in seats.all if s.index != seat):
            return ("hints are for a table where every other seat is a bot, or one opened "
                    "with hints for everyone: with another person at the table, nobody gets "
                    "help the others do not @ $.type")
        if game is None or game.is_over():
            return "there is no decision to give a hint for @ $.type"
        if seat not in game.deciding():
            return "it is not your decision: a hint is for your own decision @ $.type"
        return None

    def ask(self, connection: Connection, seat: int,
            view: SeatView) -> tuple[Action, str, str] | None:
        """``seat`` asks at ``view``: the last answer when it is for this decision (counted
        already), else None and the search is started (unless it already runs)."""
        last = self._last.get(seat)
        if last is not None and last[0] == view.version:
            return last[1], last[2], last[3]
        pending = self._pending.get(seat)
        if pending is not None and pending[0] == view.version:
            if connection not in pending[1]:
                pending[1].append(connection)
            return None
        self._pending[seat] = (view.version, [connection])
        assert self._nursery is not None and self._think is not None
        self._nursery.start_soon(self._work, seat, view)
        return None

    def ready(self, seat: int, version: int, answer: tuple[Action, str, str],
              current: int) -> list[Connection]:
        """An answer came back: the connections to send it to (none when the seat has
        moved on from ``version``: the table is at ``current``); kept and counted once."""
        pending = self._pending.get(seat)
        waiting: list[Connection] = []
        if pending is not None and pending[0] == version:
            waiting = pending[1]
            del self._pending[seat]
        if version != current or not waiting:
            return []
        self._last[seat] = (version, *answer)
        self.given[seat] += 1
        return waiting

    async def _work(self, seat: int, view: SeatView) -> None:
        assert self._think is not None
        answer = await self._think(view)
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
            # (the table may have closed meanwhile)
            await self._to_table.send(inbox.HintReady(seat, view.version, answer))


def hint_message(version: int, answer: tuple[Action, str, str]) -> HintGiven:
    """The ``hint`` message of an answer."""
    action, words, why = answer
    return HintGiven(version, unstructure_with(action, Action), words, why)


__all__ = ["Hints", "Thinker", "hint_message"]
