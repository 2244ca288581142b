"""What a load runs against, as the benchmark sees it from outside: the one address the
clients use, the table processes it reads directly (``/proc``, ``/metrics``,
``/status.json`` on each one's own port) and, in a cluster, HAProxy and PostgreSQL
(``/proc`` only: their CPU).

One process is a ``Served`` with one server named ``server`` whose port is the clients'
too; a cluster has its workers (``w00``, ``w01``, ...) behind HAProxy's address.
"""

from __future__ import annotations

from typing import Any

import attrs

from quaymoor.tools.server_bench.procfs import cpu_seconds, rss_kib, tree_cpu_seconds
from quaymoor.tools.server_bench.server_http import read_metrics, status_sample

ONE_PROCESS = "server"  #: the name of the one process when there is no cluster


@attrs.frozen
class Measured:
    """A process the benchmark reads."""

    name: str  #: ``server``, a cluster's slot name (``w00``), or ``haproxy``
    pid: int
    port: int | None = None  #: its own HTTP port (/metrics, /status.json); None: HAProxy
    tree: bool = False  #: its CPU counts its children's (PostgreSQL's backends)


@attrs.frozen
class Served:
    """The server under test: one process, or a cluster behind HAProxy."""

    port: int  #: where the clients connect (HAProxy's in a cluster)
    servers: tuple[Measured, ...]  #: the table processes
    router: Measured | None = None  #: HAProxy, in a cluster
    database: Measured | None = None  #: the cluster's own PostgreSQL server
    token: str | None = None  #: the operator token of the servers' /metrics, /status.json
    router_socket: str | None = None  #: HAProxy's runtime API

    @property
    def cluster(self) -> bool:
        return self.router is not None

    @property
    def label(self) -> str:
        return label(len(self.servers) if self.cluster else None)

    def rss(self) -> dict[str, int]:
        """Each table process's RSS now, KiB, by name."""
        return {p.name: rss_kib(p.pid) for p in self.servers}

    def cpu(self) -> dict[str, float]:
        """CPU seconds so far of each table process, of HAProxy and of PostgreSQL (with
        its backends), by name."""
        every = (*self.servers, *(p for p in (self.router, self.database) if p is not None))
        return {p.name: tree_cpu_seconds(p.pid) if p.tree else cpu_seconds(p.pid)
                for p in every}

    def metrics(self) -> dict[str, str | None]:
        """Each table process's /metrics (None: not read), by name."""
        return {p.name: read_metrics(_port(p), self.token) for p in self.servers}

    def status(self) -> dict[str, dict[str, Any]]:
        """Each table process's connections and loop lag now (``status_sample``)."""
        return {p.name: status_sample(_port(p), self.token) for p in self.servers}


def label(cluster: int | None) -> str:
    """``one process`` or ``cluster of N``: a load's heading and column of a comparison."""
    return "one process" if cluster is None else f"cluster of {cluster}"


def _port(process: Measured) -> int:
    assert process.port is not None, f"{process.name} has no HTTP port"
    return process.port
