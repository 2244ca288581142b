"""``quaymoor bench faults`` at a small size, as ``make test`` runs it: every fault of
issue 23 injected for real (a killed process, a stopped PostgreSQL, a killed HAProxy, a
deploy, a full tmpfs, ...) with 2 tables mid-game each, three faults at a time, each on a
system of its own.

What it asserts: every row was measured (none failed in the bench, none skipped; only the
partition says "not available" while its primitive is not on this build, and the full
disk without root); each row's figures hold together; and the targets of the faults that meet
them today. The other rows are measured and printed, not asserted: other parts of
issue 23 fix them (``PASSING_TODAY`` grows as they are merged)."""

from __future__ import annotations

import os

import pytest

from quaymoor.tools.fault_bench import bench_faults
from quaymoor.tools.fault_bench.faults import FAULTS, partition
from quaymoor.tools.fault_bench.row import table_text
from tests.cluster.running import needs_cluster_tools

TABLES = 2
PG_OUTAGE = 8.0  #: past the old 5 s heartbeat and the lease's 6 s pause: the issue's outage
#: Rows that meet every target on today's main (the rest are issue 23's open work).
PASSING_TODAY = {"worker-kill", "haproxy-kill", "deploy", "worker-term", "pg-outage",
                 "pg-promotion"}


def _may_be_absent() -> set[str]:
    """The faults that may rightly not run here."""
    absent = {"partition"} if partition.FAULT.unavailable() is not None else set()
    if os.geteuid() != 0:
        absent.add("serve-disk-full")
    return absent


@pytest.mark.slow
def test_every_fault_is_measured_and_those_that_pass_today_meet_their_targets() -> None:
    needs_cluster_tools()
    code, rows = bench_faults(tables=TABLES, pg_outage=PG_OUTAGE, jobs=3)
    shown = table_text(rows)
    assert [r.key for r in rows] == [f.key for f in FAULTS], shown
    for row in rows:
        assert row.broken is None, shown
        if not row.measured:
            assert row.key in _may_be_absent(), shown
            continue
        assert row.games == TABLES and row.connected == TABLES, shown
        assert 0 <= row.told <= row.connected, shown
        assert 0 <= row.verified <= row.records <= row.games, shown
        assert 0 <= row.early <= row.games and row.outage >= 0, shown
    by_key = {r.key: r for r in rows}
    for key in PASSING_TODAY:
        assert by_key[key].missed() == [], shown
    assert code == (1 if any(r.missed() for r in rows) else 0), shown
