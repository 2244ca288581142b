"""A player client of the load: one seat's websocket, playing the first legal action of
every decision it is asked, checking its stream's order and timing each act.

Latency is from sending an ``act`` to the first update whose version is above the view
acted on. The client keeps to the server's rate limit with a slightly stricter bucket of
its own, and thinks ``think`` seconds on average before each act.
"""

from __future__ import annotations

import json
import time
import zlib
from collections import Counter
from collections.abc import Callable
from typing import Any

import trio
import trio_websocket

from quaymoor.protocol.patch import PatchError, ViewKeeper
from quaymoor.tools.server_bench.game_socket import run_connected
from quaymoor.tools.server_bench.settings import CLIENT_BURST, CLIENT_RATE


class Bucket:
    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.last = time.monotonic()

    def wait_needed(self) -> float:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        need = (1 - self.tokens) / self.rate
        self.tokens -= 1
        return need


class LoadStats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.latency_at: list[float] = []  #: time.monotonic() when each latency ended
        self.acts = 0
        self.updates = 0
        self.update_bytes = 0
        self.snapshots = 0  #: updates with no events at an unchanged version (seat changes)
        self.deltas = 0  #: updates with a patch, not a whole view
        self.delta_bytes = 0
        self.order_errors: list[str] = []
        self.streams_ok = 0
        self.streams_bad = 0
        self.order_faults = 0  #: streams with at least one ordering fault
        self.ended: Counter[str] = Counter()
        self.closed_early: Counter[str] = Counter()
        self.errors: Counter[str] = Counter()
        self.connect_failures: Counter[str] = Counter()
        self.rate_waits = 0
        self.open = 0
        self.peak_open = 0
        self.connected = 0
        self.tables_started = 0
        self.start_failures: Counter[str] = Counter()
        self.finished_tables = 0
        self.setup_failures: Counter[str] = Counter()


class Seat:
    def __init__(self, table: str, seat: int, token: str) -> None:
        self.table = table
        self.seat = seat
        self.token = token
        self.welcomed = False
        self.ended: str | None = None
        self.ok = True


async def play_seat(seat: Seat, port: int, stats: LoadStats, gate: trio.Semaphore, *,
                    on_welcome: Callable[[], None], think: float) -> None:
    """Play ``seat`` to the end of its game (or until the connection closes), counting
    into ``stats``; ``think`` is the mean seconds the player thinks before each act (0:
    none). Connects through ``gate`` and calls ``on_welcome`` once welcomed."""
    last: int | None = None
    acted = -1
    pending: float | None = None  #: when the act awaiting its first newer update was sent
    in_flight = False  #: an act the server has neither applied (as far as we saw) nor refused
    acted_mat: Any = None  #: our own mat in the view we acted on
    view: dict[str, Any] | None = None
    keeper = ViewKeeper()  #: keeps ``view`` from snapshots and deltas
    bucket = Bucket(CLIENT_RATE, CLIENT_BURST)

    def bad(why: str) -> None:
        if seat.ok:
            stats.order_faults += 1
        seat.ok = False
        if len(stats.order_errors) < 20:
            stats.order_errors.append(f"table {seat.table} seat {seat.seat}: {why}")

    async def act(ws: trio_websocket.WebSocketConnection) -> None:
        nonlocal acted, pending, in_flight, acted_mat
        assert view is not None
        if think > 0:
            # a player's thinking: uniform in [0.5, 1.5] x the mean, from a hash of the
            # table, seat and version (repeatable, no Python random, and tables do not all
            # think in step)
            spread = zlib.crc32(f"{seat.table}:{seat.seat}:{view['version']}".encode()) % 1000
            await trio.sleep(think * (0.5 + spread / 1000))
        wait = bucket.wait_needed()
        if wait > 0:
            stats.rate_waits += 1
            await trio.sleep(wait)
        acted = view["version"]
        acted_mat = view["mats"][seat.seat]
        pending = time.monotonic()
        in_flight = True
        stats.acts += 1
        await ws.send_message(json.dumps({"type": "act", "action": view["legal"][0]}))

    async def talk(ws: trio_websocket.WebSocketConnection, welcomed: Callable[[], None]) -> None:
        nonlocal last, pending, in_flight, view
        stats.open += 1
        stats.peak_open = max(stats.peak_open, stats.open)
        try:
            await ws.send_message(json.dumps(
                {"type": "hello", "table": seat.table, "token": seat.token, "since": None}))
            while True:
                text = await ws.get_message()
                msg = json.loads(text)
                kind = msg.get("type")
                if kind == "welcome":
                    seat.welcomed = True
                    welcomed()
                    on_welcome()
                elif kind == "update":
                    now = time.monotonic()
                    stats.updates += 1
                    stats.update_bytes += len(text)
                    v, since = msg["version"], msg["since"]
                    delta = "view" not in msg
                    try:
                        fed = keeper.feed(msg)
                        if fed is None:
                            raise PatchError(f"a delta from {since} on a view at "
                                             f"{view and view['version']}")
                        view = fed
                    except PatchError as exc:
                        bad(str(exc))  # a fault; the snapshot asked for goes on
                        await ws.send_message(json.dumps({"type": "resync"}))
                        continue
                    if delta:
                        stats.deltas += 1
                        stats.delta_bytes += len(text)
                        msg["view"] = view
                    if view["version"] != v:
                        bad(f"view at {view['version']} in the update to {v}")
                    if last is not None:
                        if since != last:
                            bad(f"since {since} after version {last}")
                        if v < last:
                            bad(f"version went back {last} -> {v}")
                        if v == last and not msg["events"]:
                            stats.snapshots += 1
                    if msg["events"] and v <= since:
                        bad(f"events without a new version ({since} -> {v})")
                    if since > v:
                        bad(f"since {since} above version {v}")
                    last = v
                    if pending is not None and v > acted:
                        stats.latencies.append(now - pending)
                        stats.latency_at.append(now)
                        pending = None
                    if in_flight and v > acted and _shows_our_act(seat.seat, msg, acted_mat):
                        in_flight = False
                    if (not in_flight and v == view["version"] and view["legal"]
                            and v > acted):
                        await act(ws)
                elif kind == "game_ended":
                    seat.ended = str(msg.get("reason"))
                    stats.ended[seat.ended] += 1
                    return
                elif kind == "error":
                    stats.errors[str(msg.get("code"))] += 1
                    # Every act of this seat has been handled by now (same outbox, in
                    # order): act again on the latest view if it still asks us to.
                    pending = None
                    in_flight = False
                    if view is not None and view["legal"] and last == view["version"]:
                        await act(ws)
        finally:
            stats.open -= 1

    await run_connected(port, seat.table, gate, stats, talk)


def _shows_our_act(seat: int, update: dict[str, Any], acted_mat: Any) -> bool:
    """Whether a newer update must include our last act. Only when several seats decide
    at once (Reeve, keeping goods) can another seat's act come first; every act but a
    Reeve placement has an event naming its seat, and a placement changes our own mat."""
    view = update["view"]
    return (seat not in view["deciding"]
            or any(e.get("seat") == seat for e in update["events"])
            or view["mats"][seat] != acted_mat)
