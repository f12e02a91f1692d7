"""Reading spec and overlay files: TOML to a complete, checked :class:`Spec`.

The steps, each failing with a :class:`SpecError` that names the file and key
path:

1. find the file (a bundled game name, or a path);
2. read it within size limits, as strict UTF-8, as TOML (``tomllib`` rejects
   duplicate keys); reject floats, deep nesting and oversized documents;
3. if it ``extends`` another spec, load that one and merge this one over it
   (tables merge key by key; arrays of named tables merge by ``name``/``rule``;
   other arrays are replaced);
4. apply the chosen house-rule options (each choice is a patch merged the same
   way);
5. structure the result into frozen classes with the one converter.

The limits (:mod:`trickrules.spec.limits`) bound the work of every step, so
that any spec loads, or is refused, in well under a second: the bytes of a
file and of the files it extends together, nesting, values, the length of a
string, the items of an array, the sizes of sections. Merging is linear in
the sizes of the base and the patch.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import os
import re
import tomllib
import unicodedata
from collections import deque
from collections.abc import Mapping
from pathlib import Path
from typing import Any, BinaryIO

import attrs

from trickrules.errors import SpecError, shown
from trickrules.spec.converter import MAX_INT, describe_error, structure, unstructure
from trickrules.spec.files import open_regular
from trickrules.spec.limits import (
    MAX_DEPTH,
    MAX_EXTENDS,
    MAX_NODES,
    MAX_SPEC_BYTES,
    MAX_TEXT,
    SECTION_LIMITS,
    check_resolved,
)
from trickrules.spec.model import Spec

__all__ = [
    "MAX_SPEC_BYTES",
    "bundled_names",
    "bundled_path",
    "canonical_spec",
    "fingerprint",
    "load_spec",
    "read_raw",
]

#: A run of digits this long is no integer a spec may hold (Python refuses to read one of 4,300 digits).
_LONG_DIGITS = re.compile(r"[0-9][0-9_]{99,}")
#: What a too-long integer is read as, so that the tree check names its key path: 2**53 + 1, just out of range.
_OUT_OF_RANGE = str(2**53 + 1)

_OVERLAY_KEYS = ("extends", "choose")
_MERGE_KEYS = ("name", "rule")


def _specs_dir() -> Path:
    package = Path(__file__).resolve().parent.parent
    installed = package / "_specs"
    if installed.is_dir():
        return installed
    return package.parent.parent / "specs"


@functools.cache  # no arguments: one entry, ever
def bundled_names() -> tuple[str, ...]:
    """The names of the bundled specs and overlays (``quadrille``, ``manille``, ...).

    Read once per process: the bundled specs are package data and do not change while it runs.
    """
    return tuple(sorted(p.stem for p in _specs_dir().glob("*.toml")))


def bundled_path(name: str) -> Path:
    """The file of a bundled spec, by name."""
    if name not in bundled_names():
        known = ", ".join(bundled_names())
        raise SpecError(f"{name!r} is neither a bundled game ({known}) nor a spec file that exists.")
    return _specs_dir() / f"{name}.toml"


def _is_file(path: Path) -> bool:
    """Whether ``path`` is a file; a name too long for the system (or with a NUL) is none."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def _resolve(name_or_path: str | Path, relative_to: Path | None = None) -> Path:
    text = str(name_or_path)
    if isinstance(name_or_path, str) and text in bundled_names():
        return _specs_dir() / f"{text}.toml"
    path = Path(text)
    if relative_to is not None and not path.is_absolute():
        candidate = relative_to.parent / path
        if _is_file(candidate):
            return candidate
    if _is_file(path):
        return path
    if text and _exists(path):  # a folder, a named pipe, a device: never opened (a pipe would wait for a writer)
        raise SpecError(f"{shown(text, 4200)} cannot be read (not a regular file).")  # a path: quoted whole
    return bundled_path(text)


def _exists(path: Path) -> bool:
    """Whether something is at ``path`` (a file or not); a name the system refuses names nothing."""
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def _resolve_parent(parent: str, overlay: Path, where: str) -> Path:
    """The spec an overlay ``extends``: a bundled name, or a file inside the overlay's own folder.

    Nothing else is opened, so a spec handed over by someone else cannot make
    the loader read an arbitrary file (``/proc/self/environ``, ``~/.ssh/...``).
    """
    if parent in bundled_names():
        return (_specs_dir() / f"{parent}.toml").resolve()
    folder = overlay.parent.resolve()
    candidate = (folder / parent).resolve()
    if not candidate.is_relative_to(folder) or not _is_file(candidate):
        known = ", ".join(bundled_names())
        raise SpecError(
            f"{where}: extends: {_short(parent)} is neither a bundled game ({known}) nor a file next to this overlay "
            f"(in {folder} or below it)."
        )
    return candidate


def _check_text(text: str, where: str, path: str) -> None:
    """Refuse control characters (an escape or a bell would act on a terminal that shows the spec), and long texts."""
    if len(text) > MAX_TEXT:
        shown = path or "(top level)"
        raise SpecError(f"{where}: {shown}: a text of {len(text)} characters; at most {MAX_TEXT} are allowed.")
    for char in text:
        if char not in "\n\t" and unicodedata.category(char).startswith("C"):
            shown = path or "(top level)"
            raise SpecError(f"{where}: {shown}: the control character U+{ord(char):04X} is not accepted.")


def _check_tree(value: object, where: str, path: str, depth: int, counter: list[int]) -> None:
    counter[0] += 1
    if counter[0] > MAX_NODES:
        raise SpecError(f"{where}: the document holds more than {MAX_NODES} values.")
    if depth > MAX_DEPTH:
        raise SpecError(f"{where}: {path or '(top level)'}: nested more than {MAX_DEPTH} levels deep.")
    if isinstance(value, float):
        raise SpecError(
            f"{where}: {path}: floating-point value {value!r} is not accepted "
            '(use integers, or a formula such as "3/2" for exact fractions).'
        )
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INT:
        raise SpecError(f"{where}: {path}: integer out of range (at most 2**53 in magnitude).")
    if isinstance(value, str):
        _check_text(value, where, path)
    if isinstance(value, dict):
        for key, item in value.items():
            _check_text(key, where, path)
            _check_tree(item, where, f"{path}.{key}" if path else key, depth + 1, counter)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check_tree(item, where, f"{path}[{index}]", depth + 1, counter)
    elif not isinstance(value, str | int | bool):
        raise SpecError(f"{where}: {path}: dates and times are not part of the DSL, found {value!r}.")


def read_raw(path: Path) -> dict[str, Any]:
    """Read one TOML file within the limits, as plain data (no ``extends`` handling)."""
    return _read(path, [MAX_SPEC_BYTES])


def _read(path: Path, budget: list[int]) -> dict[str, Any]:
    """:func:`read_raw`, taking the file's size from ``budget``: the bytes a spec and its bases may still hold."""
    where = str(path)
    fd, info = open_regular(path, lambda reason: SpecError(f"{where}: cannot be read ({reason})."))
    with os.fdopen(fd, "rb") as fh:
        return _read_open(fh, info, where, budget)


def _read_open(fh: BinaryIO, info: os.stat_result, where: str, budget: list[int]) -> dict[str, Any]:
    """:func:`_read` of a regular file once open (``info`` its status), within the budget."""
    size = info.st_size
    if size > MAX_SPEC_BYTES:
        raise SpecError(f"{where}: the file is {size} bytes; specs are limited to {MAX_SPEC_BYTES}.")
    if size > budget[0]:
        raise SpecError(
            f"{where}: the file is {size} bytes, and the spec with the files it extends would be more than "
            f"{MAX_SPEC_BYTES} bytes together."
        )
    try:
        data = fh.read(budget[0] + 1)
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SpecError(f"{where}: not valid UTF-8 at byte {exc.start}.") from None
    except OSError as exc:
        raise SpecError(f"{where}: cannot be read ({exc.strerror}).") from None
    if len(data) > budget[0]:  # the file grew after its size was read
        raise SpecError(f"{where}: the file is more than {budget[0]} bytes; specs are limited to {MAX_SPEC_BYTES}.")
    budget[0] -= len(data)
    return parse_raw(text, where)


def parse_raw(text: str, where: str) -> dict[str, Any]:
    """Parse TOML text within the limits, as plain data."""
    if len(text) > MAX_SPEC_BYTES:
        raise SpecError(f"{where}: the text is longer than {MAX_SPEC_BYTES} characters.")
    if text.startswith("\ufeff"):
        text = text[1:]  # a byte-order mark some editors write: not part of the TOML
    try:
        raw = _parse_toml(text, where)
    except RecursionError:
        raise SpecError(f"{where}: nested too deeply to read.") from None
    _check_tree(raw, where, "", 0, [0])
    return raw


def _parse_toml(text: str, where: str) -> dict[str, Any]:
    """``tomllib.loads``, with its errors as :class:`SpecError`.

    Python refuses to read an integer of more than 4,300 digits (a ``ValueError``
    that says nowhere where it is). Such a number is read again as one just out
    of range, so that the check of the tree names its key path.
    """
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"{where}: not valid TOML: {exc}.") from None
    except ValueError as exc:
        problem = exc
    found = _LONG_DIGITS.search(text)
    if found is None:
        raise SpecError(f"{where}: not valid TOML: {problem}.") from None
    try:
        return tomllib.loads(_LONG_DIGITS.sub(_OUT_OF_RANGE, text))
    except ValueError:
        pass
    line = text.count("\n", 0, found.start()) + 1
    column = found.start() - text.rfind("\n", 0, found.start())
    raise SpecError(
        f"{where}: a number too long to read (line {line}, column {column}); integers are at most 2**53 in magnitude."
    )


def _merge_key(items: list[Any]) -> str | None:
    if not items or not all(isinstance(i, dict) for i in items):
        return None
    for key in _MERGE_KEYS:
        if all(type(i.get(key)) is str for i in items):
            return key
    return None


class MergeError(ValueError):
    """A patch cannot be merged; the loader adds the file name."""


def merge(base: Any, patch: Any, path: str = "") -> Any:
    """Merge ``patch`` over ``base`` (both plain data) and return the result.

    Tables merge key by key. An array of tables that all carry a ``name``
    (or ``rule``) merges element by element on that key: a patch element
    with the name of an existing one merges into it; ``remove = true``
    drops it; a new name is appended, or inserted where ``before = "<name>"``
    says. When the patch names every element of the base, the patch's order
    is the result's order. Anything else in the patch replaces what the base
    had. A ``remove`` or ``before`` that names nothing is a :class:`MergeError`.
    The work is linear in the sizes of ``base`` and ``patch``.
    """
    if isinstance(base, dict) and isinstance(patch, dict):
        out = dict(base)
        for key, value in patch.items():
            sub = f"{path}.{key}" if path else str(key)
            out[key] = merge(base[key], value, sub) if key in base else copy.deepcopy(value)
        return out
    if isinstance(base, list) and isinstance(patch, list):
        key = _merge_key(base)
        if key is not None and _merge_key(patch) == key:
            return _merge_named(base, patch, key, path)
    return copy.deepcopy(patch)


class _Element:
    """An element of a named array while a patch is merged: a link of a ring, in the array's order."""

    __slots__ = ("after", "before", "item")

    def __init__(self, item: Any) -> None:
        self.item = item
        self.before: _Element = self
        self.after: _Element = self

    def insert(self, item: Any) -> _Element:
        """A new element holding ``item``, linked in just before this one."""
        new = _Element(item)
        new.before, new.after = self.before, self
        self.before.after = new
        self.before = new
        return new

    def unlink(self) -> None:
        """Take this element out of the ring."""
        self.before.after = self.after
        self.after.before = self.before


def _merge_named(base: list[Any], patch: list[Any], key: str, path: str) -> list[Any]:
    # A ring of the elements (``ring`` itself stands for the end) and, by name, the elements that
    # carry it, first first: each step of the patch is a lookup, not a search along the array.
    ring = _Element(None)
    named: dict[str, deque[_Element]] = {}
    for item in base:
        named.setdefault(item[key], deque()).append(ring.insert(item))  # merge() copies what it changes
    for item in patch:
        name = item[key]
        where = f"{path}[{key} = {name!r}]"
        body = {k: v for k, v in item.items() if k not in ("remove", "before")}
        holders = named.setdefault(name, deque())
        if item.get("remove") is True:
            if not holders:
                raise MergeError(f"{where}: 'remove = true' names an element that is not there.")
            holders.popleft().unlink()
            continue
        if holders:
            if "before" in item:
                raise MergeError(f"{where}: 'before' places a new element; {name!r} is already there.")
            holders[0].item = merge(holders[0].item, body, where)
            continue
        before = item.get("before")
        place = ring
        if before is not None:
            found = named.get(before) if type(before) is str else None
            if not found:
                raise MergeError(f"{where}: before = {_short(before)} names no element.")
            place = found[0]
        holders.append(place.insert(copy.deepcopy(body)))
    result = []
    element = ring.after
    while element is not ring:
        result.append(element.item)
        element = element.after
    order: dict[str, int] = {}
    for item in patch:
        if item.get("remove") is not True:
            order.setdefault(item[key], len(order))
    if all(item[key] in order for item in base if named[item[key]]):
        # The patch names every element that is left: it also gives the order.
        result.sort(key=lambda item: order.get(item[key], len(order)))
    return result


def _load_tree(path: Path, chain: tuple[Path, ...], budget: list[int]) -> tuple[dict[str, Any], dict[str, str]]:
    raw = _read(path, budget)
    where = str(path)
    choose = raw.pop("choose", {})
    if not isinstance(choose, dict) or not all(isinstance(v, str | bool | int) for v in choose.values()):
        raise SpecError(f"{where}: choose: expected a table of option = choice.")
    chosen = {str(k): _choice_text(v) for k, v in choose.items()}
    parent = raw.pop("extends", None)
    if parent is None:
        return raw, chosen
    if not isinstance(parent, str):
        raise SpecError(f"{where}: extends: expected the name or path of a spec, found {_short(parent)}.")
    if len(chain) > MAX_EXTENDS:
        raise SpecError(f"{where}: extends: more than {MAX_EXTENDS} levels of overlays.")
    parent_path = _resolve_parent(parent, path, where)
    if parent_path in chain:
        raise SpecError(f"{where}: extends: {_short(parent)} extends this file again (a cycle).")
    base, base_chosen = _load_tree(parent_path, (*chain, parent_path), budget)
    variant = raw.get("variant")
    if isinstance(variant, dict) and "name" in variant and "name" not in raw:
        raw["name"] = variant["name"]
    try:
        merged = merge(base, raw)
    except MergeError as exc:
        raise SpecError(f"{where}: {exc}") from None
    return merged, {**base_chosen, **chosen}


def _choice_text(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def _drop_removed_mechanisms(raw: dict[str, Any]) -> dict[str, Any]:
    """The spec without the ``[mechanisms.NAME]`` sections an overlay drops with ``remove = true``."""
    found = raw.get("mechanisms")
    if not isinstance(found, dict):
        return raw
    kept = {k: v for k, v in found.items() if not (isinstance(v, dict) and v.get("remove") is True)}
    return raw if len(kept) == len(found) else {**raw, "mechanisms": kept}


def _apply_options(raw: dict[str, Any], chosen: Mapping[str, str], where: str) -> dict[str, Any]:
    options = raw.get("options", {})
    if not isinstance(options, dict):
        raise SpecError(f"{where}: options: expected a table of options.")
    raw = _drop_removed_mechanisms(raw)
    result = raw
    summary: dict[str, Any] = {}
    final_choices: dict[str, str] = {}
    # An overlay drops an option it has no use for with `remove = true` in the option's table.
    options = {k: v for k, v in options.items() if not (isinstance(v, dict) and v.get("remove") is True)}
    most = SECTION_LIMITS["options"][0]
    if len(options) > most:
        raise SpecError(f"{where}: options: {len(options)} options; at most {most} are allowed.")
    for name in chosen:
        if name not in options:
            known = ", ".join(sorted(options)) or "none"
            raise SpecError(f"{where}: unknown option {_short(name)} (this game's options: {known}).")
    for name, option in options.items():
        path = f"options.{name}"
        if not isinstance(option, dict) or not isinstance(option.get("choices"), dict):
            raise SpecError(f"{where}: {path}: expected a table with 'default' and 'choices'.")
        extra = sorted(set(option) - {"default", "choices", "doc", "changes", "remove"})
        if extra:
            raise SpecError(
                f"{where}: {path}: unknown key {', '.join(map(repr, extra))} "
                "(an option has default, choices, doc and changes)."
            )
        choices = option["choices"]
        default = option.get("default")
        if not isinstance(default, str) or default not in choices:
            raise SpecError(f"{where}: {path}.default: expected one of {sorted(choices)}, found {default!r}.")
        choice = chosen.get(name, default)
        if choice not in choices:
            raise SpecError(f"{where}: option {name!r} has no choice {_short(choice)} (choices: {', '.join(choices)}).")
        patch = choices[choice]
        if not isinstance(patch, dict):
            raise SpecError(f"{where}: {path}.choices.{choice}: expected a table of changes.")
        try:
            result = merge(result, patch)
        except MergeError as exc:
            raise SpecError(f"{where}: {path}.choices.{choice}: {exc}") from None
        final_choices[name] = choice
        summary[name] = {
            "default": default,
            "choices": list(choices),
            "doc": option.get("doc", ""),
            "changes": option.get("changes", {}),
        }
    result = dict(result)
    result["options"] = summary
    result["chosen"] = final_choices
    return result


def load_spec(name_or_path: str | Path, options: Mapping[str, object] | None = None) -> Spec:
    """Load a bundled spec by name, or a spec or overlay file by path.

    ``options`` chooses house-rule options (``{"forced_spadille": "off"}``);
    ``True``/``False`` mean the choices ``"on"``/``"off"``, and an integer
    the choice it spells (``{"target": 11}``). Raises :class:`SpecError`
    on any problem in the spec or the options.
    """
    if not isinstance(name_or_path, str | Path):
        raise SpecError(f"name_or_path must be a game's name or a spec file's path, found {_short(name_or_path)}.")
    given = _given_options(options)
    path = _resolve(name_or_path).resolve()
    where = _display(path)
    raw, chosen = _load_tree(path, (path,), [MAX_SPEC_BYTES])
    # The sizes are checked before the options too: each option merges a patch over the whole spec.
    check_resolved(raw, where)
    chosen.update(given)
    resolved = _apply_options(raw, chosen, where)
    check_resolved(resolved, where)
    try:
        return structure(resolved, Spec)
    except Exception as exc:
        lines = describe_error(exc)
        shown = "; ".join(lines[:8]) + (f"; and {len(lines) - 8} more" if len(lines) > 8 else "")
        raise SpecError(f"{where}: {shown}") from None


def _given_options(options: object) -> dict[str, str]:
    """The options passed to :func:`load_spec`, as choice texts; :class:`SpecError` naming a bad one."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise SpecError(f"options must be a mapping of option names to choices, found {_short(options)}.")
    out: dict[str, str] = {}
    for key, value in options.items():
        if type(key) is not str:
            raise SpecError(f"options: option names are strings, found {_short(key)}.")
        if type(value) not in (str, bool, int):
            raise SpecError(
                f"options[{_short(key)}]: expected a choice (a string, an integer, or True/False), "
                f"found {_short(value)}."
            )
        if type(value) is int and abs(value) > MAX_INT:
            raise SpecError(f"options[{_short(key)}]: the integer {_short(value)} is out of range (at most 2**53).")
        out[key] = _choice_text(value)
    return out


def _short(value: object) -> str:
    """``repr(value)``, cut to 60 characters; it never fails, whatever the value."""
    if type(value) is int and value.bit_length() > 200:
        # Python refuses to write out an integer of more than 4,300 digits: say how long it is instead.
        return f"an integer of about {int(value.bit_length() * 0.30103)} digits"
    try:
        text = repr(value)
    except Exception:  # a repr that fails (a nested huge integer, a hostile __repr__) still gets a message
        text = f"a {type(value).__name__}"
    return text if len(text) <= 60 else text[:57] + "..."


def _display(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path) if path.parent != _specs_dir().resolve() else f"specs/{path.name}"


def fingerprint(spec: Spec) -> str:
    """A short, stable digest of everything in a resolved spec (options included).

    Fields at their default values are left out of the digest, so a later
    version of the DSL that adds a field (with a default that keeps the old
    behaviour) leaves every existing game's fingerprint, and so its logs, valid.
    """
    canonical = json.dumps(canonical_spec(spec), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]


def canonical_spec(spec: Spec) -> Any:
    """The spec as plain data without the fields that hold their default value (what the fingerprint digests)."""
    return _drop_defaults(spec, unstructure(spec))


def _drop_defaults(value: Any, data: Any) -> Any:
    """``data`` (the unstructured ``value``) without the attrs fields of ``value`` at their defaults, at any depth."""
    if attrs.has(type(value)) and isinstance(data, dict):
        out = dict(data)
        for f in attrs.fields(type(value)):
            key = f.name if f.name in out else f.name.rstrip("_")
            if key not in out:
                continue
            item = getattr(value, f.name)
            default = f.default
            if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
                default = attrs.NOTHING if default.takes_self else default.factory()
            if default is not attrs.NOTHING and type(item) is type(default) and item == default:
                del out[key]
            else:
                out[key] = _drop_defaults(item, out[key])
        return out
    if isinstance(value, (tuple, list)) and isinstance(data, list) and len(value) == len(data):
        return [_drop_defaults(v, d) for v, d in zip(value, data, strict=True)]
    if isinstance(value, Mapping) and isinstance(data, dict):
        return {k: _drop_defaults(value[k], d) if k in value else d for k, d in data.items()}
    return data
