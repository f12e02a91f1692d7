"""Reading untrusted JSON text: one parser setting for logs and views.

:func:`read_json` parses one JSON value and refuses, with a
:class:`~trickrules.errors.LogFormatError` that starts with ``where``, what a
log or a view never holds: a key repeated in one object (JSON parsers
disagree on which value wins), ``NaN`` and the infinities, any number with a
fraction or an exponent, integers beyond ±2**53 (a longer literal is refused
before it is converted), and nesting deeper than Python's recursion limit.

Integers past ±2**53 (a 128-bit seed, a pot that has doubled for a hundred
deals) are written as JSON strings of their decimal digits, in the fields
that can hold them: the converter's ``Total`` type reads and writes them.
"""

from __future__ import annotations

import json
import reprlib
from typing import Any

from trickrules.errors import LogFormatError
from trickrules.spec.converter import MAX_INT

__all__ = ["read_json", "show"]

#: The longest integer literal converted: 2**53 has 16 digits, so anything longer is refused unread.
_MAX_DIGITS = 20

_short = reprlib.Repr()
_short.maxstring = 40
_short.maxother = 40
_short.maxlist = 4
_short.maxdict = 4


def show(value: object) -> str:
    """A short ``repr`` of a value for an error message: a hostile value may be huge."""
    return _short.repr(value)


def _reject_constant(name: str) -> Any:
    raise LogFormatError(f"the text holds {name}, which is not a JSON number")


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise LogFormatError(f"the text repeats the key {show(key)} in one object")
        out[key] = value
    return out


def _int(text: str) -> int:
    if len(text) > _MAX_DIGITS:
        raise LogFormatError(f"integer {text[:_MAX_DIGITS]}... is out of range (at most 2**53)")
    value = int(text)
    if abs(value) > MAX_INT:
        raise LogFormatError(f"integer {text} is out of range (at most 2**53)")
    return value


def _float(text: str) -> Any:
    raise LogFormatError(f"the text holds a fractional number {text[:_MAX_DIGITS]}; only integers are allowed")


def read_json(text: str, where: str) -> Any:
    """Parse one JSON value from ``text``; :class:`LogFormatError` starting with ``where`` if it is refused."""
    try:
        return json.loads(
            text, object_pairs_hook=_pairs, parse_constant=_reject_constant, parse_int=_int, parse_float=_float
        )
    except LogFormatError as exc:
        raise LogFormatError(f"{where}: {exc}") from None
    except RecursionError:
        raise LogFormatError(f"{where}: nested too deeply") from None
    except ValueError as exc:
        raise LogFormatError(f"{where}: not valid JSON ({exc})") from None
