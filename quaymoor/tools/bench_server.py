"""``quaymoor bench server`` and ``bench load``: the whole server under load, on loopback,
with figures.

What it does, in order (one run, everything bounded in count and time):

1. Starts ``quaymoor serve --port 0 --bot-delay 0 --decision-seconds 600`` as a
   subprocess (its log goes to a temporary file, scanned at the end; its archive is a
   temporary file too) and reads its port.
2. Idle tables: reads the server's VmRSS, creates ``--tables`` lobby tables over HTTP
   (after a few warm-up tables that are not counted), reads VmRSS again: KiB per idle table.
3. Spectator fan-out: ``FANOUT_TABLES`` tables, each played by 4 player clients that do
   not think (the same play and stream checks as the load) and watched by
   ``RAW_CLIENTS // FANOUT_TABLES`` spectator websockets (hello with a null token), split
   over the client processes. Spectators only count frames and bytes (no JSON parsing but
   of the ``game_ended`` that must end every stream); runs until the games end or
   ``RAW_SECONDS * 4`` pass. Frames/s and MB/s over the first to last spectator frame, and
   spectators closed early (any close code; 4003 is a too-slow drop): must be none.
4. Raw trio-websocket fan-out: a minimal trio-websocket server in its own subprocess
   broadcasts messages of the spectators' average frame size (4096 B if none was measured)
   to the same ``RAW_CLIENTS`` clients (split over the client processes) for about 5 s, each
   connection fed through its own bounded channel; messages delivered per second. The
   fan-out ratio is the spectator frames/s over these raw messages/s: the same frame size
   and client count.
5. Load: ``--client-procs`` spawned processes each create their share of ``--tables``
   tables, join ``--players`` human seats per table over HTTP and connect every seat's
   websocket (hello, welcome). When every process is ready ("go"), the tables are started,
   spread evenly over ``--start-spread`` seconds (below), and every seat plays the first
   legal action of each decision. Each stream is checked (``since`` equals the previous
   update's version, versions never go back, an update with events always moves the
   version on, ``game_ended`` with reason ``finished``). Latency: from sending an ``act``
   to receiving the first update whose version is above the view acted on. The load stops
   ``--seconds`` after go even if games are unfinished.
6. Prints the figures: the clients' latency overall and per 10-second window after go,
   and the server's own histograms (action-to-broadcast latency, GC pauses by generation,
   event-loop lag) from ``/metrics``, read just before go and after the load and diffed.
   The server subprocess is killed at the end, also on error or Ctrl-C.

Why the start is spread: a real site never sees 500 games start in the same instant, and
a lockstep start keeps every game in phase for the whole run (all tables reach the same
kind of decision, and the same burst of broadcasts, together), which measures an
artificial worst case again and again. Each client process spreads its own tables over
the whole spread, offset so that the processes interleave; ``--start-spread 0`` starts
every table at go. The per-window latency figures show what the start does (the first
windows, while tables are still starting, against the rest).

Clients keep to the server's per-connection rate limit (20 messages/s, burst 60) with a
slightly stricter bucket of their own; waits it causes are counted and printed.

``quaymoor bench load`` is step 5 alone, as the load proof: players think (0.5 s on
average by default) so that every game can finish within the bound; the server archives to
a temporary file; ``/status.json`` is read every second during the load for the server's
own event-loop lag (``live.event_loop_lag_ms``) and connection count. It ends with a
verdict (exit status 1 when it fails): every game finished, with every client's stream
complete and in order; and a second line on the latency target (the server's own p99
action-to-broadcast latency under 50 ms, as a histogram bucket bound), which does not
change the exit status.
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import multiprocessing
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
import urllib.request
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection as Pipe
from typing import Any, NamedTuple

import trio
import trio_websocket

from quaymoor.ops.gc_policy import configure_collector

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
CLIENT_RATE = 18.0  #: the server allows 20 messages/s per connection ...
CLIENT_BURST = 50  #: ... with a burst of 60


def raise_nofile() -> int:
    """Raise the open-file limit to its hard limit; returns the new soft limit."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for pid {pid}")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _post(port: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        f"http://{HOST}:{port}{path}", data=json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=30) as resp:
        data: dict[str, Any] = json.loads(resp.read())
    return data


def _get_bytes(port: int, path: str, timeout: float = 30.0) -> bytes:
    # The server we start inherits QUAYMOOR_OPERATOR_TOKEN: /status.json and /metrics then
    # want it.
    token = os.environ.get("QUAYMOOR_OPERATOR_TOKEN")
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    req = urllib.request.Request(f"http://{HOST}:{port}{path}", headers=headers)
    with urllib.request.urlopen(req, timeout=timeout) as resp:
        data: bytes = resp.read()
    return data


def _get(port: int, path: str, timeout: float = 30.0) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(_get_bytes(port, path, timeout))
    return data


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def latency_windows(latencies: list[float], ended_at: list[float], go: float,
                    width: float = LATENCY_WINDOW) -> list[tuple[int, list[float]]]:
    """The latency samples by window of ``width`` seconds after ``go`` (by when each
    ended): ``(window index, samples)``, windows without samples left out."""
    windows: dict[int, list[float]] = {}
    for value, at in zip(latencies, ended_at, strict=True):
        windows.setdefault(max(0, int((at - go) // width)), []).append(value)
    return sorted(windows.items())


def start_delays(tables: int, spread: float, index: int, procs: int) -> list[float]:
    """Seconds after go at which client process ``index`` of ``procs`` starts each of its
    ``tables``: evenly over the whole ``spread``, the processes interleaved."""
    return [spread * (j + index / procs) / tables for j in range(tables)]


# ---------------------------------------------------------------- Prometheus text

_SAMPLE = re.compile(r"^([A-Za-z_:][A-Za-z0-9_:]*)(?:\{(.*)\})?\s+(\S+)")
_LABEL = re.compile(r'([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"')


class Histogram(NamedTuple):
    """One Prometheus histogram: cumulative counts by upper bound ``le``."""

    buckets: tuple[tuple[float, float], ...]  #: (le, cumulative count), by le; +Inf last
    observed: float  #: the ``_count``
    total: float  #: the ``_sum``

    def minus(self, before: Histogram) -> Histogram:
        """What was observed since ``before`` (an earlier reading of the same series)."""
        old = dict(before.buckets)
        return Histogram(tuple((le, n - old.get(le, 0.0)) for le, n in self.buckets),
                         self.observed - before.observed, self.total - before.total)

    def bound(self, q: float) -> float | None:
        """The smallest bucket bound with a cumulative share of at least ``q`` (``inf``:
        above every finite bound); None without samples."""
        if self.observed <= 0:
            return None
        for le, n in self.buckets:
            if n / self.observed >= q - 1e-12:
                return le
        return math.inf

    def share_at_or_under(self, limit: float) -> float | None:
        """The share of samples in buckets bounded at or under ``limit`` (None: none)."""
        if self.observed <= 0:
            return None
        under = [n for le, n in self.buckets if le <= limit]
        return (under[-1] if under else 0.0) / self.observed

    def bound_text(self, q: float) -> str:
        b = self.bound(q)
        if b is None:
            return "n/a"
        if math.isinf(b):
            finite = [le for le, _ in self.buckets if not math.isinf(le)]
            return f"> {max(finite, default=0.0) * 1000:g} ms"
        return f"<= {b * 1000:g} ms"


def parse_exposition(text: str) -> list[tuple[str, dict[str, str], float]]:
    """The samples of a Prometheus text exposition: (name, labels, value)."""
    samples = []
    for line in text.splitlines():
        found = _SAMPLE.match(line)
        if found is None:  # comments, blank lines
            continue
        labels = dict(_LABEL.findall(found.group(2) or ""))
        samples.append((found.group(1), labels, float(found.group(3))))
    return samples


def histograms(samples: list[tuple[str, dict[str, str], float]], name: str,
               by: str | None = None) -> dict[str, Histogram]:
    """The histogram ``name`` from parsed samples, one per value of the label ``by``
    (a single one under the key "" without ``by``)."""
    buckets: dict[str, list[tuple[float, float]]] = {}
    counts: dict[str, float] = {}
    sums: dict[str, float] = {}
    for metric, labels, value in samples:
        key = labels.get(by, "") if by is not None else ""
        if metric == f"{name}_bucket" and "le" in labels:
            buckets.setdefault(key, []).append((float(labels["le"]), value))
        elif metric == f"{name}_count":
            counts[key] = value
        elif metric == f"{name}_sum":
            sums[key] = value
    return {key: Histogram(tuple(sorted(bs)), counts.get(key, max(n for _, n in bs)),
                           sums.get(key, 0.0))
            for key, bs in sorted(buckets.items())}


def histogram_diff(before: str, after: str, name: str,
                   by: str | None = None) -> dict[str, Histogram]:
    """What the histogram ``name`` observed between two expositions, by label ``by``."""
    old = histograms(parse_exposition(before), name, by)
    empty = Histogram((), 0.0, 0.0)
    return {key: h.minus(old.get(key, empty))
            for key, h in histograms(parse_exposition(after), name, by).items()}


# ---------------------------------------------------------------- raw fan-out server


def raw_server_main(clients: int, seconds: float, size: int) -> None:
    """Entry point of the raw fan-out subprocess: prints ``PORT n``, waits for ``clients``
    connections (20 s at most), broadcasts ``size``-byte messages for ``seconds``, closes
    every connection, prints ``SENT n SECONDS s``."""
    raise_nofile()
    trio.run(_raw_server, clients, seconds, size)


async def _raw_server(clients: int, seconds: float, size: int) -> None:
    channels: list[trio.MemorySendChannel[str]] = []
    everyone = trio.Event()
    done = trio.Event()

    async def handler(request: trio_websocket.WebSocketRequest) -> None:
        ws = await request.accept()
        send, recv = trio.open_memory_channel[str](16)
        channels.append(send)
        if len(channels) >= clients:
            everyone.set()
        try:
            async for text in recv:
                await ws.send_message(text)
            await ws.aclose()
        except trio_websocket.ConnectionClosed:
            pass

    async with trio.open_nursery() as nursery:
        server = await nursery.start(trio_websocket.serve_websocket, handler, HOST, 0, None)
        print(f"PORT {server.port}", flush=True)
        with trio.move_on_after(20):
            await everyone.wait()
        payload = "x" * size
        sent = 0
        start = time.monotonic()
        end = start + seconds
        while time.monotonic() < end:
            for ch in list(channels):
                try:
                    await ch.send(payload)
                    sent += 1
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    channels.remove(ch)
        elapsed = time.monotonic() - start
        for ch in channels:
            ch.close()
        print(f"SENT {sent} SECONDS {elapsed:.3f}", flush=True)
        done.set()
        with trio.move_on_after(10):
            await trio.sleep(3)  # let the writers drain and close
        nursery.cancel_scope.cancel()


async def _raw_clients(port: int, n: int, seconds: float) -> dict[str, Any]:
    counts: list[int] = []
    firsts: list[float] = []
    lasts: list[float] = []
    failures = 0

    async def client() -> None:
        nonlocal failures
        got = 0
        first = last = 0.0
        try:
            async with trio_websocket.open_websocket_url(
                f"ws://{HOST}:{port}/", connect_timeout=20, disconnect_timeout=2,
            ) as ws:
                while True:
                    await ws.get_message()
                    last = time.monotonic()
                    if got == 0:
                        first = last
                    got += 1
        except trio_websocket.ConnectionClosed:
            pass
        except (OSError, trio_websocket.HandshakeError):
            failures += 1
        counts.append(got)
        if got:
            firsts.append(first)
            lasts.append(last)

    with trio.move_on_after(seconds + 40):
        async with trio.open_nursery() as nursery:
            for _ in range(n):
                nursery.start_soon(client)
    return {"received": sum(counts), "first": min(firsts, default=0.0),
            "last": max(lasts, default=0.0), "failures": failures, "clients": n}


# ---------------------------------------------------------------- load clients


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


async def _http(limiter: trio.CapacityLimiter, port: int, path: str,
                body: dict[str, Any]) -> dict[str, Any]:
    async with limiter:
        return await trio.to_thread.run_sync(_post, port, path, body)


class Seat:
    def __init__(self, table: str, seat: int, token: str) -> None:
        self.table = table
        self.seat = seat
        self.token = token
        self.welcomed = False
        self.ended: str | None = None
        self.ok = True


async def _play_seat(seat: Seat, port: int, stats: LoadStats, gate: trio.Semaphore,
                     on_welcome: Callable[[], None]) -> None:
    last: int | None = None
    acted = -1
    pending: float | None = None  #: when the act awaiting its first newer update was sent
    in_flight = False  #: an act the server has neither applied (as far as we saw) nor refused
    acted_mat: Any = None  #: our own mat in the view we acted on
    view: dict[str, Any] | None = None
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
        if THINK_SECONDS > 0:
            # a player's thinking: uniform in [0.5, 1.5] x the mean, from a hash of the
            # table, seat and version (repeatable, no Python random, and tables do not all
            # think in step)
            spread = zlib.crc32(f"{seat.table}:{seat.seat}:{view['version']}".encode()) % 1000
            await trio.sleep(THINK_SECONDS * (0.5 + spread / 1000))
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

    await gate.acquire()
    released = False
    try:
        async with trio_websocket.open_websocket_url(
            f"ws://{HOST}:{port}/ws", connect_timeout=60, disconnect_timeout=2,
            max_message_size=1 << 22,
        ) as ws:
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
                        gate.release()
                        released = True
                        on_welcome()
                    elif kind == "update":
                        now = time.monotonic()
                        stats.updates += 1
                        stats.update_bytes += len(text)
                        v, since = msg["version"], msg["since"]
                        view = msg["view"]
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
                        break
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
    except trio_websocket.ConnectionClosed as exc:
        reason = exc.reason
        why = f"{reason.code} {reason.reason}" if reason is not None else "no reason"
        stats.closed_early[why] += 1
    except trio_websocket.HandshakeError as exc:
        stats.connect_failures[type(exc).__name__] += 1
    except OSError as exc:
        stats.connect_failures[f"{type(exc).__name__} {exc.errno}"] += 1
    finally:
        if not released:
            gate.release()


class WatchStats:
    """What the spectators of one client process saw."""

    def __init__(self) -> None:
        self.welcomed = 0
        self.frames = 0  #: frames received after go
        self.bytes = 0
        self.first = math.inf  #: time.monotonic() of the first frame after go
        self.last = 0.0  #: ... and of the last
        self.ended = 0  #: streams that ended with game_ended
        self.closed_early: Counter[str] = Counter()
        self.connect_failures: Counter[str] = Counter()

    def as_dict(self) -> dict[str, Any]:
        return {k: (dict(v) if isinstance(v, Counter) else v) for k, v in vars(self).items()}


def _text(frame: str | bytes) -> str:
    return frame if isinstance(frame, str) else frame.decode(errors="replace")


def _is_type(text: str, kind: str) -> bool:
    """Whether a server frame is a message of type ``kind``, without parsing the frames
    that are not: the tag is looked for at either end, then confirmed by parsing."""
    tag = f'"{kind}"'
    if tag not in text[:40] and tag not in text[-40:]:
        return False
    try:
        return bool(json.loads(text).get("type") == kind)
    except (ValueError, AttributeError):
        return False


async def _watch(table: str, port: int, stats: WatchStats, gate: trio.Semaphore, *,
                 on_welcome: Callable[[], None], going: trio.Event) -> None:
    """A spectator: counts the frames and bytes it gets after go, until game_ended."""
    await gate.acquire()
    released = False
    try:
        async with trio_websocket.open_websocket_url(
            f"ws://{HOST}:{port}/ws", connect_timeout=60, disconnect_timeout=2,
            max_message_size=1 << 22,
        ) as ws:
            await ws.send_message(json.dumps({"type": "hello", "table": table, "token": None}))
            welcome = _text(await ws.get_message())
            if not _is_type(welcome, "welcome"):
                stats.connect_failures[f"no welcome: {welcome[:60]}"] += 1
                return
            gate.release()
            released = True
            stats.welcomed += 1
            on_welcome()
            while True:
                text = _text(await ws.get_message())
                if not going.is_set():
                    continue  # lobby frames before the start
                now = time.monotonic()
                stats.frames += 1
                stats.bytes += len(text)
                stats.first = min(stats.first, now)
                stats.last = max(stats.last, now)
                if _is_type(text, "game_ended"):
                    stats.ended += 1
                    return
    except trio_websocket.ConnectionClosed as exc:
        reason = exc.reason
        stats.closed_early[f"{reason.code} {reason.reason}" if reason else "no reason"] += 1
    except trio_websocket.HandshakeError as exc:
        stats.connect_failures[type(exc).__name__] += 1
    except OSError as exc:
        stats.connect_failures[f"{type(exc).__name__} {exc.errno}"] += 1
    finally:
        if not released:
            gate.release()


def _shows_our_act(seat: int, update: dict[str, Any], acted_mat: Any) -> bool:
    """Whether a newer update must include our last act. Only when several seats decide
    at once (Reeve, keeping goods) can another seat's act come first; every act but a
    Reeve placement has an event naming its seat, and a placement changes our own mat."""
    view = update["view"]
    return (seat not in view["deciding"]
            or any(e.get("seat") == seat for e in update["events"])
            or view["mats"][seat] != acted_mat)


class LoadJob(NamedTuple):
    """One client process's share of a load."""

    port: int
    tables: int
    players: int
    think: float  #: mean seconds a player thinks
    start_spread: float  #: seconds after go over which the tables are started
    proc: int  #: this client process's index, to interleave the starts ...
    procs: int  #: ... with the other client processes'
    spectators: int = 0  #: spectators per table


async def _load(pipe: Pipe, job: LoadJob) -> None:
    stats = LoadStats()
    watch = WatchStats()
    http = trio.CapacityLimiter(HTTP_CONCURRENCY)
    gate = trio.Semaphore(CONNECT_CONCURRENCY)
    seats: dict[str, list[Seat]] = {}
    total = job.tables * (job.players + job.spectators)
    all_welcomed = trio.Event()
    going = trio.Event()

    def on_welcome() -> None:
        if stats.connected + watch.welcomed >= total:
            all_welcomed.set()

    def on_seat_welcome() -> None:
        stats.connected += 1
        on_welcome()

    async def set_up(nursery: trio.Nursery) -> None:
        try:
            info = await _http(http, job.port, "/api/tables", {"players": job.players})
            table = info["table"]
            mine = []
            for i in range(job.players):
                joined = await _http(http, job.port, f"/api/tables/{table}/join",
                                     {"name": f"bench{i}"})
                mine.append(Seat(table, joined["seat"], joined["token"]))
        except Exception as exc:
            stats.setup_failures[type(exc).__name__] += 1
            return
        seats[table] = mine
        for seat in mine:
            nursery.start_soon(_play_seat, seat, job.port, stats, gate, on_seat_welcome)
        for _ in range(job.spectators):
            nursery.start_soon(functools.partial(
                _watch, table, job.port, watch, gate, on_welcome=on_welcome, going=going))

    async def start(table: str, at: float) -> None:
        await trio.sleep_until(at)
        try:
            await _http(http, job.port, f"/api/tables/{table}/start",
                        {"token": seats[table][0].token})
            stats.tables_started += 1
        except Exception as exc:
            stats.start_failures[type(exc).__name__] += 1

    with trio.CancelScope() as play_scope:
        async with trio.open_nursery() as nursery:
            async with trio.open_nursery() as setup:
                for _ in range(job.tables):
                    setup.start_soon(set_up, nursery)
            with trio.move_on_after(SETUP_SECONDS):
                await all_welcomed.wait()
            pipe.send(("ready", stats.connected, stats.open, dict(stats.setup_failures),
                       watch.welcomed))
            go = await trio.to_thread.run_sync(pipe.recv)
            cpu_go = cpu_seconds(os.getpid())
            if go[0] != "go":
                play_scope.cancel()
            else:
                # time.monotonic() is shared by processes; trio's clock is not.
                go_at = trio.current_time() + (go[1] - time.monotonic())
                play_scope.deadline = go_at + (go[2] - go[1])
                going.set()
                delays = start_delays(len(seats), job.start_spread, job.proc, job.procs)
                async with trio.open_nursery() as starts:
                    for table, delay in zip(seats, delays, strict=True):
                        starts.start_soon(start, table, go_at + delay)
    play_end = time.monotonic()
    cpu_play = cpu_seconds(os.getpid()) - cpu_go
    for mine in seats.values():
        if all(s.ended == "finished" for s in mine):
            stats.finished_tables += 1
        for s in mine:
            if s.ok and s.ended == "finished":
                stats.streams_ok += 1
            else:
                stats.streams_bad += 1
    result = {k: (dict(v) if isinstance(v, Counter) else v) for k, v in vars(stats).items()}
    result["tables"] = len(seats)
    result["play_end"] = play_end
    result["cpu"] = cpu_play
    result["unfinished_tables"] = [t for t, mine in seats.items()
                                   if not all(s.ended == "finished" for s in mine)][:10]
    result["watch"] = watch.as_dict()
    pipe.send(("result", result))


def worker_main(pipe: Pipe) -> None:
    """A client process: runs the jobs main sends until told to quit.

    The clients are the measuring instrument: their own garbage-collector pauses would be
    counted as the server's latency, so they collect as the server does (young objects
    only; no full collection within a run)."""
    raise_nofile()
    # Clients here share the server's two cores; in real use they are other machines. A
    # lower priority keeps them from taking the server's CPU when both are busy.
    os.nice(10)
    configure_collector()
    while True:
        job = pipe.recv()
        if job[0] == "raw":
            pipe.send(("raw", trio.run(_raw_clients, job[1], job[2], job[3])))
        elif job[0] == "load":
            global THINK_SECONDS  # noqa: PLW0603 - one setting per client process
            THINK_SECONDS = job[1].think
            trio.run(_load, pipe, job[1])
        else:
            return


# ---------------------------------------------------------------- orchestration


def _split(n: int, parts: int) -> list[int]:
    return [n // parts + (1 if i < n % parts else 0) for i in range(parts)]


def _recv(pipe: Pipe, timeout: float, what: str) -> Any:
    if not pipe.poll(timeout):
        raise TimeoutError(f"a client process gave no {what} within {timeout:.0f} s")
    return pipe.recv()


def _start_process(args: list[str], pattern: str) -> tuple[subprocess.Popen[str], int, Any]:
    log = tempfile.NamedTemporaryFile(  # noqa: SIM115 (closed by the caller)
        "w+", prefix="quaymoor-bench-", suffix=".log", delete=False)
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=log, text=True,
                            stdin=subprocess.DEVNULL)
    assert proc.stdout is not None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        found = re.search(pattern, line)
        if found:
            return proc, int(found.group(1)), log
    proc.kill()
    raise RuntimeError(f"{args[2:]} did not report its port (log: {log.name})")


class Rig(NamedTuple):
    server: subprocess.Popen[str]
    port: int
    pipes: list[Pipe]  #: one per client process
    log: Any  #: the server's log file


@contextlib.contextmanager
def _rig(client_procs: int) -> Iterator[Rig]:
    """The server (its archive in a temporary folder, not the developer's) and
    ``client_procs`` client processes; all stopped and removed afterwards, also on error
    or Ctrl-C, and the server's log named."""
    ctx = multiprocessing.get_context("spawn")
    procs: list[Any] = []
    pipes: list[Pipe] = []
    server: subprocess.Popen[str] | None = None
    log: Any = None
    with tempfile.TemporaryDirectory(prefix="quaymoor-bench-") as tmp:
        try:
            server, port, log = _start_server(os.path.join(tmp, "archive.sqlite3"))
            _start_workers(ctx, client_procs, pipes, procs)
            yield Rig(server, port, pipes, log)
        finally:
            _stop_workers(pipes, procs)
            _stop(server)
            if log is not None:
                log.close()
                print(f"server log: {log.name}", flush=True)


def _start_server(archive: str) -> tuple[subprocess.Popen[str], int, Any]:
    """``quaymoor serve`` on a free port, bots without delay, timers out of the way, its
    archive at ``archive``: (process, port, its log file)."""
    return _start_process(
        [sys.executable, "-m", "quaymoor", "serve", "--port", "0", "--bot-delay", "0",
         "--decision-seconds", "600", "--archive", archive],
        r"serving on http://[\d.]+:(\d+)/")


def _start_workers(ctx: Any, n: int, pipes: list[Pipe], procs: list[Any]) -> None:
    """Start ``n`` client processes, adding each one's pipe and process to the lists (so
    that the caller can stop those that started even when a later one fails)."""
    for _ in range(n):
        mine, theirs = ctx.Pipe()
        p = ctx.Process(target=worker_main, args=(theirs,), daemon=True)
        p.start()
        procs.append(p)
        pipes.append(mine)


def _stop_workers(pipes: list[Pipe], procs: list[Any]) -> None:
    """Ask each client process to quit, and end those that do not."""
    for pipe in pipes:
        with contextlib.suppress(OSError):
            pipe.send(("quit",))
    for p in procs:
        p.join(5)
        if p.is_alive():
            p.terminate()
            p.join(5)


def _stop(proc: subprocess.Popen[str] | None) -> None:
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


class LoadRun(NamedTuple):
    done: list[dict[str, Any]]  #: each client process's results
    go: float  #: time.monotonic() at the start of play
    held: int  #: websockets welcomed before the start
    start_rss: int  #: server KiB when every client was connected
    peak_rss: int
    server_cpu: float  #: seconds during play
    samples: list[dict[str, Any]]  #: /status.json read during play (``_status_sample``)
    metrics_before: str | None  #: /metrics right before go (None: not read)
    metrics_after: str | None  #: /metrics after the load


def _read_metrics(port: int) -> str | None:
    try:
        return _get_bytes(port, "/metrics", timeout=10.0).decode()
    except Exception as exc:
        print(f"  /metrics not read: {type(exc).__name__}: {exc}", flush=True)
        return None


def _run_load(server: subprocess.Popen[str], port: int, pipes: list[Pipe], *, tables: int,
              players: int, seconds: float, think: float, start_spread: float,
              spectators: int = 0, label: str = "setup") -> LoadRun:
    """Set up and connect every table's seats (and ``spectators`` per table) in the client
    processes, start the tables over ``start_spread`` seconds after go, play until every
    game ends or ``seconds`` pass; /status.json is read every second meanwhile, /metrics
    right before go and after the load."""
    shares = _split(tables, len(pipes))
    for i, (pipe, share) in enumerate(zip(pipes, shares, strict=True)):
        pipe.send(("load", LoadJob(port, share, players, think, start_spread, i, len(pipes),
                                   spectators)))
    t0 = time.monotonic()
    readies = [_recv(pipe, SETUP_SECONDS + 60, "ready") for pipe in pipes]
    setup_s = time.monotonic() - t0
    held = sum(r[1] for r in readies)
    watching = (f" and {sum(r[4] for r in readies)} spectators" if spectators else "")
    try:
        server_conns = _get(port, "/status.json")["connections"]
    except Exception as exc:
        server_conns = f"? ({exc})"
    barrier_rss = rss_kib(server.pid)
    print(f"{label}: {sum(shares)} tables joined, {held} websockets{watching} welcomed in "
          f"{setup_s:.1f} s; the server counts {server_conns} connections; server RSS "
          f"{barrier_rss / 1024:.1f} MiB; setup failures "
          f"{[r[3] for r in readies if r[3]] or 'none'}", flush=True)
    before = _read_metrics(port)
    go = time.monotonic()
    server_cpu = cpu_seconds(server.pid)
    for pipe in pipes:
        pipe.send(("go", go, go + seconds))
    peak_rss = barrier_rss
    samples: list[dict[str, Any]] = []
    next_sample = go + 1.0
    results: list[dict[str, Any] | None] = [None] * len(pipes)
    hard_end = go + seconds + 60
    while any(r is None for r in results) and time.monotonic() < hard_end:
        peak_rss = max(peak_rss, rss_kib(server.pid))
        if time.monotonic() >= next_sample:
            samples.append(_status_sample(port))
            next_sample = time.monotonic() + 1.0
        for i, pipe in enumerate(pipes):
            if results[i] is None and pipe.poll(0.1):
                results[i] = pipe.recv()[1]
    server_cpu = cpu_seconds(server.pid) - server_cpu
    if any(r is None for r in results):
        raise TimeoutError("a client process did not report its load results")
    after = _read_metrics(port)
    done = [r for r in results if r is not None]
    return LoadRun(done, go, held, barrier_rss, peak_rss, server_cpu, samples, before, after)


def _report_fanout(run: LoadRun) -> tuple[float, float]:
    """Prints the spectator step's figures; returns (spectator frames/s, average frame
    size in bytes), zeros when no frame was seen."""
    watch = [r["watch"] for r in run.done]
    frames = sum(w["frames"] for w in watch)
    size = sum(w["bytes"] for w in watch) / frames if frames else 0.0
    span = (max(w["last"] for w in watch) - min(w["first"] for w in watch)) if frames else 0.0
    rate = frames / span if span > 0 else 0.0
    played = max(max(r["play_end"] for r in run.done) - run.go, 1e-9)
    spectators = FANOUT_TABLES * (RAW_CLIENTS // FANOUT_TABLES)
    closed: Counter[str] = Counter()
    failed: Counter[str] = Counter()
    for w in watch:
        closed.update(w["closed_early"])
        failed.update(w["connect_failures"])
    ok = sum(r["streams_ok"] for r in run.done)
    streams = ok + sum(r["streams_bad"] for r in run.done)
    finished = sum(r["finished_tables"] for r in run.done)
    print(f"spectator fan-out: {FANOUT_TABLES} tables x {FANOUT_PLAYERS} players (no "
          f"thinking) watched by {spectators} spectators: {frames} frames delivered to "
          f"spectators, {size:,.0f} B average, in {span:.2f} s (first to last frame) = "
          f"{rate:,.0f} frames/s ({rate / spectators:.1f} per spectator), "
          f"{rate * size / 1e6:.1f} MB/s; server CPU {run.server_cpu / played:.2f} cores",
          flush=True)
    print(f"  spectators closed early: {dict(closed) or 'none'} (must be none); "
          f"game_ended seen by {sum(w['ended'] for w in watch)} of {spectators}; connect "
          f"failures {dict(failed) or 'none'}; games finished {finished} of "
          f"{FANOUT_TABLES}; players' streams complete and in order: {ok} of {streams}",
          flush=True)
    return rate, size


def _raw_step(pipes: list[Pipe], size: int) -> float:
    """The raw trio-websocket fan-out at ``size`` bytes a message; prints and returns the
    messages delivered per second."""
    raw, raw_port, raw_log = _start_process(
        [sys.executable, "-c",
         f"from quaymoor.tools.bench_server import raw_server_main; "
         f"raw_server_main({RAW_CLIENTS}, {RAW_SECONDS}, {size})"], r"PORT (\d+)")
    try:
        for pipe, n in zip(pipes, _split(RAW_CLIENTS, len(pipes)), strict=True):
            pipe.send(("raw", raw_port, n, RAW_SECONDS))
        raws = [_recv(pipe, RAW_SECONDS + 60, "raw fan-out result")[1] for pipe in pipes]
        raw_out, _ = raw.communicate(timeout=20)
    finally:
        _stop(raw)
        raw_log.close()
        os.unlink(raw_log.name)
    received = sum(r["received"] for r in raws)
    span = max(r["last"] for r in raws) - min(r["first"] for r in raws)
    rate = received / span if span > 0 else 0.0
    sent = re.search(r"SENT (\d+) SECONDS ([\d.]+)", raw_out)
    print(f"raw trio-websocket fan-out: {received} messages of {size} B delivered to "
          f"{RAW_CLIENTS} clients in {span:.2f} s = {rate:,.0f} msg/s, "
          f"{rate * size / 1e6:.1f} MB/s (server sent {sent.group(1) if sent else '?'}; "
          f"connect failures {sum(r['failures'] for r in raws)})", flush=True)
    return rate


def _report_server_metrics(before: str | None, after: str | None) -> bool | None:
    """Prints the server's own histograms over the load (the difference of two /metrics
    readings); returns whether its p99 action-to-broadcast latency met the target (None:
    not known)."""
    if before is None or after is None:
        print("  server histograms: /metrics not read", flush=True)
        return None
    latency = histogram_diff(before, after, "quaymoor_action_latency_seconds").get("")
    met: bool | None = None
    if latency is None or latency.observed <= 0:
        print("  server action-to-broadcast latency: no actions in /metrics over the load")
    else:
        share = latency.share_at_or_under(LATENCY_TARGET) or 0.0
        met = share >= 0.99
        print(f"  server action-to-broadcast latency over the load (/metrics): "
              f"{latency.observed:.0f} actions, {share:.2%} at or under "
              f"{LATENCY_TARGET * 1000:g} ms; p50 {latency.bound_text(0.5)}, p99 "
              f"{latency.bound_text(0.99)}")
    pauses = histogram_diff(before, after, "quaymoor_gc_pause_seconds", by="generation")
    parts = [f"gen {g}: {h.observed:.0f}, {h.total:.3f} s, max {h.bound_text(1.0)}"
             for g, h in pauses.items()]
    print(f"  server GC pauses over the load (count, total, max): "
          f"{'; '.join(parts) or 'none in /metrics'}")
    lag = histogram_diff(before, after, "quaymoor_event_loop_lag_seconds").get("")
    print(f"  server event-loop lag over the load: "
          f"{f'{lag.observed:.0f} samples, p99 {lag.bound_text(0.99)}' if lag else 'n/a'}",
          flush=True)
    return met


def _status_sample(port: int) -> dict[str, Any]:
    """The server's connection count and event-loop lag now (``lag``: None when the
    server does not report it), or the error that kept us from reading them."""
    try:
        status = _get(port, "/status.json", timeout=5.0)
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}
    live = status.get("live")
    lag = live.get("event_loop_lag_ms") if isinstance(live, dict) else None
    if isinstance(lag, int | float):
        lag = {"last": lag}
    return {"connections": status.get("connections"),
            "lag": lag if isinstance(lag, dict) else None}


def _report_status(samples: list[dict[str, Any]]) -> None:
    ok = [s for s in samples if "error" not in s]
    failed = len(samples) - len(ok)
    conns = [s["connections"] for s in ok if isinstance(s["connections"], int)]
    print(f"  /status.json read {len(samples)} times during the load ({failed} failed); "
          f"connections the server counted: "
          f"{f'{max(conns)} at most, {conns[-1]} at the last read' if conns else 'none read'}")
    lags = [s["lag"] for s in ok if s["lag"] is not None]
    if not lags:
        print("  event-loop lag: not available (no live.event_loop_lag_ms in the server's "
              "/status.json)", flush=True)
        return
    last = [float(x["last"]) for x in lags if isinstance(x.get("last"), int | float)]
    p99 = [float(x["p99"]) for x in lags if isinstance(x.get("p99"), int | float)]
    print(f"  event-loop lag (the server's own measure, read each second): last value "
          f"p50 {_pct(last, 0.5):.1f} ms, max {max(last, default=float('nan')):.1f} ms; "
          f"the server's p99 over its last minute: at most "
          f"{max(p99, default=float('nan')):.1f} ms", flush=True)



THINK_SECONDS = 0.0  #: set per client process from the orchestrator's job


def bench_server(tables: int = 500, players: int = 4, client_procs: int = 2,
                 seconds: float = 120.0, think: float = 0.0, *,
                 start_spread: float = 10.0) -> int:
    began = time.monotonic()
    limit = raise_nofile()
    print(f"python {sys.version.split()[0]}; {os.cpu_count()} CPUs; open-file limit {limit}; "
          f"{tables} tables x {players} players over {client_procs} client processes; "
          f"load bounded at {seconds:.0f} s; players think {think:.2f} s on average; "
          f"tables started over {start_spread:g} s", flush=True)
    with _rig(client_procs) as (server, port, pipes, server_log):
        idle_kib = _idle_tables(server, port, tables, players)

        # -- spectator fan-out, then raw trio-websocket at the same frame size
        fanout = _run_load(server, port, pipes, tables=FANOUT_TABLES, players=FANOUT_PLAYERS,
                           seconds=RAW_SECONDS * 4, think=0.0, start_spread=0.0,
                           spectators=RAW_CLIENTS // FANOUT_TABLES, label="fan-out setup")
        spectator_rate, frame_size = _report_fanout(fanout)
        raw_rate = _raw_step(pipes, round(frame_size) or RAW_SIZE)
        print(f"fan-out ratio (spectator frames/s ÷ raw msg/s at the same frame size and "
              f"client count): {spectator_rate / raw_rate if raw_rate else float('nan'):.2f} "
              f"(target >= 0.5)", flush=True)

        # -- load
        run = _run_load(server, port, pipes, tables=tables, players=players,
                        seconds=seconds, think=think, start_spread=start_spread)
        _report(run.done, run.go, seconds, run.held, peak_rss=run.peak_rss,
                server_cpu=run.server_cpu, idle_kib=idle_kib)
        _report_server_metrics(run.metrics_before, run.metrics_after)
        _report_status(run.samples)
        _scan_log(server_log.name)
        print(f"run time {time.monotonic() - began:.1f} s", flush=True)
        return 0


def _idle_tables(server: subprocess.Popen[str], port: int, tables: int, players: int) -> float:
    """Creates ``tables`` lobby tables (after a few warm-up ones); prints and returns the
    server's KiB per idle table."""
    for _ in range(WARMUP_TABLES):
        _post(port, "/api/tables", {"players": players})
    time.sleep(0.3)
    before = rss_kib(server.pid)
    t0 = time.monotonic()
    for _ in range(tables):
        _post(port, "/api/tables", {"players": players})
    create_s = time.monotonic() - t0
    time.sleep(0.3)
    after = rss_kib(server.pid)
    idle_kib = (after - before) / tables
    print(f"idle tables: {tables} created in {create_s:.1f} s; server RSS "
          f"{before / 1024:.1f} -> {after / 1024:.1f} MiB: {idle_kib:.1f} KiB per idle "
          f"table (they close after an hour)", flush=True)
    return idle_kib


def bench_load(tables: int = 500, players: int = 4, client_procs: int = 4,
               seconds: float = 300.0, think: float = 0.5, *,
               start_spread: float = 10.0) -> int:
    """The load proof: ``tables`` tables of ``players`` humans, each a websocket in one of
    ``client_procs`` client processes, every game played to its end within ``seconds``.
    Returns 0 when every game finished with every client's stream complete and in
    order, 1 otherwise."""
    began = time.monotonic()
    limit = raise_nofile()
    print(f"quaymoor bench load: python {sys.version.split()[0]}; {os.cpu_count()} CPUs; "
          f"open-file limit {limit}; {tables} tables x {players} players = "
          f"{tables * players} websockets over {client_procs} client processes; players "
          f"think {think:.2f} s on average; load bounded at {seconds:.0f} s; tables "
          f"started over {start_spread:g} s", flush=True)
    with _rig(client_procs) as (server, port, pipes, server_log):
        idle_rss = rss_kib(server.pid)  # the client processes add nothing to the server
        run = _run_load(server, port, pipes, tables=tables, players=players,
                        seconds=seconds, think=think, start_spread=start_spread)
        _report(run.done, run.go, seconds, run.held, peak_rss=run.peak_rss,
                server_cpu=run.server_cpu, idle_kib=None)
        met = _report_server_metrics(run.metrics_before, run.metrics_after)
        _report_status(run.samples)
        print(f"  server RSS: {idle_rss / 1024:.1f} MiB at start, "
              f"{run.start_rss / 1024:.1f} MiB with every client connected, "
              f"{run.peak_rss / 1024:.1f} MiB at peak", flush=True)
        _scan_log(server_log.name)
        total = sum(r["streams_ok"] + r["streams_bad"] for r in run.done)
        ok = sum(r["streams_ok"] for r in run.done)
        started = sum(r["tables_started"] for r in run.done)
        finished = sum(r["finished_tables"] for r in run.done)
        proved = (started == finished == tables and ok == total == tables * players)
        print(f"verdict: {'PASS' if proved else 'FAIL'}: {finished} of {tables} games "
              f"finished; {ok} of {tables * players} client streams complete (to "
              f"game_ended, reason finished) and in order", flush=True)
        print(f"latency target (server p99 < {LATENCY_TARGET * 1000:g} ms): "
              f"{'unknown' if met is None else 'met' if met else 'not met'}", flush=True)
        print(f"run time {time.monotonic() - began:.1f} s", flush=True)
        return 0 if proved else 1


def _report(done: list[dict[str, Any]], go: float, seconds: float, held: int, *,
            peak_rss: int, server_cpu: float, idle_kib: float | None) -> None:
    def total(key: str) -> int:
        return sum(int(r[key]) for r in done)

    def merged(key: str) -> dict[str, int]:
        out: Counter[str] = Counter()
        for r in done:
            out.update(r[key])
        return dict(out)

    span = max(r["play_end"] for r in done) - go
    latencies = [x for r in done for x in r["latencies"]]
    started, finished = total("tables_started"), total("finished_tables")
    ok, bad = total("streams_ok"), total("streams_bad")
    order_errors = [e for r in done for e in r["order_errors"]]
    updates = total("updates")
    update_rate = updates / span if span > 0 else 0.0
    print(f"load: {span:.1f} s of play (bound {seconds:.0f} s)")
    print(f"  peak concurrent connections held: {held} (all welcomed before the start); "
          f"max open per client process {[r['peak_open'] for r in done]}")
    print(f"  games finished / started: {finished} / {started}"
          f"{'  (unfinished: ' + str(started - finished) + ', e.g. ' + str([t for r in done for t in r['unfinished_tables']][:5]) + ')' if started > finished else ''}")  # noqa: E501
    faults = total("order_faults")
    print(f"  integrity: in order: {'yes' if faults == 0 else 'NO'} ({faults} streams with "
          f"faults of {ok + bad}{': ' + '; '.join(order_errors[:5]) if order_errors else ''}); "
          f"complete to game_ended(finished) and in order: {ok} of {ok + bad} streams "
          f"(game_ended reasons {merged('ended') or 'none'}); snapshot updates at an "
          f"unchanged version {total('snapshots')}")
    print(f"  connections closed before game_ended: {merged('closed_early') or 'none'}; "
          f"connect failures: {merged('connect_failures') or 'none'}; start failures: "
          f"{merged('start_failures') or 'none'}")
    print(f"  acts refused by the server: {merged('errors') or 'none'}; client rate-limit "
          f"waits {total('rate_waits')}")
    print(f"  decisions: {total('acts')} = {total('acts') / span:,.0f}/s; action-to-update "
          f"latency p50 {_pct(latencies, 0.5) * 1000:.1f} ms, p99 "
          f"{_pct(latencies, 0.99) * 1000:.1f} ms, max "
          f"{max(latencies, default=float('nan')) * 1000:.1f} ms ({len(latencies)} samples)")
    print(f"  CPU during the load: server {server_cpu:.1f} s = {server_cpu / span:.2f} cores; "
          f"client processes {[round(r['cpu'] / span, 2) for r in done]} cores "
          f"(of {os.cpu_count()})")
    per_idle = f"; RSS per idle table: {idle_kib:.1f} KiB" if idle_kib is not None else ""
    print(f"  server RSS at peak: {peak_rss / 1024:.1f} MiB{per_idle}")
    print(f"  player updates delivered during the load: {updates} frames "
          f"({total('update_bytes') / updates / 1024 if updates else 0:.1f} KiB average) = "
          f"{update_rate:,.0f} frames/s", flush=True)
    ended_at = [x for r in done for x in r["latency_at"]]
    _report_windows(latencies, ended_at, go)


def _report_windows(latencies: list[float], ended_at: list[float], go: float) -> None:
    print(f"  client action-to-update latency by {LATENCY_WINDOW:g} s window after go "
          f"(samples: p50 / p99 / max ms):")
    for index, values in latency_windows(latencies, ended_at, go):
        window = f"{index * LATENCY_WINDOW:.0f}-{(index + 1) * LATENCY_WINDOW:.0f} s"
        print(f"    {window:>9}: {len(values):6d}: {_pct(values, 0.5) * 1000:6.1f} / "
              f"{_pct(values, 0.99) * 1000:6.1f} / {max(values) * 1000:6.1f}")
    sys.stdout.flush()


def _scan_log(path: str) -> None:
    counts: Counter[str] = Counter()
    with open(path, errors="replace") as f:
        for line in f:
            if "too slow" in line:
                counts["connections dropped as too slow"] += 1
            elif "Traceback" in line:
                counts["tracebacks"] += 1
            elif " ERROR " in line or " WARNING " in line:
                counts["errors/warnings"] += 1
    print(f"server log: {dict(counts) or 'no drops, errors or tracebacks'}", flush=True)
