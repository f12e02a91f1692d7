"""The one function written out per game: from a card mask to the items of its cards.

It is kept because a paired benchmark shows it pays on a whole deal: replacing
it by a plain loop over the mask's bits made random play 7.5% slower on
Quadrille and Manille and 2.7% slower on Cuatrola (median of 52 paired runs
of 300 deals, alternating, on the 2-core machine; 11-15% more instructions
under callgrind). To measure it again, swap :func:`unpacker` for the plain
loop in a copy of ``src`` and run ``python benchmarks/paired.py --old src
--new COPY``. ``tests/test_tables.py`` checks it against the plain rule.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

__all__ = ["unpacker"]

_T = TypeVar("_T")

_UNPACKERS: dict[tuple[object, ...], Callable[[int], tuple[Any, ...]]] = {}
#: How many functions are kept for reuse: a process that loads many different decks keeps only the latest.
_KEPT = 64
#: The widest chunk of a mask that one table covers (2**11 entries per table).
_CHUNK_BITS = 11


def unpacker(per_card: Sequence[_T]) -> Callable[[int], tuple[_T, ...]]:
    """A function from a card mask to the items of its cards, in card order.

    The mask is cut into a few chunks of equal width (at most 11 bits); each
    chunk indexes a table holding, for each of its values, the tuple of its
    cards' items, and the function adds the chunks' tuples with no loop.
    Games with the same items share one function (and its tables).
    """
    key = tuple(per_card)
    found = _UNPACKERS.get(key)
    if found is not None:
        return found
    size = len(key)
    chunks = max(1, -(-size // _CHUNK_BITS))
    width = -(-size // chunks) if size else 1
    namespace: dict[str, Any] = {}
    terms = []
    for n, base in enumerate(range(0, max(size, 1), width)):
        namespace[f"t{n}"] = tuple(
            tuple(key[base + i] for i in range(width) if (value >> i) & 1 and base + i < size)
            for value in range(1 << width)
        )
        shifted = f"(mask >> {base})" if base else "mask"
        terms.append(f"t{n}[{shifted} & {(1 << width) - 1}]")
    exec(f"def items(mask):\n    return {' + '.join(terms)}\n", namespace)
    made: Callable[[int], tuple[_T, ...]] = namespace["items"]
    if len(_UNPACKERS) >= _KEPT:
        del _UNPACKERS[next(iter(_UNPACKERS))]  # the oldest
    _UNPACKERS[key] = made
    return made
