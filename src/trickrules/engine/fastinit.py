"""Positional constructors for the engine's frozen attrs records, for the hot path.

attrs' ``__init__`` of a frozen class sets each field through
``object.__setattr__`` by name, because the class's own ``__setattr__``
refuses every assignment. The engine builds a few records on every card,
trick and deal, so :func:`maker` writes, once per class, a constructor that
takes every field positionally and builds the same value (equal, hashing
alike, of the same class) far more cheaply:

- it fills an instance of a *twin*: a plain class with the same slots and no
  ``__setattr__`` of its own, whose assignments are ordinary slot stores;
- then it sets the instance's ``__class__`` to the frozen class, which Python
  allows between classes of the same layout. From then on the value is as
  frozen as one built by ``__init__``.

The classes must be slotted attrs classes without a weakref slot
(``@frozen(weakref_slot=False)``: a weakref slot makes the two layouts
differ), validators, converters or ``__attrs_post_init__``. :func:`maker`
checks this, and checks the twin on one value; where the layout still does
not allow the switch it falls back to setting each slot through its
descriptor (slower, the same value).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

__all__ = ["maker", "twin_of"]

_TWINS: dict[type, type] = {}


def twin_of(cls: type) -> type | None:
    """The mutable twin of the frozen slotted class ``cls``, or ``None`` if it cannot have one."""
    if cls in _TWINS:
        return _TWINS[cls]
    slots = cls.__dict__.get("__slots__")
    twin: type | None = None
    if slots is not None and "__weakref__" not in slots and cls.__bases__ == (object,):
        candidate = type(f"_{cls.__name__}Twin", (), {"__slots__": tuple(slots)})
        probe = candidate()
        try:
            probe.__class__ = cls
        except TypeError:
            pass
        else:
            twin = candidate
    _TWINS[cls] = twin  # type: ignore[assignment]
    return twin


def maker(cls: type) -> Callable[..., Any]:
    """A constructor of ``cls`` taking every field positionally, in declaration order."""
    fields = attrs.fields(cls)
    if hasattr(cls, "__attrs_post_init__") or any(f.validator or f.converter for f in fields):
        raise TypeError(f"{cls.__name__} has validators, converters or a post-init hook")
    names = [f.name for f in fields]
    if any(name == "self_" or name.startswith(("_set", "_new", "_cls", "_twin")) for name in names):
        raise TypeError(f"{cls.__name__} has a field named like the constructor's own locals")
    twin = twin_of(cls)
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_twin": twin}
    if twin is not None:
        lines = ["def make(" + ", ".join(names) + "):", "    self_ = _twin()"]
        lines += [f"    self_.{name} = {name}" for name in names]
        lines.append("    self_.__class__ = _cls")
    else:
        lines = ["def make(" + ", ".join(names) + "):", "    self_ = _new(_cls)"]
        for i, name in enumerate(names):
            namespace[f"_set{i}"] = cls.__dict__[name].__set__
            lines.append(f"    _set{i}(self_, {name})")
    lines.append("    return self_")
    exec("\n".join(lines), namespace)
    made: Callable[..., Any] = namespace["make"]
    made.__doc__ = f"Build a {cls.__name__} from every field, positionally."
    return made
