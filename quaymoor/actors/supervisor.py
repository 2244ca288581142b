"""The supervisor: starts, lists and ends tables, each in a task tree of its own.

A table whose code raises ends alone: its connections are told (close code 4001 and a
``game_ended`` message with the seed), its record is kept, the error is logged and
counted; every other table goes on. ``except Exception`` around each table's own run
isolates its crash and still lets cancellation (``trio.Cancelled``, a BaseException)
through.

Every record (finished, crashed, shut down, or cancelled with the server) goes to the
archive when there is one (``quaymoor.store.archive``); ``records`` keeps only the last few in
memory. ``shutdown`` waits for the archive's writes before it returns. While the archive's
disk fails its records wait in memory (``store.archive``); past its limit of waiting records
no new table opens (``SERVER_FULL``), so that what waits stays bounded.
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs
import trio

from quaymoor.actors.analyst import Analyst, Answer
from quaymoor.actors.bot_pool import BotPool
from quaymoor.actors.directory import LocalDirectory, TableDirectory
from quaymoor.actors.inbox import (
    AccountGone,
    Commit,
    InboxMessage,
    Join,
    JoinResult,
    RematchFailed,
    RematchReady,
    Reply,
    Reveal,
    Shutdown,
    Start,
    TableError,
    table_closed,
)
from quaymoor.actors.lobby import clean_name
from quaymoor.actors.table import Table, TableState
from quaymoor.bots import LEVELS, LOBBY_LEVELS
from quaymoor.config import TableConfig
from quaymoor.ops.metrics import Metrics
from quaymoor.protocol.codes import Close, Code
from quaymoor.protocol.pace import DEFAULT_PACE, pace_names, parse_pace
from quaymoor.rules.data import MAX_PLAYERS, MIN_PLAYERS
from quaymoor.rules.record import EndReason, GameRecord
from quaymoor.store.analyses import MemoryAnalyses
from quaymoor.store.archive import Archive
from quaymoor.store.memory_store import MemoryStore
from quaymoor.store.removed_names import without_names

#: Tables summarised for /status.json between two checkpoints (about 2 ms of work).
STATUS_SLICE = 64
#: The status page's headline: tables (waiting for players, playing, and those whose game
#: ended, lingering), connections, games finished. Summed over a cluster's live processes.
HEADLINE_FIGURES = ("tables", "playing", "waiting", "connections", "games_finished")
#: What the lobby's list says of each table.

if TYPE_CHECKING:
    from quaymoor.store.pg_archive import PgArchive

log = logging.getLogger("quaymoor.supervisor")
#: The bots' levels ``create_table`` takes (the lobby offers ``LOBBY_LEVELS``; "random"
#: is for tests and benchmarks), for the HTTP API's document (``http`` imports no bots).
BOT_LEVELS: tuple[str, ...] = LEVELS

#: Records kept in memory (the archive keeps them all).
RECENT_RECORDS = 200


@attrs.frozen
class Crash:
    table: str
    error: str
    at: float


class Supervisor:
    """Owns every table of this process."""

    def __init__(
        self,
        config: TableConfig,
        *,
        max_tables: int = 5000,
        archive: Archive | PgArchive | None = None,
        metrics: Metrics | None = None,
        bot_pool: BotPool | None = None,
    ) -> None:
        self.config = config
        self.metrics = metrics if metrics is not None else Metrics()
        self.bots = bot_pool if bot_pool is not None else BotPool()
        self.max_tables = max_tables
        self.archive = archive
        if archive is not None:
            self.metrics.watch_archive(lambda: archive.health().as_json())
        self.tables: dict[str, Table] = {}
        #: the last finished and ended games, by table id (all of them: ``archive``)
        self.records: dict[str, GameRecord] = {}
        #: the account at each seat of a game in ``records`` (None: a guest or a bot), so
        #: that a deleted account's name leaves them too (``account_gone``)
        self.record_accounts: dict[str, tuple[str | None, ...]] = {}
        self.crashes: deque[Crash] = deque(maxlen=50)
        self.crash_count = 0
        self.games_finished = 0
        self.started_at = time.time()
        self.connections = 0
        self._nursery: trio.Nursery | None = None
        #: In a cluster: two hex digits that begin every table id of this process, so
        #: that HAProxy sends every request about a table to its process (docs/deploy.md).
        self.table_prefix = ""
        #: which table lives where: this process alone, or every process of a cluster
        #: (``cluster.member.join_cluster`` puts the shared one here)
        self.directory: TableDirectory = LocalDirectory(self.lobby_json)
        self.draining = False  #: no new tables: the games play out, then the process exits
        #: the post-game analyses computed here (kept with the archive, or in memory)
        self.analyst = Analyst(archive.analyses if archive is not None else MemoryAnalyses())
        #: accounts, ratings and players' games: the archive's database, or in memory
        self.players: Archive | PgArchive | MemoryStore = (
            archive if archive is not None else MemoryStore())

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            task_status.started()
            await trio.sleep_forever()

    # ------------------------------------------------------------ tables

    async def create_table(
        self, players: int, bots: str = "normal", *, held: dict[int, str] | None = None,
        rematch_of: str | None = None, host: int | None = None, pace: str = DEFAULT_PACE,
        hints: bool = False, rated: bool = False,
        held_accounts: dict[int, str | None] | None = None,
    ) -> Table:
        """Open a table for ``players`` seats; empty chairs get ``bots`` (easy, normal,
        hard, expert) when it starts, playing at ``pace`` (people, steady, fast); ``hints``:
        every player may ask for hints (``actors.hints``: joining is agreeing). A rematch holds
        its players' chairs (``held``: names by seat) from the start (``actors.rematch``),
        and its ``host`` is the seat that asked for it (otherwise the first to join).
        ``rated``: a rated game (only players signed in join; no hints, so not with
        ``hints``); a rated rematch holds its chairs for the same accounts
        (``held_accounts``)."""
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise TableError(
                Code.BAD_PLAYERS, f"a table seats {MIN_PLAYERS} to {MAX_PLAYERS} @ $.players")
        if bots not in LEVELS:
            raise TableError(Code.BAD_BOTS, f"bots are {', '.join(LOBBY_LEVELS)} @ $.bots")
        if rated and hints:
            raise TableError(Code.RATED_HINTS, "a rated table gives no hints: choose one "
                                               "@ $.hints")
        chosen = parse_pace(pace)
        if chosen is None:
            raise TableError(Code.BAD_PACE, f"the pace is {pace_names()} @ $.pace")
        if self.draining:
            raise TableError(Code.SERVER_FULL, "this server is draining for a deploy: it "
                                               "takes no new tables (try again)")
        if len(self.tables) >= self.max_tables:
            raise TableError(Code.SERVER_FULL, "the server holds as many tables as it can")
        if self.archive is not None and (health := self.archive.health()).full:
            raise TableError(Code.SERVER_FULL, (
                f"the archive is failing: {health.pending} finished games wait to be written;"
                " no new tables until they are (try again)"))
        assert self._nursery is not None
        table_id = self._new_id()
        while table_id in self.tables or (
            self.archive is not None and await self.archive.has(table_id)
        ):  # never reuse an archived game's id
            table_id = self._new_id()
        pool = self.bots
        table = Table(table_id, players, self.config, on_record=self._keep_record,
                      metrics=self.metrics, bot_factory=lambda: pool.chooser(bots),
                      hint_thinker=pool.hint,
                      on_rematch=self._open_rematch, held=held, rematch_of=rematch_of,
                      host=host, pace=chosen, hints=hints, rated=rated,
                      held_accounts=held_accounts)
        table.bot_level = bots
        self.tables[table_id] = table
        table.on_change = self.directory.progressed
        self.directory.opened(table)
        await self._nursery.start(self._run_table, table)
        return table

    def _new_id(self) -> str:
        """Ten hex digits: the process's prefix (in a cluster), then random ones."""
        return self.table_prefix + secrets.token_hex(5)[len(self.table_prefix):]

    async def _run_table(
        self, table: Table, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED
    ) -> None:
        try:
            await table.run(task_status=task_status)
        except Exception as exc:
            self.crash_count += 1
            self.metrics.table_crashes.inc()
            text = f"{type(exc).__name__}: {exc}"
            self.crashes.append(Crash(table.id, text, time.time()))
            log.exception("table %s crashed", table.id,
                          extra={"event": "table_crashed", "table": table.id})
            table.crash = text
            table.shutdown_now(EndReason.CRASHED, Close.TABLE_CRASHED)
        finally:
            if table.state is TableState.PLAYING:  # cancelled with the server: keep the game
                table.shutdown_now(EndReason.SHUTDOWN, Close.SHUTDOWN)
            self.tables.pop(table.id, None)
            table.refuse_pending()
            table.release()
            self.directory.closed(table)

    def _keep_record(self, table: Table) -> None:
        record = table.record()
        if record is not None:
            who = table.accounts()
            self.records.pop(table.id, None)
            self.records[table.id] = record
            self.record_accounts[table.id] = tuple(s.account_id for s in who.seats)
            while len(self.records) > RECENT_RECORDS:
                oldest = next(iter(self.records))
                del self.records[oldest]
                self.record_accounts.pop(oldest, None)
            if table.end_reason is EndReason.FINISHED:
                self.games_finished += 1
                self.metrics.games_finished.inc()
            self.players.submit(table.id, record, who)

    def _open_rematch(self, table: Table, humans: dict[int, str], host: int) -> None:
        """From a finished table's actor: open its rematch table in the background (its
        host: ``host``, the seat that asked); the answer reaches the old table's inbox."""
        assert self._nursery is not None
        self._nursery.start_soon(self._make_rematch, table, humans, host)

    async def _make_rematch(self, old: Table, humans: dict[int, str], host: int) -> None:
        answer: InboxMessage
        try:
            new = await self.create_table(old.players, old.bot_level, held=humans,
                                          rematch_of=old.id, host=host, pace=old.turns.pace,
                                          hints=old.hints.agreed, rated=old.rated,
                                          held_accounts={i: old.seats[i].account
                                                         for i in humans})
        except TableError as exc:
            answer = RematchFailed(exc.code, f"no rematch table could be opened: {exc.message}")
        else:
            tokens = {i: token for i in humans if (token := new.seats[i].token) is not None}
            answer = RematchReady(new.id, new.fingerprint, tokens)
            log.info("table %s: rematch at %s", old.id, new.id,
                     extra={"event": "rematch", "table": old.id})
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
            await old.inbox.send(answer)  # a closed old table: the new one waits as any does

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise TableError(Code.UNKNOWN_TABLE, f"no table {table_id!r} is open")
        return table

    async def ask(self, table: Table, message: InboxMessage, reply: Reply) -> object:
        """Send a request to a table's inbox and wait for its answer. A table that closes
        meanwhile answers ``table_closed``."""
        try:
            await table.inbox.send(message)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            raise table_closed() from None
        return await reply.wait()

    async def join(self, table_id: str, name: str, account: str | None = None) -> JoinResult:
        """Seat ``name`` at the table, signed in to ``account`` (None: a guest; a rated
        table takes only accounts). No commitment yet: the answer shows the fingerprint
        first, then the seat sends its commitment with ``commit``."""
        reply = Reply()
        table = self.get(table_id)
        result = await self.ask(table, Join(name, reply, account), reply)
        assert isinstance(result, JoinResult)
        self.directory.changed(table)
        return result

    async def account_gone(self, account: str) -> int:
        """An account was deleted: its seats at this process's tables, running or ended
        and lingering, show no name from now on (``Table``'s ``AccountGone``), nor in the
        records this process keeps in memory (a server without an archive serves them;
        an archive's are rewritten in the deletion's transaction); how many."""
        changed = 0
        for game_id, accounts in list(self.record_accounts.items()):
            kept = self.records.get(game_id)
            seats = [i for i, a in enumerate(accounts) if a == account]
            renamed = None if kept is None or not seats else without_names(kept, seats)
            if renamed is not None:
                self.records[game_id] = renamed
                if isinstance(self.analyst.store, MemoryAnalyses):
                    self.analyst.store.rename(game_id, renamed)
                changed += 1
        for table in list(self.tables.values()):
            if not any(s.account == account and not s.name_removed for s in table.seats):
                continue
            reply = Reply()
            try:
                done = await self.ask(table, AccountGone(account, reply), reply)
            except TableError:  # closed meanwhile: nothing of it is shown any more
                continue
            assert isinstance(done, int)
            changed += done
            self.directory.changed(table)
        return changed

    async def commit(self, table_id: str, token: str, commitment: object) -> None:
        """The commitment of the seat holding ``token`` to its client seed, as the client
        sent it (the table checks it): once per seat, before the start."""
        reply = Reply()
        await self.ask(self.get(table_id), Commit(token, commitment, reply), reply)

    async def start(self, table_id: str, token: str) -> list[str | None]:
        """Start the table; returns the commitments the start fixed, per seat."""
        reply = Reply()
        fixed = await self.ask(self.get(table_id), Start(token, reply), reply)
        assert isinstance(fixed, list)
        return fixed

    async def reveal(self, table_id: str, token: str, client_seed: object) -> None:
        """The client seed behind the seat's commitment, once the start has fixed every
        commitment (the table checks it against the commitment)."""
        reply = Reply()
        await self.ask(self.get(table_id), Reveal(token, client_seed, reply), reply)

    async def play_now(
        self, players: int, name: str, bots: str = "normal", pace: str = DEFAULT_PACE,
        *, account: str | None = None, rated: bool = False,
    ) -> tuple[Table, JoinResult]:
        """A table with the player in seat 0 (its host), not started: the player sees the
        fingerprint, sends a commitment (``commit``), starts it (``start``: bots take every
        other chair) and reveals its seed (``reveal``). A name the table would refuse is
        refused before any table is made, so that a refusal changes nothing (and leaves no
        table behind)."""
        if not isinstance(name, str) or not clean_name(name):
            raise TableError(Code.BAD_NAME, "a name is needed @ $.name")
        if rated and account is None:
            raise TableError(Code.SIGNED_OUT, "a rated table needs you signed in @ $.rated")
        table = await self.create_table(players, bots, pace=pace, rated=rated)
        joined = await self.join(table.id, name, account)
        return table, joined

    def drain(self) -> int:
        """Take no new tables, and close every table still waiting for its players (its
        players told: ``Table.UNSTARTED_CLOSED``), so that only games being played keep
        the process: it exits once they end. Returns how many waiting tables closed."""
        self.draining = True
        closed = 0
        for table in list(self.tables.values()):
            if table.state is TableState.WAITING:
                try:
                    table.inbox.send_nowait(Shutdown(EndReason.SHUTDOWN))
                except (trio.WouldBlock, trio.ClosedResourceError):
                    table.shutdown_now(EndReason.SHUTDOWN, Close.SHUTDOWN)
                closed += 1
        return closed

    async def analysis(self, game_id: str, record: GameRecord) -> Answer:
        """A finished game's analysis, its progress, or its start (``actors.analyst``);
        raises ``analyst.Busy`` when too many are waiting here."""
        assert self._nursery is not None, "the supervisor is not running"
        return await self.analyst.ask(game_id, record, self._nursery)

    async def shutdown(self, reason: EndReason = EndReason.SHUTDOWN) -> None:
        """End every game (players told, seeds revealed, records kept) and wait until the
        archive has written every record."""
        for table in list(self.tables.values()):
            try:
                table.inbox.send_nowait(Shutdown(reason))
            except (trio.WouldBlock, trio.ClosedResourceError):
                table.shutdown_now(reason, Close.SHUTDOWN)
        with trio.move_on_after(5):
            while self.tables:
                await trio.sleep(0.01)
        for table in list(self.tables.values()):
            table.shutdown_now(reason, Close.SHUTDOWN)
        if self.archive is not None:
            await self.archive.flush()

    # ------------------------------------------------------------ status

    async def status_json(self) -> bytes:
        """The status page's data, ``summary()`` and the last minute's figures, as JSON;
        ``totals``, the page's headline, are this process's (a cluster's process replaces
        them with the sums over the live processes: ``member.cluster_totals``)."""
        tables = await self._tables_json(lambda table: table.status_texts.status(table))
        rest = {**self.summary(tables=False), "live": self.metrics.live(),
                "totals": {"scope": "process", "processes": 1, **self.headline()}}
        return ('{"tables": ' + tables + ", " + json.dumps(rest)[1:]).encode()

    async def lobby_json(self) -> bytes:
        """This process's tables as the lobby lists them (``GET /api/tables`` answers
        ``directory.lobby_json``: in a cluster, every process's), as JSON."""
        tables = await self._tables_json(lambda table: table.status_texts.lobby_entry(table))
        return ('{"tables": ' + tables + "}").encode()

    async def _tables_json(self, text: Callable[[Table], str]) -> str:
        """A JSON list of ``text(table)`` for every table, built a slice of tables at a
        time with a checkpoint between slices: at 2,500 tables the whole list took
        80-130 ms, and in one step that stalled every game for as long each time."""
        parts: list[str] = []
        for i, table in enumerate(list(self.tables.values())):
            if i and i % STATUS_SLICE == 0:
                await trio.lowlevel.checkpoint()
            parts.append(text(table))
        return "[" + ", ".join(parts) + "]"

    def headline(self) -> dict[str, int]:
        """The status page's headline figures (``HEADLINE_FIGURES``), this process's."""
        states = [t.state for t in self.tables.values()]
        return {"tables": len(states), "playing": states.count(TableState.PLAYING),
                "waiting": states.count(TableState.WAITING),
                "connections": self.connections, "games_finished": self.games_finished}

    def summary(self, *, tables: bool = True) -> dict[str, Any]:
        """Public facts about the tables and connections now (no hidden information);
        ``tables=False`` leaves out the list of tables."""
        return {
            "uptime_seconds": round(time.time() - self.started_at, 1),
            **({"tables": [t.summary() for t in self.tables.values()]} if tables else {}),
            "table_count": len(self.tables),
            "connections": self.connections,
            "games_finished": self.games_finished,
            "crash_count": self.crash_count,
            "crashes": [attrs.asdict(c) for c in self.crashes],
            "archive": None if self.archive is None else self.archive.health().as_json(),
        }
