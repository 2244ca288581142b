"""What a process does about its own lease (``lease``): its tables paused while the lease
has lapsed and resumed when it is renewed, and, once it finds it was taken for dead, its
tables ended without a record (the reaper wrote them) and its store fenced off.

``Fencing.watch`` looks at the lease every ``WATCH_SECONDS`` and pauses every table of the
supervisor once it has lapsed (a table opened meanwhile is paused at the next look); the
heartbeat calls ``renewed`` after each successful beat that shows the row is not stopped,
which resumes them, and ``taken_for_dead`` when it shows it stopped. The figures (lease
age, tables paused, games reaped) go to ``/metrics`` (``LeaseCollector``) and
``/status.json`` (``status``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any, Final

import trio
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from quaymoor.actors.pause import WAITING_FOR_DATABASE
from quaymoor.actors.supervisor import Supervisor
from quaymoor.cluster.lease import WATCH_SECONDS, Lease
from quaymoor.rules.record import EndReason
from quaymoor.store.pg_archive import PgArchive

log = logging.getLogger("quaymoor.cluster")

#: How long a process taken for dead waits for the reaper's records, to tell its players
#: the game as archived (then it tells them the game's end as it holds it).
RECORDS_WAIT_SECONDS: Final = 5.0


class Fencing:
    """Pauses, resumes and, once taken for dead, ends ``supervisor``'s tables."""

    def __init__(self, supervisor: Supervisor, store: PgArchive, lease: Lease) -> None:
        self.supervisor = supervisor
        self.store = store
        self.lease = lease
        self.paused = False  #: the tables are paused (the lease has lapsed)
        self.pauses = 0  #: times this process paused its tables
        self.reaped = 0  #: games of dead processes this one has archived
        self.taken = trio.Event()  #: set once this process was taken for dead and stopped

    async def watch(self) -> None:
        """Forever: pause every table while the lease has lapsed."""
        while not self.taken.is_set():
            if self.lease.lapsed():
                self._pause_all()
            await trio.sleep(WATCH_SECONDS)

    def renewed(self) -> None:
        """A beat succeeded and the row is not stopped: play goes on."""
        if not self.paused or self.lease.lapsed():
            return
        self.paused = False
        tables = list(self.supervisor.tables.values())
        for table in tables:
            table.resume()
        log.warning("lease renewed: %d tables resumed", len(tables),
                    extra={"event": "tables_resumed", "tables": len(tables)})

    def _pause_all(self) -> None:
        if not self.paused:
            self.paused = True
            self.pauses += 1
            age = self.lease.age()
            log.warning("lease lapsed (no heartbeat for %.1f s): pausing %d tables",
                        age if age is not None else 0.0, len(self.supervisor.tables),
                        extra={"event": "tables_paused", "tables": len(self.supervisor.tables)})
        for table in list(self.supervisor.tables.values()):
            table.pause(WAITING_FOR_DATABASE)

    async def taken_for_dead(self, by: str | None) -> None:
        """This process's row is stopped (``by`` the instance that reaped it): stop
        serving at once. Every later write is refused, no new table is taken, every
        table stops playing and ends with the reaper's record (its ``game_ended``, or
        this process's own when the record is not there within
        ``RECORDS_WAIT_SECONDS``); then ``taken`` is set."""
        if self.taken.is_set():
            return
        self.store.fence()
        self.supervisor.draining = True  # no new table meanwhile
        self._pause_all()
        tables = list(self.supervisor.tables.values())
        log.error("this process was taken for dead (by %s): ending its %d tables without "
                  "records, then exiting", by, len(tables),
                  extra={"event": "taken_for_dead", "reaped_by": by,
                         "tables_ended": [t.id for t in tables]})
        with trio.move_on_after(RECORDS_WAIT_SECONDS):
            for table in tables:
                if table.play is None:
                    table.end_elsewhere(None)
                    continue
                directory = self.supervisor.directory
                while (ended := await directory.ended_elsewhere(table.id)) is None:
                    await trio.sleep(0.2)
                table.end_elsewhere(ended)
        for table in tables:  # the reaper's record did not come in time
            if table.play is not None:
                table.end_elsewhere(table.play.ended(EndReason.SHUTDOWN))
        self.taken.set()

    def paused_tables(self) -> int:
        return sum(t.pause_state.paused for t in self.supervisor.tables.values())

    def status(self) -> dict[str, Any]:
        """``lease`` on ``/status.json``: the lease's figures and what it paused."""
        return {**self.lease.status(), "paused": self.paused,
                "paused_tables": self.paused_tables(), "pauses": self.pauses,
                "games_reaped": self.reaped, "taken_for_dead": self.taken.is_set()}


class LeaseCollector(Collector):
    """The lease's figures at each scrape of ``/metrics``."""

    def __init__(self, fencing: Fencing) -> None:
        self._fencing = fencing

    def collect(self) -> Iterator[Metric]:
        fencing = self._fencing
        age = fencing.lease.age()
        yield GaugeMetricFamily(
            "quaymoor_lease_age_seconds",
            "Seconds since this process's last successful heartbeat began (-1: none yet)",
            value=-1.0 if age is None else age)
        yield GaugeMetricFamily(
            "quaymoor_lease_held_seconds",
            "Seconds of unbroken heartbeats (a process reaps others only past the window)",
            value=fencing.lease.held_for())
        yield GaugeMetricFamily("quaymoor_tables_paused",
                                "Tables paused while the lease has lapsed",
                                value=fencing.paused_tables())
        yield CounterMetricFamily("quaymoor_lease_failures",
                                  "Heartbeats that failed", value=fencing.lease.failures)
        yield CounterMetricFamily("quaymoor_games_reaped",
                                  "Games of dead processes this process archived",
                                  value=fencing.reaped)
