"""Small functions written out per game with no loop, for the engine's hottest steps.

Each is built once per game from a plain rule and checked against that rule
by ``tests/test_tables.py``. Each is kept only because a paired benchmark
showed it pays on a whole deal (see ``docs/engine.md``, "Speed devices", for
the measured gains and how to measure them again).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

__all__ = ["TrickEnd", "dealer", "toggler", "trick_ender", "unpacker"]

_T = TypeVar("_T")

#: (trick, led-power row) -> (index of the winning card, mask of the trick's cards, their codes).
TrickEnd = Callable[..., tuple[int, int, tuple[str, ...]]]


def _build(source: str, namespace: dict[str, Any], name: str) -> Any:
    exec(source, namespace)
    return namespace[name]


def toggler(seat: int, players: int) -> Callable[[tuple[int, ...], int], tuple[int, ...]]:
    """A function giving the hands with one card bit of ``seat`` flipped (cheaper than a list round trip)."""
    items = ", ".join(f"hands[{s}] ^ bit" if s == seat else f"hands[{s}]" for s in range(players))
    made: Callable[[tuple[int, ...], int], tuple[int, ...]] = _build(
        f"def toggle(hands, bit):\n    return ({items},)\n", {}, "toggle"
    )
    return made


def trick_ender(size: int, bit: Sequence[int], codes: Sequence[str]) -> TrickEnd:
    """The end of a trick of ``size`` cards, written out with no loop.

    The winner is the first card of highest value in ``value`` (a row of
    led powers, see :class:`~trickrules.compile.tables.TrumpData`).
    """
    cards = ", ".join(f"t{i}" for i in range(size))
    lines = ["def end(trick, value):", f"    {cards}, = trick", "    w = 0", "    best = value[t0]"]
    for i in range(1, size):
        lines += [f"    if value[t{i}] > best:", f"        w = {i}", f"        best = value[t{i}]"]
    taken = " | ".join(f"bit[t{i}]" for i in range(size))
    named = ", ".join(f"codes[t{i}]" for i in range(size))
    lines.append(f"    return w, {taken}, ({named},)")
    made: TrickEnd = _build("\n".join(lines) + "\n", {"bit": tuple(bit), "codes": tuple(codes)}, "end")
    return made


_UNPACKERS: dict[tuple[object, ...], Callable[[int], tuple[Any, ...]]] = {}
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
    source = f"def items(mask):\n    return {' + '.join(terms)}\n"
    made: Callable[[int], tuple[_T, ...]] = _build(source, namespace, "items")
    _UNPACKERS[key] = made
    return made


def dealer(seats: Sequence[int], players: int, bit: Sequence[int]) -> Callable[[list[int]], tuple[int, ...]]:
    """A function from a shuffled order to the hands it deals, when ``seats[i]`` receives ``order[i]``."""
    terms = []
    for seat in range(players):
        got = [f"bit[order[{i}]]" for i, s in enumerate(seats) if s == seat]
        terms.append(" | ".join(got) if got else "0")
    made: Callable[[list[int]], tuple[int, ...]] = _build(
        f"def hands(order):\n    return ({', '.join(terms)},)\n", {"bit": tuple(bit)}, "hands"
    )
    return made
