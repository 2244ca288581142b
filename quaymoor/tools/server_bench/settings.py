"""The benchmarks' fixed numbers: how many clients, for how long, within which bounds."""

from __future__ import annotations

from quaymoor.config import ServerConfig

_SERVER = ServerConfig()  #: the server under test runs with the default settings

HOST = "127.0.0.1"
#: Clients of the fan-out steps: spectators of the games, then clients of the raw server.
#: Enough that the games' updates (about 30 a second per table, paced by players who act
#: as soon as they may, within the rate limit) ask more of the server than the target.
RAW_CLIENTS = 600
RAW_SECONDS = 5.0
RAW_SIZE = 4096  #: the raw step's message size when no spectator frame was measured
FANOUT_TABLES = 10
FANOUT_PLAYERS = 4
LATENCY_WINDOW = 10.0  #: seconds per window of the latency-over-time figures
LATENCY_TARGET = 0.05  #: the server's p99 action-to-broadcast latency should be under it
WARMUP_TABLES = 5
SETUP_SECONDS = 180.0  #: bound on creating, joining and connecting before the load starts
HTTP_CONCURRENCY = 16
CONNECT_CONCURRENCY = 64
#: The clients keep a little inside the server's per-connection rate limit.
CLIENT_RATE = _SERVER.rate_per_second * 0.9
CLIENT_BURST = _SERVER.rate_burst - 10
