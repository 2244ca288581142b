"""How ``quaymoor serve`` becomes one process of a cluster when it is given a database:
the PostgreSQL store instead of the SQLite archive, its slot's prefix on every table id,
its tables' lobby rows and actions in the store, its heartbeat row (``heartbeat``), and
the operators' view of every process (``cluster_status``)."""

from __future__ import annotations

import secrets
from typing import Any

from quaymoor.actors.supervisor import HEADLINE_FIGURES, Supervisor
from quaymoor.cluster.haproxy import HaproxyError, servers_view, slot_name, slot_prefix
from quaymoor.cluster.heartbeat import Membership
from quaymoor.cluster.lease import LeaseTimings
from quaymoor.cluster.shared_tables import SharedTables
from quaymoor.config import ServerConfig
from quaymoor.ops.logs import set_log_fields
from quaymoor.store.archive import Archive, ArchiveError
from quaymoor.store.pg_archive import PgArchive


def open_store(config: ServerConfig) -> Archive | PgArchive | None:
    """The store ``config`` names: PostgreSQL in a cluster, else SQLite (or none)."""
    if config.database_url is not None:
        return PgArchive(config.database_url, instance=secrets.token_hex(8))
    return Archive(config.archive_path) if config.archive_path is not None else None


def join_cluster(
    config: ServerConfig, supervisor: Supervisor, store: Archive | PgArchive | None
) -> Membership | None:
    """In a cluster, make ``supervisor`` share its tables (its directory: the shared
    one) and return its membership; otherwise the supervisor keeps its local directory."""
    if not isinstance(store, PgArchive):
        return None
    slot = config.slot if config.slot is not None else 0
    supervisor.table_prefix = slot_prefix(slot)
    supervisor.directory = SharedTables(store)
    set_log_fields(process=store.instance, slot=slot_name(slot))  # on every log line
    timings = (LeaseTimings() if config.lease_seconds is None
               else LeaseTimings(window=config.lease_seconds))
    return Membership(store, slot_name(slot), supervisor, timings)


async def cluster_status(member: Membership, haproxy_socket: str | None) -> dict[str, Any]:
    """``processes``: every process up or stopped in the last ten minutes, with its
    figures; ``haproxy``: the router's view of its servers (or why it is not known);
    ``totals``: the headline figures summed over the live processes (``cluster_totals``);
    ``lease``: this process's lease (``fencing.Fencing.status``), as this process knows
    it (also while the database is away).

    A live process's figures are its own, from its last heartbeat (at most a beat old).
    A process that is not alive (stopped, or its heartbeat stale) reports nothing more,
    and its last heartbeat may be older than its newest tables (one made and killed
    within a beat showed 0): its ``tables``, ``playing`` and ``waiting`` are then the
    live rows the database still holds for it (until a survivor has ended them, then 0),
    and its ``connections`` are unknown (None)."""
    rows = await member.store.read(
        "SELECT name, instance, address, pid, started_at, draining, stopped_at,"
        " stats, extract(epoch FROM now() - beat_at),"
        " (SELECT count(*) FROM live_tables t WHERE t.instance = p.instance),"
        " (SELECT count(*) FROM live_tables t WHERE t.instance = p.instance"
        "  AND t.lobby->>'state' = 'playing'),"
        " (SELECT count(*) FROM live_tables t WHERE t.instance = p.instance"
        "  AND t.lobby->>'state' = 'waiting')"
        " FROM processes p"
        " WHERE stopped_at IS NULL OR stopped_at > now() - interval '10 minutes'"
        " ORDER BY stopped_at IS NOT NULL, name, started_at")
    processes = []
    for (name, instance, address, pid, started, draining, stopped, stats, age,
         held, playing, waiting) in rows:
        alive = stopped is None and float(age) < member.window
        figures = {k: v for k, v in dict(stats).items() if k != "draining"}
        if not alive:
            figures.update(tables=int(held), playing=int(playing), waiting=int(waiting),
                           connections=None)
        processes.append({
            "name": name, "instance": instance, "address": address, "pid": pid,
            "this": instance == member.instance,
            "started_at": started.timestamp(), "beat_age_seconds": round(float(age), 1),
            "alive": alive, "draining": bool(draining),
            "stopped_at": stopped.timestamp() if stopped is not None else None,
            **figures,
        })
    view: list[dict[str, str]] | str
    if haproxy_socket is None:
        view = "no HAProxy runtime socket was given to this process"
    else:
        try:
            view = await servers_view(haproxy_socket)
        except HaproxyError as exc:
            view = str(exc)
    return {"process": member.name, "processes": processes, "haproxy": view,
            "totals": cluster_totals(processes), "lease": member.fencing.status()}


def cluster_totals(processes: list[dict[str, Any]]) -> dict[str, Any]:
    """The status page's headline for the whole cluster: each of ``HEADLINE_FIGURES``
    summed over the live processes (as of their last heartbeat; a figure a process of
    an older version does not report counts 0). Through HAProxy any process answers
    ``/status.json``: without these the headline was whichever one that was."""
    live = [p for p in processes if p["alive"]]
    return {"scope": "cluster", "processes": len(live),
            **{key: sum(int(p.get(key) or 0) for p in live) for key in HEADLINE_FIGURES}}


async def safe_cluster_status(member: Membership, haproxy_socket: str | None
                              ) -> dict[str, Any]:
    """``cluster_status``, or what went wrong in its place (the page still shows the rest)."""
    try:
        return await cluster_status(member, haproxy_socket)
    except ArchiveError as exc:
        return {"process": member.name, "processes": [], "processes_error": str(exc),
                "lease": member.fencing.status()}
