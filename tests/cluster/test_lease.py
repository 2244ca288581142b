"""The lease's rules on a clock of our own (``cluster.lease``): when a process pauses,
when it may reap, what breaks its unbroken run."""

from __future__ import annotations

from quaymoor.cluster.lease import DEFAULT_WINDOW_SECONDS, PAUSE_AFTER_SECONDS, Lease, LeaseTimings


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


WINDOW = DEFAULT_WINDOW_SECONDS  #: the default lease's window (45 s)

def beating(lease: Lease, clock: Clock, seconds: float, every: float = 1.0) -> None:
    """Successful beats every ``every`` seconds for ``seconds``."""
    end = clock.now + seconds
    while clock.now < end:
        lease.renewed(clock.now)
        clock.now += every


def test_the_default_window_covers_a_failover_and_the_pause_comes_well_before() -> None:
    timings = LeaseTimings()
    assert timings.window == DEFAULT_WINDOW_SECONDS == 45.0
    assert timings.pause_after == PAUSE_AFTER_SECONDS == 6.0
    assert LeaseTimings(window=8.0).pause_after == 2.0  # a test's short window


def test_a_fresh_lease_has_lapsed_until_its_first_renewal() -> None:
    clock = Clock()
    lease = Lease(LeaseTimings(), clock)
    assert lease.lapsed() and lease.age() is None and not lease.may_reap()
    lease.renewed(clock.now)
    assert not lease.lapsed() and lease.age() == 0.0


def test_reaping_waits_for_a_whole_window_of_unbroken_renewals() -> None:
    clock = Clock()
    lease = Lease(LeaseTimings(), clock)
    beating(lease, clock, WINDOW - 1.0)
    assert not lease.may_reap()
    beating(lease, clock, 2.0)
    assert lease.may_reap()


def test_a_failed_renewal_starts_the_window_again() -> None:
    clock = Clock()
    lease = Lease(LeaseTimings(), clock)
    beating(lease, clock, WINDOW + 10.0)
    assert lease.may_reap()
    lease.failed()
    assert not lease.may_reap() and not lease.lapsed()  # one failure: no pause yet
    beating(lease, clock, WINDOW - 1.0)
    assert not lease.may_reap()
    beating(lease, clock, 2.0)
    assert lease.may_reap()


def test_an_outage_pauses_after_six_seconds_and_then_needs_a_whole_window() -> None:
    """The issue's outage: 20 s without the database. The process pauses at 6 s, resumes
    at the first beat after, and may reap nobody for 45 s more."""
    clock = Clock()
    lease = Lease(LeaseTimings(), clock)
    beating(lease, clock, WINDOW + 30.0)
    assert lease.may_reap()
    outage_began = clock.now
    last_renewal = clock.now - 1.0
    while clock.now - outage_began < 20.0:
        lease.failed()
        clock.now += 1.0
        if clock.now - last_renewal >= PAUSE_AFTER_SECONDS:
            assert lease.lapsed()
        else:
            assert not lease.lapsed()
    age = lease.age()
    assert age is not None and age >= 20.0
    beating(lease, clock, 1.0)
    assert not lease.lapsed() and not lease.may_reap()
    beating(lease, clock, WINDOW - 2.0)
    assert not lease.may_reap()
    beating(lease, clock, 2.0)
    assert lease.may_reap()


def test_slow_beats_with_no_failure_are_a_gap_too() -> None:
    """Two successful renewals ``pause_after`` apart: the process would have paused in
    between, so its run is broken (a stalled event loop, a read that hung)."""
    clock = Clock()
    lease = Lease(LeaseTimings(), clock)
    beating(lease, clock, WINDOW + 10.0)
    clock.now += PAUSE_AFTER_SECONDS + 1
    assert lease.lapsed() and not lease.may_reap()
    lease.renewed(clock.now)
    assert not lease.may_reap() and lease.gaps == 1


def test_status_names_the_figures() -> None:
    clock = Clock()
    lease = Lease(LeaseTimings(window=8.0), clock)
    lease.renewed(clock.now)
    clock.now += 1.5
    status = lease.status()
    assert status["age_seconds"] == 1.5 and status["window_seconds"] == 8.0
    assert status["pause_after_seconds"] == 2.0 and status["lapsed"] is False
