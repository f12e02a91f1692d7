"""Positional constructors for the engine's frozen attrs records, for the hot path.

attrs' ``__init__`` of a frozen class sets each field through
``object.__setattr__`` by name. The engine builds a few records on every
trick and deal, so :func:`maker` writes, once per class, a constructor that
takes every field positionally and sets each slot through its descriptor:
the same value (equal, hashing alike) at about half the cost. It is only for
classes without validators, converters or ``__attrs_post_init__``, which the
function checks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

__all__ = ["maker"]


def maker(cls: type) -> Callable[..., Any]:
    """A constructor of ``cls`` taking every field positionally, in declaration order."""
    fields = attrs.fields(cls)
    if hasattr(cls, "__attrs_post_init__") or any(f.validator or f.converter for f in fields):
        raise TypeError(f"{cls.__name__} has validators, converters or a post-init hook")
    names = [f.name for f in fields]
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    lines = ["def make(" + ", ".join(names) + "):", "    o = _new(_cls)"]
    for i, name in enumerate(names):
        namespace[f"_set{i}"] = cls.__dict__[name].__set__
        lines.append(f"    _set{i}(o, {name})")
    lines.append("    return o")
    exec("\n".join(lines), namespace)
    made: Callable[..., Any] = namespace["make"]
    made.__doc__ = f"Build a {cls.__name__} from every field, positionally."
    return made
