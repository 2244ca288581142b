"""Settings of a running server, with the embedded defaults ``make run`` uses."""

from __future__ import annotations

import attrs

from quaymoor.store.archive import DEFAULT_ARCHIVE


@attrs.frozen
class TableConfig:
    decision_seconds: float = 90.0  #: the decision timer (how-to-play.txt)
    #: Seconds every bot waits before it acts, whatever its table's pace: an override for
    #: tests and benchmarks (0: at once; ``quaymoor serve --bot-delay``). None (the
    #: default): each table's pace sets it (``protocol.pace``, ``people`` unless chosen).
    bot_delay: float | None = None
    outbox_size: int = 64  #: messages queued for one connection before it is dropped
    inbox_size: int = 256
    linger_seconds: float = 600.0  #: a finished table stays open for reconnects this long
    lobby_seconds: float = 3600.0  #: a table nobody starts is closed after this long
    takeover_after: int = 2  #: timeouts in a row, while disconnected, before a bot plays
    #: Only the host starts a table, unless the host has not been connected to it for
    #: this long: then any seated player may (docs/protocol.md, start).
    host_away_seconds: float = 30.0
    #: How long the reveal stays open once the start has fixed every commitment: a seat
    #: that has not revealed its client seed by then plays on without it
    #: (docs/fairness.md, "Commit, then reveal").
    reveal_seconds: float = 10.0


@attrs.frozen
class ClientLimits:
    """What one client address may hold and do at once (docs/security.md, "Limits").

    The address is the TCP peer's, or behind a reverse proxy the one the proxy names in
    ``X-Forwarded-For`` when the proxy's address is trusted (``ServerConfig.
    forwarded_from``); otherwise every client of a proxy has the proxy's address and these
    limits are shared by all of them. In a cluster ``open_tables`` counts the address's
    tables on every process (docs/deploy.md)."""

    #: Tables one address may create (POST /api/tables and play-now) per minute: a token
    #: bucket of this size that refills evenly over a minute; past it, 429
    #: ``too_many_new_tables``.
    tables_per_minute: int = 30
    #: Tables created by one address that may be waiting or playing at once; past it, 429
    #: ``too_many_open_tables`` (finished tables lingering for reconnects do not count).
    open_tables: int = 20
    #: Websocket connections one address may hold open at once; past it the new one gets
    #: ``too_many_connections`` and close 4006.
    websockets: int = 64
    #: An attached websocket that sends nothing (no act, no ping) this long gets
    #: ``idle_timeout`` and close 4007. The web client pings every 25 s (web/net.js).
    idle_seconds: float = 120.0

    @classmethod
    def per_address_off(cls) -> ClientLimits:
        """No per-address caps (the idle timeout stays): for a load test whose clients
        all come from one machine (``quaymoor serve --no-address-limits``)."""
        return cls(tables_per_minute=1 << 40, open_tables=1 << 40, websockets=1 << 40)


@attrs.frozen
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 8000
    table: TableConfig = TableConfig()
    limits: ClientLimits = ClientLimits()  #: per client address
    #: The scheme browsers reach the server by, which an Origin must have: "http", or
    #: "https" behind a reverse proxy that terminates TLS (``quaymoor serve --scheme``).
    scheme: str = "http"
    #: The origin browsers reach the site by (``https://quaymoor.example``; ``quaymoor
    #: serve --public-origin``): passkeys are made for its host name and answered from it
    #: only. None: ``<scheme>://localhost:<port>`` (``make run``: http://localhost:8000).
    public_origin: str | None = None
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
    #: Log every stall of the event loop longer than this many milliseconds, with what
    #: it was running (ops/stall_watch.py); None: off.
    stall_ms: float | None = None
    #: In a cluster (``quaymoor cluster``, docs/deploy.md): the shared PostgreSQL
    #: database, which replaces the SQLite archive; None: one process on its own.
    database_url: str | None = None
    #: Iterations of each decision's search in a post-game analysis (``quaymoor serve
    #: --analysis-iterations``); None: the analysis's own (``bots/analysis.py``).
    analysis_iterations: int | None = None
    #: In a cluster: this process's slot in HAProxy (0-255), which begins its table ids.
    slot: int | None = None
    #: In a cluster: HAProxy's runtime API socket, for its view on the status page.
    haproxy_socket: str | None = None
    #: In a cluster: the lease's window, seconds without a heartbeat before a process is
    #: taken for dead (``cluster.lease``; tests shorten it); None: the lease's own default.
    lease_seconds: float | None = None
    #: Proxies (IP addresses) whose ``X-Forwarded-For`` names the client
    #: (``quaymoor serve --forwarded-from``; the cluster's HAProxy): empty, none.
    forwarded_from: frozenset[str] = frozenset()
