"""``quaymoor bench faults``: the system's own parts failing, measured (issue 23).

Each fault runs on a system of its own, started for it: a real ``quaymoor cluster``
(HAProxy, two table processes, its own PostgreSQL) or one ``quaymoor serve`` on SQLite.
``--tables`` play-now tables are seated mid-game, one human-like client in each (the other
chair a bot), the fault is injected for real, and the bench watches from outside what a
player and the public would see: who was told, which records exist and verify, whether a
seed was served while its game still played, how long the public port was silent. One row
per fault; the verdict names the targets each row missed (docs/fault-bench.md).

Where each part lives: ``commands`` (the command: rows, table, verdict), ``run`` (one
fault, start to row), ``system`` (the cluster or the single process under test),
``table_client`` (a player), ``watch`` (the outage probe and the seed watch), ``collect``
(records read and verified), ``row`` (a row, its targets, the table), ``fault`` (what a
fault is), ``http_get`` (plain HTTP from trio), ``faults/`` (one module per fault).
"""

from __future__ import annotations

from quaymoor.tools.fault_bench.commands import bench_faults

__all__ = ["bench_faults"]
