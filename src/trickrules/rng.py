"""The library's own random numbers, so a seed gives the same deals everywhere.

Version 1 (``RNG_VERSION``): SplitMix64. The deal with shuffle number ``k``
of a match with seed ``s`` uses a generator seeded with
``mix(s * 0x9E3779B97F4A7C15 + k)``; a shuffle is Fisher–Yates from the last
position down, drawing an unbiased index below ``i + 1`` by rejection. Python's
``random`` module is not used: its shuffle is not promised to stay the same.
"""

from __future__ import annotations

__all__ = ["RNG_VERSION", "SplitMix64", "shuffled"]

RNG_VERSION = 1
_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class SplitMix64:
    """A tiny, fast, well-mixed 64-bit generator (Steele, Lea and Flood, 2014)."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK

    def next64(self) -> int:
        """The next 64-bit output."""
        self._state = (self._state + _GOLDEN) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """An unbiased integer in ``range(n)`` (``n`` at least 1)."""
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n


def shuffled(seed: int, shuffle_no: int, n: int) -> list[int]:
    """The permutation of ``range(n)`` for shuffle ``shuffle_no`` of a match seeded ``seed``."""
    rng = SplitMix64(SplitMix64((seed * _GOLDEN + shuffle_no) & _MASK).next64())
    order = list(range(n))
    for i in range(n - 1, 0, -1):
        j = rng.below(i + 1)
        order[i], order[j] = order[j], order[i]
    return order
