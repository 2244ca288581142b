"""(4) A rolling deploy (SIGHUP to ``quaymoor cluster``): a new process beside each old
one, the old ones drained; every game plays on to its end through HAProxy."""

from __future__ import annotations

import os
import signal

import trio

from quaymoor.tools.fault_bench.fault import Fault, Stage

REPLACED_SECONDS = 60.0


async def _inject(stage: Stage) -> None:
    before = {str(p["instance"]) for p in await stage.system.processes()}
    os.kill(stage.system.runner_pid, signal.SIGHUP)
    with trio.move_on_after(REPLACED_SECONDS) as late:
        while True:
            listed = await stage.system.processes()
            fresh = [p for p in listed if str(p["instance"]) not in before]
            draining = [p for p in listed if str(p["instance"]) in before and p["draining"]]
            if len(fresh) >= len(before) and len(draining) == len(before):
                break
            await trio.sleep(0.3)
    if late.cancelled_caught:
        stage.notes.append(f"the deploy had not replaced every process after "
                           f"{REPLACED_SECONDS:.0f} s")


FAULT = Fault("deploy", "a rolling deploy (SIGHUP to quaymoor cluster)", "cluster",
              _inject, hold=1.0, playing=True)
