"""A PostgreSQL failover on one machine: a primary (``local_pg.LocalPostgres``), a standby
made from it by streaming replication, the primary killed and the standby promoted. For
``quaymoor cluster --standby``, the failover test (tests/cluster/test_failover.py) and the
fault bench; a real deployment's failover is its database's own (docs/deploy.md).

The API, each call blocking (run it in ``trio.to_thread.run_sync`` from trio):

- ``StandbyPair(folder).start()`` starts both servers (``folder/primary``,
  ``folder/standby``) and returns ``url``, the multi-host URL that reaches whichever of
  them takes writes (``target_session_attrs=read-write``);
- ``pair.kill_primary()`` kills the primary's postmaster and every backend (SIGKILL, as a
  crashed host: nothing is flushed or said to the clients);
- ``pair.promote()`` makes the standby the primary (``pg_ctl promote``, waiting for it);
- ``pair.failover(gap)`` is both, ``gap`` seconds apart, and returns the seconds the
  database took no writes;
- ``pair.stop()`` stops whichever servers still run.

``kill_primary``, ``promote`` and ``failover`` need only the folder (the pid file, ``pg_ctl -D``): a
``StandbyPair`` of the folder of a pair another process started (``quaymoor cluster
--standby`` puts one in ``<folder>/pg-pair``) kills and promotes that pair.

The parts, for other arrangements: ``start_standby``, ``wait_streaming``, ``promote``,
``kill``, ``multi_host_url``.

How. The primary runs with ``wal_level=replica``, WAL senders and replication slots; a
role ``quaymoor_replica`` (REPLICATION) connects from 127.0.0.1 (initdb's trust rule for
replication). ``pg_basebackup -R -C -S quaymoor_standby`` copies the primary, creates the
slot (the primary keeps the WAL the standby has not had) and writes ``standby.signal``
and ``primary_conninfo``; the standby starts as a hot standby and streams.

Why synchronous replication (``synchronous=True``, the default): with it a commit returns
only once the standby has flushed it, so a write the store saw committed is on the standby
when the primary dies, and one it did not see committed is retried by its writer (every
write is idempotent by key: ``store.pg_lobby``, ``store.pg_archive``): none lost, none
doubled. Asynchronous replication loses the last commits at a failover. The price: while
the standby is down the primary's commits wait for it. It is switched on (``ALTER
SYSTEM`` on the primary alone) once the standby streams, since before that every commit,
the database's creation too, would wait; the standby's copy of the settings has it
switched off, so promoted it commits alone.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import time
from pathlib import Path
from typing import Final

from quaymoor.cluster.local_pg import DATABASE, USER, LocalPostgres, PostgresError

REPLICA_ROLE: Final = "quaymoor_replica"
STANDBY_NAME: Final = "quaymoor_standby"  #: its application_name and its slot's name
WAIT_SECONDS: Final = 30.0


#: A primary's command-line settings for a streaming standby.
PRIMARY_SETTINGS: Final = {"wal_level": "replica", "max_wal_senders": "4",
                           "max_replication_slots": "4", "hot_standby": "on"}


def _admin(server: LocalPostgres) -> str:
    return f"postgresql://{USER}@127.0.0.1:{server.port}/postgres"


def multi_host_url(*servers: LocalPostgres) -> str:
    """One URL for every server, in order: libpq tries each and keeps the first that takes
    writes (``target_session_attrs=read-write``)."""
    hosts = ",".join(f"127.0.0.1:{s.port}" for s in servers)
    return f"postgresql://{USER}@{hosts}/{DATABASE}?target_session_attrs=read-write"


def start_standby(primary: LocalPostgres, standby: LocalPostgres, *,
                  synchronous: bool = True) -> None:
    """Copy the running ``primary`` into ``standby``'s folder (which must hold no data
    yet) and start it as a streaming hot standby; returns once it streams, and with
    ``synchronous`` once the primary's commits wait for it."""
    import psycopg  # noqa: PLC0415  # only the cluster needs it

    if (standby.data / "PG_VERSION").exists():
        raise PostgresError(f"{standby.data} holds a database already")
    with psycopg.connect(_admin(primary),
                         autocommit=True) as db:
        if not db.execute("SELECT 1 FROM pg_roles WHERE rolname = %s",
                          (REPLICA_ROLE,)).fetchone():
            db.execute(f"CREATE ROLE {REPLICA_ROLE} WITH REPLICATION LOGIN")
        if db.execute("SELECT 1 FROM pg_replication_slots WHERE slot_name = %s",
                      (STANDBY_NAME,)).fetchone():
            db.execute("SELECT pg_drop_replication_slot(%s)", (STANDBY_NAME,))
    standby.prepare()
    standby.run(str(standby.bin / "pg_basebackup"), "-D", str(standby.data),
                "-d", f"host=127.0.0.1 port={primary.port} user={REPLICA_ROLE}"
                      f" application_name={STANDBY_NAME}",
                "-R", "-C", "-S", STANDBY_NAME, "-X", "stream", "-c", "fast")
    # The copy has the primary's own settings file: a primary made synchronous by an
    # earlier pairing would make this standby, once promoted, wait for a standby of its
    # own at every commit. Its last line wins.
    with (standby.data / "postgresql.auto.conf").open("a") as conf:
        conf.write("synchronous_standby_names = ''\n")
    standby.start()
    wait_streaming(primary)
    if synchronous:
        with psycopg.connect(_admin(primary), autocommit=True) as db:
            db.execute(f"ALTER SYSTEM SET synchronous_standby_names = '{STANDBY_NAME}'")
            db.execute("ALTER SYSTEM SET synchronous_commit = 'on'")
            db.execute("SELECT pg_reload_conf()")
        wait_streaming(primary, sync=True)


def wait_streaming(primary: LocalPostgres, timeout: float = WAIT_SECONDS, *,
                   sync: bool = False) -> None:
    """Until ``primary`` has its standby (``STANDBY_NAME``) streaming (with ``sync``, as
    its synchronous standby); ``PostgresError`` after ``timeout`` seconds."""
    import psycopg  # noqa: PLC0415

    deadline = time.monotonic() + timeout
    with psycopg.connect(_admin(primary),
                         autocommit=True) as db:
        while True:
            row = db.execute("SELECT state, sync_state FROM pg_stat_replication WHERE"
                             " application_name = %s", (STANDBY_NAME,)).fetchone()
            if row is not None and row[0] == "streaming" and (not sync or row[1] == "sync"):
                return
            if time.monotonic() > deadline:
                raise PostgresError(f"the standby does not stream after {timeout} s "
                                    f"(state {row[0] if row else 'absent'})")
            time.sleep(0.05)


def promote(standby: LocalPostgres) -> None:
    """Make ``standby`` a primary; returns once it takes writes."""
    standby.pg_ctl("promote", "-w", "-t", str(int(WAIT_SECONDS)))


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rpartition(")")[2].split()[1]) == pid:
            found.append(int(entry.name))
    return found


def kill(server: LocalPostgres) -> None:
    """Kill ``server`` as a crashed host would go: its postmaster stopped (so it forks
    nothing more), then it and every backend SIGKILLed. Its clients' connections break;
    its folder keeps a stale pid file (``stop`` skips it)."""
    pid = server.pid
    if pid is None:
        raise PostgresError(f"no PostgreSQL runs in {server.data}")
    os.kill(pid, signal.SIGSTOP)
    for victim in [pid, *_children(pid)]:
        with contextlib.suppress(ProcessLookupError):
            os.kill(victim, signal.SIGKILL)
    deadline = time.monotonic() + WAIT_SECONDS
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.01)


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, killed and not yet reaped, does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


class StandbyPair:
    """A primary and its streaming standby in ``folder`` (the module's docstring)."""

    def __init__(self, folder: Path, *, synchronous: bool = True) -> None:
        self.folder = folder.resolve()
        self.synchronous = synchronous
        self.primary = LocalPostgres(self.folder / "primary", PRIMARY_SETTINGS)
        self.standby = LocalPostgres(self.folder / "standby")
        self.url = ""

    def start(self) -> str:
        """Both servers started, the standby streaming; the multi-host URL. A standby left
        by an earlier start is made afresh from the primary; one that was promoted holds
        the newest data, so the pair refuses to start (``PostgresError``) rather than go
        back to the old primary's."""
        if (self.standby.data / "PG_VERSION").exists():
            if not (self.standby.data / "standby.signal").exists():
                raise PostgresError(
                    f"{self.standby.data} was promoted: it, not {self.primary.data}, has the "
                    "newest data; keep it (as a primary of its own) or remove the folder")
            shutil.rmtree(self.standby.data)
        self.primary.start()
        start_standby(self.primary, self.standby, synchronous=self.synchronous)
        self.url = multi_host_url(self.primary, self.standby)
        return self.url

    def kill_primary(self) -> None:
        kill(self.primary)

    def promote(self) -> None:
        promote(self.standby)

    def failover(self, gap: float = 0.0) -> float:
        """The primary killed, ``gap`` seconds with no primary at all (a real failover's
        detection), the standby promoted; the seconds from the kill until it takes
        writes. (How long until a client's writes land is the client's: its retries.)"""
        killed = time.monotonic()
        self.kill_primary()
        time.sleep(max(0.0, gap - (time.monotonic() - killed)))
        self.promote()
        return time.monotonic() - killed

    def stop(self) -> None:
        """Stop whichever servers still run (a killed one is left as it is)."""
        for server in (self.standby, self.primary):
            pid = server.pid
            if pid is not None and _alive(pid):
                server.stop()
