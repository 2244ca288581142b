"""(8) A PostgreSQL standby promoted: the primary killed, the standby (streaming
replication, started with the cluster) promoted; the processes reach it through their
multi-host connection string and every game goes on. Needs the primitive of
``primitive.STANDBY``."""

from __future__ import annotations

import trio

from quaymoor.tools.fault_bench.fault import Fault, Stage
from quaymoor.tools.fault_bench.faults.primitive import cluster_options, load, missing

STANDBY = "quaymoor.cluster.standby"


async def _inject(stage: Stage) -> None:
    await trio.to_thread.run_sync(load(STANDBY).fail_over, stage.system.folder)
    stage.notes.append("the primary killed and the standby promoted")


FAULT = Fault("pg-promotion", "PostgreSQL primary killed, its standby promoted", "cluster",
              _inject, hold=8.0,
              unavailable=lambda: missing(STANDBY, "a streaming standby and its promotion"),
              cluster_options=lambda: cluster_options(STANDBY))
