"""The rate limits on a fake clock: a bucket's burst, refill and wait; a window's places
coming back one by one; a keyed limit's memory."""

from __future__ import annotations

import pytest

from quaymoor.actors.rate_limit import Keyed, TokenBucket, Window


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_allows_its_burst_at_once_then_its_rate() -> None:
    clock = FakeClock()
    bucket = TokenBucket(2.0, 3, clock)
    assert [bucket.allow() for _ in range(4)] == [True, True, True, False]
    assert bucket.wait() == pytest.approx(0.5)  # 1 token at 2 a second
    clock.now += 0.25
    assert not bucket.allow()  # a refusal takes nothing ...
    assert bucket.wait() == pytest.approx(0.25)  # ... and the refill goes on
    clock.now += 0.25
    assert bucket.wait() == 0.0
    assert bucket.allow() and not bucket.allow()


def test_a_bucket_refills_to_its_burst_and_no_further() -> None:
    clock = FakeClock()
    bucket = TokenBucket(1.0, 2, clock)
    assert bucket.allow() and bucket.allow()
    assert not bucket.fresh()
    clock.now += 60
    assert bucket.fresh()
    assert [bucket.allow() for _ in range(3)] == [True, True, False]


def test_a_bucket_takes_back_a_token_it_gave() -> None:
    clock = FakeClock()
    bucket = TokenBucket(1 / 60, 1, clock)
    assert bucket.allow()
    assert bucket.wait() == pytest.approx(60.0)
    bucket.give_back()
    assert bucket.wait() == 0.0 and bucket.fresh()
    bucket.give_back()  # never past the burst
    assert bucket.allow() and not bucket.allow()


def test_a_window_allows_count_in_any_span_of_its_seconds() -> None:
    """Unlike a bucket of the same average, a place comes back only ``seconds`` after
    it was taken."""
    clock = FakeClock()
    window = Window(3, 10.0, clock)
    for _ in range(2):
        assert window.allow()
        clock.now += 1.0
    assert window.allow()  # at 102: places taken at 100, 101, 102
    assert window.wait() == pytest.approx(8.0)
    clock.now += 5.0
    assert not window.allow()  # a bucket of 3 per 10 s would have refilled 1.5 by now
    assert window.wait() == pytest.approx(3.0)
    clock.now += 3.0  # 110: the place taken at 100 is back, and only it
    assert window.wait() == 0.0
    assert window.allow() and not window.allow()
    assert window.wait() == pytest.approx(1.0)
    assert not window.fresh()
    clock.now += 10.0
    assert window.fresh()


def test_a_keyed_limit_is_one_per_key_and_forgets_only_fresh_ones() -> None:
    clock = FakeClock()
    made: list[TokenBucket] = []

    def make() -> TokenBucket:
        made.append(TokenBucket(1.0, 1, clock))
        return made[-1]

    keyed: Keyed[str, TokenBucket] = Keyed(make, max_keys=3)
    assert keyed["a"].allow() and not keyed["a"].allow()  # the same bucket
    assert keyed["b"].allow()
    assert keyed["c"] is keyed["c"]  # used by nobody: fresh
    assert len(keyed) == 3
    keyed["d"]  # past max_keys: "c" is forgotten, "a" and "b" are busy
    assert len(keyed) == 3 and len(made) == 4
    assert not keyed["a"].allow() and not keyed["b"].allow()
    clock.now += 1.0  # every bucket full again
    keyed["e"]
    assert len(keyed) == 1
    assert keyed["a"] is not made[0]  # a new bucket, just as full
