"""The players' generator gives SplitMix64's outputs exactly, as the textbook's 64-bit
arithmetic does (``bots/prng.py`` keeps its words in 32-bit halves)."""

from __future__ import annotations

import hashlib

from quaymoor.bots.prng import SplitMix64

MASK = (1 << 64) - 1


def reference(seed: int, count: int) -> list[int]:
    """SplitMix64 (Steele, Lea, Flood 2014) on Python's integers."""
    state = seed & MASK
    out = []
    for _ in range(count):
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        out.append(z ^ (z >> 31))
    return out


def test_the_first_output_from_zero_is_the_known_one() -> None:
    assert SplitMix64(0).next() == 0xE220A8397B1DCDAF


def test_outputs_match_the_reference_for_many_seeds() -> None:
    seeds = [0, 1, MASK, 1 << 63, (1 << 64) + 5, -1] + [
        int.from_bytes(hashlib.sha256(str(i).encode()).digest()[:8], "big") for i in range(50)]
    for seed in seeds:
        rng = SplitMix64(seed)
        assert [rng.next() for _ in range(100)] == reference(seed, 100), seed


def test_below_is_the_next_output_modulo_n() -> None:
    for n in (1, 2, 3, 7, 100, (1 << 30) - 1, 1 << 30, (1 << 30) + 1, 10**12):
        rng = SplitMix64(n)
        assert [rng.below(n) for _ in range(50)] == [x % n for x in reference(n, 50)], n
