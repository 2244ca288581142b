"""Small HTTP/1.1 probes the cluster's runner uses while starting its pieces: is a port
listening yet, what does one GET answer (status, body). h11, as the server's own door."""

from __future__ import annotations

import h11
import trio


async def http_get(host: str, port: int, path: str, timeout: float = 5.0
                   ) -> tuple[int, bytes]:
    """The status and body of ``GET path``; status 0 when nothing answers."""
    try:
        with trio.fail_after(timeout):
            stream = await trio.open_tcp_stream(host, port)
            async with stream:
                conn = h11.Connection(h11.CLIENT)
                await stream.send_all(conn.send(h11.Request(
                    method="GET", target=path,
                    headers=[("Host", f"{host}:{port}"), ("Connection", "close")])) or b"")
                await stream.send_all(conn.send(h11.EndOfMessage()) or b"")
                status, body = 0, b""
                while True:
                    event = conn.next_event()
                    if event is h11.NEED_DATA:
                        conn.receive_data(await stream.receive_some(65536))
                        continue
                    if isinstance(event, h11.Response):
                        status = event.status_code
                    elif isinstance(event, h11.Data):
                        body += bytes(event.data)
                    elif isinstance(event, h11.EndOfMessage | h11.ConnectionClosed):
                        return status, body
    except (OSError, trio.TooSlowError, h11.ProtocolError, trio.BrokenResourceError):
        return 0, b""


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
