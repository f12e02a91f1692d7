"""Frozen values that cannot be initialised twice.

A frozen attrs class refuses ``value.field = x``, but its ``__init__`` and
``__setstate__`` write the slots directly, so calling one of them again on a
built value (``Passed(2).__init__(3)``) rewrites it in place. Where one value
is shared (an event the engine emits deal after deal, an action of a game,
a default), that changes every holder of it. A frozen attrs class that
derives from :class:`Sealed` refuses both once it holds a value: they raise
:class:`attrs.exceptions.FrozenInstanceError`, as setting a field does.

Whether a value has been built is asked of the garbage collector's
traversal (:func:`gc.get_referents`), which lists the slots that are set
without raising: about a tenth of a microsecond per value built, where
reading an unset slot (which raises ``AttributeError``) costs four times as
much.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import Any

from attrs.exceptions import FrozenInstanceError

__all__ = ["Sealed"]

_referents = gc.get_referents


def _is_built(value: object) -> bool:
    """Whether any slot of ``value`` is set (a new object refers to nothing but, at most, its class)."""
    found = _referents(value)
    return bool(found) and found != [type(value)]


class Sealed:
    """A base of frozen attrs classes: ``__init__`` and ``__setstate__`` run once per value.

    attrs calls :meth:`__attrs_pre_init__` at the start of the ``__init__`` it
    writes; ``__setstate__`` (unpickling, :func:`copy.copy`) is wrapped when
    the class is made. Both refuse a value that already holds fields.
    """

    __slots__ = ()

    # Kept after measuring it (issue #25 item 8). Against a copy of the package whose Sealed is a plain
    # base, both imported in one process and timed alternately (process CPU time, medians of 31 rounds,
    # Python 3.11 on the shared 2-core machine), the check adds 100-126 ns to each value built: Auction
    # 409 -> 519 ns, CardPlayed 338 -> 438, Paid 392 -> 504, Action 377 -> 497, Range 979 -> 1105. The
    # engine shares its events and actions, so few values are built per step (about 330 in 7,000 random
    # actions) and whole matches of random play are no slower: paired time ratios 0.991-1.006 on
    # Quadrille, Cuatrola, Manille and Hearts (benchmarks/paired.py, by CPU time: 0.997-1.005). Compiling
    # a game (340-810 values) and reading a match's log back (670) take about 1% longer. The simpler
    # checks cost more: reading the first field in a try block adds 401 ns, getattr with a default 208 ns,
    # this one 99 ns (a 4-field class). What it protects: ``value.__init__(...)`` would otherwise rewrite
    # in place an event, action or default that the whole process shares (tests/test_immutability.py).
    # To measure again: make Sealed a plain base in a copy of src, then
    # ``python benchmarks/paired.py --old COPY --new src quadrille cuatrola manille hearts``.
    def __attrs_pre_init__(self) -> None:
        if len(_referents(self)) > _BLANK:  # as _is_built, with fewer steps: every value built runs it
            raise FrozenInstanceError

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        setstate = cls.__dict__.get("__setstate__")
        if setstate is not None:
            cls.__setstate__ = _sealed_setstate(setstate)  # type: ignore[attr-defined]


class _Probe(Sealed):
    __slots__ = ("field",)


#: How many objects a sealed value with no slot set refers to (its class, or nothing).
_BLANK = len(_referents(_Probe.__new__(_Probe)))


def _sealed_setstate(setstate: Callable[[Any, Any], None]) -> Callable[[Any, Any], None]:
    """``setstate``, refused on a value that already holds fields."""

    def __setstate__(self: Any, state: Any) -> None:
        if _is_built(self):
            raise FrozenInstanceError
        setstate(self, state)

    __setstate__.__doc__ = setstate.__doc__
    return __setstate__
