"""Which table process a cluster fault hits: the live one holding most of the watched
tables (a table's id starts with its process's slot, ``w01`` -> ``01``)."""

from __future__ import annotations

from typing import Any

from quaymoor.tools.fault_bench.fault import Stage


async def busiest(stage: Stage) -> dict[str, Any]:
    """The live process (its ``/status.json`` entry) with most of the stage's tables;
    raises ``RuntimeError`` when the cluster lists none."""
    processes = await stage.system.processes()
    if not processes:
        raise RuntimeError("the cluster lists no live process")

    def held(process: dict[str, Any]) -> int:
        slot = str(process["name"]).removeprefix("w")
        return sum(c.table.startswith(slot) for c in stage.clients)

    chosen: dict[str, Any] = max(processes, key=held)
    stage.notes.append(f"{chosen['name']} (pid {chosen['pid']}) held {held(chosen)} of the "
                       f"{len(stage.clients)} tables")
    return chosen
