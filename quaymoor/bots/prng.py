"""A seeded generator for the choices of bots and random players.

These draws are players' behaviour, not the game's randomness (which comes only from the
game's seed through ``rules.fairness``). Nothing here uses Python's ``random``.

SplitMix64 works on 64-bit words, which are Python big ints. Compiled (mypyc), each
big-int operation allocates, and that was a tenth of a compiled random game's time; so
compiled, ``next`` keeps each word as two 32-bit halves and takes every product 16 bits
at a time, so that no intermediate value reaches 2**62 and every operation stays on
machine integers. Interpreted, those thirty-odd small operations cost more than the six
big-int ones, so the pure module keeps the textbook's. Both give SplitMix64's outputs
exactly (``tests/bots/test_prng.py``, which ``make test`` runs compiled and pure).
"""

from __future__ import annotations

from typing import Final

#: Whether this module runs compiled (its ``__file__`` is then the extension module's).
_COMPILED: Final = not __file__.endswith(".py")
_MASK: Final = (1 << 64) - 1
#: Up to this ``n`` the compiled ``below`` reduces the halves without joining them.
_BELOW_HALVES: Final = 1 << 30
_M32: Final = 0xFFFFFFFF
_M16: Final = 0xFFFF
_GAMMA_HI: Final = 0x9E3779B9
_GAMMA_LO: Final = 0x7F4A7C15
_MIX1_HI: Final = 0xBF58476D
_MIX1_LO: Final = 0x1CE4E5B9
_MIX2_HI: Final = 0x94D049BB
_MIX2_LO: Final = 0x133111EB


def _mul_lo32(a: int, b: int) -> int:
    """(a * b) mod 2**32 for 32-bit a and b, 16 bits at a time."""
    a1, a0 = a >> 16, a & _M16
    b1, b0 = b >> 16, b & _M16
    return (a0 * b0 + (((a1 * b0 + a0 * b1) & _M16) << 16)) & _M32


def _mul64(hi: int, lo: int, m_hi: int, m_lo: int) -> tuple[int, int]:
    """(hi:lo) * (m_hi:m_lo) mod 2**64, as halves."""
    l1, l0 = lo >> 16, lo & _M16
    m1, m0 = m_lo >> 16, m_lo & _M16
    mid = l1 * m0 + l0 * m1  # < 2**33
    low = l0 * m0 + ((mid & _M16) << 16)  # < 2**33
    carry = (low >> 32) + (mid >> 16) + l1 * m1  # the high half of lo * m_lo
    out_hi = (carry + _mul_lo32(hi, m_lo) + _mul_lo32(lo, m_hi)) & _M32
    return out_hi, low & _M32


class SplitMix64:
    """A tiny, fast, seedable generator for random players (Steele, Lea, Flood 2014)."""

    __slots__ = ("_hi", "_lo")  # the 64-bit state's halves

    def __init__(self, seed: int) -> None:
        self._hi = (seed >> 32) & _M32
        self._lo = seed & _M32

    def next(self) -> int:
        """The next 64-bit output."""
        if not _COMPILED:
            state = (((self._hi << 32) | self._lo) + 0x9E3779B97F4A7C15) & _MASK
            self._hi, self._lo = state >> 32, state & _M32
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            return z ^ (z >> 31)
        hi, lo = self._halves()
        return (hi << 32) | lo

    def below(self, n: int) -> int:
        """``next() % n``: the bias is under 2**-58 for the lists we draw from."""
        if not _COMPILED or n > _BELOW_HALVES:
            return self.next() % n
        hi, lo = self._halves()
        return ((hi % n) * ((1 << 32) % n) + lo) % n  # (hi * 2**32 + lo) % n, kept small

    def _halves(self) -> tuple[int, int]:
        """The next output as its two 32-bit halves (the compiled spelling)."""
        lo = self._lo + _GAMMA_LO
        hi = (self._hi + _GAMMA_HI + (lo >> 32)) & _M32
        lo &= _M32
        self._hi, self._lo = hi, lo
        # z = (z ^ (z >> 30)) * MIX1
        lo ^= (lo >> 30) | ((hi & 0x3FFFFFFF) << 2)
        hi ^= hi >> 30
        hi, lo = _mul64(hi, lo, _MIX1_HI, _MIX1_LO)
        # z = (z ^ (z >> 27)) * MIX2
        lo ^= (lo >> 27) | ((hi & 0x7FFFFFF) << 5)
        hi ^= hi >> 27
        hi, lo = _mul64(hi, lo, _MIX2_HI, _MIX2_LO)
        # z ^ (z >> 31)
        lo ^= (lo >> 31) | ((hi & 0x7FFFFFFF) << 1)
        hi ^= hi >> 31
        return hi, lo
