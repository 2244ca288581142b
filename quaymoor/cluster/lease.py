"""A process's lease on its place in the cluster: when it may take another for dead, and
when it must stop playing because it may be taken for dead itself.

Each process renews its lease by its heartbeat (``heartbeat``: ``UPDATE processes SET
beat_at = now()`` every ``BEAT_SECONDS``). A lease is held for ``window`` seconds after
a renewal: another process whose beat is older than the window (on the database's clock)
may be reaped, its running games archived as "shutdown" with their seeds. This module is
the local, pure half of that: what this process knows of its own lease, on its own
monotonic clock, with no I/O.

The three rules:

1. **Pause.** A process whose last successful renewal *began* ``pause_after`` seconds ago
   or more (``lapsed``) pauses every table (``actors.pause``): no timer runs, no bot
   moves, no action is taken. Its tables resume after its next successful renewal that
   shows its row is not stopped.
2. **Reap only from an unbroken lease.** A process reaps another only when its own lease
   has been renewed without a gap for the whole ``window`` (``may_reap``): any failed
   renewal, or two successful ones ``pause_after`` or more apart (it would have paused
   meanwhile), starts the unbroken run again.
3. **Stop when reaped.** A process that finds its row stopped ends its tables without a
   record (the reaper wrote them) and exits; the store refuses its writes from then on,
   and in the database every batch it writes first takes a share lock on its row and
   checks it is not stopped (``store.pg_archive``), so that a late write cannot land
   after the reaper's claim, which waits for that lock.

**Why no record with a seed is ever written for a game whose owner still plays it.** Let
B own a game and A reap B at database time ``t_reap``. A's claim needs B's ``beat_at``
older than the window: B's last committed beat began no later than its ``beat_at``
(``now()`` is its transaction's start, after B's clock read ``started``), so B's own
clock has seen no successful renewal since ``t_reap - window`` or before. B paused its
tables ``pause_after`` after that renewal began (its lease watch looks every
``WATCH_SECONDS``), that is by ``t_reap - window + pause_after + WATCH_SECONDS``, which
is well before ``t_reap`` (the default: 45 s window, 6 s pause, 39 s to spare for a stalled
event loop or clocks running at slightly different rates). So when A's records land B's
game had stopped moving for at least that margin, and every later write of B's is fenced
off; B ends the game for its players with the record A wrote. Rule 2 is what keeps a
database outage from being mistaken for a death: when the database is away every
process's lease lapses together, and the first to come back must then renew for a whole
window before it may reap, during which every other live process is back and beating (its
beat fresh again), so nothing is reaped. Only a process that cannot beat while another
can, for the whole window, is reaped: a dead one, or one cut off from the database, which
has been paused all that time.

**The window: 45 s.** During a failover every beat fails, so every lease lapses together
and, by rule 2, nothing is reaped however long the failover lasts (Amazon RDS Multi-AZ's
documentation gives 60-120 s, Aurora's about 30 s). What the window must cover is how far
apart two live processes regain the database after it: one reconnects at once, another
only after its connection attempt times out (``pg_db.connect``: 10 s), a retry (1 s), a
stale DNS answer or a load balancer's health check (HAProxy or PgBouncer in front of a
Patroni pair: Patroni's defaults detect a dead leader within its ``ttl`` of 30 s and act
within a ``loop_wait`` of 10 s); a promotion by hand (``pg_ctl promote``) takes about a
second. 30 s would cover those with room. The other case is one process cut off while the
others keep the database: a partition of its host, which issue 23 asks the cluster to ride
out for 30 s without ending a game. Its tables pause at 6 s; when its link returns its
database connection has to come back before its next beat (the connection's 5 s TCP user
timeout, then a fresh connect; ``pg_db``), so the window is the 30 s the partition may last
plus 15 s for that: 45 s. It bounds what a *dead* process costs: its players wait up to
45 s (after its death) for their records, and its tables count against the
limits that long (5 s before). The pause comes at 6 s, so that a restart of a second or two
is not seen by the players at all, and 39 s before any reap.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Final

import attrs

#: The lease's window by default (the module's docstring says why).
DEFAULT_WINDOW_SECONDS: Final = 45.0
#: Seconds without a successful renewal before a process pauses its tables (at most a
#: quarter of the window).
PAUSE_AFTER_SECONDS: Final = 6.0
#: How often the lease watch looks whether the lease has lapsed.
WATCH_SECONDS: Final = 0.25


@attrs.frozen
class LeaseTimings:
    """How long a lease holds (``window``) and when its holder pauses (``pause_after``).
    Tests shorten the window (``serve --lease-seconds``); the pause follows it."""

    window: float = DEFAULT_WINDOW_SECONDS

    @property
    def pause_after(self) -> float:
        return min(PAUSE_AFTER_SECONDS, self.window / 4)


class Lease:
    """This process's own lease, on a monotonic ``clock`` (seconds). ``renewed`` after each
    successful heartbeat, with the clock's time when it began; ``failed`` after each failed
    one."""

    def __init__(self, timings: LeaseTimings, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self.timings = timings
        self._clock = clock
        self._renewed_at: float | None = None  #: when the last successful renewal began
        self._held_since: float | None = None  #: when the unbroken run of renewals began
        self.failures = 0  #: failed renewals since start
        self.gaps = 0  #: times the unbroken run started again

    def renewed(self, started: float) -> None:
        """A renewal that began at ``started`` succeeded."""
        last = self._renewed_at
        if (self._held_since is None or last is None
                or started - last >= self.timings.pause_after):
            if self._held_since is not None:
                self.gaps += 1
            self._held_since = started
        self._renewed_at = started if last is None else max(last, started)

    def failed(self) -> None:
        """A renewal failed: the unbroken run is over (``may_reap`` waits a window again)."""
        self.failures += 1
        if self._held_since is not None:
            self.gaps += 1
        self._held_since = None

    def age(self) -> float | None:
        """Seconds since the last successful renewal began (None: none yet)."""
        return None if self._renewed_at is None else self._clock() - self._renewed_at

    def held_for(self) -> float:
        """Seconds of unbroken renewals up to now (0 when the run is broken)."""
        if self._held_since is None or self.lapsed():
            return 0.0
        return self._clock() - self._held_since

    def lapsed(self) -> bool:
        """No successful renewal began in the last ``pause_after`` seconds: pause."""
        age = self.age()
        return age is None or age >= self.timings.pause_after

    def may_reap(self) -> bool:
        """Renewed without a gap for the whole window: this process may take another
        whose beat is older than the window for dead."""
        return self.held_for() >= self.timings.window

    def status(self) -> dict[str, Any]:
        """For ``/status.json`` (``lease``) and ``/metrics``."""
        age = self.age()
        return {
            "age_seconds": None if age is None else round(age, 2),
            "held_seconds": round(self.held_for(), 2),
            "window_seconds": self.timings.window,
            "pause_after_seconds": self.timings.pause_after,
            "lapsed": self.lapsed(),
            "may_reap": self.may_reap(),
            "failures": self.failures,
        }
