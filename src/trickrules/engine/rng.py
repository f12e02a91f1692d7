"""The library's use of random numbers, so a seed gives the same deals everywhere.

Version 1 (``RNG_VERSION``): the deal with shuffle number ``k`` of a match
with seed ``s`` shuffles with Python's Mersenne Twister, ``random.Random``,
seeded with the integer ``mix(s, k)`` (a SplitMix64 step of ``s`` and ``k``,
below); the engine calls the C generator that ``random.Random`` is built on,
which draws the same numbers. Python documents that ``Random.random()`` keeps producing the same
sequence for the same integer seed across versions, so only ``random()`` is
drawn: the shuffle is Fisher–Yates from the last position down, swapping
position ``i`` with ``floor(random() * (i + 1))``. The bias of that index is
below 2**-46 for any deck, far under what any test could see.
"""

from __future__ import annotations

from collections.abc import Callable
from math import floor
from typing import Any

try:  # the C generator that random.Random builds on: the same numbers, seeded without Python-level code
    from _random import Random as _Generator
except ImportError:  # pragma: no cover - an implementation without it
    from random import Random as _Generator  # type: ignore[assignment]

__all__ = ["RNG_VERSION", "mix", "shuffled"]

RNG_VERSION = 1
_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def mix(seed: int, shuffle_no: int) -> int:
    """A well-mixed 64-bit seed for shuffle ``shuffle_no`` of a match seeded ``seed``."""
    z = (seed * _GOLDEN + (shuffle_no + 1) * _GOLDEN) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def shuffled(seed: int, shuffle_no: int, n: int) -> list[int]:
    """The permutation of ``range(n)`` for shuffle ``shuffle_no`` of a match seeded ``seed``."""
    shuffle = _SHUFFLES.get(n)
    if shuffle is None:
        shuffle = _SHUFFLES[n] = _fisher_yates(n)
    return shuffle(_Generator(mix(seed, shuffle_no)).random)


def _fisher_yates(n: int) -> Callable[[Callable[[], float]], list[int]]:
    """The Fisher-Yates shuffle of ``range(n)`` written out step by step, for one deck size.

    Step ``i`` (from ``n - 1`` down to 1) swaps position ``i`` with
    ``floor(draw() * (i + 1))``: the product is the same float as in
    ``int(draw() * (i + 1))`` and not negative, and floor is the cheaper call.
    With no loop the steps cost about a third less.
    """
    lines = ["def shuffle(draw):", f"    o = {list(range(n))!r}"]
    for i in range(n - 1, 0, -1):
        lines.append(f"    j = floor(draw() * {float(i + 1)!r})")
        lines.append(f"    o[{i}], o[j] = o[j], o[{i}]")
    lines.append("    return o")
    namespace: dict[str, Any] = {"floor": floor}
    exec("\n".join(lines), namespace)
    made: Callable[[Callable[[], float]], list[int]] = namespace["shuffle"]
    return made


#: Per deck size: its written-out shuffle.
_SHUFFLES: dict[int, Callable[[Callable[[], float]], list[int]]] = {}
