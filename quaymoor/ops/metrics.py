"""What the server counts and times, for the operators' status page and ``/metrics``.

One ``Metrics`` per server process, with its own prometheus-client registry (so tests can
run several servers in one process). Counters and histograms are updated where things
happen (gateway, tables, seat workers, supervisor); gauges that describe the present
(tables by phase, seats by kind, connections) are computed when scraped, from the
supervisor's own summary: no hidden information is ever counted or shown.

For the live page, ``Window`` keeps the last minute of samples (latency p50/p99 without a
time-series database) and ``RateWindow`` the last minute's counts, one per second.
"""

from __future__ import annotations

import gc
import time
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

import trio
from prometheus_client import CollectorRegistry, Counter, Histogram, ProcessCollector
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import generate_latest
from prometheus_client.registry import Collector

from quaymoor.ops.gc_policy import rss_bytes

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.02, 0.03, 0.04, 0.05, 0.075, 0.1, 0.25, 0.5,
                   1.0, 2.5)
WINDOW_SECONDS = 60.0


class Window:
    """Samples of the last ``seconds``, bounded in count: rates and percentiles."""

    def __init__(self, seconds: float = WINDOW_SECONDS, max_samples: int = 20_000) -> None:
        self.seconds = seconds
        self._samples: deque[tuple[float, float]] = deque(maxlen=max_samples)

    def add(self, value: float, now: float | None = None) -> None:
        self._samples.append((time.monotonic() if now is None else now, value))

    def _recent(self, now: float) -> list[float]:
        cutoff = now - self.seconds
        while self._samples and self._samples[0][0] < cutoff:
            self._samples.popleft()
        return [v for _, v in self._samples]

    def rate(self, now: float | None = None) -> float:
        """Samples per second over the window."""
        return len(self._recent(time.monotonic() if now is None else now)) / self.seconds

    def percentile(self, q: float, now: float | None = None) -> float | None:
        return self.percentiles((q,), now)[0]

    def percentiles(self, qs: tuple[float, ...], now: float | None = None
                    ) -> list[float | None]:
        """Several percentiles of the window from one sort."""
        values = sorted(self._recent(time.monotonic() if now is None else now))
        if not values:
            return [None] * len(qs)
        return [values[min(len(values) - 1, int(q * len(values)))] for q in qs]


class RateWindow:
    """Events per second over the last ``seconds``, kept as one count per second: adding
    and reading cost the same at any rate."""

    def __init__(self, seconds: int = int(WINDOW_SECONDS)) -> None:
        self.seconds = seconds
        self._counts: deque[list[int]] = deque()  #: [second, count], oldest first

    def add(self, now: float | None = None, count: int = 1) -> None:
        second = int(time.monotonic() if now is None else now)
        if self._counts and self._counts[-1][0] == second:
            self._counts[-1][1] += count
            return
        self._counts.append([second, count])
        while self._counts[0][0] <= second - self.seconds:
            self._counts.popleft()

    def rate(self, now: float | None = None) -> float:
        """Events per second over the last ``seconds`` whole seconds."""
        second = int(time.monotonic() if now is None else now)
        total = sum(c for s, c in self._counts if s > second - self.seconds)
        return total / self.seconds


class _Present(Collector):
    """Gauges read at scrape time from a summary function."""

    def __init__(self, summary: Callable[[], dict[str, Any]]) -> None:
        self._summary = summary

    def collect(self) -> Iterator[Metric]:
        status = self._summary()
        tables = GaugeMetricFamily("quaymoor_tables", "Open tables by state and phase",
                                   labels=["state", "phase"])
        counts: dict[tuple[str, str], int] = {}
        seats: dict[str, int] = {"human": 0, "bot": 0, "bot_playing": 0, "disconnected": 0}
        for t in status["tables"]:
            key = (t["state"], t["phase"] or "none")
            counts[key] = counts.get(key, 0) + 1
            for s in t["seats"]:
                if s["name"] is None:
                    continue
                if s["bot"]:
                    seats["bot"] += 1
                elif s["bot_playing"]:
                    seats["bot_playing"] += 1
                elif not s["connected"]:
                    seats["disconnected"] += 1
                else:
                    seats["human"] += 1
        for (state, phase), n in sorted(counts.items()):
            tables.add_metric([state, phase], n)
        yield tables
        seat_family = GaugeMetricFamily("quaymoor_seats", "Seats at open tables by kind",
                                        labels=["kind"])
        for kind, n in seats.items():
            seat_family.add_metric([kind], n)
        yield seat_family
        yield GaugeMetricFamily("quaymoor_connections", "Open websocket connections",
                                value=status["connections"])
        yield GaugeMetricFamily("quaymoor_uptime_seconds", "Seconds since the server started",
                                value=status["uptime_seconds"])


class _ArchiveGauges(Collector):
    """The archive's writes, read at scrape time from its health (``store.writer``'s
    ``WriteHealth.as_json``): failures, records waiting, the last failure's time."""

    def __init__(self, health: Callable[[], dict[str, Any]]) -> None:
        self._health = health

    def collect(self) -> Iterator[Metric]:
        h = self._health()
        yield CounterMetricFamily("quaymoor_archive_write_failures",
                                  "Failed attempts to write a batch of the archive",
                                  value=h["failures"])
        yield GaugeMetricFamily("quaymoor_archive_pending_records",
                                "Records ended and not yet written to the archive",
                                value=h["pending"])
        yield GaugeMetricFamily("quaymoor_archive_failing",
                                "1 while the archive's writes fail", value=int(h["failing"]))
        yield GaugeMetricFamily("quaymoor_archive_last_failure_timestamp_seconds",
                                "Unix time of the archive's last failed write (0: none)",
                                value=h["last_failure"] or 0.0)
        yield CounterMetricFamily("quaymoor_archive_records_lost",
                                  "Writes the exit could not make (each logged by name)",
                                  value=h["lost"])


class Metrics:
    """The process's counters, histograms and one-minute windows."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.messages_in = Counter("quaymoor_messages_in", "Websocket messages received",
                                   registry=r)
        self.messages_out = Counter("quaymoor_messages_out", "Websocket messages sent",
                                    registry=r)
        self.action_latency = Histogram(
            "quaymoor_action_latency_seconds",
            "From an action's arrival at the gateway until the last frame of its table's "
            "broadcast is handed to a socket",
            buckets=LATENCY_BUCKETS, registry=r)
        self.loop_lag = Histogram("quaymoor_event_loop_lag_seconds",
                                  "How late a 0.25 s sleep wakes up", buckets=LATENCY_BUCKETS,
                                  registry=r)
        self._timeouts = Counter("quaymoor_decision_timeouts", "Decision timers run out",
                                 registry=r)
        self.timeouts_fired = 0
        self.bot_decisions = Histogram("quaymoor_bot_decision_seconds",
                                       "Time a bot takes to choose", buckets=LATENCY_BUCKETS,
                                       registry=r)
        self.table_crashes = Counter("quaymoor_table_crashes", "Tables ended by an error",
                                     registry=r)
        self.games_finished = Counter("quaymoor_games_finished", "Games played to the end",
                                      registry=r)
        self.gc_pauses = Histogram("quaymoor_gc_pause_seconds",
                                   "Garbage-collector pauses, by generation",
                                   ["generation"], buckets=LATENCY_BUCKETS, registry=r)
        ProcessCollector(registry=r)
        self.gc_window = Window()
        self._gc_started = 0.0
        self.in_window = RateWindow()
        self.out_window = RateWindow()
        self.latency_window = Window()
        self.lag_window = Window()
        self.bot_window = Window()
        self.last_lag = 0.0

    def watch_gc(self) -> None:
        """Time every garbage collection (a pause of the whole event loop)."""
        def callback(phase: str, info: dict[str, int]) -> None:
            if phase == "start":
                self._gc_started = time.perf_counter()
                return
            pause = time.perf_counter() - self._gc_started
            self.gc_pauses.labels(str(info.get("generation", -1))).observe(pause)
            self.gc_window.add(pause)

        if callback not in gc.callbacks:
            gc.callbacks.append(callback)

    def watch(self, summary: Callable[[], dict[str, Any]]) -> None:
        """Report the present (tables, seats, connections) from ``summary`` at scrapes."""
        self.registry.register(_Present(summary))

    def watch_archive(self, health: Callable[[], dict[str, Any]]) -> None:
        """Report the archive's writes (``_ArchiveGauges``) from ``health`` at scrapes."""
        self.registry.register(_ArchiveGauges(health))

    def message_in(self) -> None:
        self.messages_in.inc()
        self.in_window.add()

    def message_out(self, count: int = 1) -> None:
        self.messages_out.inc(count)
        self.out_window.add(count=count)

    def action_done(self, seconds: float) -> None:
        self.action_latency.observe(seconds)
        self.latency_window.add(seconds)

    def timed_out(self) -> None:
        self._timeouts.inc()
        self.timeouts_fired += 1

    def bot_decided(self, seconds: float) -> None:
        self.bot_decisions.observe(seconds)
        self.bot_window.add(seconds)

    def exposition(self) -> bytes:
        """The Prometheus text format."""
        return generate_latest(self.registry)

    def live(self) -> dict[str, Any]:
        """The last minute, for the status page."""
        def ms(x: float | None) -> float | None:
            return None if x is None else round(x * 1000, 2)

        latency = self.latency_window.percentiles((0.5, 0.99))
        bots = self.bot_window.percentiles((0.5, 0.99))
        gc_pauses = self.gc_window.percentiles((0.99, 1.0))
        return {
            "messages_in_per_second": round(self.in_window.rate(), 2),
            "messages_out_per_second": round(self.out_window.rate(), 2),
            "action_latency_ms": {"p50": ms(latency[0]), "p99": ms(latency[1])},
            "event_loop_lag_ms": {"last": ms(self.last_lag),
                                  "p99": ms(self.lag_window.percentile(0.99))},
            "bot_decisions_per_second": round(self.bot_window.rate(), 2),
            "bot_decision_ms": {"p50": ms(bots[0]), "p99": ms(bots[1])},
            "timeouts": self.timeouts_fired,
            "gc_pause_ms": {"p99": ms(gc_pauses[0]), "max": ms(gc_pauses[1])},
            "rss_bytes": rss_bytes(),
        }

    async def watch_loop_lag(self, interval: float = 0.25) -> None:
        """Measure event-loop lag forever: how late a sleep of ``interval`` wakes."""
        while True:
            start = trio.current_time()
            await trio.sleep(interval)
            lag = max(0.0, trio.current_time() - start - interval)
            self.last_lag = lag
            self.loop_lag.observe(lag)
            self.lag_window.add(lag)
