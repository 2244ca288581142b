"""The benchmarks' fixed numbers: how many clients, for how long, within which bounds."""

from __future__ import annotations

from quaymoor.config import ServerConfig

_SERVER = ServerConfig()  #: the server under test runs with the default settings

HOST = "127.0.0.1"


def serve_options(stalls: bool) -> list[str]:
    """The options of the server under test, one process's (``serve``) or a cluster's (it
    passes them to each of its processes): bots without delay, decision timers out of the
    way, no per-address caps (every client is on this machine), and event-loop stalls
    over 20 ms logged if ``stalls`` (ops/stall_watch.py)."""
    return ["--bot-delay", "0", "--decision-seconds", "600", "--no-address-limits",
            *(["--log-stalls", "20"] if stalls else [])]


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
#: The watched-table step: one table of players and these many spectators in turn; the
#: players think as fast players do, so that a turn's updates come as a real game's do.
SPECTATED_COUNTS = (0, 300, 1000)
SPECTATED_PLAYERS = 4
SPECTATED_THINK = 0.3
SPECTATED_SECONDS = 90.0
SPECTATED_TARGET = 0.05  #: the players' p95 action-to-update latency at the largest count
