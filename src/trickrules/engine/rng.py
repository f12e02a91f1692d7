"""The library's use of random numbers, so a seed gives the same deals everywhere.

Version 1 (``RNG_VERSION``): the deal with shuffle number ``k`` of a match
with seed ``s`` shuffles with Python's Mersenne Twister, ``random.Random``,
seeded with the integer ``mix(s, k)`` (a SplitMix64 step of the low 64 bits
of ``s`` and ``k``, with the bits of ``s`` above the 64th kept above it,
below); the engine calls the C generator that ``random.Random`` is built on,
which draws the same numbers. Python documents that ``Random.random()`` keeps producing the same
sequence for the same integer seed across versions, so only ``random()`` is
drawn: the shuffle is Fisher–Yates from the last position down, swapping
position ``i`` with ``floor(random() * (i + 1))``. The bias of that index is
below 2**-46 for any deck, far under what any test could see.

A deal's other chance choice (where passed cards go, with
``passing.order = "chance"``) is one draw ``floor(random() * count)`` from
a second generator seeded with ``mix(s, k) ^ CHOICE_SALT``, so it never
changes the shuffle. A hand size drawn at random (``deal.hand_size =
"random"``) is one such draw from a third generator, ``mix(s, k) ^ SIZE_SALT``.
"""

from __future__ import annotations

from math import floor

try:  # the C generator that random.Random builds on: the same numbers, seeded without Python-level code
    from _random import Random as _Generator
except ImportError:  # pragma: no cover - an implementation without it
    from random import Random as _Generator  # type: ignore[assignment]

__all__ = ["CHOICE_SALT", "RNG_VERSION", "SIZE_SALT", "chosen", "chosen_size", "mix", "shuffled"]

RNG_VERSION = 1
_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
#: Keeps a deal's chance choice apart from its shuffle (any fixed 64-bit constant would do).
CHOICE_SALT = 0xD1B54A32D192ED03


def mix(seed: int, shuffle_no: int) -> int:
    """A well-mixed seed for shuffle ``shuffle_no`` of a match seeded ``seed``.

    Its low 64 bits are a SplitMix64 step of the seed's low 64 bits and
    ``shuffle_no``; the seed's bits above the 64th are kept above them, so a
    128-bit seed keeps all its bits (and a seed below 2**64 gives a 64-bit value).
    """
    z = (seed * _GOLDEN + (shuffle_no + 1) * _GOLDEN) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return (z ^ (z >> 31)) | ((seed >> 64) << 64)


def shuffled(seed: int, shuffle_no: int, n: int) -> list[int]:
    """The permutation of ``range(n)`` for shuffle ``shuffle_no`` of a match seeded ``seed``.

    Fisher-Yates from the last position down: step ``i`` swaps position
    ``i`` with ``floor(draw() * (i + 1))``, the same float product as
    ``int(draw() * (i + 1))`` and not negative, so floor is exact.
    """
    draw = _Generator(mix(seed, shuffle_no)).random
    order = list(range(n))
    for i in range(n - 1, 0, -1):
        j = floor(draw() * (i + 1))
        order[i], order[j] = order[j], order[i]
    return order


def chosen(seed: int, shuffle_no: int, count: int) -> int:
    """A uniform choice among ``count`` for the deal of shuffle ``shuffle_no`` (a number from 0 to ``count - 1``)."""
    return floor(_Generator(mix(seed, shuffle_no) ^ CHOICE_SALT).random() * count)


#: Keeps a deal's drawn hand size apart from its shuffle and its other chance choice.
SIZE_SALT = 0x8CB92BA72F3D8DD7


def chosen_size(seed: int, shuffle_no: int, count: int) -> int:
    """Which of ``count`` hand sizes the deal of shuffle ``shuffle_no`` has (``deal.hand_size = "random"``).

    One draw ``floor(random() * count)`` from a generator seeded with
    ``mix(seed, shuffle_no) ^ SIZE_SALT``: a third stream, so neither the
    shuffle nor the deal's other chance choice changes with it.
    """
    return floor(_Generator(mix(seed, shuffle_no) ^ SIZE_SALT).random() * count)
