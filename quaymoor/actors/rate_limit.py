"""Rate limits, in one place: how often a connection, a seat or an address may do a thing.

Two limits, one interface. A ``TokenBucket`` holds up to ``burst`` tokens and gains
``rate`` a second (a websocket's frames, an address's new tables): a burst at once, then
the rate on average. A ``Window`` allows at most ``count`` in any ``seconds`` (a seat's
chat lines): a spent place comes back ``seconds`` after it was spent, not bit by bit.
Either answers ``wait()`` (the seconds until the next one would be allowed: 0 when it
would be now; a refusal's "try again in" and Retry-After) and ``allow()`` (take one if
there is one); a bucket's ``give_back()`` undoes an ``allow()`` whose action did not
happen.

``Keyed`` keeps one limit per key (an address, a seat), made on first use. Its memory is
bounded by what is busy: when a new key would take it past ``max_keys``, every limit that
is as it was new (a full bucket, an empty window) is forgotten first, which nobody can
tell from keeping it.

Time is a clock passed in, ``trio.current_time`` by default (a test's ``MockClock`` then
moves it), read when a limit is made and at each call; nothing here sleeps or blocks.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable
from typing import Generic, Protocol, TypeVar

import trio

Clock = Callable[[], float]


class Limit(Protocol):
    """What ``Keyed`` keeps per key."""

    def wait(self) -> float: ...
    def allow(self) -> bool: ...
    def fresh(self) -> bool: ...


class TokenBucket:
    """``rate`` a second on average, ``burst`` at once; full when made."""

    def __init__(self, rate: float, burst: float, clock: Clock = trio.current_time) -> None:
        self.rate = rate
        self.burst = float(burst)
        self._clock = clock
        self._tokens = float(burst)
        self._at = clock()  #: when ``_tokens`` was counted

    def _refill(self) -> float:
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now
        return self._tokens

    def wait(self) -> float:
        """Seconds until a token is there (0.0 when one is now)."""
        tokens = self._refill()
        return 0.0 if tokens >= 1 else (1 - tokens) / self.rate

    def allow(self) -> bool:
        """Take a token; False (and nothing taken) when there is none."""
        if self._refill() < 1:
            return False
        self._tokens -= 1
        return True

    def give_back(self) -> None:
        """Return the token an ``allow()`` took (its action did not happen)."""
        self._tokens = min(self.burst, self._tokens + 1)

    def fresh(self) -> bool:
        """Full again: the same as a new bucket."""
        return self._refill() >= self.burst


class Window:
    """At most ``count`` in any ``seconds``: each one allowed holds its place for
    ``seconds``."""

    def __init__(self, count: int, seconds: float, clock: Clock = trio.current_time) -> None:
        self.count = count
        self.seconds = seconds
        self._clock = clock
        self._times: deque[float] = deque()  #: when each place in the window was taken

    def _expire(self) -> float:
        now = self._clock()
        times = self._times
        while times and now - times[0] >= self.seconds:
            times.popleft()
        return now

    def wait(self) -> float:
        """Seconds until the oldest place in a full window comes back (0.0 when the
        window is not full)."""
        now = self._expire()
        if len(self._times) < self.count:
            return 0.0
        return self.seconds - (now - self._times[0])

    def allow(self) -> bool:
        """Take a place; False (and nothing taken) when the window is full."""
        now = self._expire()
        if len(self._times) >= self.count:
            return False
        self._times.append(now)
        return True

    def fresh(self) -> bool:
        """Empty: the same as a new window."""
        self._expire()
        return not self._times


K = TypeVar("K", bound=Hashable)
L = TypeVar("L", bound=Limit)


class Keyed(Generic[K, L]):
    """One limit per key, made by ``make`` on first use; see the module's notes on
    memory."""

    def __init__(self, make: Callable[[], L], max_keys: int = 1024) -> None:
        self._make = make
        self.max_keys = max_keys
        self._limits: dict[K, L] = {}

    def __len__(self) -> int:
        return len(self._limits)

    def __getitem__(self, key: K) -> L:
        """``key``'s limit (a new one the first time, or once it was forgotten)."""
        limit = self._limits.get(key)
        if limit is None:
            if len(self._limits) >= self.max_keys:
                self._forget_fresh()
            limit = self._limits[key] = self._make()
        return limit

    def _forget_fresh(self) -> None:
        for key, limit in list(self._limits.items()):
            if limit.fresh():
                del self._limits[key]
