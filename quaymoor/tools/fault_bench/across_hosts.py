"""The bench's third kind of system: the cluster laid over hosts of its own
(``cluster/netns_cluster.py``: PostgreSQL in ``db``, a ``quaymoor serve`` in each of
``table-1`` and ``table-2``, HAProxy in ``router``), for the faults that cut a host off.

The players, the outage probe, the seed watch and the record reads are the client's: every
internet socket the bench opens during the run is made inside the ``client`` namespace, and
they all reach the router's address (10.77.0.2:80), never 127.0.0.1. That is done with a
trio socket factory (``ClientSockets``), set for the one ``trio.run`` of the fault: each
socket is created with the calling thread briefly in ``client`` (``setns``; a socket stays
in the namespace it was made in) and the thread comes straight back. The thread is not
left inside ``client``, as ``hosts.entered`` would: trio's worker threads started from it
would stay there and, cached, run another fault's ``pg_ctl`` or ``serve`` inside it when
the bench runs faults side by side (``--jobs``).

The cluster's folder is the bench's own: at the end the database's files are removed and
the logs (``table-1.log``, ``table-2.log``, ``haproxy.log``, ``pg/postgres.log``) kept, as
the other systems keep theirs.
"""

from __future__ import annotations

import shutil
import socket as stdlib_socket
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Final

import trio

from quaymoor.cluster.haproxy import slot_name
from quaymoor.cluster.netns import NETNS_DIR, entered_netns
from quaymoor.cluster.netns_cluster import TABLE_HOSTS, NetnsCluster, NetnsOptions, netns_cluster
from quaymoor.tools.fault_bench.http_get import get_json

#: As ``server_bench.settings.serve_options``: bots without delay, decision timers out of
#: the way (``netns_cluster`` turns the per-address limits off itself).
BOT_DELAY: Final = 0.0
DECISION_SECONDS: Final = 600.0
_INTERNET = (stdlib_socket.AF_INET, stdlib_socket.AF_INET6)


class ClientSockets(trio.abc.SocketFactory):
    """Internet sockets made in the namespace at ``netns`` (the ``client`` host's); other
    families (the HAProxy runtime API's Unix socket, a file) as usual."""

    def __init__(self, netns: Path) -> None:
        self.netns = netns

    def socket(self, family: stdlib_socket.AddressFamily | int = stdlib_socket.AF_INET,
               type: stdlib_socket.SocketKind | int = stdlib_socket.SOCK_STREAM,
               proto: int = 0) -> trio.socket.SocketType:
        if family in _INTERNET:
            with entered_netns(self.netns):
                made = stdlib_socket.socket(family, type, proto)
        else:
            made = stdlib_socket.socket(family, type, proto)
        return trio.socket.from_stdlib_socket(made)


def slot_prefix(host: str) -> str:
    """The start of the ids of the tables ``host`` serves (``table-1``: ``00``)."""
    return slot_name(TABLE_HOSTS.index(host)).removeprefix("w")


class AcrossHosts:
    """A running ``NetnsCluster`` as the bench reads it: the router's address is the
    public one, and records are read there too (HAProxy is not the fault here; a table
    host's own port is on a host the bench may have cut off)."""

    def __init__(self, cluster: NetnsCluster) -> None:
        self.cluster = cluster
        self.folder = cluster.folder  #: where ``netns.cut(folder, "w00")`` finds the run
        self.token = cluster.operator_token

    @property
    def host(self) -> str:
        return self.cluster.router[0]

    @property
    def port(self) -> int:
        return self.cluster.router[1]

    async def processes(self) -> list[dict[str, Any]]:
        """The table processes the cluster's ``/status.json`` lists as alive."""
        status = await get_json(self.port, "/status.json", token=self.token, timeout=3.0,
                                host=self.host)
        if not isinstance(status, dict):
            return []
        return [p for p in status.get("processes", []) if p.get("alive")]

    async def read_ports(self) -> list[int]:
        return [self.port]


@asynccontextmanager
async def across_hosts() -> AsyncIterator[AcrossHosts]:
    """A cluster over namespaces for one fault, this trio run's internet sockets the
    client's; torn down (namespaces deleted, the database removed, logs kept) after."""
    folder = Path(tempfile.mkdtemp(prefix="quaymoor-faults-hosts-"))
    try:
        async with netns_cluster(NetnsOptions(
                decision_seconds=DECISION_SECONDS, bot_delay=BOT_DELAY, folder=folder)) as cluster:
            client = NETNS_DIR / cluster.hosts.netns("client")
            before = trio.socket.set_custom_socket_factory(ClientSockets(client))
            try:
                yield AcrossHosts(cluster)
            finally:
                trio.socket.set_custom_socket_factory(before)
    finally:
        shutil.rmtree(folder / "pg" / "data", ignore_errors=True)
        print(f"  hosts' logs: {folder}", flush=True)
