"""(9) A table host cut off (its cable to the switch pulled: the switch's end of its link
down) for ``--partition-seconds`` (30, the issue's), then cabled again, on the cluster laid
over hosts of its own (``across_hosts``). The tables are seated across both table hosts
through the router; ``table-1`` (slot ``w00``) is cut, whatever it holds.

What the issue asks: the cut-off host fences itself (its tables pause, its players are
told), no other host serves its games twice, and when the link returns no game is lost or
duplicated. So a player of ``table-1`` counts as told only if it got ``table_paused`` or a
``game_ended`` that ended its game for it (any reason but ``finished``): a game that simply
went on after the link came back told its player nothing of the cut. A player of
``table-2``, which was never cut off, is told as in every row (its ``game_ended``). The
outage is the router's ``/healthz``; the seed watch polls ``/games/<id>.json`` of every
running game through the router, during the cut and after. The row has one target more
(``finish_target``): every game played to its finish, since the issue says a 30 s
partition ends no game (a host cut off no longer than the window before the other may
take it for dead pauses its tables and goes on).
"""

from __future__ import annotations

import shutil
from typing import Final

import trio

from quaymoor.cluster import netns
from quaymoor.cluster.haproxy import slot_name
from quaymoor.cluster.local_pg import PostgresError, find_bin
from quaymoor.cluster.netns_cluster import TABLE_HOSTS
from quaymoor.tools.fault_bench.across_hosts import slot_prefix
from quaymoor.tools.fault_bench.fault import Fault, Stage
from quaymoor.tools.fault_bench.table_client import TableClient

CUT_OFF: Final = "table-1"
PAUSED: Final = "table_paused"  #: what a fenced table's players are sent (the leases')


async def _inject(stage: Stage) -> None:
    prefix = slot_prefix(CUT_OFF)
    held = sum(c.table.startswith(prefix) for c in stage.clients)
    name = slot_name(TABLE_HOSTS.index(CUT_OFF))
    if held == 0:  # the router put every table on the other host: nothing to cut off
        raise RuntimeError(f"{CUT_OFF} ({name}) holds none of the {len(stage.clients)} "
                           "tables")
    stage.notes.append(f"{CUT_OFF} ({name}) held {held} of the {len(stage.clients)} "
                       "tables when its link went down")
    began = trio.current_time()
    await trio.to_thread.run_sync(netns.cut, stage.system.folder, name)
    try:
        await trio.sleep(stage.partition)
    finally:
        with trio.CancelScope(shield=True):
            await trio.to_thread.run_sync(netns.heal, stage.system.folder, name)
    stage.notes.append(f"{CUT_OFF}'s link down for {trio.current_time() - began:.1f} s")
    # A piece outside its namespace, or listening on the machine's own interfaces, would
    # make the cut a partial one: said, so that the row is not read as a real partition.
    stage.notes.extend(f"not a partition of hosts of their own: {wrong}"
                       for wrong in await trio.to_thread.run_sync(stage.system.cluster.escaped))


def _told(stage: Stage, client: TableClient, moment: float) -> bool:
    if not client.table.startswith(slot_prefix(CUT_OFF)):
        return client.told_since(moment)
    ended_for_it = (client.ended is not None and client.ended != "finished"
                    and client.ended_at is not None and client.ended_at >= moment)
    return client.heard[PAUSED] > 0 or ended_for_it


def _unavailable() -> str | None:
    why = netns.missing()
    if why is not None:
        return why
    if shutil.which("haproxy") is None:
        return "HAProxy is not installed (make haproxy)"
    try:
        find_bin()
    except PostgresError as exc:
        return str(exc)
    return None


FAULT = Fault("partition", f"{CUT_OFF}'s link down (the partition), then up again", "hosts",
              _inject, hold=5.0, record_seconds=10.0, unavailable=_unavailable, told=_told,
              finish_target=True)
