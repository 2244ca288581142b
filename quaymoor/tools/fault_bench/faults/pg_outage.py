"""(2) The cluster's PostgreSQL stopped for ``--pg-outage`` seconds (``pg_ctl -m immediate
stop``: as a crash, no checkpoint) and started again with the options it ran with. No
process may reap another that still plays its games, and no seed may be served early."""

from __future__ import annotations

import shlex
from pathlib import Path

import trio

from quaymoor.cluster.lease import DEFAULT_WINDOW_SECONDS
from quaymoor.cluster.local_pg import LocalPostgres
from quaymoor.tools.fault_bench.fault import Fault, Stage


def started_with(data: Path) -> str:
    """The options the server of the data folder ``data`` runs with (its
    ``postmaster.opts``, less the program and the data folder), for ``pg_ctl start -o``."""
    words = shlex.split((data / "postmaster.opts").read_text())[1:]
    keep: list[str] = []
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word == "-D":
            skip = True
        else:
            keep.append(word)
    return shlex.join(keep)


async def _inject(stage: Stage) -> None:
    pg: LocalPostgres = stage.system.postgres
    options = started_with(pg.data)
    await trio.to_thread.run_sync(pg.pg_ctl, "-m", "immediate", "-w", "stop")
    await trio.sleep(stage.pg_outage)
    await trio.to_thread.run_sync(
        pg.pg_ctl, "-o", options, "-l", str(pg.folder / "postgres.log"), "-w", "-t", "60",
        "start")
    stage.notes.append(f"PostgreSQL stopped for {stage.pg_outage:g} s")


FAULT = Fault("pg-outage", "PostgreSQL stopped (pg_ctl -m immediate), started again",
              "cluster", _inject, hold=DEFAULT_WINDOW_SECONDS + 3)
