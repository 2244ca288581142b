"""(8) A PostgreSQL standby promoted: the cluster runs with ``--standby`` (its own primary
and a synchronous streaming standby, ``cluster.pg_standby``, reached through one
multi-host URL with ``target_session_attrs=read-write``); the primary is killed (SIGKILL,
every backend too), ``GAP_SECONDS`` pass with no primary at all (a real failover's
detection), and the standby is promoted. The processes must find the new primary, no
process may reap another that still plays, and every game go on."""

from __future__ import annotations

from typing import Final

import trio

from quaymoor.cluster.lease import DEFAULT_WINDOW_SECONDS
from quaymoor.cluster.pg_standby import StandbyPair
from quaymoor.cluster.runner import PAIR_FOLDER
from quaymoor.tools.fault_bench.fault import Fault, Stage

#: Longer than the old 5 s heartbeat and past the lease's pause (6 s): the failover of
#: issue 23 ("a standby failover slower than 5 s does the same").
GAP_SECONDS: Final = 8.0


async def _inject(stage: Stage) -> None:
    pair = StandbyPair(stage.system.folder / PAIR_FOLDER)
    took = await trio.to_thread.run_sync(pair.failover, GAP_SECONDS)
    stage.notes.append(f"the primary killed; the standby took writes {took:.1f} s later")


FAULT = Fault("pg-promotion", "PostgreSQL primary killed, its standby promoted", "cluster",
              _inject, hold=DEFAULT_WINDOW_SECONDS + 3, cluster_options=lambda: ("--standby",))
