"""(9) A table host cut off for ``CUT_SECONDS`` (its namespace's link down, then up): the
cut-off process fences itself (its tables pause, its players are told), no other process
serves its games twice, and when the link returns no game is lost or duplicated. Needs the
primitive named in ``primitive``."""

from __future__ import annotations

from typing import Final

import trio

from quaymoor.tools.fault_bench.fault import Fault, Stage
from quaymoor.tools.fault_bench.faults.primitive import cluster_options, load, missing
from quaymoor.tools.fault_bench.faults.victim import busiest

NETNS = "quaymoor.cluster.netns"
CUT_SECONDS: Final = 30.0


async def _inject(stage: Stage) -> None:
    primitive = load(NETNS)
    victim = str((await busiest(stage))["name"])
    await trio.to_thread.run_sync(primitive.cut, stage.system.folder, victim)
    await trio.sleep(CUT_SECONDS)
    await trio.to_thread.run_sync(primitive.heal, stage.system.folder, victim)
    stage.notes.append(f"{victim}'s host cut off for {CUT_SECONDS:g} s")


FAULT = Fault("partition", f"a table host's link down for {CUT_SECONDS:g} s", "cluster",
              _inject, hold=5.0,
              unavailable=lambda: missing(NETNS, "a cluster laid over namespaces, one per host",
                                          needs="CLUSTER_OPTIONS"),
              cluster_options=lambda: cluster_options(NETNS))
