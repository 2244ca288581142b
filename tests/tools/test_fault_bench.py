"""``quaymoor bench faults`` at a small size, as ``make test`` runs it: every fault of
issue 23 injected for real (a killed process, a stopped PostgreSQL, a killed HAProxy, a
deploy, a full tmpfs, ...) with 2 tables mid-game each, three faults at a time, each on a
system of its own.

The partition runs on the cluster laid over network namespaces, a table host cut off for
``PARTITION`` seconds (the bench's own default is the issue's 30 s): past the point where
a host that cannot reach its database pauses its tables, well inside the window before the
other may take it for dead.

What it asserts: every row was measured (none failed in the bench, none skipped; only the
partition says "not available" where namespaces cannot be made, not root or no ``ip``, and
the full disk without root); each row's figures hold together; and every measured row
meets issue 23's targets: 0 records lost, every record verified, 0 seeds published early,
every connected player told, HAProxy's outage under 3 s."""

from __future__ import annotations

import os

import pytest

from quaymoor.cluster.netns import missing
from quaymoor.tools.fault_bench import bench_faults
from quaymoor.tools.fault_bench.faults import FAULTS
from quaymoor.tools.fault_bench.row import table_text
from tests.cluster.running import needs_cluster_tools

TABLES = 2
PG_OUTAGE = 8.0  #: past the old 5 s heartbeat and the lease's 6 s pause: the issue's outage
PARTITION = 10.0  #: seconds table-1 is cut off (past the lease's pause, inside its window)
#: Rows that meet every target on today's main (the rest are issue 23's open work).
def _may_be_absent() -> set[str]:
    """The faults that may rightly not run here."""
    absent = {"partition"} if missing() is not None else set()
    if os.geteuid() != 0:
        absent.add("serve-disk-full")
    return absent


@pytest.mark.slow
def test_every_fault_is_measured_and_meets_its_targets() -> None:
    needs_cluster_tools()
    code, rows = bench_faults(tables=TABLES, pg_outage=PG_OUTAGE, jobs=3,
                              partition=PARTITION)
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
    if by_key["partition"].measured:  # the cut was made, and lasted
        assert any(n.startswith(f"table-1's link down for {PARTITION:.0f}")
                   for n in by_key["partition"].notes), shown
    else:
        assert by_key["partition"].unavailable == missing(), shown
    assert [(r.key, r.missed()) for r in rows if r.missed()] == [], shown
    assert code == 0, shown
