"""Settings of a running server, with the embedded defaults ``make run`` uses."""

from __future__ import annotations

import attrs

from quaymoor.store.archive import DEFAULT_ARCHIVE


@attrs.frozen
class TableConfig:
    decision_seconds: float = 90.0  #: the decision timer (how-to-play.txt)
    bot_delay: float = 0.6  #: a bot's human-feeling pause before it acts (tests use 0)
    outbox_size: int = 64  #: messages queued for one connection before it is dropped
    inbox_size: int = 256
    linger_seconds: float = 600.0  #: a finished table stays open for reconnects this long
    lobby_seconds: float = 3600.0  #: a table nobody starts is closed after this long
    takeover_after: int = 2  #: timeouts in a row, while disconnected, before a bot plays


@attrs.frozen
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 8000
    table: TableConfig = TableConfig()
    max_message_bytes: int = 64 * 1024
    rate_per_second: float = 20.0  #: messages a connection may send per second ...
    rate_burst: int = 60  #: ... with this burst
    hello_timeout: float = 10.0
    #: One message that cannot be sent in this long ends the connection (a client that
    #: stopped reading); it may reconnect.
    send_timeout: float = 30.0
    #: A connection its table dropped as too slow gets this long to take what was queued
    #: and the 4003 close; then the server lets go of it.
    drop_grace: float = 10.0
    #: The game archive (SQLite), relative to the current folder; None keeps records in
    #: memory only (lost at a restart); ":memory:" is an archive for one run.
    archive_path: str | None = DEFAULT_ARCHIVE
    #: Operators' token for /status.json and /metrics (sent as "Authorization: Bearer
    #: <token>"); None: those answer only on loopback.
    operator_token: str | None = None
