"""A cluster laid over hosts of its own (``netns.Hosts``): PostgreSQL in ``db``, a
``quaymoor serve`` in each of ``table-1`` (slot 0, ``w00``) and ``table-2`` (slot 1,
``w01``), HAProxy in ``router``; the clients belong in ``client``. Each piece listens on
its host's address only, so every byte between them crosses the bridge, and a
``partition`` (one host's cable pulled for some seconds, then back) is a real one.

The API the cluster tests and the fault bench use (all of it trio)::

    async with netns_cluster(NetnsOptions(bot_delay=0.05)) as cluster:
        with cluster.hosts.entered("client"):  # this thread's sockets: the client's
            ...  # play through cluster.router (host, port)
        await cluster.partition("table-1", 30)
    # everything stopped, every namespace and the folder gone, even after a failure

For a caller that knows only the cluster's folder (the fault bench's faults, in a
thread), ``netns.cut(folder, "w01")`` and ``netns.heal(folder, "w01")`` do the same by
the table process's name (the folder's ``netns.json`` says which host serves which slot).

``cluster.local_database_url`` reaches PostgreSQL through its Unix socket (a file, not the
network) for what a test or the bench reads itself; ``cluster.escaped()`` lists any piece
found outside its namespace or listening on the machine's own interfaces (none should).
A table host cut off longer than the heartbeat's stale window is reaped by the other;
what the cut-off host does meanwhile is ``heartbeat``'s (its lease).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Final

import attrs
import trio

from quaymoor.cluster.haproxy import HaproxyError, Worker, config_text, servers_view, slot_name
from quaymoor.cluster.local_pg import DATABASE, USER, LocalPostgres, PostgresError
from quaymoor.cluster.netns import (
    ADDRESSES,
    HOSTS,
    NETNS_DIR,
    SUBNET,
    Hosts,
    entered_netns,
    ip,
)
from quaymoor.cluster.runner import haproxy_maxconn
from quaymoor.ops.open_files import raise_open_files
from quaymoor.store.pg_db import check_database

TABLE_HOSTS: Final = ("table-1", "table-2")  #: slot 0 and slot 1
SERVE_PORT: Final = 8000  #: every table host's (each has its own port space)
ROUTER_PORT: Final = 80
PG_PORT: Final = 5432
START_TIMEOUT: Final = 30.0
STOP_TIMEOUT: Final = 30.0


@attrs.frozen
class NetnsOptions:
    decision_seconds: float = 90.0
    bot_delay: float | None = None  #: None: each table's pace (``serve --bot-delay``)
    serve_args: tuple[str, ...] = ()  #: more ``serve`` options, for both table hosts
    folder: Path | None = None  #: None: a temporary folder, removed at teardown
    haproxy: str = "haproxy"


class NetnsPostgres(LocalPostgres):
    """``LocalPostgres`` in the ``db`` host: it listens on that host's address, and its
    ``pg_hba.conf`` trusts the hosts' subnet (and nothing else on the network)."""

    def __init__(self, folder: Path, hosts: Hosts) -> None:
        super().__init__(folder)
        self.hosts = hosts
        self.port = PG_PORT

    @property
    def url(self) -> str:
        """The URL the table hosts use, across the bridge."""
        return f"postgresql://{USER}@{ADDRESSES['db']}:{PG_PORT}/{DATABASE}"

    @property
    def local_url(self) -> str:
        """Through the Unix socket in the data folder: for the test's or bench's own reads."""
        return f"postgresql://{USER}@/{DATABASE}?host={self.data}&port={PG_PORT}"

    def start(self) -> str:
        self.folder.mkdir(parents=True, exist_ok=True)
        if self._as:
            shutil.chown(self.folder, "postgres", "postgres")
        if not (self.data / "PG_VERSION").exists():
            self.run(str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust",
                      "-U", USER, "-E", "UTF8", "--no-instructions")
            with (self.data / "pg_hba.conf").open("a") as hba:
                hba.write(f"host all {USER} {SUBNET} trust\n")
        options = (f"-p {PG_PORT} -k {self.data} -c listen_addresses={ADDRESSES['db']}"
                   " -c max_connections=200 -c fsync=on")
        argv = self.hosts.exec_args("db", [*self._as, str(self.bin / "pg_ctl"), "-D",
                                           str(self.data), "-o", options, "-l",
                                           str(self.folder / "postgres.log"), "-w", "-t",
                                           "30", "start"])
        done = subprocess.run(argv, capture_output=True, text=True, check=False,
                              start_new_session=True)
        if done.returncode != 0:
            raise PostgresError(f"pg_ctl start in db: {done.stderr.strip()[-800:]}")
        import psycopg  # noqa: PLC0415  # only a cluster needs it

        admin = f"host={self.data} port={PG_PORT} user={USER} dbname=postgres"
        with psycopg.connect(admin, autocommit=True) as db:
            if not db.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                              (DATABASE,)).fetchone():
                db.execute(f"CREATE DATABASE {DATABASE}")
        return self.url

    def postmaster_pid(self) -> int | None:
        try:
            return int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None


def _accepts(netns: Path, host: str, port: int) -> bool:
    """Whether ``host:port`` accepts a connection from inside ``netns`` (in this thread)."""
    with entered_netns(netns), socket.socket() as probe:
        probe.settimeout(0.5)
        try:
            probe.connect((host, port))
        except OSError:
            return False
        return True


class NetnsCluster:
    """The pieces over ``hosts``; ``start``, then ``teardown`` (``netns_cluster`` does both)."""

    def __init__(self, options: NetnsOptions | None = None) -> None:
        self.options = options or NetnsOptions()
        self.hosts = Hosts()
        self._own_folder = self.options.folder is None
        self.folder = (self.options.folder or Path(tempfile.mkdtemp(
            prefix=f"quaymoor-netns-{self.hosts.run_id}-"))).resolve()
        self.folder.mkdir(parents=True, exist_ok=True)
        self.folder.chmod(0o755)  # PostgreSQL runs as its own user under it
        self.pg = NetnsPostgres(self.folder / "pg", self.hosts)
        self.servers: dict[str, trio.Process] = {}  #: by table host
        self.haproxy: trio.Process | None = None
        self.operator_token = os.urandom(18).hex()
        self.socket = str(self.folder / "haproxy.sock")
        #: The namespace this was made in: the machine's own (``escaped`` looks there).
        self._machine = os.open("/proc/thread-self/ns/net", os.O_RDONLY)

    # ------------------------------------------------------------ where things are

    @property
    def router(self) -> tuple[str, int]:
        """HAProxy's address and port: where the clients (in ``client``) connect."""
        return ADDRESSES["router"], ROUTER_PORT

    @property
    def database_url(self) -> str:
        return self.pg.url

    @property
    def local_database_url(self) -> str:
        return self.pg.local_url

    def worker(self, host: str) -> Worker:
        return Worker(TABLE_HOSTS.index(host), ADDRESSES[host], SERVE_PORT)

    def host_of_slot(self, name: str) -> str:
        """The table host serving slot ``name`` (``w00``: table-1)."""
        return next(h for h in TABLE_HOSTS if slot_name(self.worker(h).slot) == name)

    # ------------------------------------------------------------ starting

    async def start(self) -> None:
        """Lay out the hosts, then PostgreSQL, both table hosts and HAProxy, each waited
        for until it answers across the bridge."""
        raise_open_files()  # HAProxy inherits it
        await trio.to_thread.run_sync(self.hosts.up)
        await trio.to_thread.run_sync(self.pg.start)
        await trio.to_thread.run_sync(check_database, self.local_database_url)
        for host in TABLE_HOSTS:
            await self.start_server(host)
        await self._start_haproxy()
        self.hosts.write_layout(self.folder, {slot_name(self.worker(h).slot): h
                                              for h in TABLE_HOSTS})

    async def _open(self, host: str, argv: Sequence[str], log_name: str) -> trio.Process:
        out = (self.folder / log_name).open("ab")
        try:
            return await trio.lowlevel.open_process(
                self.hosts.exec_args(host, argv), stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,
                env={**os.environ, "QUAYMOOR_OPERATOR_TOKEN": self.operator_token})
        finally:
            out.close()

    async def _wait_accepts(self, host: str, address: str, port: int,
                            process: trio.Process, log_name: str) -> None:
        netns = NETNS_DIR / self.hosts.netns("client")
        deadline = time.monotonic() + START_TIMEOUT
        while not await trio.to_thread.run_sync(_accepts, netns, address, port):
            if process.returncode is not None or time.monotonic() > deadline:
                tail = (self.folder / log_name).read_text(errors="replace")[-1500:]
                raise RuntimeError(f"{host}: nothing on {address}:{port} (exit "
                                   f"{process.returncode}); {log_name}:\n{tail}")
            await trio.sleep(0.1)

    async def start_server(self, host: str) -> trio.Process:
        """``quaymoor serve`` in ``host`` (again, after it was stopped or killed)."""
        opts, worker = self.options, self.worker(host)
        argv = [sys.executable, "-m", "quaymoor", "serve", "--host", worker.host,
                "--port", str(worker.port), "--database", self.database_url,
                "--slot", str(worker.slot), "--forwarded-from", ADDRESSES["router"],
                "--no-address-limits", "--decision-seconds", str(opts.decision_seconds),
                *(["--bot-delay", str(opts.bot_delay)] if opts.bot_delay is not None else []),
                *opts.serve_args]
        log_name = f"{host}.log"
        process = await self._open(host, argv, log_name)
        self.servers[host] = process
        await self._wait_accepts(host, worker.host, worker.port, process, log_name)
        return process

    async def _start_haproxy(self) -> None:
        cfg = self.folder / "haproxy.cfg"
        address, port = self.router
        cfg.write_text(config_text(
            host=address, port=port, workers=[self.worker(h) for h in TABLE_HOSTS],
            slots=len(TABLE_HOSTS), socket_path=self.socket, address_limits=False,
            maxconn=haproxy_maxconn()))
        self.haproxy = await self._open("router", [self.options.haproxy, "-db", "-f",
                                                   str(cfg)], "haproxy.log")
        await self._wait_accepts("router", address, port, self.haproxy, "haproxy.log")
        names = {slot_name(self.worker(h).slot) for h in TABLE_HOSTS}
        with trio.fail_after(START_TIMEOUT):
            while not names <= await self.servers_up():
                await trio.sleep(0.1)

    async def servers_up(self) -> set[str]:
        """The slots HAProxy's checks find up now (``w00``, ``w01``)."""
        try:
            return {s["svname"] for s in await servers_view(self.socket)
                    if s["status"] == "UP"}
        except HaproxyError:
            return set()

    # ------------------------------------------------------------ faults

    async def cut(self, host: str) -> None:
        await trio.to_thread.run_sync(self.hosts.cut, host)

    async def restore(self, host: str) -> None:
        await trio.to_thread.run_sync(self.hosts.restore, host)

    async def partition(self, host: str, seconds: float) -> None:
        """``host`` cut off for ``seconds``, then back (back even when cancelled)."""
        await self.cut(host)
        try:
            await trio.sleep(seconds)
        finally:
            with trio.CancelScope(shield=True):
                await self.restore(host)

    # ------------------------------------------------------------ checks

    def escaped(self) -> list[str]:
        """Every piece outside the namespace it was started in, and every socket of
        theirs listening in the machine's own namespace (both should be none), and any
        address of the hosts' subnet on the machine's own interfaces. Safe in any thread."""
        # Only pids: a trio.Process's returncode needs trio's thread, and this runs in
        # any (a piece that exited has no /proc entry to look at, and is skipped).
        pids = {host: p.pid for host, p in self.servers.items()}
        if self.haproxy is not None:
            pids["router"] = self.haproxy.pid
        if (pg := self.pg.postmaster_pid()) is not None:
            pids["db"] = pg
        wrong = []
        for host, pid in pids.items():
            try:
                inode = os.stat(f"/proc/{pid}/ns/net").st_ino
            except OSError:
                continue
            if inode != os.stat(NETNS_DIR / self.hosts.netns(host)).st_ino:
                wrong.append(f"{host} (pid {pid}) is not in {self.hosts.netns(host)}")
        # Asked in the machine's own namespace, whichever this thread is in (a thread
        # started while another was in a host's namespace is in that one).
        with entered_netns(Path(f"/proc/self/fd/{self._machine}")):
            listening = subprocess.run(["ss", "-Hltnup"], capture_output=True, text=True,
                                       check=False).stdout
            addresses = ip("-o", "addr")
        wrong += [f"listening on the machine's own interfaces: {line.strip()}"
                  for line in listening.splitlines()
                  if any(f"pid={pid}," in line for pid in pids.values())]
        prefix = SUBNET.rsplit(".", 1)[0] + "."
        wrong += [f"the machine's own interfaces have {line.strip()}"
                  for line in addresses.splitlines() if f"inet {prefix}" in line]
        return wrong

    # ------------------------------------------------------------ stopping

    async def stop_server(self, host: str, sig: int = signal.SIGTERM) -> int:
        """Signal ``host``'s ``serve`` and wait for it (killed after ``STOP_TIMEOUT``)."""
        process = self.servers[host]
        if process.returncode is None:
            process.send_signal(sig)
        with trio.move_on_after(STOP_TIMEOUT):
            await process.wait()
        if process.returncode is None:
            process.kill()
            await process.wait()
        return await process.wait()

    async def teardown(self) -> None:
        """Every link back up (a table host ends its games through the database), each
        ``serve`` stopped (SIGTERM), HAProxy and PostgreSQL stopped, every namespace
        deleted and the folder removed (when it was a temporary one)."""
        try:
            if self.hosts.made:
                for host in HOSTS:
                    await self.restore(host)
            async with trio.open_nursery() as nursery:
                for host in self.servers:
                    nursery.start_soon(self.stop_server, host)
            if self.haproxy is not None and self.haproxy.returncode is None:
                self.haproxy.terminate()
                with trio.move_on_after(5):
                    await self.haproxy.wait()
                if self.haproxy.returncode is None:
                    self.haproxy.kill()
                    await self.haproxy.wait()
            try:
                await trio.to_thread.run_sync(self.pg.stop)
            except PostgresError:
                if (pid := self.pg.postmaster_pid()) is not None:
                    os.kill(pid, signal.SIGKILL)
        finally:
            await trio.to_thread.run_sync(self.hosts.down)
            os.close(self._machine)
            if self._own_folder:
                shutil.rmtree(self.folder, ignore_errors=True)


@asynccontextmanager
async def netns_cluster(options: NetnsOptions | None = None) -> AsyncIterator[NetnsCluster]:
    """A started ``NetnsCluster``, torn down when the block ends, however it ends."""
    cluster = NetnsCluster(options)
    try:
        await cluster.start()
        yield cluster
    finally:
        with trio.CancelScope(shield=True):
            await cluster.teardown()
