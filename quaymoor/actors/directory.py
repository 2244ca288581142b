"""Which table lives where, and which died: what the supervisor, the gateway and the lobby
API know of tables beyond this process's own, behind one interface.

This process tells the directory about each of its tables as it happens (opened, and by
which client address; changed; progressed; closed). The others ask it: how many open
tables an address holds on other processes (the cap on open tables per address), the
``game_ended`` of a table whose process died (``ended_elsewhere``, from its archived
record), whether such a table is still in the lobby while a survivor archives it
(``live_elsewhere``), and the lobby's list of tables.

``LocalDirectory`` is one process's: there is nothing elsewhere, so what it is told it
needs to keep nowhere (the supervisor holds the tables) and every answer about elsewhere
is empty; its lobby is this process's tables. A cluster's is
``quaymoor.cluster.shared_tables.SharedTables`` (PostgreSQL), which
``cluster.member.join_cluster`` gives the supervisor in place of the local one.
"""

from __future__ import annotations

import abc
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import attrs

from quaymoor.protocol.messages import EndOfGame
from quaymoor.rules.fairness import seed_to_hex
from quaymoor.rules.record import EndReason, GameRecord, RecordedAction
from quaymoor.store.ratings import GameAccounts

if TYPE_CHECKING:
    from quaymoor.actors.table import Table


@attrs.frozen
class Start:
    """What a game's start fixes, as a store keeps it: the seed (hex), the client seeds,
    each seat's seed, the seats (name, bot, commitment: its deal, ``fairness.Deal``) and
    the algorithm that dealt it (``fairness.DEALT_ALGORITHMS``)."""

    seed: str
    client_seeds: list[str]
    seat_seeds: list[str | None]
    seats: list[dict[str, Any]]
    algorithm: str


@attrs.frozen
class News:
    """What a store has not been given yet of one table's game: its ``start`` (once, else
    None) and the actions after the first ``done``."""

    start: Start | None
    done: int
    actions: list[RecordedAction]
    #: per seat, the hints given so far, when that changed since the last news (else None)
    hints: list[int] | None = None
    #: who sits where (accounts, bot levels, who left), when that changed since the last
    #: news and some seat is an account's (else None)
    accounts: GameAccounts | None = None


class GameProgress:
    """How much of each table's game a directory has passed on to its store: the start
    once, then each new action (the shared tables' and the single process's live store)."""

    def __init__(self) -> None:
        self._done: dict[str, int] = {}  #: table id -> actions passed on so far
        self._hints: dict[str, list[int]] = {}  #: table id -> hints passed on so far
        self._accounts: dict[str, GameAccounts] = {}  #: table id -> who sat where, passed on

    def news(self, table: Table) -> News | None:
        """What is new since the last call for ``table``; None before its game starts."""
        game = table.game
        if game is None:
            return None
        done = self._done.get(table.id)
        start = None
        if done is None:
            start = Start(seed_to_hex(game.seed), list(game.client_seeds),
                          table.seats.seat_seeds(),
                          [{"name": s.display_name, "bot": s.bot, "commitment": s.commitment}
                           for s in table.seats], game.algorithm)
            done = 0
        self._done[table.id] = len(game.history)
        given = table.hints.given
        hints = None
        if any(given) and self._hints.get(table.id) != given:
            hints = self._hints[table.id] = list(given)
        who: GameAccounts | None = table.accounts()
        if who is not None and (not who.any_account() or self._accounts.get(table.id) == who):
            who = None
        elif who is not None:
            self._accounts[table.id] = who
        return News(start, done, game.history[done:], hints, who)

    def forget(self, table_id: str) -> bool:
        """The table closed: True when its game had started (something was passed on)."""
        self._hints.pop(table_id, None)
        self._accounts.pop(table_id, None)
        return self._done.pop(table_id, None) is not None


class TableDirectory(abc.ABC):
    """The tables of every process, as this one tells and asks about them. The ``told``
    methods return at once (they are called on a table's actor); the questions may read a
    database off the event loop."""

    # ------------------------------------------------------------ told

    @abc.abstractmethod
    def opened(self, table: Table) -> None:
        """``table`` opened on this process (before its actor runs)."""

    @abc.abstractmethod
    def created_by(self, table: Table, address: str) -> None:
        """``address`` opened ``table`` (after ``opened``): the cap on open tables per
        address counts it on every other process from then on."""

    @abc.abstractmethod
    def changed(self, table: Table) -> None:
        """Seats or state changed (a join, the game's end)."""

    @abc.abstractmethod
    def progressed(self, table: Table) -> None:
        """The game started or moved on (the table's ``on_change``, after each change)."""

    @abc.abstractmethod
    def closed(self, table: Table) -> None:
        """The table left this process (its record, if any, was archived before)."""

    # ------------------------------------------------------------ asked

    @abc.abstractmethod
    async def open_elsewhere(self, address: str) -> int:
        """Open tables (waiting or playing) that ``address`` holds on the other processes.
        Raises ``ArchiveError`` when that cannot be read."""

    @abc.abstractmethod
    async def archived_elsewhere(self, table_id: str) -> GameRecord | None:
        """The record of a table that is not this process's, once its game is archived
        (its process stopped), or None."""

    async def ended_elsewhere(self, table_id: str) -> EndOfGame | None:
        """The ``game_ended`` message of such a table (``archived_elsewhere``), as its own
        table would have sent it, or None."""
        record = await self.archived_elsewhere(table_id)
        return None if record is None else _game_ended(table_id, record)

    @abc.abstractmethod
    async def live_elsewhere(self, table_id: str) -> bool:
        """Whether a table that is not this process's is still in the lobby (its process
        died and a survivor has not archived its game yet)."""

    @abc.abstractmethod
    async def lobby_json(self) -> bytes:
        """The lobby's list of tables (``GET /api/tables``) as JSON. May raise
        ``ArchiveError`` when it cannot be read."""


def _game_ended(table_id: str, record: GameRecord) -> EndOfGame:
    """The ``game_ended`` message of an archived game (a reason this server does not know
    reads as a shutdown)."""
    try:
        reason = EndReason(record.reason)
    except ValueError:
        reason = EndReason.SHUTDOWN
    seat_seeds: list[str | None] = (
        record.seat_seeds if record.seat_seeds is not None else list(record.client_seeds))
    return EndOfGame(table_id, reason, record.seed, record.fingerprint, seat_seeds,
                     record.result, f"/games/{table_id}.json", [s.hints for s in record.seats],
                     record.algorithm)


class LocalDirectory(TableDirectory):
    """One process: no table lives elsewhere. ``here`` is this process's lobby list
    (``Supervisor.lobby_json``)."""

    def __init__(self, here: Callable[[], Awaitable[bytes]]) -> None:
        self._here = here

    def opened(self, table: Table) -> None:
        """Nothing to tell: the supervisor holds its tables."""

    def created_by(self, table: Table, address: str) -> None:
        """Nothing to tell: the quota counts this process's tables itself."""

    def changed(self, table: Table) -> None:
        """Nothing to tell: the lobby list is read from the tables."""

    def progressed(self, table: Table) -> None:
        """Nothing to tell: no other process replays this one's games."""

    def closed(self, table: Table) -> None:
        """Nothing to tell: the supervisor drops the table itself."""

    async def open_elsewhere(self, address: str) -> int:
        return 0

    async def archived_elsewhere(self, table_id: str) -> GameRecord | None:
        return None

    async def live_elsewhere(self, table_id: str) -> bool:
        return False

    async def lobby_json(self) -> bytes:
        return await self._here()
