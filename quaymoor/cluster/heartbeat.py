"""A process's membership of the cluster, through its row in ``processes``.

Every ``BEAT_SECONDS`` the process refreshes its heartbeat with its figures (tables,
connections, p99s, RSS, draining), which renews its lease (``lease``: the window, and why no
live process is reaped), reads whether an operator asked it to drain (``quaymoor drain``
sets the flag) and whether it was taken for dead (then it stops: ``fencing``), and, once
its own lease has been renewed without a gap for a whole window, looks for dead
processes: one whose heartbeat is older than the window (SIGKILL, a lost host) is claimed
by exactly one survivor (an ``UPDATE ... WHERE stopped_at IS NULL`` that only one can win;
it waits for the share lock each batch of the dead one's writer takes on its row, so
nothing of the dead one's lands after the claim), which ends each of its
running games as "shutdown" (the server stopped): it replays the actions the dead process
had written, adds the seed from ``operators.table_seeds`` and archives the record, which a
verifier accepts like any other, and logs the games it ended. Its tables that had not
started are dropped. While beats fail the tables are paused (``fencing``).

A draining process takes no new tables and closes those still waiting for players, their
players told (``Supervisor.drain``: an unstarted table must not pin the process for its
lobby's hour), and, once none of its tables is playing, sets ``drained``: ``run_server``
then exits as after a signal. ``leave`` marks the row stopped at a clean exit and drops
its live rows.
"""

from __future__ import annotations

import contextlib
import logging
import os
from typing import Any, Final

import trio
from psycopg.types.json import Jsonb

from quaymoor.actors.supervisor import Supervisor
from quaymoor.actors.table import TableState
from quaymoor.cluster.fencing import Fencing, LeaseCollector
from quaymoor.cluster.lease import Lease, LeaseTimings
from quaymoor.store.archive import ArchiveError
from quaymoor.store.live_games import LiveGame, actions_from_rows, ended_record
from quaymoor.store.pg_archive import PgArchive
from quaymoor.store.pg_lobby import Closed
from quaymoor.store.ratings import GameAccounts

log = logging.getLogger("quaymoor.cluster")

BEAT_SECONDS: Final = 1.0
#: Live rows of a process stopped this long ago are ended by whoever sees them.
ORPHAN_SECONDS: Final = 30.0


def process_figures(supervisor: Supervisor) -> dict[str, Any]:
    """What the operators' page shows of this process (no hidden information)."""
    live = supervisor.metrics.live()
    return {
        "tables": len(supervisor.tables),
        "playing": sum(t.state is TableState.PLAYING for t in supervisor.tables.values()),
        "waiting": sum(t.state is TableState.WAITING for t in supervisor.tables.values()),
        "connections": supervisor.connections,
        "action_p99_ms": live["action_latency_ms"]["p99"],
        "loop_lag_p99_ms": live["event_loop_lag_ms"]["p99"],
        "rss_bytes": live["rss_bytes"],
        "draining": supervisor.draining,
        "games_finished": supervisor.games_finished,
    }


class TakenForDead(ArchiveError):
    """This process's row was stopped by another (it was taken for dead): it stopped
    serving, and exits (the cluster starts another in its place)."""


class Membership:
    """This process (``name``, a new ``instance`` id per start) in ``processes``, its
    heartbeat renewing its lease (``timings``)."""

    def __init__(self, store: PgArchive, name: str, supervisor: Supervisor,
                 timings: LeaseTimings | None = None) -> None:
        self.store = store
        self.name = name
        self.instance = store.instance
        self.supervisor = supervisor
        self.drained = trio.Event()
        self.lease = Lease(timings or LeaseTimings(), trio.current_time)
        self.fencing = Fencing(supervisor, store, self.lease)
        self._reaping = False  #: a reap is running (beside the beats)
        supervisor.metrics.registry.register(LeaseCollector(self.fencing))

    @property
    def window(self) -> float:
        """A heartbeat older than this means the process is dead (``lease``)."""
        return self.lease.timings.window

    @property
    def reaped(self) -> int:
        """Games of dead processes this one has archived."""
        return self.fencing.reaped

    async def join(self, address: str) -> None:
        """This process's row. Raises ``ArchiveError`` when a live process holds the slot
        already: two processes with one slot would make each other's table ids."""
        taken = await self.store.read(
            "SELECT address, pid FROM processes WHERE name = %s AND stopped_at IS NULL"
            " AND beat_at > now() - make_interval(secs => %s)", self.name, self.window)
        if taken:
            raise ArchiveError(f"slot {self.name} is held by a live process ({taken[0][0]}, "
                               f"pid {taken[0][1]}): give this one another --slot")
        started = trio.current_time()
        await self.store.read(
            "INSERT INTO processes (instance, name, address, pid) VALUES (%s, %s, %s, %s)"
            " RETURNING instance", self.instance, self.name, address, os.getpid())
        self.lease.renewed(started)  # the row's first beat

    async def set_address(self, address: str) -> None:
        await self.store.read("UPDATE processes SET address = %s WHERE instance = %s"
                              " RETURNING instance", address, self.instance)

    async def run(self) -> None:
        """Beat (renewing the lease), follow the drain flag, end the games of dead
        processes once the lease allows it; until this process is taken for dead."""
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self.fencing.watch)
            await self._beat_until_taken(nursery)
            nursery.cancel_scope.cancel()

    async def _beat_until_taken(self, nursery: trio.Nursery) -> None:
        """The beats, one a second; a reap runs beside them (one at a time), so that
        ending many games never delays this process's own lease."""
        failing = False
        while not self.fencing.taken.is_set():
            started = trio.current_time()
            try:
                await self.beat()
                if self.fencing.taken.is_set():
                    return
                self.lease.renewed(started)
                self.fencing.renewed()
                failing = False
                if self.lease.may_reap() and not self._reaping:
                    self._reaping = True
                    nursery.start_soon(self._reap)
            except ArchiveError as exc:  # the database is away: try again at the next beat
                self.lease.failed()
                if not failing:  # once per outage, not every second
                    log.warning("heartbeat: %s", exc, extra={"event": "heartbeat_failed"})
                failing = True
            except Exception:  # a bug here must not stop this process's games too
                self.lease.failed()
                log.exception("heartbeat failed")
            if self.supervisor.draining and not any(
                    t.state in (TableState.WAITING, TableState.PLAYING)
                    for t in self.supervisor.tables.values()):
                self.drained.set()
            await trio.sleep(BEAT_SECONDS)

    async def _reap(self) -> None:
        try:
            await self.reap_dead()
        except ArchiveError as exc:  # the database is away: the next beat tries again
            log.warning("reaping: %s", exc, extra={"event": "reap_failed"})
        except Exception:  # a bug here must not stop this process's games too
            log.exception("reaping failed")
        finally:
            self._reaping = False

    async def beat(self) -> None:
        rows = await self.store.read(
            "UPDATE processes SET beat_at = now(), stats = %s WHERE instance = %s"
            " RETURNING draining, stopped_at, stopped_by",
            Jsonb(process_figures(self.supervisor)), self.instance)
        if not rows or rows[0][1] is not None or self.store.fenced:
            await self.fencing.taken_for_dead(str(rows[0][2]) if rows else None)
            return
        await self._names_of_deleted_accounts()
        if rows and rows[0][0] and not self.supervisor.draining:
            closed = self.supervisor.drain()
            log.info("process %s: draining (no new tables, %d waiting tables closed; exits "
                     "when its games end)", self.name, closed,
                     extra={"event": "draining", "waiting_closed": closed})

    async def _names_of_deleted_accounts(self) -> None:
        """Accounts deleted through another process: their seats at this one's tables show
        no name from now on (``Supervisor.account_gone``, as the deleting process does at
        once with its own)."""
        seated = sorted({s.account for t in self.supervisor.tables.values() for s in t.seats
                         if s.account is not None and not s.name_removed})
        if not seated:
            return
        rows = await self.store.read("SELECT id FROM accounts WHERE id = ANY(%s)", seated)
        for gone in sorted(set(seated) - {str(r[0]) for r in rows}):
            await self.supervisor.account_gone(gone)

    async def reap_dead(self) -> int:
        """End the games of every process found dead; returns how many were archived."""
        dead = await self.store.read(
            "UPDATE processes SET stopped_at = now(), stopped_by = %s WHERE stopped_at IS NULL"
            " AND instance <> %s AND beat_at < now() - make_interval(secs => %s)"
            " RETURNING instance, name", self.instance, self.instance, self.window)
        archived = 0
        for instance, name in dead:
            log.warning("process %s (%s) stopped beating: ending its games", name, instance,
                        extra={"event": "process_dead", "dead_slot": name,
                               "dead_instance": instance})
            archived += await self._end_games_of(str(instance))
        # Tables left behind by a survivor that stopped half-way through ending them.
        orphans = await self.store.read(
            "SELECT DISTINCT t.instance FROM live_tables t JOIN processes p USING (instance)"
            " WHERE p.stopped_at < now() - make_interval(secs => %s)", ORPHAN_SECONDS)
        for (instance,) in orphans:
            archived += await self._end_games_of(str(instance))
        self.fencing.reaped += archived
        return archived

    async def _end_games_of(self, instance: str) -> int:
        tables = await self.store.read(
            "SELECT t.id, t.players, s.seed, s.client_seeds, s.seat_seeds, s.seats, h.given,"
            " a.accounts, s.algorithm FROM live_tables t"
            " LEFT JOIN operators.table_seeds s ON s.table_id = t.id"
            " LEFT JOIN table_hints h ON h.table_id = t.id"
            " LEFT JOIN table_accounts a ON a.table_id = t.id"
            " WHERE t.instance = %s ORDER BY t.id", instance)
        archived: list[str] = []
        for table_id, players, seed, client_seeds, seat_seeds, seats, hints, who, dealt_by \
                in tables:
            if seed is None:  # never started: no game, no record
                self.store.put(Closed(table_id))
                continue
            rows = await self.store.read(
                "SELECT action FROM table_actions WHERE table_id = %s ORDER BY n", table_id)
            live = LiveGame(table_id, players, seed, client_seeds, seat_seeds, seats,
                            actions_from_rows([r[0] for r in rows]), list(hints or []),
                            GameAccounts.from_json(who), str(dealt_by or ""))
            try:
                record = await trio.to_thread.run_sync(ended_record, live)
            except Exception:
                log.exception("table %s of a dead process could not be replayed", table_id)
                continue
            self.store.submit(table_id, record, live.accounts)
            archived.append(table_id)
        if tables:
            log.warning("reaped %d games of process %s: %s", len(archived), instance,
                        " ".join(archived) or "none",
                        extra={"event": "games_reaped", "dead_instance": instance,
                               "games": archived})
        return len(archived)

    async def leave(self) -> None:
        """A clean exit: the row stopped, the live rows of its unstarted tables gone (when
        the database is away, the survivors find the heartbeat stale instead). Nothing
        when this process was taken for dead: its row says who stopped it."""
        if self.fencing.taken.is_set():
            return
        with contextlib.suppress(ArchiveError):
            await self.store.read(
                "WITH gone AS (DELETE FROM live_tables WHERE instance = %s RETURNING id)"
                " UPDATE processes SET stopped_at = now(), stopped_by = instance"
                " WHERE instance = %s RETURNING instance", self.instance, self.instance)

