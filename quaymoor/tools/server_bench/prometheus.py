"""Reading the server's ``/metrics`` (Prometheus text exposition) for its histograms,
and the difference of two readings: what was observed over a load."""

from __future__ import annotations

import math
import re
from typing import NamedTuple

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

    def plus(self, other: Histogram) -> Histogram:
        """Both together (two processes' readings of the same series): the counts at each
        bound summed; at a bound only one of them has, the other's count at its largest
        bound under it."""
        bounds = sorted({le for le, _ in self.buckets} | {le for le, _ in other.buckets})
        return Histogram(tuple((le, _at(self, le) + _at(other, le)) for le in bounds),
                         self.observed + other.observed, self.total + other.total)

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

    def counts_text(self) -> str:
        """The samples in each bucket (not cumulative), empty buckets left out:
        ``<=1 ms: 812, <=2.5 ms: 40, > 2500 ms: 1``."""
        parts = []
        below = 0.0
        finite = [le for le, _ in self.buckets if not math.isinf(le)]
        for le, n in self.buckets:
            count = n - below
            below = n
            if count <= 0:
                continue
            label = (f"> {max(finite, default=0.0) * 1000:g} ms" if math.isinf(le)
                     else f"<={le * 1000:g} ms")
            parts.append(f"{label}: {count:.0f}")
        return ", ".join(parts) or "none"

    def bound_text(self, q: float) -> str:
        b = self.bound(q)
        if b is None:
            return "n/a"
        if math.isinf(b):
            finite = [le for le, _ in self.buckets if not math.isinf(le)]
            return f"> {max(finite, default=0.0) * 1000:g} ms"
        return f"<= {b * 1000:g} ms"


def _at(h: Histogram, le: float) -> float:
    """The cumulative count of ``h`` at bound ``le``."""
    return max((n for bound, n in h.buckets if bound <= le), default=0.0)


def merged(readings: list[Histogram]) -> Histogram:
    """Several processes' readings of one histogram as one (``Histogram.plus``)."""
    total = Histogram((), 0.0, 0.0)
    for h in readings:
        total = total.plus(h)
    return total


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
