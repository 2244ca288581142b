"""The stall watch names the code that held the event loop, how long, and its CPU time."""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path

import pytest
import trio

from quaymoor.ops.stall_watch import StallWatch
from quaymoor.tools.server_bench.rig import stalls_summary


def _asleep_in_the_loop() -> None:
    time.sleep(0.15)  # a blocking call inside one step: holds the loop, off the CPU


def _working_in_the_loop() -> None:
    until = time.thread_time() + 0.15
    while time.thread_time() < until:  # holds the loop with 150 ms of CPU
        pass


async def _main() -> None:
    async with trio.open_nursery() as nursery:
        nursery.start_soon(StallWatch(0.04).run)
        for _ in range(10):  # a loop that keeps its beat: no stall
            await trio.sleep(0.01)
        await trio.sleep(0.1)
        _asleep_in_the_loop()
        await trio.sleep(0.1)
        _working_in_the_loop()
        await trio.sleep(0.1)
        nursery.cancel_scope.cancel()


def test_each_stall_is_logged_once_with_its_length_cpu_and_code(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="quaymoor.stalls"):
        trio.run(_main)
    stalls = [r.__dict__ for r in caplog.records if r.__dict__.get("event") == "loop_stall"]
    assert len(stalls) == 2, stalls
    asleep, working = stalls
    assert asleep["where"][0].startswith("_asleep_in_the_loop (")
    assert working["where"][0].startswith("_working_in_the_loop (")
    assert all("test_stall_watch.py:" in s["where"][0] for s in stalls)
    assert 100 <= asleep["ms"] <= 400 and working["ms"] >= 100
    assert asleep["cpu_ms"] < 50  # asleep, not working
    assert working["cpu_ms"] >= 100  # working


def test_the_benchmarks_summary_names_our_code_or_else_trios(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    lines = [
        {"event": "loop_stall", "ms": 120.0, "cpu_ms": 110.0, "where": [
            "dumps (json/__init__.py:238)", "status_json (quaymoor/actors/supervisor.py:9)",
            "serve (quaymoor/server.py:81)"]},
        {"event": "loop_stall", "ms": 30.0, "cpu_ms": 1.0, "where": [
            "get_events (trio/_core/_io_epoll.py:243)", "serve (quaymoor/server.py:81)",
            "cmd_serve (quaymoor/cli.py:97)"]},
        {"event": "full_gc", "message": "not a stall"},
    ]
    log.write_text("\n".join(json.dumps(line) for line in lines) + "\nnot json\n")
    text = stalls_summary(str(log))
    assert text.startswith("server event-loop stalls over 20 ms: 2, 0.1 s in all (0.1 s of")
    assert "longest 120 ms" in text
    assert "status_json (quaymoor/actors/supervisor.py:9) 1" in text
    assert "get_events (trio/_core/_io_epoll.py:243) 1" in text
    assert "serve (" not in text
