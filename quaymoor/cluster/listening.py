"""The cluster's runner waits for each piece it starts to listen."""

from __future__ import annotations

import trio


async def wait_listening(host: str, port: int, timeout: float,
                         process: trio.Process | None = None) -> None:
    """Return once ``host:port`` accepts a connection; raises ``OSError`` after
    ``timeout`` or as soon as ``process`` (the one that should listen) has exited."""
    with trio.move_on_after(timeout):
        while process is None or process.returncode is None:
            try:
                stream = await trio.open_tcp_stream(host, port)
            except OSError:
                await trio.sleep(0.05)
                continue
            await stream.aclose()
            return
        raise OSError(f"the process exited ({process.returncode}) before {host}:{port} "
                      "listened")
    raise OSError(f"nothing listened on {host}:{port} within {timeout} s")
