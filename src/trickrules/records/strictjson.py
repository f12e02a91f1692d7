"""Reading untrusted JSON text: one parser setting for logs and views.

:func:`read_json` parses one JSON value and refuses, with a
:class:`~trickrules.errors.LogFormatError` that starts with ``where``, what a
log or a view never holds: a key repeated in one object (JSON parsers
disagree on which value wins), ``NaN`` and the infinities, any number with a
fraction or an exponent, integers beyond ±2**53 (a longer literal is refused
before it is converted), and nesting deeper than Python's recursion limit.

Integers past ±2**53 (a 128-bit seed) are written as JSON strings of their
decimal digits, in the fields that can hold them (:func:`big_out` writes,
:func:`big_in` reads): one form per value, so a number that fits a JSON
integer is never a string, and a string never has a leading zero or a plus
sign.
"""

from __future__ import annotations

import json
import re
import reprlib
from collections.abc import Iterable
from typing import Any

from trickrules.errors import LogFormatError
from trickrules.spec.converter import MAX_BIG, MAX_INT

__all__ = ["big_in", "big_out", "read_json", "show"]

#: A big integer's string form: at most 39 digits (``MAX_BIG`` is 2**128), no leading zero.
_BIG = re.compile(r"-?[1-9][0-9]{15,38}")

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


def _big_out(value: Any) -> Any:
    if type(value) is int:
        return value if -MAX_INT <= value <= MAX_INT else str(value)
    if isinstance(value, list | tuple):
        return [_big_out(v) for v in value]
    return value


def big_out(data: dict[str, Any], keys: Iterable[str]) -> dict[str, Any]:
    """``data`` with every integer past ±2**53 under ``keys`` (or in a list there) written as a decimal string."""
    for key in keys:
        value = data.get(key)
        if type(value) is int:
            if not -MAX_INT <= value <= MAX_INT:
                data[key] = str(value)
        elif isinstance(value, list | tuple):
            data[key] = _big_out(value)
    return data


def _big_in(value: Any, where: str) -> Any:
    if type(value) is str:
        if _BIG.fullmatch(value) is None:
            return value  # not a number: the field's own check names it
        number = int(value)
        if -MAX_INT <= number <= MAX_INT:
            raise LogFormatError(f"{where}: {value!r} is written as a string but fits a JSON integer; write {number}")
        if abs(number) > MAX_BIG:
            raise LogFormatError(f"{where}: integer {show(value)} is out of range (at most 2**128)")
        return number
    if type(value) is list:
        return [_big_in(v, where) for v in value]
    return value


def big_in(data: dict[str, Any], keys: Iterable[str], where: str) -> dict[str, Any]:
    """``data`` with the decimal strings under ``keys`` (or in a list there) read back as integers.

    A string that is not a big integer's canonical form is left as it is, for
    the field's own type check to refuse; one that spells a number within
    ±2**53 (which must be a JSON integer) or past 10**40 is refused here.
    """
    for key in keys:
        if key in data:
            data[key] = _big_in(data[key], f"{where}{key}")
    return data
