"""HAProxy under ``quaymoor cluster``'s watch: started, restarted when it dies, and its
configuration file always the cluster's as it is now.

The runner changes HAProxy while it runs through the runtime API (a process joins,
drains, dies: ``haproxy.add_worker``, ``set_state``), without a reload. A file written
once at the start would then name processes long gone: an HAProxy restarted from it
after a deploy sent every request to dead ports (503). So every change goes through
``Router.change``: the file is regenerated from the live processes and replaced
atomically (a temporary file, fsync, rename: a reader or a restart never sees half of
one), then the running HAProxy is told. One change at a time (a lock), and a restart
takes the same lock: a change lands either in the file a restart reads or in the
HAProxy that restart started, never in neither.

``keep`` waits on HAProxy's process (no polling: trio wakes it when the process exits)
and starts another from a freshly written file at once; what a restart costs is
HAProxy's own start (some 50 ms here) and the clients' reconnects.
"""

from __future__ import annotations

import logging
import os
import subprocess
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Final

import trio

from quaymoor.cluster.haproxy import HaproxyError, Worker, config_text
from quaymoor.cluster.listening import wait_listening

log = logging.getLogger("quaymoor.cluster")

CONFIG_FILE: Final = "haproxy.cfg"  #: in the cluster's folder
PID_FILE: Final = "haproxy.pid"  #: the running HAProxy's process id, in the folder
#: How long a restart may take to listen before it counts as failed (and is tried again).
START_TIMEOUT: Final = 10.0
#: Between attempts when HAProxy will not start (the port still held, say).
RETRY_SECONDS: Final = 0.2


def write_atomically(path: Path, text: str) -> None:
    """``text`` in ``path`` by a rename: whoever opens ``path`` reads the old file or
    the new one, whole."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class Router:
    """The cluster's HAProxy: ``start``, then ``keep`` in a task; ``change`` for every
    change of the processes; ``stop`` at the end."""

    def __init__(self, *, binary: str, folder: Path, host: str, port: int, slots: int,
                 socket_path: str, address_limits: bool, maxconn: int,
                 workers: Callable[[], list[Worker]]) -> None:
        self.binary = binary
        self.config = folder / CONFIG_FILE
        self.log_file = folder / "haproxy.log"
        self.pid_file = folder / PID_FILE
        self.host, self.port, self.slots = host, port, slots
        self.socket = socket_path
        self.address_limits = address_limits
        self.maxconn = maxconn
        self.workers = workers  #: the live processes now, as HAProxy should route them
        self.process: trio.Process | None = None
        self.restarts = 0
        self.stopping = False
        self._lock = trio.Lock()

    def text(self) -> str:
        return config_text(host=self.host, port=self.port, workers=self.workers(),
                           slots=self.slots, socket_path=self.socket,
                           address_limits=self.address_limits, maxconn=self.maxconn)

    def write(self) -> None:
        write_atomically(self.config, self.text())

    async def start(self) -> None:
        async with self._lock:
            await self._launch()

    async def _launch(self) -> None:
        """Write the file, have HAProxy check it, start it, wait until it listens."""
        self.write()
        checked = await trio.to_thread.run_sync(lambda: subprocess.run(
            [self.binary, "-c", "-q", "-f", str(self.config)],
            capture_output=True, text=True, check=False))
        if checked.returncode != 0:
            raise RuntimeError(f"haproxy refused {self.config}: {checked.stderr.strip()}")
        out = self.log_file.open("ab")
        try:
            self.process = await trio.lowlevel.open_process(
                [self.binary, "-db", "-f", str(self.config)], stdout=out,
                stderr=subprocess.STDOUT, start_new_session=True)
        finally:
            out.close()
        write_atomically(self.pid_file, f"{self.process.pid}\n")
        await wait_listening(self.host, self.port, START_TIMEOUT, self.process)

    async def change(self, tell: Callable[[], Awaitable[None]] | None = None) -> None:
        """The processes changed: rewrite the file, then ``tell`` the running HAProxy
        (runtime API). When HAProxy is down (dead, a restart on its way) the file is
        enough: the restart reads it."""
        async with self._lock:
            self.write()
            if tell is None:
                return
            try:
                await tell()
            except HaproxyError:
                if self.running():
                    raise
                log.warning("HAProxy is down: the change waits in %s for its restart",
                            self.config)

    def running(self) -> bool:
        """Whether HAProxy runs now (``poll``: one just killed is seen dead at once,
        before ``keep`` has been woken)."""
        return self.process is not None and self.process.poll() is None

    async def keep(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED
                   ) -> None:
        """Forever: when HAProxy exits (killed, crashed), start another from the file
        regenerated now."""
        task_status.started()
        while True:
            process = self.process
            assert process is not None
            code = await process.wait()
            if self.stopping:
                return
            died = time.monotonic()
            log.error("HAProxy died (exit %s): starting it again from %s", code, self.config,
                      extra={"event": "haproxy_died"})
            while not self.stopping:
                try:
                    async with self._lock:
                        await self._launch()
                    break
                except (OSError, RuntimeError) as exc:
                    log.error("HAProxy did not start again: %s", exc)
                    if self.process is not None and self.process.returncode is None:
                        self.process.kill()
                    await trio.sleep(RETRY_SECONDS)
            if self.stopping:
                return
            self.restarts += 1
            log.warning("HAProxy restarted in %.2f s (restart %d)", time.monotonic() - died,
                        self.restarts, extra={"event": "haproxy_restarted"})

    async def stop(self) -> None:
        self.stopping = True
        process = self.process
        if process is None or process.returncode is not None:
            return
        process.terminate()
        with trio.move_on_after(5):
            await process.wait()
        if process.returncode is None:
            process.kill()
            await process.wait()
