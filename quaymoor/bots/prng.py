"""A seeded generator for the choices of bots and random players.

These draws are players' behaviour, not the game's randomness (which comes only from the
game's seed through ``rules.fairness``). Nothing here uses Python's ``random``.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1


class SplitMix64:
    """A tiny, fast, seedable generator for random players (Steele, Lea, Flood 2014)."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK

    def next(self) -> int:
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return self.next() % n  # the bias is under 2**-58 for the lists we draw from
