"""The limits a spec must keep, so that any spec within them loads in well under a second.

Spec and overlay files come from users, and the loader and the compiler do
work that grows with what a file holds: parsing, merging, structuring, one
compiled function per formula, tables per card and per trump suit. Each
limit below bounds one of those costs, and each is refused with a
:class:`~trickrules.errors.SpecError` that names the file, the key path and
the limit. ``docs/dsl.md`` (Limits) lists them with the measurements they
were chosen from; the bundled games use a small fraction of each.

:func:`check_resolved` applies the limits on the sizes of sections to a spec
after its overlays and options are merged, before it is structured: the
lists and tables are counted where they stand, so that a spec that holds
too many of something is refused before any work is done per item.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from trickrules.errors import SpecError

__all__ = [
    "MAX_CARDS",
    "MAX_DEPTH",
    "MAX_EXTENDS",
    "MAX_FORMULAS",
    "MAX_FORMULA_NODES",
    "MAX_ITEMS",
    "MAX_NODES",
    "MAX_SPEC_BYTES",
    "MAX_TEXT",
    "SECTION_LIMITS",
    "check_resolved",
    "key_path",
]

#: Larger spec files are refused before parsing; a spec and the files it extends together may not be larger either.
MAX_SPEC_BYTES = 256 * 1024
#: Tables and arrays nested deeper than this are refused.
MAX_DEPTH = 12
#: At most this many values (scalars, tables, arrays) in one file, and in a spec once overlays and options are merged.
MAX_NODES = 50_000
#: How many ``extends`` links may be followed.
MAX_EXTENDS = 4
#: The longest string or key, in characters.
MAX_TEXT = 4096
#: The most items in any array, and keys in any table.
MAX_ITEMS = 1024
#: The most cards in a deck, once ``deck.removed`` is taken out.
MAX_CARDS = 256
#: The most formulas in a spec (each is compiled to a function of its own).
MAX_FORMULAS = 1000
#: The most parts (names, numbers, operations, calls: syntax-tree nodes) of all the formulas of a spec together.
MAX_FORMULA_NODES = 4000

#: The sections whose size is limited beyond :data:`MAX_ITEMS`: key path (``[]`` stands for every
#: element of an array, ``*`` for every value of a table) -> (the most items, what an item is).
SECTION_LIMITS: dict[str, tuple[int, str]] = {
    "deck.suits": (16, "suits"),
    "deck.ranks": (64, "ranks"),
    "trump.promotions": (32, "promotions"),
    "bidding.contracts": (32, "contracts"),
    "bidding.contracts[].vars": (64, "variables"),
    "bidding.announcements": (16, "announcements"),
    "declarations": (64, "declarations"),
    "scoring.vars": (64, "variables"),
    "scoring.outcomes": (128, "outcomes"),
    "scoring.outcomes[].pay": (16, "payments"),
    "scoring.bonuses": (128, "bonuses"),
    "scoring.bonuses[].pay": (16, "payments"),
    "scoring.counters": (16, "counters"),
    "options": (128, "options"),
    "options.*.choices": (128, "choices"),
}


def key_path(path: str, key: str) -> str:
    """``path`` extended by the table key ``key``, quoted as TOML quotes it when it is not a bare key."""
    bare = key and all(c.isascii() and (c.isalnum() or c in "_-") for c in key)
    shown = key if bare else '"' + key.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return f"{path}.{shown}" if path else shown


def _at(value: Any, steps: list[str], path: str) -> Iterator[tuple[str, Any]]:
    """The values at the key path ``steps`` below ``value`` (see :data:`SECTION_LIMITS`), with their paths."""
    if not steps:
        yield path, value
        return
    step, rest = steps[0], steps[1:]
    if step == "[]":
        if isinstance(value, list):
            for index, item in enumerate(value):
                yield from _at(item, rest, f"{path}[{index}]")
    elif step == "*":
        if isinstance(value, dict):
            for key, item in value.items():
                yield from _at(item, rest, key_path(path, key))
    elif isinstance(value, dict) and step in value:
        yield from _at(value[step], rest, key_path(path, step))


def _steps(pattern: str) -> list[str]:
    return pattern.replace("[]", ".[]").split(".")


def _count(value: object, where: str, path: str, seen: list[int]) -> None:
    """Count the values of the merged spec, and refuse an array or table of more than :data:`MAX_ITEMS`."""
    seen[0] += 1
    if seen[0] > MAX_NODES:
        raise SpecError(f"{where}: with its overlays and options the spec holds more than {MAX_NODES} values.")
    if isinstance(value, dict | list) and len(value) > MAX_ITEMS:
        what = "keys" if isinstance(value, dict) else "items"
        shown = path or "(top level)"
        raise SpecError(f"{where}: {shown}: {len(value)} {what}; at most {MAX_ITEMS} are allowed.")
    if isinstance(value, dict):
        for key, item in value.items():
            _count(item, where, key_path(path, str(key)), seen)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _count(item, where, f"{path}[{index}]", seen)


def check_resolved(raw: dict[str, Any], where: str) -> None:
    """Refuse a merged spec (plain data) that holds too much: see :data:`MAX_NODES`, :data:`SECTION_LIMITS`."""
    _count(raw, where, "", [0])
    for pattern, (most, what) in SECTION_LIMITS.items():
        for path, value in _at(raw, _steps(pattern), ""):
            if isinstance(value, dict | list) and len(value) > most:
                raise SpecError(f"{where}: {path}: {len(value)} {what}; at most {most} are allowed.")
