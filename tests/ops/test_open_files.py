"""``quaymoor serve`` raises its soft open-file limit to the hard one: every websocket is
a descriptor, and a shell's soft limit (often 1,024) would cap it near a thousand
players."""

from __future__ import annotations

import resource
from pathlib import Path

from tests.server_process import start_server


def _limits(pid: int) -> tuple[int, int]:
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            soft, hard = line.split()[3:5]
            return int(soft), int(hard)
    raise AssertionError("no open-file limit in /proc")


def test_serve_raises_its_soft_open_file_limit(tmp_path: Path) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    low = min(512, hard)
    resource.setrlimit(resource.RLIMIT_NOFILE, (low, hard))  # the server inherits it
    try:
        served = start_server(tmp_path / "archive.sqlite3")
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    try:
        assert _limits(served.proc.pid) == (hard, hard)
    finally:
        served.stop()
