"""(7) SIGTERM of a single ``quaymoor serve`` (an operator's stop), then a start again on
the same port and archive: every player must get ``game_ended`` before the close, every
game its record."""

from __future__ import annotations

import signal

from quaymoor.tools.fault_bench.fault import Fault, Stage
from quaymoor.tools.fault_bench.system import STOP_SECONDS


async def _inject(stage: Stage) -> None:
    stage.system.signal(signal.SIGTERM)
    code = await stage.system.wait_exit(STOP_SECONDS)
    stage.notes.append(f"the server exited with {code}" if code is not None
                       else f"the server was still up {STOP_SECONDS:.0f} s after SIGTERM")
    if code is not None:
        await stage.system.restart()


FAULT = Fault("serve-term", "SIGTERM of quaymoor serve, then a start again", "single",
              _inject, hold=1.0, playing=True)
