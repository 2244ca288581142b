"""(1) SIGKILL of a cluster's table process: a survivor must end its games as "shutdown"
(seeds revealed, records archived) once its heartbeat is stale, and a player reconnecting
through HAProxy must be told so; the cluster starts another process."""

from __future__ import annotations

import os
import signal

from quaymoor.cluster.lease import DEFAULT_WINDOW_SECONDS
from quaymoor.tools.fault_bench.fault import Fault, Stage
from quaymoor.tools.fault_bench.faults.victim import busiest


async def _inject(stage: Stage) -> None:
    victim = await busiest(stage)
    os.kill(int(victim["pid"]), signal.SIGKILL)


FAULT = Fault("worker-kill", "SIGKILL of the cluster's busiest table process", "cluster",
              _inject, hold=DEFAULT_WINDOW_SECONDS + 3)
