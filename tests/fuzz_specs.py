"""Fuzzing the spec loader and the formula compiler: near-valid specs and formulas.

The spec strategy starts from the bundled specs (their TOML read as plain
data) and mutates them the way a careless author or an attacker would: a
key dropped or renamed, a value of another type, two values swapped, an
edge number (0, -1, 2**53 + 1), a long string or a long list, a formula
from the grammar below where a formula or a name stands, an element
repeated; then it writes the result as TOML, sometimes cut short, with a
5,000-digit number or a stray byte in it, as a whole spec, as an overlay of
a bundled spec, or as options given to a bundled spec.

The formula strategy writes formulas from a small grammar of the formula
language with near-valid tokens mixed in (``**`` with a big exponent,
``@``, ``lambda``, ``1e5``, a 20-digit number, an unknown name, a keyword, a
fullwidth letter, unbalanced parentheses), with variables, values and
ranges for them.

The properties: every input ends in success or a
:class:`~trickrules.errors.TrickrulesError`, never another exception, and
quickly; a spec that loads plays a few hundred random steps the same way;
and the range analysis of a formula is sound: values drawn inside the ranges
it accepted never divide by zero, and the result lies in the range it
computed. ``tests/test_fuzz_spec.py`` runs them with a fixed budget;
``benchmarks/fuzz.py --target spec|formula`` runs them long.
"""

from __future__ import annotations

import contextlib
import dataclasses
import random
import tempfile
import tomllib
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

import trickrules
from trickrules.compile.ranges import BOOL, UNKNOWN, Range, check_formula, span
from trickrules.errors import FormulaError, TrickrulesError
from trickrules.spec.formula import Number, compile_formula, to_int

__all__ = [
    "FormulaCase",
    "SpecCase",
    "check_formula_case",
    "check_spec_case",
    "formula_cases",
    "formulas",
    "json_paths",
    "json_set",
    "safe_repr",
    "spec_cases",
]

ROOT = Path(__file__).resolve().parent.parent
#: The most random steps a spec that loads is played for.
PLAY_STEPS = 300


def safe_repr(value: object) -> str:
    """``repr(value)``, even where it holds an integer too long for Python to write out (say how long instead)."""
    if type(value) is int and value.bit_length() > 10_000:
        return f"<an integer of {value.bit_length()} bits>"
    try:
        return repr(value)
    except ValueError:
        pass
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = ", ".join(f"{f.name}={safe_repr(getattr(value, f.name))}" for f in dataclasses.fields(value))
        return f"{type(value).__name__}({fields})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{safe_repr(k)}: {safe_repr(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(safe_repr(v) for v in value) + "]"
    return f"<a {type(value).__name__}>"


@cache
def _bundled() -> tuple[tuple[str, dict[str, Any]], ...]:
    """Each bundled spec file, by name, as plain data."""
    return tuple(
        (path.stem, tomllib.loads(path.read_text(encoding="utf-8"))) for path in sorted((ROOT / "specs").glob("*.toml"))
    )


# -- formulas ------------------------------------------------------------------------

_NAMES = ("tricks", "opp_tricks", "score", "pot", "x", "y", "n", "stake", "vole", "deal")
_STRANGE_NAMES = ("nope", "if", "True", "None", "min", "print", "__import__", "\uff50oints", "_", "lambda")
_NUMBERS = (
    "0",
    "1",
    "2",
    "7",
    "10",
    "0.5",
    "1.5",
    "2.25",
    "0.1",
    "1000000000000000",
    "1000000000000001",
    "999999999999999.5",
    "0.0000000000000001",
    "1_000",
    "True",
    "False",
)
_STRANGE_NUMBERS = ("1e5", "0x1F", "0o7", "0b1", "5.", ".5", "1j", "9" * 20, "9" * 60, "'x'", "None", "...")
_BINARY = ("+", "-", "*", "/", "//", "%", "+", "-", "*", "/")
_STRANGE_BINARY = ("@", "<<", ">>", "|", "^", "&", "is", "in", "not in", ":=", ",")
_COMPARE = ("<", "<=", ">", ">=", "==", "!=")


def _atoms(strange: bool) -> st.SearchStrategy[str]:
    names = st.sampled_from(_NAMES + (_STRANGE_NAMES if strange else ()))
    numbers = st.sampled_from(_NUMBERS + (_STRANGE_NUMBERS if strange else ()))
    return st.one_of(names, names, numbers)


def _extend(inner: st.SearchStrategy[str], strange: bool) -> st.SearchStrategy[str]:
    binary = st.sampled_from(_BINARY + (_STRANGE_BINARY if strange else ()))
    calls = st.sampled_from(("min", "max", "abs", "floor", "ceil") + (("len", "pow", "x.y") if strange else ()))
    parts: list[st.SearchStrategy[str]] = [
        st.tuples(inner, binary, inner).map(lambda t: f"{t[0]} {t[1]} {t[2]}"),
        st.tuples(inner, st.sampled_from(_COMPARE), inner).map(lambda t: f"{t[0]} {t[1]} {t[2]}"),
        st.tuples(inner, st.sampled_from(_COMPARE), inner, st.sampled_from(_COMPARE), inner).map(" ".join),
        st.tuples(inner, st.sampled_from(("and", "or")), inner).map(" ".join),
        st.tuples(st.sampled_from(("-", "+", "not ")), inner).map("".join),
        inner.map(lambda s: f"({s})"),
        st.tuples(inner, inner, inner).map(lambda t: f"{t[0]} if {t[1]} else {t[2]}"),
        st.tuples(inner, st.integers(0, 9 if strange else 8)).map(lambda t: f"({t[0]}) ** {t[1]}"),
        st.tuples(calls, st.lists(inner, min_size=1, max_size=3)).map(lambda t: f"{t[0]}({', '.join(t[1])})"),
    ]
    name = st.sampled_from(_NAMES)
    divide = st.sampled_from(("/", "//", "%"))
    parts += [  # divisions, guarded or not, the way specs write them
        st.tuples(inner, divide, name).map(" ".join),
        st.tuples(inner, divide, name, inner).map(lambda t: f"{t[0]} {t[1]} {t[2]} if {t[2]} else {t[3]}"),
        st.tuples(name, st.sampled_from(_COMPARE), st.sampled_from(("0", "1", "-1")), inner, divide).map(
            lambda t: f"{t[0]} {t[1]} {t[2]} and {t[3]} {t[4]} {t[0]} > 1"
        ),
        st.tuples(inner, divide, name).map(lambda t: f"{t[0]} {t[1]} max(1, {t[2]})"),
        st.tuples(inner, divide, name, st.sampled_from(("1", "-1", "2", "0.5"))).map(
            lambda t: f"{t[0]} {t[1]} ({t[2]} + {t[3]})"
        ),
    ]
    if strange:
        parts += [
            inner.map(lambda s: f"{s}["),
            inner.map(lambda s: f"lambda: {s}"),
            inner.map(lambda s: f"{s}.real"),
            inner.map(lambda s: f"[{s}]"),
            inner.map(lambda s: f"{s} ** {s}"),
            inner.map(lambda s: f"f'{{{s}}}'"),
            inner.map(lambda s: f"{s}\x07"),
        ]
    return st.one_of(parts)


@cache
def formulas(strange: bool = True) -> st.SearchStrategy[str]:
    """Formula texts from the language's grammar (with near-valid tokens where ``strange``)."""
    grammar = st.recursive(_atoms(strange), lambda inner: _extend(inner, strange), max_leaves=24)
    if not strange:
        return grammar
    nested = st.integers(1, 60).map(lambda n: "(" * n + "x" + ")" * n)
    long = st.tuples(st.sampled_from(("x + ", "x < ", "-", "min(x, ")), st.integers(1, 300)).map(
        lambda t: t[0] * t[1] + "1" + (")" * t[1] if t[0].startswith("min") else "")
    )
    return st.one_of(grammar, grammar, grammar, nested, long, st.text(max_size=40))


@cache
def _values() -> st.SearchStrategy[object]:
    edge = st.sampled_from([0, 1, -1, 2, 13, 10**15, -(10**15), 10**15 + 1, 2**53, True, False])
    fractions = st.builds(Fraction, st.integers(-100, 100), st.integers(1, 12))
    strange = st.sampled_from([1.5, "3", None, [1], Fraction(1, 10**16), 10**5000])
    return st.one_of(edge, st.integers(-20, 20), fractions, strange)


def _ordered_span(ends: tuple[int | None, int | None]) -> Range:
    lo, hi = ends
    if lo is not None and hi is not None and lo > hi:
        lo, hi = hi, lo
    return span(lo, hi)


@cache
def _ranges() -> st.SearchStrategy[Range]:
    bound = st.one_of(st.none(), st.integers(-20, 20))
    made = st.tuples(bound, bound).map(_ordered_span)
    return st.one_of(made, st.just(BOOL), st.just(UNKNOWN), st.integers(-3, 3).map(lambda k: span(k, k)))


@dataclasses.dataclass(frozen=True)
class FormulaCase:
    """A formula, the variables it may use, values for them, and ranges for them."""

    source: str
    allowed: tuple[str, ...]
    env: dict[str, object]
    ranges: dict[str, Range]
    #: Seeds the values drawn inside the ranges (the soundness check).
    seed: int
    rounding: str = "floor"

    def __repr__(self) -> str:
        fields = ", ".join(f"{f.name}={safe_repr(getattr(self, f.name))}" for f in dataclasses.fields(self))
        return f"FormulaCase({fields})"


@st.composite
def formula_cases(draw: st.DrawFn) -> FormulaCase:
    """A formula with its allowed variables, a variable mapping, and ranges of the variables."""
    source = draw(formulas(strange=draw(st.integers(0, 3)) == 0))
    every = draw(st.integers(0, 4)) > 0
    names = _NAMES if every else draw(st.lists(st.sampled_from(_NAMES), unique=True, max_size=len(_NAMES)))
    allowed = tuple(names)
    env = {name: draw(_values()) for name in allowed if draw(st.integers(0, 19))}
    ranges = {name: draw(_ranges()) for name in allowed}
    rounding = draw(st.sampled_from(["exact", "floor", "ceil", "half_up", "half_even", "half_down", "sideways"]))
    return FormulaCase(source, allowed, env, ranges, draw(st.integers(0, 2**32)), rounding)


def _inside(r: Range, rng: random.Random) -> Number | bool:
    """A value inside ``r``: an end, 0 where it may be, or any whole or half number between."""
    if r == BOOL:
        return rng.choice((True, False))
    lo = r.lo if r.lo is not None else Fraction(-(10**6))
    hi = r.hi if r.hi is not None else Fraction(10**6)
    picks: list[Fraction] = [lo, hi, Fraction(rng.randint(int(lo), int(hi)) if lo <= hi else lo)]
    if lo <= 0 <= hi and not r.nonzero:
        picks.append(Fraction(0))
    value = rng.choice([p for p in picks if lo <= p <= hi and not (r.nonzero and p == 0)] or [lo])
    return int(value) if value.denominator == 1 else value


def check_formula_case(case: FormulaCase) -> str:
    """Compile, evaluate, round and range-check a formula: success or a library error, and sound ranges."""
    try:
        formula = compile_formula(case.source, case.allowed, where="fuzz")
    except FormulaError:
        return "refused"
    with contextlib.suppress(FormulaError):
        to_int(formula.evaluate(case.env), case.rounding)  # type: ignore[arg-type]
    try:
        found = check_formula(formula, case.ranges, "fuzz")
    except FormulaError:
        return "range refused"
    rng = random.Random(case.seed)
    for _ in range(4):
        env = {name: _inside(r, rng) for name, r in case.ranges.items() if r.known}
        env |= {name: rng.choice((0, 1, -7, Fraction(1, 2))) for name, r in case.ranges.items() if not r.known}
        try:
            value = formula.evaluate(env)
        except FormulaError as exc:
            # Accepted by the range check, values inside the ranges: only an unknown variable may divide by zero.
            if "division by zero" in str(exc) and all(case.ranges[n].known for n in formula.variables):
                raise AssertionError(f"{case.source!r} with {env}: accepted, but {exc}") from None
            continue
        if found.known and not _within(value, found):
            raise AssertionError(f"{case.source!r} with {env} gave {value}, outside {found}")
    return "accepted"


def _within(value: Number, r: Range) -> bool:
    return (r.lo is None or r.lo <= value) and (r.hi is None or value <= r.hi)


# -- specs ---------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class SpecCase:
    """A spec to load: a file's text (or bytes), or a bundled game's name; and the options given to load()."""

    text: str | bytes | None
    name: str = ""
    options: dict[Any, Any] | None = None
    #: Other files beside it (a base an overlay extends), by file name.
    files: tuple[tuple[str, str], ...] = ()

    def __repr__(self) -> str:
        shown = repr(self.text)
        shown = shown if len(shown) < 3000 else shown[:3000] + "..."  # a failure's report stays readable
        options = safe_repr(self.options)
        return f"SpecCase(text={shown}, name={self.name!r}, options={options}, files={self.files!r})"


def json_paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside ``value`` (dict keys and list indexes), the empty path first."""
    out = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            out.extend(json_paths(item, (*prefix, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out.extend(json_paths(item, (*prefix, index)))
    return out


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def json_set(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    """A copy of ``value`` with ``new`` at ``path``."""
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: json_set(value[head], rest, new)}
    items = list(value)
    items[head] = json_set(items[head], rest, new)
    return items


def _drop(value: Any, path: tuple[Any, ...]) -> Any:
    if not path:
        return value
    parent = _get(value, path[:-1])
    body: Any
    if isinstance(parent, dict):
        body = {k: v for k, v in parent.items() if k != path[-1]}
    else:
        body = [v for i, v in enumerate(parent) if i != path[-1]]
    return json_set(value, path[:-1], body)


_scalars = st.one_of(
    st.integers(-3, 60),
    st.sampled_from([0, -1, 2**53, -(2**53), 2**53 + 1, 10**15, 255, 256, 257, 1024, 1025]),
    st.booleans(),
    st.text(max_size=8),
    st.sampled_from(["", "name", "follow_suit", "declarer", "side", "H", "10", "red", "on", "off", "\x1b[31m", "\t"]),
    formulas(),
)
_values_any = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=10,
)


@st.composite
def _mutated(draw: st.DrawFn, data: dict[str, Any]) -> dict[str, Any]:
    """``data`` changed in one to four places."""
    for _ in range(draw(st.integers(1, 4))):
        paths = json_paths(data)
        path = draw(st.sampled_from(paths))
        old = _get(data, path) if path else None
        kind = draw(
            st.sampled_from(
                ["value", "drop", "drop", "swap", "number", "long", "formula", "repeat", "rename", "many", "clear"]
            )
        )
        if kind == "drop" and path:
            data = _drop(data, path)
        elif kind == "value" and path:
            data = json_set(data, path, draw(_values_any))
        elif kind == "swap" and path:
            other = draw(st.sampled_from(paths))
            if other and other[: len(path)] != path and path[: len(other)] != other:
                data = json_set(json_set(data, path, _get(data, other)), other, old)
        elif kind == "number" and path:
            data = json_set(data, path, draw(st.sampled_from([0, -1, 1, 2**53, 2**53 + 1, -(2**53), 10**15, 13, 14])))
        elif kind == "long" and path:
            size = draw(st.sampled_from([100, 600, 4096, 4097, 20_000]))
            data = json_set(data, path, "x" * size if draw(st.booleans()) else [1] * min(size, 2000))
        elif kind == "formula" and path:
            data = json_set(data, path, draw(formulas()))
        elif kind == "repeat" and isinstance(old, list) and old:
            times = draw(st.sampled_from([2, 3, 20, 200, 1100]))
            data = json_set(data, path, (old * times)[: max(len(old) + 1, times)])
        elif kind == "rename" and path and isinstance(_get(data, path[:-1]), dict):
            parent = _get(data, path[:-1])
            new_key = draw(st.sampled_from(["name", "vars", "if", "tricks", "x y", str(path[-1]) + "s", ""]))
            body = {(new_key if k == path[-1] else k): v for k, v in parent.items()}
            data = json_set(data, path[:-1], body)
        elif kind == "many" and isinstance(old, dict):
            width = draw(st.sampled_from([5, 70, 200]))
            data = json_set(data, path, {**old, **{f"k{i}": draw(_scalars) for i in range(width)}})
        elif kind == "clear" and isinstance(old, list | dict):
            data = json_set(data, path, type(old)())
    assert isinstance(data, dict)
    return data


def _toml_string(text: str) -> str:
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04X}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml_string(str(k))} = {_toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no TOML for {value!r}")


def to_toml(data: dict[str, Any]) -> str:
    """``data`` written as TOML, one top-level key a line (every table inline)."""
    return "".join(f"{_toml_string(str(k))} = {_toml_value(v)}\n" for k, v in data.items())


@st.composite
def _text_damage(draw: st.DrawFn, text: str) -> str | bytes:
    """``text`` with a 5,000-digit number, a cut, a stray byte or a repeated line in it (or left alone)."""
    kind = draw(st.sampled_from(["none", "none", "none", "digits", "cut", "byte", "line", "bom"]))
    if kind == "none" or not text:
        return text
    at = draw(st.integers(0, len(text) - 1))
    if kind == "digits":
        digits = "9" * draw(st.sampled_from([20, 4300, 4301, 5000]))
        spot = text.find("= ", at)
        return text[: spot + 2] + digits + text[spot + 2 :] if spot >= 0 else text + f"big = {digits}\n"
    if kind == "cut":
        return text[:at]
    if kind == "line":
        lines = text.splitlines(keepends=True)
        n = draw(st.integers(0, len(lines) - 1))
        return "".join([*lines[: n + 1], lines[n], *lines[n + 1 :]])
    if kind == "bom":
        return "\ufeff" + text
    raw = bytearray(text.encode("utf-8"))
    raw[min(at, len(raw) - 1)] = draw(st.integers(0, 255))
    return bytes(raw)


@st.composite
def _whole_spec(draw: st.DrawFn) -> SpecCase:
    _, data = draw(st.sampled_from(_bundled()))
    return SpecCase(draw(_text_damage(to_toml(draw(_mutated(data))))))


@st.composite
def _overlay(draw: st.DrawFn) -> SpecCase:
    """An overlay of a bundled spec: a few of its sections, mutated, with named merges and choices."""
    name, data = draw(st.sampled_from(_bundled()))
    keys = [k for k in data if k not in ("extends",)]
    chosen = draw(st.lists(st.sampled_from(keys), max_size=3, unique=True))
    patch = draw(_mutated({k: data[k] for k in chosen} or {"title": "t"}))
    for path in json_paths(patch):
        try:
            item = _get(patch, path)
        except (KeyError, IndexError, TypeError):  # a path into a value an earlier change replaced
            continue
        if isinstance(item, dict) and "name" in item and draw(st.integers(0, 5)) == 0:
            extra = draw(st.sampled_from([{"remove": True}, {"before": item["name"]}, {"before": "nothing"}]))
            patch = json_set(patch, path, {**item, **extra})
    options = data.get("options", {})
    if options and draw(st.booleans()):
        option = draw(st.sampled_from(sorted(options)))
        patch["choose"] = {option: draw(st.sampled_from([*options[option].get("choices", {}), "nope", True, 3]))}
    local = draw(st.integers(0, 4)) == 0
    head = {"extends": "base.toml" if local else draw(st.sampled_from([name, name, "nope", "../x.toml", "base.toml"]))}
    files = (("base.toml", to_toml(data)),) if local else ()
    return SpecCase(draw(_text_damage(to_toml({**head, **patch}))), files=files)


@st.composite
def _options(draw: st.DrawFn) -> SpecCase:
    """A bundled game loaded with options: real ones, real choices, and junk."""
    name, data = draw(st.sampled_from(_bundled()))
    options = data.get("options", {})
    keys = st.sampled_from([*options, "nope", 5, None]) if options else st.sampled_from(["nope", 5])
    values = st.one_of(
        st.sampled_from(["on", "off", "12", "", "x" * 100]),
        st.integers(-(2**60), 2**60),
        st.sampled_from([10**5000, 2**53 + 1, True, False, None, 1.5, ["on"]]),
    )
    chosen = draw(st.dictionaries(keys, values, max_size=3))
    return SpecCase(None, name=name, options=chosen)


def spec_cases() -> st.SearchStrategy[SpecCase]:
    """Near-valid specs: bundled ones mutated, overlays of them, and bundled games with odd options."""
    return st.one_of(_whole_spec(), _whole_spec(), _overlay(), _overlay(), _options())


_FOLDER: list[Path] = []


def _folder() -> Path:
    """A folder of this process's own for the files of spec cases."""
    if not _FOLDER:
        _FOLDER.append(Path(tempfile.mkdtemp(prefix="trickrules-fuzz-")))
    return _FOLDER[0]


def _play(game: trickrules.Game, seed: int) -> str:
    """Play up to :data:`PLAY_STEPS` random steps; success, or a library error."""
    rng = random.Random(seed)
    try:
        state = game.new_match(seed=seed)
        for _ in range(PLAY_STEPS):
            if state.is_terminal:
                break
            state = state.apply(rng.choice(state.legal_actions()))
    except TrickrulesError as exc:
        return f"played to {type(exc).__name__}"
    return "played"


def check_spec_case(case: SpecCase) -> str:
    """Load the spec (and play a little of it): success, or a library error. Returns what happened."""
    load: Callable[[], trickrules.Game]
    if case.text is None:
        name, options = case.name, case.options
        load = lambda: trickrules.load(name, options)  # noqa: E731
    else:
        folder = _folder()
        for file_name, text in case.files:
            (folder / file_name).write_text(text, encoding="utf-8")
        path = folder / "fuzz.toml"
        if isinstance(case.text, bytes):
            path.write_bytes(case.text)
        else:
            path.write_text(case.text, encoding="utf-8")
        load = lambda: trickrules.load(path)  # noqa: E731
    try:
        game = load()
    except TrickrulesError as exc:
        return type(exc).__name__
    finally:
        for file_name, _ in case.files:
            (_folder() / file_name).unlink(missing_ok=True)
    return _play(game, seed=1)
