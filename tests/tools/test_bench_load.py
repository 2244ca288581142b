"""The load proof at a small size, as `make test` runs it: real server and client
processes on loopback, every game to its end, every stream complete and in order."""

from __future__ import annotations

import subprocess
import sys


def test_bench_load_at_a_small_size_passes() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "quaymoor", "bench", "load", "--tables", "6",
         "--client-procs", "2", "--think", "0.02", "--seconds", "90"],
        capture_output=True, text=True, timeout=180, check=False,
    )
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert "games finished / started: 6 / 6" in out
    assert "24 of 24 client streams complete" in out
    assert "verdict: PASS" in out


def test_the_watched_table_reports_each_crowd_and_every_spectator_keeps_up() -> None:
    """The watched-table step with crowds of 0 and 200 (the benchmark's own are 0, 300 and
    1,000), players not thinking (its fastest): each crowd's game finishes with every
    spectator welcomed and seeing the end. Its latency target is the benchmark's verdict,
    not this test's (a busy machine moves it)."""
    import re

    done = subprocess.run(
        [sys.executable, "-m", "quaymoor", "bench", "server", "--only", "watched",
         "--think", "0", "--spectators", "0,200"],
        capture_output=True, text=True, timeout=240, check=False)
    out = done.stdout
    assert done.returncode in (0, 1), out + done.stderr
    assert "watched by 0, 200 spectators in turn" in out, out
    for crowd in (0, 200):
        line = next((x for x in out.splitlines()
                     if x.startswith(f"  {crowd} spectators: players'")), None)
        assert line is not None, out
        assert "game finished 1 of 1, players' streams in order 4 of 4" in line, line
        assert (f"spectators welcomed {crowd}, saw the end {crowd}, closed early none"
                in line), line
        acts = re.search(r"\((\d+) acts\)", line)
        assert acts is not None and int(acts.group(1)) > 50, line
    assert re.search(r"watched-table target .*: (met|not met) \(\d+\.\d ms\)", out), out
    assert done.returncode == (0 if ": met (" in out else 1)


BEFORE = """\
# HELP quaymoor_action_latency_seconds From an action's arrival to its broadcast
# TYPE quaymoor_action_latency_seconds histogram
quaymoor_action_latency_seconds_bucket{le="0.01"} 10.0
quaymoor_action_latency_seconds_bucket{le="0.04"} 10.0
quaymoor_action_latency_seconds_bucket{le="0.05"} 10.0
quaymoor_action_latency_seconds_bucket{le="0.1"} 10.0
quaymoor_action_latency_seconds_bucket{le="+Inf"} 10.0
quaymoor_action_latency_seconds_count 10.0
quaymoor_action_latency_seconds_sum 0.02
quaymoor_action_latency_seconds_created 1.7e+09
quaymoor_gc_pause_seconds_bucket{generation="0",le="0.01"} 5.0
quaymoor_gc_pause_seconds_bucket{generation="0",le="0.05"} 5.0
quaymoor_gc_pause_seconds_bucket{generation="0",le="+Inf"} 5.0
quaymoor_gc_pause_seconds_count{generation="0"} 5.0
quaymoor_gc_pause_seconds_sum{generation="0"} 0.004
"""

AFTER = """\
# TYPE quaymoor_action_latency_seconds histogram
quaymoor_action_latency_seconds_bucket{le="0.01"} 60.0
quaymoor_action_latency_seconds_bucket{le="0.04"} 108.0
quaymoor_action_latency_seconds_bucket{le="0.05"} 109.0
quaymoor_action_latency_seconds_bucket{le="0.1"} 110.0
quaymoor_action_latency_seconds_bucket{le="+Inf"} 110.0
quaymoor_action_latency_seconds_count 110.0
quaymoor_action_latency_seconds_sum 1.52
quaymoor_gc_pause_seconds_bucket{generation="0",le="0.01"} 8.0
quaymoor_gc_pause_seconds_bucket{generation="0",le="0.05"} 9.0
quaymoor_gc_pause_seconds_bucket{generation="0",le="+Inf"} 9.0
quaymoor_gc_pause_seconds_count{generation="0"} 9.0
quaymoor_gc_pause_seconds_sum{generation="0"} 0.034
quaymoor_gc_pause_seconds_bucket{generation="2",le="0.01"} 0.0
quaymoor_gc_pause_seconds_bucket{generation="2",le="0.05"} 0.0
quaymoor_gc_pause_seconds_bucket{generation="2",le="+Inf"} 1.0
quaymoor_gc_pause_seconds_count{generation="2"} 1.0
quaymoor_gc_pause_seconds_sum{generation="2"} 0.2
"""


def test_prometheus_histograms_are_diffed_and_read_as_bucket_bounds() -> None:
    import math

    from quaymoor.tools.server_bench.prometheus import histogram_diff

    latency = histogram_diff(BEFORE, AFTER, "quaymoor_action_latency_seconds")[""]
    assert latency.observed == 100
    assert math.isclose(latency.total, 1.5)
    assert latency.buckets == ((0.01, 50.0), (0.04, 98.0), (0.05, 99.0), (0.1, 100.0),
                               (math.inf, 100.0))
    assert latency.bound(0.5) == 0.01
    assert latency.bound(0.99) == 0.05  # 98 % at or under 40 ms, 99 % at or under 50 ms
    assert latency.bound(1.0) == 0.1
    assert latency.share_at_or_under(0.05) == 0.99
    assert latency.share_at_or_under(0.045) == 0.98  # the largest bound under the limit
    assert latency.bound_text(0.99) == "<= 50 ms"

    pauses = histogram_diff(BEFORE, AFTER, "quaymoor_gc_pause_seconds", by="generation")
    assert sorted(pauses) == ["0", "2"]
    assert pauses["0"].observed == 4
    assert math.isclose(pauses["0"].total, 0.03)
    assert pauses["0"].bound_text(1.0) == "<= 50 ms"
    assert pauses["2"].observed == 1  # absent before: all of it is new
    assert pauses["2"].bound_text(1.0) == "> 50 ms"  # only in the +Inf bucket
    assert latency.counts_text() == "<=10 ms: 50, <=40 ms: 48, <=50 ms: 1, <=100 ms: 1"
    assert pauses["2"].counts_text() == "> 50 ms: 1"

    same = histogram_diff(AFTER, AFTER, "quaymoor_action_latency_seconds")[""]
    assert same.observed == 0
    assert same.bound(0.99) is None
    assert same.bound_text(0.99) == "n/a"
    assert histogram_diff(BEFORE, AFTER, "quaymoor_nothing") == {}


def test_latency_windows_and_start_delays() -> None:
    from quaymoor.tools.server_bench.client_process import start_delays
    from quaymoor.tools.server_bench.report import latency_windows

    go = 100.0
    windows = latency_windows([0.1, 0.2, 0.3, 0.4], [100.5, 109.9, 110.0, 131.0], go)
    assert windows == [(0, [0.1, 0.2]), (1, [0.3]), (3, [0.4])]
    # two processes of two tables over 10 s interleave: 0, 2.5, 5, 7.5
    assert start_delays(2, 10.0, 0, 2) == [0.0, 5.0]
    assert start_delays(2, 10.0, 1, 2) == [2.5, 7.5]
    assert start_delays(3, 0.0, 1, 2) == [0.0, 0.0, 0.0]


def test_frame_types_are_found_without_parsing_updates() -> None:
    from quaymoor.tools.server_bench.spectator import is_type

    ended = '{"table": "ab", "reason": "finished", "result": null, "type": "game_ended"}'
    update = ('{"version": 9, "since": 8, "events": [{"reasons": [], "winners": [0], '
              '"type": "game_ended"}], "view": {}, "clocks": [], "seats": [], '
              '"type": "update"}')
    assert is_type(ended, "game_ended")
    assert not is_type(update, "game_ended")
    assert is_type('{"type": "game_ended", "reason": "finished"}', "game_ended")


def test_histograms_of_several_processes_merge_by_summing_buckets() -> None:
    import math

    from quaymoor.tools.server_bench.prometheus import Histogram, histogram_diff, merged

    one = histogram_diff(BEFORE, AFTER, "quaymoor_action_latency_seconds")[""]
    both = merged([one, one])
    assert both.observed == 200
    assert math.isclose(both.total, 3.0)
    assert both.buckets == tuple((le, 2 * n) for le, n in one.buckets)
    assert both.bound(0.99) == one.bound(0.99)
    # bounds only one of them has: the other counts what it has at or under them
    coarse = Histogram(((0.05, 10.0), (math.inf, 10.0)), 10.0, 0.1)
    mixed = one.plus(coarse)
    assert mixed.buckets == ((0.01, 50.0), (0.04, 98.0), (0.05, 109.0), (0.1, 110.0),
                             (math.inf, 110.0))
    assert merged([]).observed == 0


def test_spectators_watch_from_processes_apart_from_the_players() -> None:
    """The fan-out's setup: every table and its players in the first client process, the
    spectators of those tables in the others; each spectator sees its game to its end."""
    from quaymoor.tools.server_bench.load_run import run_load
    from quaymoor.tools.server_bench.rig import rig

    with rig(3) as (served, pipes, _):
        run = run_load(served, pipes, tables=3, players=2, seconds=90, think=0.0,
                       start_spread=0.0, spectators=4)
    players, *watchers = run.done
    assert players["tables"] == 3 and players["finished_tables"] == 3
    assert players["streams_ok"] == 6 and players["watch"]["welcomed"] == 0
    assert [w["tables"] for w in watchers] == [0, 0]
    assert sorted(w["watch"]["welcomed"] for w in watchers) == [6, 6]  # 12 = 3 x 4, spread
    assert sum(w["watch"]["ended"] for w in watchers) == 12
    assert all(w["watch"]["frames"] > 0 for w in watchers)
