"""The one cattrs converter of the library, and how it reports errors.

Encoding choices, in one place:

* Unknown keys are rejected (``forbid_extra_keys``): a typo in a spec or a
  log must not silently change a rule.
* Primitives are strict: an ``int`` field takes only a TOML/JSON integer
  (not a bool, a float or a numeric string) within ``MAX_BIG``; a ``str``
  field only a string; a ``bool`` only ``true``/``false``. ``nan`` and
  ``inf`` are never accepted.
* A :data:`Total` field (a score, the pot, a payment: whatever can grow
  deal after deal) holds an integer within ``MAX_BIG``; past ±``MAX_INT`` it
  is written as a string of its decimal digits and read back from one (one
  form per value: a number that fits a JSON integer is never a string).
* Tuples are read from lists; :class:`FrozenMap` from tables/objects with
  string keys, and written back as plain dicts.
* A field named ``from_`` is spelled ``from`` on the outside.
* Event classes are a tagged union (registered by :mod:`trickrules.engine.events`):
  each carries a fixed ``"type"`` tag string that does not depend on the
  Python class name.

Validation problems are collected with their key path and turned into one
message by :func:`describe_error`, e.g. ``deck.suits[2].colour: expected a
string, found 3``.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, TypeVar, get_args, get_origin

import cattrs
from cattrs.errors import (
    ClassValidationError,
    ForbiddenExtraKeysError,
    IterableValidationError,
    IterableValidationNote,
)
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from trickrules.errors import shown
from trickrules.spec.frozenmap import FrozenMap

__all__ = [
    "MAX_BIG",
    "MAX_BIG_TEXT",
    "MAX_INT",
    "Total",
    "converter",
    "describe_error",
    "structure",
    "total_in",
    "total_out",
    "unstructure",
]

T = TypeVar("T")

#: The largest integer magnitude a spec may write, and the largest a log or
#: a view writes as a JSON number (JSON readers in other languages lose
#: precision above 2**53).
MAX_INT = 2**53
#: The largest integer magnitude the library carries anywhere: a total (see
#: :data:`Total`; ``formula.MAX_MAGNITUDE``) or a seed (below 2**128). A log
#: writes one past ``MAX_INT`` as a string of its decimal digits.
MAX_BIG = 10**300
#: ``MAX_BIG`` as messages write it.
MAX_BIG_TEXT = "10**300"

#: An integer that may pass ``MAX_INT``: scores, the pot, payments, points,
#: counters, the seed. The type checker reads it as ``int``; the converter
#: writes it as a decimal string past ±``MAX_INT`` and reads that form back.
Total = Annotated[int, "total"]

#: A big integer's one string form: past 2**53 (16 digits at least), no leading zero or plus sign.
_BIG_TEXT = re.compile(r"-?[1-9][0-9]{15,300}")


class _WrongValue(ValueError):
    """A strict primitive hook refused a value; the message says why."""


def _show(value: object) -> str:
    return shown(value, 60)


def _strict_int(value: object, _: type) -> int:
    if type(value) is not int:
        raise _WrongValue(f"expected an integer, found {_show(value)}")
    if abs(value) > MAX_BIG:
        raise _WrongValue(f"integer {_show(value)} is out of range (at most {MAX_BIG_TEXT} in magnitude)")
    return value


def total_in(value: object) -> int:
    """A :data:`Total` read from JSON data: an integer, or past ±``MAX_INT`` the string of its digits.

    ``ValueError`` (a message naming what is wrong) for anything else: a
    string that is not a big integer's canonical form, one that spells a
    number a JSON integer holds, or a number past ``MAX_BIG``.
    """
    if type(value) is str:
        if _BIG_TEXT.fullmatch(value) is None:
            raise _WrongValue(f"expected an integer or a string of decimal digits, found {_show(value)}")
        number = int(value)
        if -MAX_INT <= number <= MAX_INT:
            raise _WrongValue(f"{value!r} is written as a string but fits a JSON integer; write {number}")
        value = number
    if type(value) is not int:
        raise _WrongValue(f"expected an integer, found {_show(value)}")
    if abs(value) > MAX_BIG:
        raise _WrongValue(f"integer {_show(value)} is out of range (at most {MAX_BIG_TEXT} in magnitude)")
    return value


def total_out(value: int) -> int | str:
    """A :data:`Total` as JSON data: the integer itself within ±``MAX_INT``, else its decimal digits."""
    return value if -MAX_INT <= value <= MAX_INT else str(value)


def _strict_str(value: object, _: type) -> str:
    if type(value) is not str:
        raise _WrongValue(f"expected a string, found {_show(value)}")
    return value


def _strict_bool(value: object, _: type) -> bool:
    if type(value) is not bool:
        raise _WrongValue(f"expected true or false, found {_show(value)}")
    return value


def _strict_float(value: object, _: type) -> float:
    raise _WrongValue(f"floating-point values are not accepted, found {_show(value)}")


def _is_tuple(tp: Any) -> bool:
    return tp is tuple or get_origin(tp) is tuple


def _is_frozenmap(tp: Any) -> bool:
    return get_origin(tp) is FrozenMap or tp is FrozenMap


def _make_converter() -> cattrs.Converter:
    conv = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
    conv.register_structure_hook(int, _strict_int)
    conv.register_structure_hook(str, _strict_str)
    conv.register_structure_hook(bool, _strict_bool)
    conv.register_structure_hook(float, _strict_float)
    conv.register_structure_hook_func(lambda t: t == Total, lambda value, _: total_in(value))
    conv.register_unstructure_hook_func(lambda t: t == Total, total_out)

    def structure_frozenmap(value: object, tp: Any) -> FrozenMap[Any, Any]:
        if not isinstance(value, dict):
            raise _WrongValue(f"expected a table, found {_show(value)}")
        args = get_args(tp)
        vtype = args[1] if len(args) == 2 else Any
        out: dict[str, Any] = {}
        problems: list[Exception] = []
        for key, item in value.items():
            if type(key) is not str:
                problems.append(_WrongValue(f"expected string keys, found {_show(key)}"))
                continue
            try:
                out[key] = item if vtype is Any else conv.structure(item, vtype)
            except Exception as exc:
                exc.__notes__ = [*getattr(exc, "__notes__", []), f"@key {key}"]
                problems.append(exc)
        if problems:
            raise ClassValidationError("mapping", problems, FrozenMap)
        return FrozenMap(out)

    conv.register_structure_hook_func(_is_frozenmap, structure_frozenmap)

    def structure_tuple(value: object, tp: Any) -> tuple[Any, ...]:
        # Only a list is a list: a string or a table must not be taken apart
        # into characters or keys (a typo would silently change a rule).
        if not isinstance(value, list | tuple):
            raise _WrongValue(f"expected a list, found {_show(value)}")
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            types = [args[0]] * len(value)
        elif args:
            if len(args) != len(value):
                raise _WrongValue(f"expected a list of {len(args)} items, found {len(value)}")
            types = list(args)
        else:
            types = [Any] * len(value)
        out = []
        problems: list[Exception] = []
        for index, (item, item_type) in enumerate(zip(value, types, strict=True)):
            try:
                out.append(item if item_type is Any else conv.structure(item, item_type))
            except Exception as exc:
                exc.__notes__ = [*getattr(exc, "__notes__", []), IterableValidationNote(f"@ {index}", index, item_type)]
                problems.append(exc)
        if problems:
            raise IterableValidationError("list", problems, tp)
        return tuple(out)

    conv.register_structure_hook_func(_is_tuple, structure_tuple)
    conv.register_unstructure_hook_func(_is_frozenmap, lambda m: {k: conv.unstructure(v) for k, v in m.items()})
    return conv


#: The converter. Use :func:`structure` / :func:`unstructure`, or this object
#: directly for hooks registered by other modules of the library.
converter = _make_converter()


def register_renames(cls: type, **renames: str) -> None:
    """Spell the attrs fields of ``cls`` differently outside (``from_="from"``)."""
    overrides = {name: override(rename=outer) for name, outer in renames.items()}
    converter.register_structure_hook(
        cls,
        make_dict_structure_fn(
            cls,
            converter,
            _cattrs_forbid_extra_keys=True,
            **overrides,  # type: ignore[arg-type]
        ),
    )
    converter.register_unstructure_hook(
        cls,
        make_dict_unstructure_fn(cls, converter, **overrides),  # type: ignore[arg-type]
    )


def structure(data: object, cls: type[T]) -> T:
    """Structure plain data into ``cls`` with the library's converter."""
    return converter.structure(data, cls)


def unstructure(value: object) -> Any:
    """Turn a library value into plain data (dicts, lists, str, int, bool, None)."""
    return converter.unstructure(value)


def _path_of(notes: list[str], base: str) -> str:
    path = base
    for note in notes:
        note_text = str(note)
        if note_text.startswith("@key "):
            path = f"{path}.{note_text[5:]}" if path else note_text[5:]
    return path


def _walk(exc: BaseException, path: str, out: list[str]) -> None:
    if isinstance(exc, ClassValidationError | IterableValidationError):
        for sub in exc.exceptions:
            sub_path = path
            for note in getattr(sub, "__notes__", []):
                if isinstance(note, str) and note.startswith("@key "):
                    continue
                name = getattr(note, "name", None)
                index = getattr(note, "index", None)
                if name is not None:
                    sub_path = f"{path}.{name}" if path else str(name)
                elif index is not None:
                    sub_path = f"{path}[{index}]"
            sub_path = _path_of([n for n in getattr(sub, "__notes__", []) if isinstance(n, str)], sub_path)
            _walk(sub, sub_path, out)
        return
    where = path or "(top level)"
    if isinstance(exc, ForbiddenExtraKeysError):
        keys = ", ".join(repr(k) for k in sorted(exc.extra_fields))
        out.append(f"{where}: unknown key {keys} (a misspelt key must not silently change a rule)")
    elif isinstance(exc, KeyError):
        out.append(f"{where}: required key missing")
    elif isinstance(exc, _WrongValue):
        out.append(f"{where}: {exc}")
    elif isinstance(exc, ValueError):
        first = exc.args[0] if exc.args else exc
        if len(exc.args) == 4 and hasattr(exc.args[1], "name"):
            # An attrs ``in_`` validator: (message, attribute, options, value).
            name = exc.args[1].name
            where = f"{path}.{name}" if path else name
            first = f"expected one of {', '.join(repr(o) for o in exc.args[2])}, found {exc.args[3]!r}"
        out.append(f"{where}: {first}")
    elif isinstance(exc, TypeError | AttributeError):
        out.append(f"{where}: wrong kind of value ({exc})")
    else:
        out.append(f"{where}: {type(exc).__name__}: {exc}")


def describe_error(exc: BaseException, path: str = "") -> list[str]:
    """Turn a structuring failure into sentences, one per problem, with key paths."""
    out: list[str] = []
    _walk(exc, path, out)
    return out
