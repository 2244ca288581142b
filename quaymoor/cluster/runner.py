"""``quaymoor cluster``: PostgreSQL (its own in ``var/cluster`` unless ``--database``), N
``quaymoor serve`` processes on ports of their own, and HAProxy on the public address.

Each process gets a slot (``haproxy.slot_name``), a free port of 127.0.0.1, the database
and HAProxy's runtime socket; its log goes to ``<folder>/wNN.log``. HAProxy's
configuration (``<folder>/haproxy.cfg``) has two spare slots per process, so that a
rolling deploy (SIGHUP, or ``Cluster.replace``) starts each replacement beside the
process it replaces, points a spare slot at it through the runtime API, and drains the
old one, which exits once its last game has ended (exit code 0, as after SIGTERM). A
process that dies (any other exit) is replaced the same way, and a survivor archives its
games; so is one an operator drains (``quaymoor drain``: the runner reads the flag each
second), so that as many processes take tables. HAProxy is watched too (``router``):
restarted at once when it dies, from a configuration regenerated from the live
processes, which is rewritten on every change. SIGINT or SIGTERM stops everything in
order: every process ends its games and archives them, then HAProxy and PostgreSQL stop
(each runs in a session of its own, so a terminal's Ctrl-C reaches only this command,
which orders it).
"""

from __future__ import annotations

import logging
import os
import resource
import secrets
import signal
import subprocess
import sys
from pathlib import Path
from typing import Final

import attrs
import trio

from quaymoor.cluster.haproxy import (
    MAX_SLOTS,
    HaproxyError,
    Worker,
    add_worker,
    servers_view,
    set_state,
    slot_name,
)
from quaymoor.cluster.listening import wait_listening
from quaymoor.cluster.local_pg import LocalPostgres, free_port
from quaymoor.cluster.pg_standby import StandbyPair
from quaymoor.cluster.router import Router
from quaymoor.ops.logs import configure_json_logs, set_log_fields
from quaymoor.ops.open_files import hard_open_files, raise_open_files
from quaymoor.store.archive import ArchiveError
from quaymoor.store.pg_db import check_database, connect, redacted

log = logging.getLogger("quaymoor.cluster")

DEFAULT_FOLDER: Final = Path("var/cluster")
SOCKET_FILE: Final = "haproxy.sock"  #: HAProxy's runtime API, in the folder
TOKEN_FILE: Final = "operator.token"  #: the operators' token, in the folder (mode 600)
PG_FOLDER: Final = "pg"  #: the cluster's own PostgreSQL (without --database), in the folder
#: With ``--standby``: its primary and streaming standby (``pg_standby``), in the folder.
PAIR_FOLDER: Final = "pg-pair"
URL_FILE: Final = "database.url"  #: the database's URL, in the folder (mode 600)
HEALTH_TIMEOUT: Final = 30.0
#: Slots in HAProxy's backend per process: its own, a spare for a rolling deploy's new
#: process, and one for a replacement started meanwhile (a process drained by hand or
#: dead while its predecessor still drains), so that a deploy after a drain still finds a
#: slot for every process.
SLOTS_PER_WORKER: Final = 3
#: How often the runner reads which of its processes an operator drained (``quaymoor
#: drain``): each one drained is replaced at once, so that the capacity stays.
DRAIN_POLL_SECONDS: Final = 1.0


@attrs.frozen
class ClusterOptions:
    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 2
    database: str | None = None  #: None: a PostgreSQL of its own in ``folder``
    #: Without ``database``: its own PostgreSQL is a primary with a streaming standby,
    #: reached by a multi-host URL (``pg_standby``: what a failover test kills and promotes)
    standby: bool = False
    folder: Path = DEFAULT_FOLDER
    decision_seconds: float = 90.0
    bot_delay: float | None = None  #: None: each table's pace (``serve --bot-delay``)
    address_limits: bool = True  #: HAProxy holds the per-address limits
    stall_ms: float | None = None  #: each process logs its event-loop stalls over it
    haproxy: str = "haproxy"
    lease_seconds: float | None = None  #: None: the lease's default (``cluster.lease``)
    #: The origin browsers reach HAProxy by (passkeys: ``serve --public-origin``); None:
    #: http://localhost:<port>.
    public_origin: str | None = None


@attrs.define
class WorkerProcess:
    worker: Worker
    process: trio.Process
    draining: bool = False


def drain_flag(url: str, name: str) -> int:
    """Set the drain flag of the live process named ``name``; how many rows it set."""
    db = connect(url)
    try:
        rows = db.execute("UPDATE processes SET draining = true WHERE name = %s AND"
                          " stopped_at IS NULL RETURNING instance", (name,)).fetchall()
    finally:
        db.close()
    return len(rows)


def draining_processes(url: str) -> set[tuple[str, int]]:
    """The (name, pid) of every live process whose drain flag is set (the pid tells this
    host's process from an earlier one of that name whose row is not reaped yet)."""
    db = connect(url)
    try:
        rows = db.execute("SELECT name, pid FROM processes WHERE draining"
                          " AND stopped_at IS NULL").fetchall()
    finally:
        db.close()
    return {(str(name), int(pid)) for name, pid in rows}


#: File descriptors HAProxy needs besides two per connection: listeners, the runtime
#: socket, health checks (it asked for 2 x maxconn + 28 at 2.6).
HAPROXY_SPARE_FDS: Final = 200


def haproxy_maxconn() -> int:
    """As many connections as the file-descriptor limit lets HAProxy hold (two each,
    and some to spare): HAProxy refuses to start with a maxconn it cannot serve."""
    hard = hard_open_files()
    if hard == resource.RLIM_INFINITY:
        return 100_000
    return max(256, min(100_000, (hard - HAPROXY_SPARE_FDS) // 2))


def open_files_for(connections: int) -> int:
    """The open-file limit under which HAProxy may hold ``connections`` at once."""
    return 2 * connections + HAPROXY_SPARE_FDS


class Cluster:
    """The running pieces; ``await nursery.start(cluster.run)``."""

    def __init__(self, options: ClusterOptions) -> None:
        self.options = options
        self.folder = options.folder.resolve()
        self.socket = str(self.folder / SOCKET_FILE)
        self.slots = min(MAX_SLOTS, SLOTS_PER_WORKER * options.workers)
        self.workers: dict[int, WorkerProcess] = {}
        self.pg: LocalPostgres | None = None
        self.pair: StandbyPair | None = None
        self.url = options.database or ""
        self.port = options.port
        self.stopping = False
        self._nursery: trio.Nursery | None = None
        self._adding = trio.Lock()  #: one new process at a time (each takes a free slot)
        self.router = Router(
            binary=options.haproxy, folder=self.folder, host=options.host, port=options.port,
            slots=self.slots, socket_path=self.socket, address_limits=options.address_limits,
            maxconn=haproxy_maxconn(), workers=self.live_workers)
        #: Behind HAProxy every client comes from 127.0.0.1, so loopback proves nothing:
        #: the operators' pages always need this token (``<folder>/operator.token``).
        self.operator_token = (os.environ.get("QUAYMOOR_OPERATOR_TOKEN")
                               or secrets.token_urlsafe(24))

    async def run(self, *, task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
        """Start everything, report the public port, then serve until cancelled (which
        stops everything in order)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        # Each process inherits it: a socket per connection (HAProxy raises its own).
        raise_open_files()
        try:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                if not self.url and self.options.standby:
                    self.pair = StandbyPair(self.folder / PAIR_FOLDER)
                    self.url = await trio.to_thread.run_sync(self.pair.start)
                elif not self.url:
                    self.pg = LocalPostgres(self.folder / PG_FOLDER)
                    self.url = await trio.to_thread.run_sync(self.pg.start)
                await trio.to_thread.run_sync(check_database, self.url)
                url_file = self.folder / URL_FILE  # it may hold a password
                url_file.touch(mode=0o600)
                url_file.chmod(0o600)
                url_file.write_text(self.url + "\n")
                token_file = self.folder / TOKEN_FILE
                token_file.touch(mode=0o600)
                token_file.chmod(0o600)
                token_file.write_text(self.operator_token + "\n")
                for slot in range(self.options.workers):
                    await self._spawn(slot)
                await self._start_haproxy()
                await nursery.start(self.router.keep)
                nursery.start_soon(self._follow_drains)
                task_status.started(self.port)
                await trio.sleep_forever()
        finally:
            with trio.CancelScope(shield=True):
                await self.stop()

    def live_workers(self) -> list[Worker]:
        """Every process running now, as HAProxy routes it (a draining one at weight 0)."""
        return [attrs.evolve(e.worker, draining=e.draining)
                for _, e in sorted(self.workers.items()) if e.process.returncode is None]

    # ------------------------------------------------------------ processes

    async def _spawn(self, slot: int) -> WorkerProcess:
        """Start a process in ``slot`` and wait until it answers its health check."""
        assert self._nursery is not None
        port = free_port()
        opts = self.options
        args = [sys.executable, "-m", "quaymoor", "serve", "--host", "127.0.0.1",
                "--port", str(port), "--database", self.url, "--slot", str(slot),
                "--haproxy-socket", self.socket, "--forwarded-from", "127.0.0.1",
                "--public-origin", opts.public_origin or f"http://localhost:{opts.port}",
                *(() if opts.address_limits else ("--no-address-limits",)),
                "--decision-seconds", str(opts.decision_seconds),
                *(["--bot-delay", str(opts.bot_delay)] if opts.bot_delay is not None else []),
                *(["--log-stalls", str(opts.stall_ms)] if opts.stall_ms is not None else []),
                *(["--lease-seconds", str(opts.lease_seconds)]
                  if opts.lease_seconds is not None else [])]
        out = (self.folder / f"{slot_name(slot)}.log").open("ab")
        try:
            process = await trio.lowlevel.open_process(
                args, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
                env={**os.environ, "QUAYMOOR_OPERATOR_TOKEN": self.operator_token})
        finally:
            out.close()
        entry = WorkerProcess(Worker(slot, "127.0.0.1", port), process)
        self.workers[slot] = entry
        try:
            await wait_listening("127.0.0.1", port, HEALTH_TIMEOUT, process)
        except OSError as exc:
            raise RuntimeError(f"{slot_name(slot)} did not start: see "
                               f"{self.folder / slot_name(slot)}.log") from exc
        self._nursery.start_soon(self._watch, entry)
        log.info("%s serving on 127.0.0.1:%d", slot_name(slot), port)
        return entry

    async def _watch(self, entry: WorkerProcess) -> None:
        code = await entry.process.wait()
        slot = entry.worker.slot
        if self.workers.get(slot) is entry:
            del self.workers[slot]
        if self.stopping:
            return
        try:
            await self.router.change(lambda: set_state(self.socket, slot, "maint"))
        except HaproxyError as exc:
            log.warning("%s: %s", slot_name(slot), exc)
        if entry.draining or code == 0:  # drained: its replacement started with the drain
            log.info("%s exited (%s)", slot_name(slot), code)
            return
        log.error("%s died (exit %s): starting another in its place", slot_name(slot), code)
        try:  # in another slot (docs/deploy.md, "What is lost when": why)
            await self.add(avoid=slot)
        except (RuntimeError, HaproxyError) as exc:
            log.error("no replacement for %s: %s", slot_name(slot), exc)

    async def _follow_drains(self) -> None:
        """Forever: a process an operator drained (``quaymoor drain``, the flag in
        PostgreSQL) is marked draining here too (the configuration gives it weight 0, so
        an HAProxy restarted meanwhile still sends it no new table) and replaced at once
        in a free slot: the cluster keeps as many processes taking tables."""
        while True:
            await trio.sleep(DRAIN_POLL_SECONDS)
            try:
                drained = await trio.to_thread.run_sync(draining_processes, self.url)
            except ArchiveError as exc:  # the database is away: the next poll
                log.debug("draining processes unknown: %s", exc)
                continue
            for slot, entry in list(self.workers.items()):
                if entry.draining or (slot_name(slot), entry.process.pid) not in drained:
                    continue
                log.info("%s drained by an operator: starting its replacement",
                         slot_name(slot), extra={"event": "drain_replaced"})
                await self._mark_draining(entry)
                try:
                    await self.add()
                except (RuntimeError, HaproxyError) as exc:
                    log.error("no replacement for drained %s: %s", slot_name(slot), exc)

    def free_slot(self, avoid: int | None = None) -> int:
        for slot in range(self.slots):
            if slot not in self.workers and slot != avoid:
                return slot
        raise RuntimeError(f"every one of the {self.slots} slots is in use")

    async def add(self, avoid: int | None = None) -> WorkerProcess:
        """A new process in a free slot (not ``avoid``), taking tables: no restart of
        anything else."""
        async with self._adding:
            entry = await self._spawn(self.free_slot(avoid))
        await self.router.change(lambda: add_worker(self.socket, entry.worker))
        return entry

    async def drain(self, slot: int) -> None:
        """No new tables for ``slot``; it exits once its last game has ended."""
        entry = self.workers[slot]
        await self._mark_draining(entry)
        await trio.to_thread.run_sync(drain_flag, self.url, slot_name(slot))

    async def _mark_draining(self, entry: WorkerProcess) -> None:
        entry.draining = True
        slot = entry.worker.slot
        await self.router.change(lambda: set_state(self.socket, slot, "drain"))

    async def replace(self, slot: int) -> WorkerProcess:
        """A rolling deploy's step: the new process first, then the old one drained."""
        new = await self.add()
        await self.drain(slot)
        return new

    async def rolling_deploy(self) -> None:
        for slot in [s for s, e in sorted(self.workers.items()) if not e.draining]:
            await self.replace(slot)
            log.info("rolling deploy: %s replaced and draining", slot_name(slot))

    # ------------------------------------------------------------ HAProxy

    async def _start_haproxy(self) -> None:
        await self.router.start()
        # HAProxy's first checks: every process up before the address is announced.
        names = {slot_name(slot) for slot in self.workers}
        with trio.fail_after(HEALTH_TIMEOUT):
            while True:
                try:
                    up = {s["svname"] for s in await servers_view(self.socket)
                          if s["status"] == "UP"}
                except HaproxyError:
                    up = set()
                if names <= up:
                    break
                await trio.sleep(0.1)

    # ------------------------------------------------------------ stopping

    async def stop(self) -> None:
        """Every process ends its games (SIGTERM), then HAProxy and PostgreSQL stop."""
        self.stopping = True
        for entry in list(self.workers.values()):
            if entry.process.returncode is None:
                entry.process.send_signal(signal.SIGTERM)
        with trio.move_on_after(30):
            for entry in list(self.workers.values()):
                await entry.process.wait()
        for entry in list(self.workers.values()):
            if entry.process.returncode is None:
                entry.process.kill()
                await entry.process.wait()
        await self.router.stop()
        if self.pg is not None:
            await trio.to_thread.run_sync(self.pg.stop)
        if self.pair is not None:
            await trio.to_thread.run_sync(self.pair.stop)


async def serve_cluster(options: ClusterOptions) -> None:
    """``quaymoor cluster``: until SIGINT or SIGTERM; SIGHUP is a rolling deploy."""
    configure_json_logs()
    set_log_fields(process="cluster")
    cluster = Cluster(options)
    async with trio.open_nursery() as nursery:
        with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM, signal.SIGHUP) as sigs:
            port = await nursery.start(cluster.run)
            print(f"Quaymoor cluster is serving on http://{options.host}:{port}/ "
                  f"({options.workers} processes; PostgreSQL {redacted(cluster.url)}; "
                  f"logs and the operator token in {cluster.folder})", flush=True)
            async for signum in sigs:
                if signum == signal.SIGHUP:
                    print("SIGHUP: rolling deploy", flush=True)
                    try:
                        await cluster.rolling_deploy()
                    except (RuntimeError, HaproxyError) as exc:
                        print(f"rolling deploy stopped: {exc}", file=sys.stderr, flush=True)
                    continue
                print("stopping: every game ends and is archived", flush=True)
                break
            nursery.cancel_scope.cancel()
