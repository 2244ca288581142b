"""(3) HAProxy killed (SIGKILL): ``quaymoor cluster`` must start it again within about 2 s
from a configuration of the live processes, and the players reconnect and finish."""

from __future__ import annotations

import os
import signal

from quaymoor.tools.fault_bench.fault import Fault, Stage


async def _inject(stage: Stage) -> None:
    pid = await stage.system.haproxy_pid()
    if pid is None:
        raise RuntimeError("HAProxy's runtime API does not answer")
    os.kill(pid, signal.SIGKILL)
    stage.notes.append(f"HAProxy (pid {pid}) killed")


async def _after(stage: Stage) -> None:
    pid = await stage.system.haproxy_pid()
    stage.notes.append("HAProxy was not running again after the play-out" if pid is None
                       else f"HAProxy running again (pid {pid})")


FAULT = Fault("haproxy-kill", "kill -9 of HAProxy", "cluster", _inject, hold=5.0,
              recover=_after, outage_target=True)
