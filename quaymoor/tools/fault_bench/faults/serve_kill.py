"""(5) SIGKILL of a single ``quaymoor serve``, then a restart on the same port and archive:
every unfinished game must end as "shutdown" with its record, and a reconnecting player
be told so."""

from __future__ import annotations

import signal

from quaymoor.tools.fault_bench.fault import Fault, Stage


async def _inject(stage: Stage) -> None:
    stage.system.signal(signal.SIGKILL)
    await stage.system.wait_exit(10)
    await stage.system.restart()


FAULT = Fault("serve-kill", "SIGKILL of quaymoor serve, then a restart", "single", _inject,
              hold=2.0)
