"""(4b) SIGTERM of a cluster's table process, as a host's shutdown sends it: the process
ends its games ("shutdown"), tells every player before it closes, and archives them."""

from __future__ import annotations

import os
import signal

import trio

from quaymoor.tools.fault_bench.fault import Fault, Stage
from quaymoor.tools.fault_bench.faults.victim import busiest

EXIT_SECONDS = 30.0  #: as ``quaymoor cluster`` waits for a process it stops


async def _inject(stage: Stage) -> None:
    victim = await busiest(stage)
    os.kill(int(victim["pid"]), signal.SIGTERM)
    with trio.move_on_after(EXIT_SECONDS):
        while os.path.exists(f"/proc/{victim['pid']}/stat") and not _zombie(victim["pid"]):
            await trio.sleep(0.2)


def _zombie(pid: object) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


FAULT = Fault("worker-term", "SIGTERM of the cluster's busiest table process", "cluster",
              _inject, hold=1.0, playing=True)
