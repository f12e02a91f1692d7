"""A tiny, safe expression language for payout and scoring formulas.

Game specs write payouts as formulas such as ``stake * 3 + 1``, ``pot // 2``,
``max(0, tricks - 5) * stake`` or ``2 if vole else 1``. :func:`compile_formula`
parses a formula once, checks every construct against an allow-list and writes
it out as one Python function, with a check after every step that can go wrong
(a missing or unusable variable, a value out of range, a division by zero)
raising the formula's own :class:`FormulaError`; :meth:`Formula.evaluate` runs
that function against the variables of one deal without parsing anything again.

The language
    Whole numbers (at most ``MAX_MAGNITUDE`` in size), decimals such as ``1.5``
    (read exactly, as the fraction 3/2, never through a float), ``True`` and
    ``False``; the caller's variables; unary ``-``, ``+`` and ``not``;
    ``+ - * / // %``; ``**`` with a literal exponent from 0 to 8; comparisons,
    chains such as ``0 <= x < 10`` included; ``and`` and ``or`` (giving a
    bool); ``a if condition else b``; and calls of ``min`` and ``max`` (two or
    more arguments), ``abs``, ``floor`` and ``ceil`` (one argument). Nothing
    else is accepted: no attributes, subscripts, strings, collections, lambdas,
    comprehensions, keyword arguments or calls of anything else.

Exact arithmetic
    ``/`` divides exactly and gives a :class:`~fractions.Fraction`, or an
    ``int`` when the quotient is whole; ``//`` and ``%`` round towards minus
    infinity, as in Python, on fractions too. Booleans count as 0 and 1. Every
    value met while evaluating must be at most ``MAX_MAGNITUDE`` in size and,
    if a fraction, have a denominator of at most ``MAX_MAGNITUDE``, so no
    formula can use much time or memory.

Rounding to whole chips
    :func:`to_int` turns an exact result into an ``int``. ``"exact"`` refuses a
    fraction; ``"floor"`` and ``"ceil"`` round towards minus and plus infinity.
    The three ``half_*`` modes round to the nearest whole number and differ
    only for a value exactly halfway between two: ``"half_up"`` rounds it away
    from zero (2.5 → 3, -2.5 → -3), ``"half_down"`` towards zero (2.5 → 2,
    -2.5 → -2) and ``"half_even"`` to the even neighbour (2.5 → 2, 3.5 → 4,
    -2.5 → -2).

>>> f = compile_formula("max(0, tricks - 5) * stake * 1.5", ["stake", "tricks"])
>>> f
Formula('max(0, tricks - 5) * stake * 1.5')
>>> f.evaluate({"stake": 3, "tricks": 8})
Fraction(27, 2)
>>> to_int(f.evaluate({"stake": 3, "tricks": 8}), "half_even")
14
"""

from __future__ import annotations

import ast
import keyword
import math
import re
import reprlib
import unicodedata
import warnings
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any, TypeAlias

import attrs

from trickrules.errors import FormulaError
from trickrules.spec.converter import MAX_BIG, MAX_BIG_TEXT
from trickrules.spec.sealed import Sealed

__all__ = [
    "FUNCTION_NAMES",
    "MAGNITUDE_TEXT",
    "MAX_DEPTH",
    "MAX_MAGNITUDE",
    "MAX_SOURCE_LENGTH",
    "ROUNDING_MODES",
    "Formula",
    "Number",
    "compile_formula",
    "to_int",
]

Number: TypeAlias = int | Fraction
"""An exact number: ``int`` when whole, otherwise a ``Fraction``."""

MAX_SOURCE_LENGTH = 500
"""The longest formula accepted, in characters."""

MAX_DEPTH = 40
"""How many levels deep a formula's syntax tree may nest."""

MAX_MAGNITUDE = MAX_BIG
"""The largest size of any literal or computed value, and of any denominator (10**300).

Far beyond any table's chips or points, so that a pot that doubles deal
after deal (Quadrille's Remise) goes on for hundreds of deals; small enough
(about 1,000 bits) that every value costs next to nothing to compute, so a
formula that squares a total deal after deal stops at it with a clear error
within a few deals instead of slowing the match down without limit.
"""

MAGNITUDE_TEXT = MAX_BIG_TEXT
"""``MAX_MAGNITUDE`` as messages write it."""

ROUNDING_MODES = ("exact", "floor", "ceil", "half_up", "half_even", "half_down")
"""The rounding modes :func:`to_int` accepts."""

_Env: TypeAlias = Mapping[str, Number | bool]
_Eval: TypeAlias = Callable[[_Env], Number]

# name -> least number of arguments; one-argument functions take exactly one.
_FUNCTIONS: dict[str, int] = {"min": 2, "max": 2, "abs": 1, "floor": 1, "ceil": 1}
FUNCTION_NAMES = frozenset(_FUNCTIONS)
"""The functions a formula may call (no variable may take their names)."""
# The allowed operators, as Python writes them (``/`` is exact division: see _Compiler.binary).
_OPERATORS: dict[type[ast.AST], str] = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
}
_UNARY: dict[type[ast.AST], str] = {ast.USub: "-", ast.UAdd: "+", ast.Not: "not "}
_SYMBOLS: dict[type[ast.AST], str] = {ast.MatMult: "@", ast.LShift: "<<", ast.RShift: ">>"}
_SYMBOLS |= {ast.BitOr: "|", ast.BitXor: "^", ast.BitAnd: "&", ast.Invert: "~", ast.Is: "is"}
_SYMBOLS |= {ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in"}
_CONSTRUCTS: dict[type[ast.AST], str] = {
    ast.Attribute: "attribute access",
    ast.Subscript: "subscripting",
    ast.Lambda: "a lambda",
    ast.ListComp: "a list comprehension",
    ast.SetComp: "a set comprehension",
    ast.DictComp: "a dict comprehension",
    ast.GeneratorExp: "a generator expression",
    ast.JoinedStr: "an f-string",
    ast.NamedExpr: "an assignment expression (:=)",
    ast.Starred: "a starred argument",
    ast.Tuple: "a tuple",
    ast.List: "a list",
    ast.Dict: "a dict",
    ast.Set: "a set",
}
_DECIMAL = re.compile(r"[0-9_]*\.[0-9_]*")


def _error(where: str, message: str) -> FormulaError:
    if where:
        return FormulaError(f"{where}: {message}")
    return FormulaError(message[:1].upper() + message[1:])


def _quote(text: str) -> str:
    # Long sources are cut so that a hostile 10 kB formula cannot flood logs.
    return repr(text if len(text) <= 60 else text[:57] + "...")


def _fit(value: Number, where: str, what: str) -> Number:
    """Normalise a computed value to int where whole, and check its range."""
    if type(value) is int and -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE:
        return value  # the common case, kept cheap
    if isinstance(value, Fraction):
        if value.denominator > MAX_MAGNITUDE:
            raise _error(where, f"value out of range: {what} has a denominator above {MAGNITUDE_TEXT}.")
        value = value.numerator if value.denominator == 1 else value
    if not -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE:
        raise _error(where, f"value out of range: {what} comes to more than {MAGNITUDE_TEXT} in size.")
    return int(value) if isinstance(value, int) else value


@attrs.frozen(slots=True, repr=False)
class Formula(Sealed):
    """A compiled formula, ready to be evaluated many times.

    Make one with :func:`compile_formula`. ``source`` is the formula's text
    (without surrounding whitespace) and ``variables`` the names it uses.
    Two formulas are equal when their text and variables are. A formula
    pickles as its text, its variables and the ``where`` of its messages, and
    is compiled again when unpickled.
    """

    source: str
    variables: frozenset[str]
    _evaluator: _Eval = attrs.field(eq=False)
    _where: str = attrs.field(default="", eq=False)

    def __repr__(self) -> str:
        return f"Formula({self.source!r})"

    def __reduce__(self) -> tuple[Callable[[str, frozenset[str], str], Formula], tuple[str, frozenset[str], str]]:
        # The evaluator is generated code, which does not pickle: compile the text again.
        return _recompile, (self.source, self.variables, self._where)

    def __copy__(self) -> Formula:
        return self  # immutable: a copy could only be compiled again to the same

    def __deepcopy__(self, memo: dict[int, object]) -> Formula:
        return self

    def evaluate(self, env: Mapping[str, Number | bool]) -> Number:
        """Compute the formula's value for the variables in ``env``.

        Values may be ``int``, ``Fraction`` or ``bool`` (counting as 0 and 1);
        a boolean result, as from ``stake > 10``, is returned as 0 or 1.
        Raises :class:`FormulaError` if a variable the formula uses is missing
        or not such a value, on division by zero, and if any value is out of
        range (see :data:`MAX_MAGNITUDE`).
        """
        value = self._evaluator(env)
        return int(value) if type(value) is bool else value


def compile_formula(source: str, allowed: Iterable[str], *, where: str = "") -> Formula:
    """Parse ``source`` once and return it as a :class:`Formula`.

    ``allowed`` names the variables the formula may use. ``where`` (such as
    ``"specs/skat.toml: scoring.payouts.grand"``) starts every error message,
    including those that :meth:`Formula.evaluate` raises later. Raises
    :class:`FormulaError` if the source is not a string, is empty, too long,
    holds control characters, nests too deeply, is not valid syntax, uses a
    construct outside the language, or names a variable not allowed.
    """
    names = _check_allowed(allowed, where)
    text = _check_source(source, where)
    try:
        with warnings.catch_warnings():
            # A warning Python gives while parsing (``6if x else 1``: "invalid
            # decimal literal") is an error here: such a formula is refused and
            # nothing is printed, here or where the text is parsed again later.
            warnings.simplefilter("error")
            tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        column = f" at column {exc.offset}" if exc.offset else ""
        message = f"the formula {_quote(text)} is not valid syntax ({exc.msg}{column})."
        raise _error(where, message) from None
    except Warning as exc:  # a warning that is no SyntaxWarning (none is known): refused the same way
        message = f"the formula {_quote(text)} is not valid syntax ({type(exc).__name__}: {exc})."
        raise _error(where, message) from None
    except (RecursionError, MemoryError, ValueError) as exc:
        message = f"the formula {_quote(text)} cannot be parsed ({type(exc).__name__})."
        raise _error(where, message) from exc
    compiler = _Compiler(text, where, names, tree.body)
    body = compiler.build(tree.body, 1)
    if unknown := compiler.unknown:
        listed = ", ".join(sorted(names)) or "none"
        quoted = " and ".join(repr(name) for name in unknown)
        if len(unknown) == 1:
            message = f"the name {quoted} is not a variable of this formula (allowed: {listed})."
        else:
            message = f"the names {quoted} are not variables of this formula (allowed: {listed})."
        raise _error(where, message)
    evaluator = compiler.function(body)
    if not compiler.used:
        # A formula without variables is folded to its value once, here, so that
        # an error in it (a division by zero) shows when the spec is loaded.
        value = evaluator({})
        value = int(value) if type(value) is bool else value

        def evaluator(env: _Env, value: Number = value) -> Number:
            return value

    return Formula(source=text, variables=frozenset(compiler.used), evaluator=evaluator, where=where)


def _recompile(source: str, variables: frozenset[str], where: str) -> Formula:
    """The formula ``source`` compiled again, as it was pickled (see :meth:`Formula.__reduce__`)."""
    return compile_formula(source, variables, where=where)


def _check_allowed(allowed: Iterable[str], where: str) -> frozenset[str]:
    if isinstance(allowed, str | bytes):
        # A lone string would otherwise be read as a set of one-letter names.
        raise _error(where, f"the allowed variables must be names, not the string {reprlib.repr(allowed)}.")
    try:
        names = frozenset(allowed)
    except TypeError:
        given = reprlib.repr(allowed)
        raise _error(where, f"the allowed variables must be names, not {given}.") from None
    for name in names:
        if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name):
            raise _error(where, f"{reprlib.repr(name)} cannot be the name of a formula variable.")
        if name in _FUNCTIONS:
            raise _error(where, f"{name!r} cannot be a formula variable: it is a function.")
    return names


def _check_source(source: object, where: str) -> str:
    if not isinstance(source, str):
        kind = type(source).__name__
        raise _error(where, f"a formula must be a string, not {kind} {reprlib.repr(source)}.")
    if len(source) > MAX_SOURCE_LENGTH:
        size = f"{len(source)} characters long; at most {MAX_SOURCE_LENGTH} are allowed"
        raise _error(where, f"the formula {_quote(source)} is {size}.")
    for char in source:
        if unicodedata.category(char).startswith("C"):
            control = f"the control character U+{ord(char):04X}"
            raise _error(where, f"the formula {_quote(source)} contains {control}; use plain text.")
        if not char.isascii():
            # Python reads identifiers after NFKC normalisation: a fullwidth letter would
            # silently stand for its ASCII twin, so a formula is written in ASCII.
            letter = f"the character {char!r} (U+{ord(char):04X})"
            raise _error(where, f"the formula {_quote(source)} contains {letter}; formulas are written in ASCII.")
    if not source.strip():
        raise _error(where, "the formula is empty.")
    return source.strip()


class _Compiler:
    """Checks one syntax tree against the allow-list and writes it as one Python function.

    :meth:`build` walks the tree once, refusing whatever the language does not
    allow, and returns each accepted node as a Python expression computing
    the same value. Names of variables appear in it only as quoted keys of
    ``env``; every other value it needs (a fraction literal, the text that an
    error message quotes, a helper) is a global of its own :attr:`namespace`.
    Each step that can go wrong carries its check: a variable's value is
    taken as it is when it is a small int or a bool and otherwise passed to
    :func:`_load`; a computed value is taken as it is when it is a small int
    and otherwise passed to :func:`_fit`; a divisor that is not a literal is
    checked by :func:`_divide`. Those raise the errors, so evaluation is this
    one function and nothing else.
    """

    def __init__(self, text: str, where: str, allowed: frozenset[str], root: ast.expr) -> None:
        self.text = text
        self.where = where
        self.allowed = allowed
        self.root = root
        self.used: set[str] = set()
        self.unknown: list[str] = []
        self.namespace: dict[str, Any] = {
            "_W": where,
            "_fit": _fit,
            "_load": _load,
            "_divide": _divide,
            "_missing": _missing,
            "_F": Fraction,
            "_max": max,
            "_min": min,
            "_abs": abs,
            "_floor": math.floor,
            "_ceil": math.ceil,
        }
        self.temps = 0

    def function(self, body: str) -> _Eval:
        """The generated evaluator, whose expression is ``body``."""
        self.namespace["_N"] = frozenset(self.used)
        self.namespace["_S"] = self.text
        # A KeyError can only come from reading ``env``: it is the missing variable.
        source = (
            "def evaluate(env):\n"
            "    try:\n"
            f"        return {body}\n"
            "    except KeyError as error:\n"
            "        raise _missing(error, _N, _W, _S) from None\n"
        )
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")  # the generated code never warns; were it to, nothing is printed
                exec(compile(source, f"<formula {_quote(self.text)}>", "exec"), self.namespace)
        except (SyntaxError, Warning) as exc:  # pragma: no cover - the code is written from a checked tree
            raise self.fail(f"the formula {_quote(self.text)} cannot be compiled ({type(exc).__name__}).") from None
        made: _Eval = self.namespace["evaluate"]
        return made

    def segment(self, node: ast.AST) -> str:
        return ast.get_source_segment(self.text, node) or ast.unparse(node)

    def what(self, node: ast.AST) -> str:
        if node is self.root:  # its segment may lack the outer parentheses of the text
            return _quote(self.text)
        return f"{_quote(self.segment(node))} (in {_quote(self.text)})"

    def fail(self, message: str) -> FormulaError:
        return _error(self.where, message)

    def refuse(self, construct: str, node: ast.AST) -> FormulaError:
        return self.fail(f"{construct} ({_quote(self.segment(node))}) is not allowed in a formula.")

    def operator(self, op: ast.AST, node: ast.AST) -> str:
        symbol = _OPERATORS.get(type(op))
        if symbol is None:
            raise self.refuse(f"the operator {_SYMBOLS[type(op)]!r}", node)
        return symbol

    def temp(self) -> str:
        self.temps += 1
        return f"t{self.temps}"

    def constant_name(self, value: object) -> str:
        name = f"k{len(self.namespace)}"
        self.namespace[name] = value
        return name

    def checked(self, expression: str, what: str) -> str:
        """``expression``, with the range check of a computed value (see :func:`_fit`)."""
        t = self.temp()
        small = f"type({t} := {expression}) is int and {-MAX_MAGNITUDE} <= {t} <= {MAX_MAGNITUDE}"
        return f"({t} if {small} else _fit({t}, _W, {self.constant_name(what)}))"

    def build(self, node: ast.expr, depth: int) -> str:
        # Depth is checked here rather than left to Python's recursion limit,
        # so a hostile formula fails early and with a clear message.
        if depth > MAX_DEPTH:
            deep = f"more than {MAX_DEPTH} levels deep"
            raise self.fail(f"the formula {_quote(self.text)} nests {deep}.")
        if isinstance(node, ast.Constant):
            return self.constant(node)
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, ast.UnaryOp):
            return self.unary(node, self.build(node.operand, depth + 1))
        if isinstance(node, ast.BinOp):
            return self.binary(node, depth)
        if isinstance(node, ast.Compare):
            return self.compare(node, depth)
        if isinstance(node, ast.BoolOp):
            # ``and`` and ``or`` give a bool, not one of their operands.
            joined = f" {'and' if isinstance(node.op, ast.And) else 'or'} "
            operands = [self.build(value, depth + 1) for value in node.values]
            return f"(True if {joined.join(operands)} else False)"
        if isinstance(node, ast.IfExp):
            test, body, orelse = (self.build(n, depth + 1) for n in (node.test, node.body, node.orelse))
            return f"({body} if {test} else {orelse})"
        if isinstance(node, ast.Call):
            return self.call(node, depth)
        raise self.refuse(_CONSTRUCTS.get(type(node), f"the construct {type(node).__name__}"), node)

    def constant(self, node: ast.Constant) -> str:
        value, text = node.value, self.segment(node)
        number: Number
        if isinstance(value, bool):
            return repr(value)
        if isinstance(value, int):
            number = value
        elif isinstance(value, float):
            if not _DECIMAL.fullmatch(text):
                raise self.fail(
                    f"the number {_quote(text)} uses exponent notation, which formulas do not "
                    "allow; write it out in full."
                )
            # The literal's own digits, not the float, so 0.1 is exactly 1/10.
            number = Fraction(text.replace("_", ""))
        else:
            kinds = {str: "a string", bytes: "a bytes literal", complex: "an imaginary number"}
            raise self.refuse(kinds.get(type(value), f"the constant {value!r}"), node)
        if not -MAX_MAGNITUDE <= number <= MAX_MAGNITUDE or number.denominator > MAX_MAGNITUDE:
            raise self.fail(
                f"the number {_quote(text)} is out of range: formulas allow at most {MAGNITUDE_TEXT} "
                "in size and 300 decimal places."
            )
        number = _fit(number, self.where, _quote(text))
        return repr(number) if type(number) is int else self.constant_name(number)

    def name(self, node: ast.Name) -> str:
        name = node.id
        if name in _FUNCTIONS:
            raise self.fail(f"the function {name!r} can only be called, as in {name}(...).")
        if name not in self.allowed:
            if name not in self.unknown:
                self.unknown.append(name)
            return "0"  # never run: compile_formula raises after the walk
        self.used.add(name)
        # Read where it is used, so that a condition that stops early reads no more.
        t = self.temp()
        small = f"type({t} := env[{name!r}]) is int and {-MAX_MAGNITUDE} <= {t} <= {MAX_MAGNITUDE}"
        return f"({t} if {small} or type({t}) is bool else _load({t}, {name!r}, _W))"

    def unary(self, node: ast.UnaryOp, operand: str) -> str:
        symbol = _UNARY.get(type(node.op))
        if symbol is None:
            raise self.refuse(f"the operator {_SYMBOLS[type(node.op)]!r}", node)
        return f"({symbol}{operand})"

    def binary(self, node: ast.BinOp, depth: int) -> str:
        what = self.what(node)
        if isinstance(node.op, ast.Pow):
            power = node.right
            exponent = power.value if isinstance(power, ast.Constant) else None
            if type(exponent) is not int or not 0 <= exponent <= 8:
                raise self.fail(
                    f"the exponent of '**' must be a whole-number literal from 0 to 8, "
                    f"not {_quote(self.segment(power))}, in {what}."
                )
            base = self.build(node.left, depth + 1)
            # Base at most MAX_MAGNITUDE and exponent at most 8: cheap to compute, then refused.
            return self.checked(f"{base} ** {exponent}", what)
        symbol = self.operator(node.op, node)
        left, right = self.build(node.left, depth + 1), self.build(node.right, depth + 1)
        divisor = node.right.value if isinstance(node.right, ast.Constant) else None
        if symbol in ("/", "//", "%") and (divisor is None or divisor == 0):
            # A divisor that is not a literal can be zero.
            return f"_divide({symbol!r}, {left}, {right}, _W, {self.constant_name(what)})"
        if symbol == "/":
            # Fraction(a, b) divides exactly; _fit turns whole results into ints.
            return f"_fit(_F({left}, {right}), _W, {self.constant_name(what)})"
        return self.checked(f"{left} {symbol} {right}", what)

    def compare(self, node: ast.Compare, depth: int) -> str:
        symbols = [self.operator(op, node) for op in node.ops]
        # Python chains comparisons as formulas do: left to right, and lazily.
        parts = [self.build(node.left, depth + 1)]
        for symbol, operand in zip(symbols, node.comparators, strict=True):
            parts += [symbol, self.build(operand, depth + 1)]
        return f"({' '.join(parts)})"

    def call(self, node: ast.Call, depth: int) -> str:
        func = node.func
        if not isinstance(func, ast.Name) or func.id not in _FUNCTIONS:
            raise self.fail(
                f"calling {_quote(self.segment(func))} is not allowed in a formula; only "
                "min, max, abs, floor and ceil can be called."
            )
        if node.keywords:
            raise self.refuse("a keyword argument", node.keywords[0])
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                raise self.refuse("a starred argument", arg)
        least = _FUNCTIONS[func.id]
        if len(node.args) < least or (least == 1 and len(node.args) > 1):
            wanted = "exactly one argument" if least == 1 else "two or more arguments"
            raise self.fail(f"{func.id}() takes {wanted}, in {self.what(node)}.")
        args = ", ".join(self.build(arg, depth + 1) for arg in node.args)
        if least == 1:
            return f"_{func.id}({args})"
        return f"_{func.id}(({args},))"


def _load(value: object, name: str, where: str) -> Number:
    """A variable's value that is neither a small int nor a bool: normalised and checked."""
    if not isinstance(value, int | Fraction):
        found = f"{reprlib.repr(value)} (a {type(value).__name__})"
        raise _error(where, f"the variable {name!r} is {found}, not an int, Fraction or bool.")
    return _fit(value, where, f"the variable {name!r}")


def _divide(symbol: str, a: Number, b: Number, where: str, what: str) -> Number:
    """``a / b``, ``a // b`` or ``a % b``, refusing a zero divisor."""
    if not b:
        raise _error(where, f"division by zero in {what}.")
    if symbol == "/":
        return _fit(Fraction(a, b), where, what)
    return _fit(a // b if symbol == "//" else a % b, where, what)


def _missing(error: KeyError, names: frozenset[str], where: str, text: str) -> Exception:
    """The error to raise for ``error``, a KeyError met while reading the variables."""
    name = error.args[0] if len(error.args) == 1 else None
    if isinstance(name, str) and name in names:
        return _error(where, f"the variable {name!r} has no value, but the formula {_quote(text)} uses it.")
    return error  # not one of this formula's variables: the mapping's own error


def to_int(value: Number, rounding: str, *, where: str = "") -> int:
    """Turn an exact value into a whole number of chips.

    ``rounding`` is one of :data:`ROUNDING_MODES`; the module docstring says
    how each treats halves. Whole values pass through unchanged in every mode.
    Raises :class:`FormulaError` for an unknown mode, for a value that is not
    an ``int`` or ``Fraction``, and for a fraction under ``"exact"``.
    """
    if not isinstance(rounding, str) or rounding not in ROUNDING_MODES:
        modes = ", ".join(ROUNDING_MODES)
        raise _error(where, f"{reprlib.repr(rounding)} is not a rounding mode; use one of {modes}.")
    if isinstance(value, int):
        return int(value)
    if not isinstance(value, Fraction):
        kind = type(value).__name__
        raise _error(where, f"cannot round {reprlib.repr(value)} (a {kind}): it is not exact.")
    num, den = value.numerator, value.denominator
    if den == 1:
        return num
    if rounding == "exact":
        raise _error(where, f"the value {value} is not a whole number, and rounding is 'exact'.")
    down = num // den  # floor, in integers (Fraction arithmetic is slow)
    if rounding in ("floor", "ceil"):
        return down if rounding == "floor" else down + 1
    twice_excess = 2 * (num - down * den)  # the excess over ``down``, strictly between 0 and 1, times 2 * den
    if twice_excess != den:
        return down + 1 if twice_excess > den else down
    if rounding == "half_up":
        return down + 1 if value > 0 else down
    if rounding == "half_down":
        return down if value > 0 else down + 1
    return down if down % 2 == 0 else down + 1
