"""The bench's faults, one module each, in the order of the table (``FAULTS``)."""

from __future__ import annotations

from quaymoor.tools.fault_bench.fault import Fault
from quaymoor.tools.fault_bench.faults import (
    deploy,
    haproxy_kill,
    partition,
    pg_outage,
    pg_promotion,
    serve_disk_full,
    serve_kill,
    serve_term,
    worker_kill,
    worker_term,
)

FAULTS: tuple[Fault, ...] = (worker_kill.FAULT, pg_outage.FAULT, haproxy_kill.FAULT,
                             deploy.FAULT, worker_term.FAULT, serve_kill.FAULT,
                             serve_disk_full.FAULT, serve_term.FAULT, pg_promotion.FAULT,
                             partition.FAULT)
BY_KEY: dict[str, Fault] = {f.key: f for f in FAULTS}
