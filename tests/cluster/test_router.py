"""``cluster.router`` against a real HAProxy, no cluster: the configuration file is
replaced whole (no temporary file left), HAProxy killed with ``kill -9`` is restarted at
once from the file as it is then, and a change made while it was dead is in the file the
restart reads (the runtime API could not be told), so the new HAProxy routes it."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import time
from pathlib import Path

import pytest
import trio

from quaymoor.cluster.haproxy import Worker, add_worker, servers_view
from quaymoor.cluster.router import Router, write_atomically
from tests.cluster.running import needs_cluster_tools


def test_write_atomically_replaces_the_file_whole(tmp_path: Path) -> None:
    path = tmp_path / "haproxy.cfg"
    path.write_text("old\n")
    write_atomically(path, "new\n")
    assert path.read_text() == "new\n"
    assert [p.name for p in tmp_path.iterdir()] == ["haproxy.cfg"]
    with pytest.raises(TypeError):
        write_atomically(path, 42)  # type: ignore[arg-type]
    assert path.read_text() == "new\n"  # a failed write leaves the old file, no temp file
    assert [p.name for p in tmp_path.iterdir()] == ["haproxy.cfg"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_a_killed_haproxy_restarts_with_the_changes_made_meanwhile(tmp_path: Path) -> None:
    needs_cluster_tools()
    workers: list[Worker] = [Worker(0, "127.0.0.1", 1)]
    sock = str(tmp_path / "haproxy.sock")
    router = Router(binary=shutil.which("haproxy") or "/usr/sbin/haproxy", folder=tmp_path,
                    host="127.0.0.1", port=free_port(), slots=4, socket_path=sock,
                    address_limits=False, maxconn=256, workers=lambda: list(workers))
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            await router.start()
            await nursery.start(router.keep)
            first = router.process
            assert first is not None

            os.kill(first.pid, signal.SIGKILL)
            killed = time.monotonic()
            # A process joins while HAProxy is dead: the runtime API cannot be told, the
            # file is rewritten, and the change raises nothing.
            joined = Worker(1, "127.0.0.1", 2)
            workers.append(joined)
            await router.change(lambda: add_worker(sock, joined))
            assert "server w01 127.0.0.1:2 check\n" in router.config.read_text()

            while router.process is first or not router.running() or router.restarts < 1:
                await trio.sleep(0.01)
            restarted = router.process
            assert restarted is not None
            seen = {s["svname"]: s for s in await servers_view(sock)}
            took = time.monotonic() - killed
            assert {"w00", "w01"} <= set(seen), seen  # both routed by the new HAProxy
            assert (tmp_path / "haproxy.pid").read_text() == f"{restarted.pid}\n"
            assert took < 2.0, took

            # A change with HAProxy running goes through its runtime API too.
            third = Worker(2, "127.0.0.1", 3)
            workers.append(third)
            await router.change(lambda: add_worker(sock, third))
            seen = {s["svname"]: s for s in await servers_view(sock)}
            assert seen["w02"]["addr"] == "127.0.0.1:3", seen
            nursery.cancel_scope.cancel()
    await router.stop()
    assert restarted.returncode is not None
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".haproxy.cfg.")]
